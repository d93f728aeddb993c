"""Metroidvania: a roll's dice spec is shared for the process by everything it reads (issue #8, session 17).
Each state change that makes another spec must give another spec: one that equals building it afresh."""
from pathlib import Path

import pytest

from generator.content import load_game
from generator.sim.agents import make_agent
from generator.sim.compile import played_tables
from generator.sim.games import metroidvania as mv
from generator.sim.games import metroidvania_dice as dice
from generator.sim.rng import agent_rng, deal_rng

CONTENT = Path(__file__).resolve().parents[3] / "content" / "metroidvania"


@pytest.fixture(scope="module")
def setup():
    return mv.compile_setup(played_tables(load_game(CONTENT)))


def fields(spec):
    return tuple(getattr(spec, name) for name in dice._SPEC_SLOTS)


def post_roll_state(setup, kind):
    """The first post-roll decision of a ``kind`` check ("room" or "boss") in a 4-player heuristic game."""
    for i in range(20):
        state = mv.new_game(setup, 4, deal_rng("spec-memo", i))
        agents = [make_agent(mv, "heuristic", setup, s) for s in range(4)]
        rngs = [agent_rng("spec-memo", i, s) for s in range(4)]
        while not state.is_terminal():
            if state.phase == mv.POST and state.check.kind == kind:
                return state
            seat = state.current_player()
            state.apply_action(agents[seat].choose(state, rngs[seat]))
    raise AssertionError(f"no {kind} roll")


def _mod(kind, a, b):
    return lambda st: st.mods[st.active].append((kind, a, b, "check"))


def _check(name, value):
    return lambda st: setattr(st.check, name, value(getattr(st.check, name)))


CHANGES = {
    "danger": lambda st: setattr(st, "danger", st.danger + 1),
    "round criterion": lambda st: setattr(st, "crit", st.crit + 1),
    "her Pie": lambda st: st.stacks[st.active][mv.PIE].append(0),
    "criterion modifier": _mod("crit", -1, -1),
    "one-die AP bonus": _mod("apb", 2, False),
    "all-dice AP bonus": _mod("apb", 1, True),
    "recolour": _mod("recol", 0, 3),
    "threat ward": lambda st: (setattr(st.check, "threats", (1,)), _mod("nothreat", 0, 0)(st)),
    "check difficulty": _check("d", lambda d: d + 1),
    "check multi": _check("multi", lambda m: m + 1),
    "check slate": _check("slate", lambda sl: 2 if sl != 2 else 1),
    "check prompts": _check("prompts", lambda p: ((0, 1),)),
    "check ascension": _check("asc", lambda a: not a),
    "check threats": _check("threats", lambda t: t + (2,)),
    "check damage": _check("fail", lambda f: f + 1),
    "check criterion": _check("crit", lambda c: c + 1),
}


@pytest.mark.parametrize("kind", ["room", "boss"])
@pytest.mark.parametrize("change", sorted(CHANGES))
def test_each_change_a_spec_reads_gives_the_spec_built_afresh(setup, kind, change):
    state = post_roll_state(setup, kind)
    before = fields(state.spec())
    assert before == fields(state._spec_now())
    twin = state.clone()
    twin._spec = None   # (``apply_action`` forgets it before any change)
    if change == "threat ward":   # the ward's own effect: the same threats without the ward first
        twin.check.threats = (1,)
        before = fields(twin.spec())
        twin._spec = None
        twin.mods[twin.active].append(("nothreat", 0, 0, "check"))
    else:
        CHANGES[change](twin)
    after = fields(twin.spec())
    assert after == fields(twin._spec_now())
    assert after != before


def test_a_roll_seen_before_shares_its_spec(setup):
    """The point of the memo: the same check with the same terms and build is the very same (read-only) Spec."""
    state = post_roll_state(setup, "boss")
    twin = state.clone()
    twin._spec = None
    assert twin.spec() is state.spec()
