"""Fatal Fight: plain content tables -> a precomputed, picklable ``Setup``.

Every number the engine uses comes from here, and everything here comes from the tables
(``game.tables``): card fields, ``effect:`` op lists and ``rules.yaml``. No Python literal copies
a value of the data. Physical cards become small integers ("instances") with their fields in flat
lists indexed by instance, so the engine's hot loops are list lookups.

Effect lists are compiled once to tuples ``(op, params)``; an op the engine does not implement is a
located problem (``ProblemsError``), never a crash in the middle of a game.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import Location, Problem, ProblemsError
from .fatal_fight_effects import OPS

# Attack sub-attribute bits (the chain takes their union).
RANGE, PIERCE, LAUNCH, CHAIN, GRAPPLE = 1, 2, 4, 8, 16
FLAG_NAMES = {"range": RANGE, "pierce": PIERCE, "launch": LAUNCH, "chain": CHAIN, "grapple": GRAPPLE}
# Respawn k (1..6) -> square = area * 3 + line; areas L, C, R = 0, 1, 2; lines U, M, D = 0, 1, 2.
RESPAWN_SQUARE = (0, 1, 2, 6, 7, 8)
SWITCHES = ("n1_no_range", "n2_grapple", "n5_chain", "n8_gauge", "n10_free_arts", "n11_debuffs")


@dataclass
class Setup:
    rules: dict
    switches: dict
    # card instances (arts of every character, extra arts, supplies, debuffs)
    c_id: list = field(default_factory=list)
    c_kind: list = field(default_factory=list)      # initial | upgraded | extra | supply | debuff
    c_owner: list = field(default_factory=list)     # character index or -1
    c_ap: list = field(default_factory=list)
    c_attack: list = field(default_factory=list)
    c_exile: list = field(default_factory=list)
    c_carry: list = field(default_factory=list)
    c_flags: list = field(default_factory=list)
    c_guard: list = field(default_factory=list)
    c_draw: list = field(default_factory=list)
    c_heal: list = field(default_factory=list)
    c_effect: list = field(default_factory=list)
    c_life_cost: list = field(default_factory=list)
    c_cost: list = field(default_factory=list)      # gold to buy (extra) or upgrade (upgraded)
    c_replaces: list = field(default_factory=list)  # upgraded: the initial instance it replaces
    c_gaugeable: list = field(default_factory=list)
    # characters
    characters: list = field(default_factory=list)  # dicts: id, order, life, actions, hand_size, ...
    # enemies (instances) and bosses
    e_id: list = field(default_factory=list)
    e_stage: list = field(default_factory=list)
    e_life: list = field(default_factory=list)
    e_skill: list = field(default_factory=list)
    e_guard: list = field(default_factory=list)
    e_effect: list = field(default_factory=list)
    bosses: dict = field(default_factory=dict)      # stage -> dict(id, life, skills, rage)
    stages: dict = field(default_factory=dict)      # stage -> dict(normal=[...], boss=dict)
    extra_arts: list = field(default_factory=list)
    supplies: dict = field(default_factory=dict)    # supply id -> list of instances
    debuffs: list = field(default_factory=list)
    tracked: list = field(default_factory=list)     # card ids whose use M4 tracks
    n_stages: int = 0


class _Compiler:
    def __init__(self, where):
        self.where = where or (lambda record: None)
        self.problems: list[Problem] = []

    def loc(self, record, fallback=None) -> Location:
        return self.where(record) or (self.where(fallback) if fallback is not None else None) or Location("<tables>", 0)

    def problem(self, record, field_path, message, fallback=None):
        self.problems.append(Problem(self.loc(record, fallback), field_path, message))

    def effect(self, effects, owner, field_path) -> tuple:
        compiled = []
        for i, item in enumerate(effects or []):
            if not isinstance(item, dict) or "op" not in item:
                self.problem(item, f"{field_path}[{i}]", f"expected a mapping with 'op', got {item!r}", owner)
                continue
            op = item["op"]
            if op not in OPS:
                known = ", ".join(sorted(OPS))
                self.problem(item, f"{field_path}[{i}].op",
                             f"the simulator does not implement op {op!r}; known ops: {known}", owner)
                continue
            compiled.append((op, {k: v for k, v in item.items() if k != "op"}))
        return tuple(compiled)


def _records(tables, *names) -> list:
    """Records of the first table present among ``names`` (components may share a file)."""
    seen, out = set(), []
    for name in names:
        for record in tables.get(name) or []:
            if isinstance(record, dict) and id(record) not in seen:
                seen.add(id(record))
                out.append(record)
    return out


def _unique(records) -> list:
    by_id, out = set(), []
    for r in records:
        if r.get("id") not in by_id:
            by_id.add(r.get("id"))
            out.append(r)
    return out


def _count(record) -> int:
    return int(record.get("count") or 1)


def compile_setup(tables: dict, where=None) -> Setup:
    """Compile the game's plain tables; raise ``ProblemsError`` listing what cannot be simulated."""
    comp = _Compiler(where)
    rules = dict(tables.get("rules") or {})
    switches = {name: bool((rules.get("switches") or {}).get(name, False)) for name in SWITCHES}
    setup = Setup(rules=rules, switches=switches)
    arts = _unique([r for t in tables.values() if isinstance(t, list) for r in t
                    if isinstance(r, dict) and r.get("tier") in ("initial", "upgraded", "extra")])
    chars = sorted(_unique(_records(tables, "characters")), key=lambda c: c["order"])
    char_index = {c["id"]: i for i, c in enumerate(chars)}
    art_inst: dict = {}
    for art in arts:
        owner = char_index.get(art.get("character"), -1)
        if art["tier"] != "extra" and owner < 0:
            comp.problem(art, "character", f"unknown character {art.get('character')!r}")
            continue
        for _ in range(_count(art)):
            art_inst.setdefault(art["id"], []).append(_add_card(setup, comp, art, art["tier"], owner))
    for c, char in enumerate(chars):
        initial = [i for a in arts if a["tier"] == "initial" and a.get("character") == char["id"]
                   for i in art_inst.get(a["id"], [])]
        upgrades = [i for a in arts if a["tier"] == "upgraded" and a.get("character") == char["id"]
                    for i in art_inst.get(a["id"], [])]
        special = char.get("special") or {}
        setup.characters.append({
            "id": char["id"], "order": char["order"], "life": char["life"], "actions": char["actions"],
            "hand_size": char["hand_size"], "max_carry": char.get("max_carry", 0),
            "special": comp.effect(special.get("effect"), char, "special.effect"),
            "initial": initial, "upgrades": upgrades})
    for inst in range(len(setup.c_id)):
        if setup.c_kind[inst] == "upgraded":
            art = next(a for a in arts if a["id"] == setup.c_id[inst])
            base = art_inst.get(art.get("upgrade_from"), [])
            if not base:
                comp.problem(art, "upgrade_from", f"unknown initial art {art.get('upgrade_from')!r}")
            setup.c_replaces[inst] = base[0] if base else -1
    setup.extra_arts = [i for i in range(len(setup.c_id)) if setup.c_kind[i] == "extra"]
    for sup in _unique(_records(tables, "supplies")):
        setup.supplies[sup["id"]] = [_add_card(setup, comp, sup, "supply", -1) for _ in range(_count(sup))]
    for deb in _unique(_records(tables, "debuffs")):
        setup.debuffs.extend(_add_card(setup, comp, deb, "debuff", -1) for _ in range(_count(deb)))
    _compile_enemies(setup, comp, tables)
    _compile_stages(setup, comp, tables)
    setup.tracked = sorted({setup.c_id[i] for i in range(len(setup.c_id)) if setup.c_kind[i] != "debuff"})
    if not chars:
        comp.problems.append(Problem(Location("<tables>", 0), "characters", "no characters to simulate"))
    if comp.problems:
        raise ProblemsError(comp.problems)
    return setup


