"""Fatal Fight: plain content tables -> a precomputed, picklable ``Setup``.

Every number the engine uses comes from here, and everything here comes from the tables
(``game.tables``, shaped by content/fatal-fight/schema.yaml): card fields, ``effect:`` op lists
and ``rules.yaml`` (constants, ``proposals`` and ``ideas`` switches). No Python literal copies a
value of the data. Physical cards become small integers ("instances") with their fields in flat
lists indexed by instance, so the engine's hot loops are list lookups.

Effect lists are compiled once to tuples ``(op, params)``; an op, or a switch value, the engine
does not implement is a located problem (``ProblemsError``), never a crash mid-game.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, final

from ...content.game import copies_of
from ...errors import ProblemsError
from ..compile import SetupCompiler, unique_records
from .fatal_fight_effects import OPS

# Attack sub-attribute bits (the chain takes their union).
RANGE: Final = 1
PIERCE: Final = 2
LAUNCH: Final = 4
CHAIN: Final = 8
GRAPPLE: Final = 16
FLAG_NAMES = {"range": RANGE, "pierce": PIERCE, "launch": LAUNCH, "chain": CHAIN, "grapple": GRAPPLE}
Effect = tuple[tuple[str, dict[str, Any]], ...]  # a compiled ``effect:`` list: (op, params) pairs
SQUARES: Final = [a + "-" + b for a in "LCR" for b in "UMD"]  # square index = area * 3 + line
# What the engine supports of each proposal switch (anything else is reported, not guessed).
SUPPORTED = {
    "turn_order": ("ascending", "descending"), "subs_resolve_on_play": (True,), "chain_close_by_choice": (True,),
    "combination_limit": ("per_chain", "per_turn"), "partner_subs_to_partner": (True, False),
    "boss_counts_toward_cap": (True, False), "enemy_acts_once": (True, False),
    "mass_damage_timing": ("after_groups", "at_placement"), "enemy_deck_reshuffle": (True, False),
    "stage_card_replaces": (True, False), "boss_stage_repeats": (True, False),
    "escaped_carriers": ("next_stage", "never"), "board_enemies_return": (True, False),
    "revive_mode": ("set", "add"), "saving_any_square": (True, False), "enemy_guard_refresh": (True, False),
    "gym_refresh": ("bottom", "discard", "keep"), "extra_enemies_by_players": (True, False), "pickups": (True, False),
}


@final
class PlayRules:
    """The values of ``Setup.rules`` the engine and its agents read while playing, as typed fields
    (compiled by mypyc, a field read is a C struct read where ``rules["..."]`` is a dict lookup and an
    untyped value). Built once by ``compile_setup`` from the same dict, so ``--set rules.X=...``
    reaches both; ``Setup.rules`` stays the one the reports and tests read. The same shape in each
    engine: ``Setup.play``."""
    __slots__ = ("start_gold_per_player", "gym_size", "free_moves_per_turn", "group_cap", "combo_bonus_min_hits",
                 "carrier_gold", "saving_actions", "saving_cards", "revive_life", "normal_stage_cards_used",
                 "max_rounds_per_stage", "stages", "pickup_move_cost", "min_characters", "max_characters",
                 "move_actions", "move_cards", "start_square", "boss_size", "fb_step", "fb_max_rage", "n2_bonus",
                 "n5_bonus", "n8_size", "n8_feed", "n10_extra", "n10_per_player", "n11_trigger", "n11_life",
                 "n11_cure", "n11_max", "partner_subs_to_partner", "boss_counts_toward_cap", "enemy_acts_once",
                 "enemy_deck_reshuffle", "stage_card_replaces", "boss_stage_repeats", "board_enemies_return",
                 "saving_any_square", "enemy_guard_refresh", "extra_enemies_by_players", "pickups", "fb_enabled",
                 "n1", "n2", "n5", "n8", "n10", "n11", "combination_limit", "mass_damage_timing", "escaped_carriers",
                 "revive_mode", "gym_refresh")

    def __init__(self, r: dict[str, Any]) -> None:
        # numbers
        self.start_gold_per_player: int = r["start_gold_per_player"]
        self.gym_size: int = r["gym_size"]
        self.free_moves_per_turn: int = r["free_moves_per_turn"]
        self.group_cap: int = r["group_cap"]
        self.combo_bonus_min_hits: int = r["combo_bonus_min_hits"]
        self.carrier_gold: int = r["carrier_gold"]
        self.saving_actions: int = r["saving_actions"]
        self.saving_cards: int = r["saving_cards"]
        self.revive_life: int = r["revive_life"]
        self.normal_stage_cards_used: int = r["normal_stage_cards_used"]
        self.max_rounds_per_stage: int = r["max_rounds_per_stage"]
        self.stages: int = r["stages"]
        self.pickup_move_cost: int = r["pickup_move_cost"]
        self.min_characters: int = r["min_characters"]
        self.max_characters: int = r["max_characters"]
        self.move_actions: int = r["move_actions"]
        self.move_cards: int = r["move_cards"]
        self.start_square: int = r["start_square"]
        self.boss_size: int = r["boss_size"]
        self.fb_step: int = r["fb_step"]
        self.fb_max_rage: int = r["fb_max_rage"]
        self.n2_bonus: int = r["n2_bonus"]
        self.n5_bonus: int = r["n5_bonus"]
        self.n8_size: int = r["n8_size"]
        self.n8_feed: int = r["n8_feed"]
        self.n10_extra: int = r["n10_extra"]
        self.n10_per_player: int = r["n10_per_player"]
        self.n11_trigger: int = r["n11_trigger"]
        self.n11_life: int = r["n11_life"]
        self.n11_cure: int = r["n11_cure"]
        self.n11_max: int = r["n11_max"]
        # switches (read as truth values only)
        self.partner_subs_to_partner: bool = bool(r["partner_subs_to_partner"])
        self.boss_counts_toward_cap: bool = bool(r["boss_counts_toward_cap"])
        self.enemy_acts_once: bool = bool(r["enemy_acts_once"])
        self.enemy_deck_reshuffle: bool = bool(r["enemy_deck_reshuffle"])
        self.stage_card_replaces: bool = bool(r["stage_card_replaces"])
        self.boss_stage_repeats: bool = bool(r["boss_stage_repeats"])
        self.board_enemies_return: bool = bool(r["board_enemies_return"])
        self.saving_any_square: bool = bool(r["saving_any_square"])
        self.enemy_guard_refresh: bool = bool(r["enemy_guard_refresh"])
        self.extra_enemies_by_players: bool = bool(r["extra_enemies_by_players"])
        self.pickups: bool = bool(r["pickups"])
        self.fb_enabled: bool = bool(r["fb_enabled"])
        self.n1: bool = bool(r["n1"])
        self.n2: bool = bool(r["n2"])
        self.n5: bool = bool(r["n5"])
        self.n8: bool = bool(r["n8"])
        self.n10: bool = bool(r["n10"])
        self.n11: bool = bool(r["n11"])
        # choices
        self.combination_limit: str = r["combination_limit"]
        self.mass_damage_timing: str = r["mass_damage_timing"]
        self.escaped_carriers: str = r["escaped_carriers"]
        self.revive_mode: str = r["revive_mode"]
        self.gym_refresh: str = r["gym_refresh"]


@dataclass
class Setup:
    rules: dict[str, Any]  # normalised constants and switches (see _rules)
    c_id: list[str] = field(default_factory=list)  # card instances: arts, extra arts, supplies, wounds
    c_kind: list[str] = field(default_factory=list)  # initial | upgraded | extra | supply | wound
    c_ap: list[int] = field(default_factory=list)
    c_attack: list[bool] = field(default_factory=list)
    c_exile: list[bool] = field(default_factory=list)
    c_flags: list[int] = field(default_factory=list)
    c_guard: list[int] = field(default_factory=list)
    c_draw: list[int] = field(default_factory=list)
    c_heal: list[int] = field(default_factory=list)
    c_effect: list[Effect] = field(default_factory=list)
    c_strike: list[bool] = field(default_factory=list)  # the card's effect holds a strike (needs a target)
    c_life_cost: list[int] = field(default_factory=list)
    c_cost: list[int] = field(default_factory=list)  # gold to buy (extra) or to upgrade (upgraded)
    c_replaces: list[int] = field(default_factory=list)  # upgraded: the initial instance it replaces
    c_mega: list[bool] = field(default_factory=list)
    characters: list[dict[str, Any]] = field(default_factory=list)  # dicts: id, order, life, actions, hand_size, ...
    e_id: list[str] = field(default_factory=list)  # enemy instances
    e_name: list[str] = field(default_factory=list)  # their printed names, for traces
    e_stage: list[int] = field(default_factory=list)
    e_life: list[int] = field(default_factory=list)
    e_skill: list[str] = field(default_factory=list)
    e_guard: list[int] = field(default_factory=list)
    e_strike: list[int] = field(default_factory=list)
    e_call: list[int] = field(default_factory=list)
    bosses: dict[int, dict[str, Any]] = field(default_factory=dict)  # stage -> dict(id, life, min_life, skills, rage)
    stages: dict[int, dict[str, Any]] = field(default_factory=dict)  # stage -> dict(normal=[...], boss=card)
    extra_arts: list[int] = field(default_factory=list)
    supplies: dict[str, list[int]] = field(default_factory=dict)  # supply id -> instances
    wounds: list[int] = field(default_factory=list)
    tracked: list[str] = field(default_factory=list)  # card ids whose use M4 tracks
    boss: int = 0  # the boss's index in a state's enemy arrays (= E)
    # what ``sim.state.kept_on_setup`` and ``memo_table`` keep, where the Setup has no ``__dict__`` (compiled)
    memos: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    play: PlayRules = field(init=False, repr=False, compare=False)  # ``rules`` typed (set last by compile_setup)


def _rules(comp: SetupCompiler, raw: dict) -> dict:
    g = lambda path: comp.rule(raw, path)  # noqa: E731
    r = {name: g(name) for name in (
        "start_gold_per_player", "gym_size", "free_moves_per_turn", "group_cap", "combo_bonus_min_hits",
        "carrier_gold", "saving_actions", "saving_cards", "revive_life", "normal_stage_cards_used",
        "max_rounds_per_stage", "stages", "pickup_move_cost", "min_characters", "max_characters")}
    r["move_actions"], r["move_cards"] = g("extra_move_cost.actions"), g("extra_move_cost.cards")
    for name, allowed in SUPPORTED.items():
        value = g(f"proposals.{name}")
        if value is not None and value not in allowed:
            comp.problem(f"proposals.{name}", f"the simulator supports {list(allowed)}, got {value!r}", raw)
        r[name] = value
    start = g("proposals.start_square")
    r["start_square"] = SQUARES.index(start) if start in SQUARES else 4
    r["boss_size"] = g("proposals.boss_group_size")
    r["boss_respawn"] = g("proposals.boss_entry_respawn")
    fb = "proposals.final_boss_gold"
    r["fb_enabled"], r["fb_step"], r["fb_max_rage"] = (
        g(f"{fb}.enabled"), g(f"{fb}.gold_per_step_per_player"), g(f"{fb}.max_rage_removed"))
    ideas = {
        "n1": "n1_line_targeting.enabled", "n2": "n2_grapple.enabled", "n2_bonus": "n2_grapple.bonus_ap",
        "n5": "n5_chain_keyword.enabled", "n5_bonus": "n5_chain_keyword.bonus_ap",
        "n8": "n8_power_gauge.enabled", "n8_size": "n8_power_gauge.size", "n8_feed": "n8_power_gauge.feed_per_round",
        "n10": "n10_free_extra_arts.enabled", "n10_extra": "n10_free_extra_arts.offer_extra",
        "n10_per_player": "n10_free_extra_arts.per_player", "n11": "n11_debuffs.enabled",
        "n11_trigger": "n11_debuffs.trigger_damage", "n11_life": "n11_debuffs.play_life",
        "n11_cure": "n11_debuffs.cure_gold", "n11_max": "n11_debuffs.max_per_player"}
    for key, path in ideas.items():
        r[key] = g(f"ideas.{path}")
    for key in ("n2_bonus", "n5_bonus"):  # they add to a chain's AP, which only grows (see _add_card)
        if isinstance(r[key], int) and r[key] < 0:
            comp.problem(f"ideas.{ideas[key]}", f"the simulator needs 0 or more, got {r[key]}", raw)
    return r


def compile_setup(tables: Mapping, where=None) -> Setup:
    """Compile the game's plain tables; raise ``ProblemsError`` listing what cannot be simulated."""
    comp = SetupCompiler(where, OPS, nested={"breakable": "reward"})
    setup = Setup(rules=_rules(comp, tables.get("rules") or {}))
    chars = sorted(unique_records(tables.get("characters")), key=lambda c: c["order"])
    if setup.rules.get("turn_order") == "descending":
        chars.reverse()
    char_index = {c["id"]: i for i, c in enumerate(chars)}
    arts = unique_records(tables.get("arts"))
    inst_of: dict = {}
    for art in arts:
        if art.get("character") not in char_index:
            comp.problem("character", f"unknown character {art.get('character')!r}", art)
        inst_of[art["id"]] = _add_card(setup, comp, art, art["tier"])
    for char in chars:
        mine = [a for a in arts if a.get("character") == char["id"]]
        special = char.get("special") or {}
        setup.characters.append({
            "id": char["id"], "name": _text(char.get("name")), "order": char["order"], "life": char["life"],
            "actions": char["actions"],
            "hand_size": char["hand_size"], "max_carry": char["max_carry"],
            "trigger": special.get("trigger"), "special": comp.effect(special.get("effect"), char, "special.effect"),
            "initial": [inst_of[a["id"]] for a in mine if a["tier"] == "initial"],
            "upgrades": [inst_of[a["id"]] for a in mine if a["tier"] == "upgraded"]})
    for art in arts:
        if art["tier"] == "upgraded":
            base = inst_of.get(art.get("upgrade_from"))
            if base is None or setup.c_kind[base] != "initial":
                comp.problem("upgrade_from", f"expected an initial art, got {art.get('upgrade_from')!r}", art)
            else:
                setup.c_replaces[inst_of[art["id"]]] = base
    for extra in unique_records(tables.get("extra_arts")):
        setup.extra_arts.extend(_add_card(setup, comp, extra, "extra") for _ in range(copies_of(extra)))
    for sup in unique_records(tables.get("supplies")):
        setup.supplies[sup["id"]] = [_add_card(setup, comp, sup, "supply") for _ in range(copies_of(sup))]
    if setup.rules.get("n11"):
        wound = {"id": "wound", "ap": 0, "attributes": [], "sub": {}, "effect": []}
        setup.wounds = [_add_card(setup, comp, wound, "wound")
                        for _ in range(setup.rules["n11_max"] * len(chars))]
    _compile_enemies(setup, comp, tables)
    _compile_stages(setup, comp, tables)
    setup.boss = len(setup.e_id)
    setup.tracked = sorted({setup.c_id[i] for i in range(len(setup.c_id)) if setup.c_kind[i] != "wound"})
    if not chars:
        comp.problem("characters", "no characters to simulate")
    if comp.problems:
        raise ProblemsError(comp.problems)
    setup.play = PlayRules(setup.rules)   # (once every rule is there)
    return setup


