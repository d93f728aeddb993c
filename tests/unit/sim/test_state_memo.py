"""Memos kept on a compiled setup: computed once per key, bounded, per setup."""
from types import SimpleNamespace

from generator.sim import state


def test_a_memo_computes_once_per_key_and_starts_over_at_its_limit(monkeypatch):
    monkeypatch.setattr(state, "MEMO_LIMIT", 3)
    setup, other = SimpleNamespace(), SimpleNamespace()
    calls = []

    def square(x):
        calls.append(x)
        return x * x

    assert [state.setup_memo(setup, "_sq", x, square, x) for x in (2, 3, 2, 3)] == [4, 9, 4, 9]
    assert calls == [2, 3]
    assert state.setup_memo(other, "_sq", 2, square, 2) == 4 and calls == [2, 3, 2]  # per setup
    state.setup_memo(setup, "_sq", 4, square, 4)
    assert len(setup._sq) == 3
    state.setup_memo(setup, "_sq", 5, square, 5)  # full: the table starts over
    assert setup._sq == {5: 25}