def _add_card(setup: Setup, comp: _Compiler, record: dict, kind: str, owner: int) -> int:
    sub = record.get("sub") or {}
    attrs = record.get("attributes") or []
    flags = 0
    for name, bit in FLAG_NAMES.items():
        if sub.get(name) or name in attrs:
            flags |= bit
    setup.c_id.append(record["id"])
    setup.c_kind.append(kind)
    setup.c_owner.append(owner)
    setup.c_ap.append(int(record.get("ap") or 0))
    setup.c_attack.append("attack" in attrs)
    setup.c_exile.append("exile" in attrs)
    setup.c_carry.append("carry" in attrs)
    setup.c_flags.append(flags)
    setup.c_guard.append(int(sub.get("guard") or 0))
    setup.c_draw.append(int(sub.get("draw") or 0))
    setup.c_heal.append(int(sub.get("heal") or 0))
    setup.c_effect.append(comp.effect(record.get("effect"), record, "effect"))
    setup.c_life_cost.append(int(record.get("life_cost") or 0))
    cost = record.get("upgrade_cost") if kind == "upgraded" else record.get("cost")
    setup.c_cost.append(int(cost or 0))
    setup.c_replaces.append(-1)
    setup.c_gaugeable.append(kind != "debuff")
    return len(setup.c_id) - 1