def _add_card(setup: Setup, comp: SetupCompiler, record: dict, kind: str) -> int:
    sub = record.get("sub") or {}
    attrs = record.get("attributes") or []
    flags = 0
    for name, bit in FLAG_NAMES.items():
        if sub.get(name) or name in attrs:
            flags |= bit
    effect = comp.effect(record.get("effect"), record, "effect")
    ap = int(record.get("ap") or 0)
    # a chain's AP only grows: the previews index their kill tables by it (fatal_fight_preview.Board)
    if ap < 0:
        comp.problem("ap", f"the simulator needs AP 0 or more, got {ap}", record)
    for op, params in effect:
        if op == "chain_ap" and int(params.get("n") or 0) < 0:
            comp.problem("effect", f"the simulator needs chain_ap's n to be 0 or more, got {params['n']}", record)
    setup.c_id.append(record["id"])
    setup.c_kind.append(kind)
    setup.c_ap.append(ap)
    setup.c_attack.append("attack" in attrs)
    setup.c_exile.append("exile" in attrs)
    setup.c_flags.append(flags)
    setup.c_guard.append(int(sub.get("guard") or 0))
    setup.c_draw.append(int(sub.get("draw") or 0))
    setup.c_heal.append(int(sub.get("heal") or 0))
    setup.c_effect.append(effect)
    setup.c_strike.append(any(op == "strike" for op, _ in effect))
    setup.c_life_cost.append(int(record.get("life_cost") or 0))
    cost = record.get("upgrade_cost") if kind == "upgraded" else record.get("cost")
    setup.c_cost.append(int(cost or 0))
    setup.c_replaces.append(-1)
    setup.c_mega.append(bool(record.get("mega")))
    return len(setup.c_id) - 1


