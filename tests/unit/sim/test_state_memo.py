"""Memos kept on a compiled setup: computed once per key, bounded, per setup."""
from types import SimpleNamespace

from generator.sim import state


def test_a_memo_computes_once_per_key_and_forgets_its_older_half_at_its_limit(monkeypatch):
    monkeypatch.setattr(state, "MEMO_LIMIT", 4)
    setup, other = SimpleNamespace(), SimpleNamespace()
    calls = []

    def square(x):
        calls.append(x)
        return x * x

    assert [state.setup_memo(setup, "_sq", x, square, x) for x in (2, 3, 2, 3)] == [4, 9, 4, 9]
    assert calls == [2, 3]
    assert state.setup_memo(other, "_sq", 2, square, 2) == 4 and calls == [2, 3, 2]  # per setup
    state.setup_memo(setup, "_sq", 4, square, 4)
    state.setup_memo(setup, "_sq", 5, square, 5)
    assert list(setup._sq) == [2, 3, 4, 5]
    state.setup_memo(setup, "_sq", 6, square, 6)  # full: the two oldest go, the recent ones stay
    assert setup._sq == {4: 16, 5: 25, 6: 36}
    assert state.setup_memo(setup, "_sq", 2, square, 2) == 4 and calls[-1] == 2  # computed again