def _compile_enemies(setup: Setup, comp: _Compiler, tables: dict) -> None:
    for enemy in _unique(_records(tables, "enemies")):
        effect = comp.effect(enemy.get("effect"), enemy, "effect")
        for _ in range(_count(enemy)):
            setup.e_id.append(enemy["id"])
            setup.e_stage.append(enemy["stage"])
            setup.e_life.append(enemy["life"])
            setup.e_skill.append(enemy.get("skill") or "none")
            setup.e_guard.append(int(enemy.get("guard") or 0))
            setup.e_effect.append(effect)
    for boss in _unique(_records(tables, "bosses")):
        skills = [comp.effect(s.get("effect"), boss, f"skills[{i}].effect")
                  for i, s in enumerate(boss.get("skills") or [])]
        rage = [comp.effect(s.get("effect"), boss, f"rage_skills[{i}].effect")
                for i, s in enumerate(boss.get("rage_skills") or [])]
        if boss["stage"] in setup.bosses:
            comp.problem(boss, "stage", f"stage {boss['stage']} already has a boss")
        setup.bosses[boss["stage"]] = {"id": boss["id"], "life": boss["life"], "guard": int(boss.get("guard") or 0),
                                       "skills": skills, "rage": rage}


def _spawn_table(mapping) -> tuple:
    counts = [0] * 6
    for key, n in (mapping or {}).items():
        k = int(key)
        if 1 <= k <= 6:
            counts[k - 1] += int(n)
    return tuple(counts)


def _compile_stage_card(comp: _Compiler, card: dict) -> dict:
    extra = {int(p): _spawn_table(m) for p, m in (card.get("extra_by_players") or {}).items()}
    gimmicks = [(g.get("timing") or "placement", comp.effect(g.get("effect"), card, f"gimmicks[{i}].effect"))
                for i, g in enumerate(card.get("gimmicks") or [])]
    pickups = [(_square(p["square"]), p["supply"]) for p in card.get("pickups") or []]
    return {"id": card["id"], "respawn": _spawn_table(card.get("respawn")), "extra": extra,
            "gimmicks": gimmicks, "pickups": pickups}


def _square(name: str) -> int:
    area, line = name.split("-")
    return "LCR".index(area) * 3 + "UMD".index(line)


def _compile_stages(setup: Setup, comp: _Compiler, tables: dict) -> None:
    for card in _unique(_records(tables, "stages")):
        entry = setup.stages.setdefault(card["stage"], {"normal": [], "boss": None})
        compiled = _compile_stage_card(comp, card)
        if card.get("kind", "normal") == "boss":
            entry["boss"] = compiled
        else:
            entry["normal"].append(compiled)
    setup.n_stages = len(setup.stages)
    for stage in sorted(setup.stages):
        if setup.stages[stage]["boss"] is None:
            comp.problems.append(Problem(Location("<tables>", 0), "stages", f"stage {stage} has no boss stage card"))
        if stage not in setup.bosses:
            comp.problems.append(Problem(Location("<tables>", 0), "bosses", f"stage {stage} has no boss"))