def _compile_enemies(setup: Setup, comp: SetupCompiler, tables: Mapping) -> None:
    for enemy in unique_records(tables.get("enemies")):
        for _ in range(copies_of(enemy)):
            setup.e_id.append(enemy["id"])
            setup.e_name.append(_text(enemy.get("name")))
            setup.e_stage.append(enemy["stage"])
            setup.e_life.append(enemy["life"])
            setup.e_skill.append(enemy.get("skill") or "none")
            setup.e_guard.append(int(enemy.get("guard") or 0))
            setup.e_strike.append(int(enemy.get("strike") or 0))
            setup.e_call.append(int(enemy.get("call") or 0))
    profiles = {p["id"]: p for p in unique_records(tables.get("boss_profiles"))}
    skills: dict = {}
    for card in unique_records(tables.get("bosses")):
        if card.get("boss") not in profiles:
            comp.problem("boss", f"unknown boss {card.get('boss')!r}", card)
            continue
        key = (card["boss"], card["skill"])
        entry = skills.setdefault(key, {"parts": [], "rage": bool(card.get("rage"))})
        entry["parts"].append((card.get("part") or 1, comp.effect(card.get("effect"), card, "effect")))
    for boss_id, profile in profiles.items():
        mine = [(name, v) for (b, name), v in skills.items() if b == boss_id]
        effects = [(tuple(op for _, eff in sorted(v["parts"], key=lambda p: p[0]) for op in eff), v["rage"])
                   for _, v in mine]
        setup.bosses[profile["stage"]] = {
            "id": boss_id, "life": profile["life"], "min_life": profile.get("min_life") or profile["life"],
            "per_extra": int(profile.get("life_per_extra_character") or 0),
            "skills": [e for e, rage in effects if not rage], "rage": [e for e, rage in effects if rage],
            # the skills' names, in the order of skills and rage: the trace says which one the boss used
            "skill_names": [n for n, v in mine if not v["rage"]], "rage_names": [n for n, v in mine if v["rage"]]}
        if not setup.bosses[profile["stage"]]["skills"]:
            comp.problem("bosses", f"boss {boss_id!r} has no skill cards", profile)


def _spawns(mapping) -> tuple:
    counts = [0] * 7  # respawn 1..6, then d6
    for key, n in (mapping or {}).items():
        counts[6 if key == "d6" else int(key) - 1] += int(n)
    return tuple(counts)


def _compile_stage_card(comp: SetupCompiler, card: dict) -> dict:
    gimmicks = [(g.get("timing") or "round_start", bool(g.get("persistent")),
                 comp.effect(g.get("effect"), card, f"gimmicks[{i}].effect"), (card["id"], i))
                for i, g in enumerate(card.get("gimmicks") or [])]
    pickups = [(SQUARES.index(p["square"]), p.get("supply"), int(p.get("gold") or 0))
               for p in card.get("pickups") or []]
    spawn = card.get("boss_spawn")
    return {"id": card["id"], "respawn": _spawns(card.get("respawn")),
            "extra": {int(p): _spawns(m) for p, m in (card.get("extra_by_players") or {}).items()},
            "gimmicks": gimmicks, "pickups": pickups,
            "boss_spawn": (spawn["respawn"] - 1, spawn.get("position", "tail")) if spawn else None}


def _compile_stages(setup: Setup, comp: SetupCompiler, tables: Mapping) -> None:
    for card in unique_records(tables.get("stages")):
        entry = setup.stages.setdefault(card["stage"], {"normal": [], "boss": None})
        compiled = _compile_stage_card(comp, card)
        if card.get("kind") == "boss":
            entry["boss"] = compiled
        else:
            entry["normal"].append(compiled)
    n_stages = setup.rules.get("stages") or 0
    for stage in range(1, n_stages + 1):
        staged = setup.stages.get(stage)
        if not staged or staged["boss"] is None:
            comp.problem("stages", f"stage {stage} has no boss stage card", tables.get("rules"))
        elif staged["boss"]["boss_spawn"] is None:
            comp.problem("boss_spawn", f"boss stage card of stage {stage} has no boss_spawn", tables.get("rules"))
        elif setup.rules.get("boss_respawn") and staged["boss"]["boss_spawn"][0] + 1 != setup.rules["boss_respawn"]:
            # the stage card places the boss; rules.yaml names the same respawn for the rulebook: one
            # number written twice must agree, or the printed rules and the simulated game differ
            comp.problem("boss_spawn.respawn", f"the boss of stage {stage} enters at respawn "
                         f"{staged['boss']['boss_spawn'][0] + 1}, but rules.yaml proposals.boss_entry_respawn says "
                         f"{setup.rules['boss_respawn']}", _boss_card(tables, stage))
        if stage not in setup.bosses:
            comp.problem("boss_profiles", f"stage {stage} has no boss", tables.get("rules"))


def _text(value) -> str:
    """A printed text field as a trace shows it: the Japanese of a ``{ja, en}`` text."""
    return str((value.get("ja") or value.get("en") or "") if isinstance(value, dict) else (value or ""))


def _boss_card(tables: Mapping, stage: int):
    """The boss stage card of ``stage`` (to locate a problem at it)."""
    return next((c for c in tables.get("stages") or [] if c.get("stage") == stage and c.get("kind") == "boss"), None)
