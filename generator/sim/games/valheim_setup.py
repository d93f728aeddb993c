"""Valheim: plain content tables -> a precomputed, picklable ``Setup``.

Every number the engine uses comes from here, and everything here comes from the tables
(``game.tables``, shaped by content/valheim/schema.yaml): map tiles and their edges, biomes and
bosses, the base-level table, enemy strengths by round, craft recipes, market cards and their
``effect:`` op lists, and ``rules.yaml`` (constants and every variant switch). No Python literal
copies a value of the data. Cards, tiles, enemies and recipes become small integers with their
fields in flat lists, so the engine's hot loops are list lookups.

An effect op, or a switch value, the engine does not implement is a located problem
(``ProblemsError``), never a crash mid-game.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Optional, final

from ...content.game import copies_of
from ...errors import ProblemsError
from ..compile import SetupCompiler, unique_records

DIRS = ("n", "e", "s", "w")              # printed edge order; world direction d = (printed + rotation) % 4
STEP: Final = ((0, 1), (1, 0), (0, -1), (-1, 0))  # world offsets of n, e, s, w

# Effect ops: where they may stand and which parameters they need.
DECK_ONLY = {"card_weight", "draw", "gain", "pay"}
FACILITY_ONLY = {"hand_size", "link_bases", "extra_level_up"}
OP_PARAMS = {
    "extra_ap": ("action", "n"), "card_weight": ("n",), "draw": ("n",), "trash": ("n",),
    "market_discount": ("n",), "edge_discount": ("n",), "choose_tile": ("n",), "free_steps": ("action", "n"),
    "extra_yield": ("n",), "gather_discount": ("n",), "power": ("n",), "reroll": ("n",), "peek_enemy": ("n",),
    "gain": ("resources",), "pay": ("cost", "then"), "craft_discount": ("n",), "hand_size": ("n",),
    "link_bases": (), "extra_level_up": ("n",),
}
POWER_VS = ("all", "enemy", "boss", "raid")
Cost = tuple[tuple[int, int], ...]   # ((resource, count), ...): a price or a yield, typed for the compiled loops

# What the engine supports of each enumerated switch (anything else is reported, not guessed).
SUPPORTED = {
    "players.solo_variant": ("none", "two_decks"),
    # hard-coded by the engine (valheim_flow's EXPLORE..CRAFT, one dungeon per hunt, one base per
    # tile, AP lost when an action ends): listed so another value is reported, not silently ignored
    "action_order": (["explore", "gather", "train", "hunt", "craft"],),
    "hunt.dungeons_per_action": (1,),
    "craft.bases_per_tile": (1,),
    "ap.leftover_lost": (True,),
    "map.refill": ("up_to_printed", "stack"),
    "map.empty_pile": ("closed", "adjacent_tier"),
    "map.edges_must_match_neighbours": (False,),
    "map.entry_edge": ("s",),
    "train.remove_from": ("discard",),
    "train.bought_to": ("discard", "hand", "deck_top"),
    "market.refill": ("immediate", "end_of_action"),
    "market.tier_change": ("swap_row", "keep_row"),
    "market.empty_tier": ("leave_empty", "next_tier"),
    "market.contains_crafts": (False,),
    "hunt.boss_fail": ("redraw", "consumes_ap"),
    "hunt.boss_reward": ("none",),
    "craft.replaced_equipment": ("supply", "discard"),
    "craft.equipment_tradeable": (False,),
    "round.end_trigger": ("draw_from_empty_deck",),
    "final_battle.skip_enemy_draw": (True,),
    "round.played_to_discard": ("after_main_phase", "after_each_action"),
    "final_battle.hp": ("survivors",),
    "final_battle.strength_base": ("max_survivor",),
    "raids.when": ("round_end",),
    "raids.success": ("any_player",),
    "inheritance.mode": ("keep_all", "carry_by_train"),
    "tokens.supply": ("limited", "unlimited"),
    "comfort_refill": (False,),
}

RULE_KEYS = (
    "players.min", "players.max", "players.solo_variant", "rounds", "deck.set_size", "deck.hand_size",
    "action_order", "ap.per_card", "ap.group_multiplier", "ap.group_min_players", "ap.add_base_level",
    "ap.skip_action_without_cards", "ap.leftover_lost", "map.start_tile", "map.refill", "map.empty_pile",
    "map.edges_must_match_neighbours", "map.entry_edge", "explore.move_cost", "explore.walk_continues_past_new_tile",
    "gather.base_cost", "train.remove_cost", "train.remove_from", "train.bought_to", "market.row_size",
    "market.initial_tier", "market.refill", "market.tier_change", "market.empty_tier", "market.contains_crafts",
    "hunt.dungeons_per_action", "hunt.die_sides", "hunt.tie_wins", "hunt.power_adds_hand", "hunt.power_adds_equipment",
    "hunt.combat_adds_base_level", "hunt.fighter_rotation", "hunt.enemy_reshuffle", "hunt.boss_fail",
    "hunt.boss_reward", "hunt.dungeon_dive_counter", "hunt.strength_by_players", "craft.new_base_cost", "craft.new_base_level",
    "craft.bases_per_tile", "craft.max_bases", "craft.equipment_slots", "craft.replaced_equipment",
    "craft.equipment_tradeable", "bases.start_level", "bases.max_level", "bases.level_ups_per_base_per_round",
    "bases.double_level_up", "bases.auto_level_per_round", "round.end_trigger", "round.anti_stall_discard",
    "round.cycle_cap", "round.hand_kept_at_round_end", "round.played_to_discard", "final_battle.enabled",
    "final_battle.hp", "final_battle.strength_base", "final_battle.strength_per_extra_avatar", "final_battle.strength_by_players",
    "final_battle.extra_rounds", "final_battle.skip_enemy_draw", "final_battle.skip_dungeon_distance",
    "raids.enabled", "raids.when", "raids.success", "raids.discard_on_fail", "inheritance.mode",
    "inheritance.carry_cost_ap", "base_level_gate.enabled", "base_level_gate.min_level", "tokens.supply",
    "table_talk", "comfort_refill",
)


@final
class PlayRules:
    """The rules a game reads at every decision, typed: compiled by mypyc, a field read is native where
    ``rules["..."]`` hashes a string and gives an untyped value. Built once by ``compile_setup`` from
    ``Setup.rules``, which keeps them all (the ones read once a game stay there, as do the reports)."""
    __slots__ = ("die_sides", "tie_wins", "power_adds_hand", "power_adds_equipment", "combat_adds_base_level",
                 "hand_size", "rounds", "gather_cost", "move_cost", "remove_cost", "max_level", "max_bases")

    def __init__(self, r: dict[str, Any]) -> None:
        self.die_sides: int = r["hunt.die_sides"]
        self.tie_wins: bool = r["hunt.tie_wins"]
        self.power_adds_hand: bool = r["hunt.power_adds_hand"]
        self.power_adds_equipment: bool = r["hunt.power_adds_equipment"]
        self.combat_adds_base_level: bool = r["hunt.combat_adds_base_level"]
        self.hand_size: int = r["deck.hand_size"]
        self.rounds: int = r["rounds"]
        self.gather_cost: int = r["gather.base_cost"]
        self.move_cost: int = r["explore.move_cost"]
        self.remove_cost: int = r["train.remove_cost"]
        self.max_level: int = r["bases.max_level"]
        self.max_bases: int = r["craft.max_bases"]


@dataclass
class Setup:
    rules: dict[str, Any]  # dotted rules key -> value (RULE_KEYS)
    actions: list[str] = field(default_factory=list)  # the five actions in resolution order
    res: list[str] = field(default_factory=list)  # resource names; index = resource id
    supply: list[int] = field(default_factory=list)  # printed token count per resource
    biomes: list[str] = field(default_factory=list)  # biome ids in tier order; index = biome id
    biome_res: list[tuple[int, ...]] = field(default_factory=list)  # biome -> resource ids it yields
    boss_id: list[Optional[str]] = field(default_factory=list)  # biome -> boss card id
    boss_strength: list[int] = field(default_factory=list)
    level_cost: list[Cost] = field(default_factory=list)  # level L -> ((res, n), ...) to reach L + 1
    # map tiles
    t_id: list[str] = field(default_factory=list)
    t_biome: list[int] = field(default_factory=list)
    t_res: list[Cost] = field(default_factory=list)  # ((res, n), ...) printed
    t_rids: list[tuple[int, ...]] = field(default_factory=list)  # the printed resource ids, ascending (token loops)
    t_dungeon: list[bool] = field(default_factory=list)
    t_edges: list[tuple] = field(default_factory=list)  # printed dir 0..3 -> (biome, cost) or None
    start_tile: int = 0
    start_level: int = 1
    piles: list[list[int]] = field(default_factory=list)  # biome -> tile ids (setup order)
    # deck cards (basic sets then market cards)
    c_id: list[str] = field(default_factory=list)
    c_action: list[int] = field(default_factory=list)  # action index 0..4, or -1 for wild
    c_weight: list[int] = field(default_factory=list)
    c_effect: list[tuple] = field(default_factory=list)  # compiled ((op, params), ...)
    c_tier: list[int] = field(default_factory=list)  # -1 basic, else market tier index
    c_cost: list[int] = field(default_factory=list)  # market AP cost
    sets: list[list[int]] = field(default_factory=list)  # seat -> basic card instances
    set_names: list[str] = field(default_factory=list)  # seat -> colour of its starting set
    tiers: list[str] = field(default_factory=list)  # market tier names in order
    market: list[list[int]] = field(default_factory=list)  # tier -> market card instances
    round_tier: list[int] = field(default_factory=list)  # round r (1-based index r-1) -> tier index
    # enemies
    e_id: list[str] = field(default_factory=list)
    e_boss: list[bool] = field(default_factory=list)  # True for "boss appears"
    e_strength: list[tuple] = field(default_factory=list)  # tuple by round (index r-1)
    e_reward: list[tuple] = field(default_factory=list)
    # craft recipes
    r_id: list[str] = field(default_factory=list)
    r_kind: list[str] = field(default_factory=list)  # "equipment" | "facility"
    r_slot: list[int] = field(default_factory=list)  # slot index or -1
    r_tier: list[int] = field(default_factory=list)
    r_level: list[int] = field(default_factory=list)
    r_ap: list[int] = field(default_factory=list)
    r_cost: list[Cost] = field(default_factory=list)  # ((res, n), ...)
    r_effect: list[tuple] = field(default_factory=list)
    r_copies: list[int] = field(default_factory=list)
    r_active: list[bool] = field(default_factory=list)  # False: a variant recipe whose switch is off
    slots: list[str] = field(default_factory=list)  # equipment slot names
    new_base_cost: Cost = ()
    gate: list[int] = field(default_factory=list)  # biome -> min base level to gather (0 = none)
    tracked: list[str] = field(default_factory=list)  # card ids whose use M4 tracks (market cards)
    sources: dict[Any, list] = field(default_factory=dict)  # resource -> list of where it comes from
    sinks: dict[Any, list] = field(default_factory=dict)  # resource -> list of where it is spent
    play: PlayRules = field(init=False, repr=False, compare=False)   # set by compile_setup
    # what ``sim.state.kept_on_setup`` and ``memo_table`` keep, where the Setup has no ``__dict__`` (compiled)
    memos: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)


def _rules(comp: SetupCompiler, raw: dict) -> dict:
    rules = {key: comp.rule(raw, key) for key in RULE_KEYS}
    for key, allowed in SUPPORTED.items():
        value = rules.get(key)
        if value is not None and value not in allowed:
            comp.problem(key, f"the simulator supports {list(allowed)}, got {value!r}", raw)
    lo, hi = rules.get("players.min") or 1, rules.get("players.max") or 1
    for key in ("hunt.strength_by_players", "final_battle.strength_by_players"):
        table = rules.get(key)
        if isinstance(table, dict):
            rules[key] = {int(n): int(v) for n, v in table.items()}
            missing = [n for n in range(max(2, lo), hi + 1) if n not in rules[key]]
            if missing:
                comp.problem(key, f"no entry for {missing} players (one per player count the game supports)", raw)
    return rules


def compile_setup(tables: dict, where=None) -> Setup:
    """Compile the game's plain tables; raise ``ProblemsError`` listing what cannot be simulated."""
    comp = SetupCompiler(where)
    raw_rules = tables.get("rules") or {}
    setup = Setup(rules=_rules(comp, raw_rules))
    rules = setup.rules
    setup.actions = list(rules.get("action_order") or [])
    act_index = {a: i for i, a in enumerate(setup.actions)}
    _resources(setup, comp, tables)
    res_index = {r: i for i, r in enumerate(setup.res)}
    ctx = {"act": act_index, "res": res_index}
    _biomes(setup, comp, tables, res_index)
    _levels(setup, comp, tables, res_index)
    _tiles(setup, comp, tables, res_index, raw_rules)
    _cards(setup, comp, tables, ctx)
    _enemies(setup, comp, tables, res_index)
    _crafts(setup, comp, tables, ctx)
    setup.slots = list(rules.get("craft.equipment_slots") or [])
    setup.new_base_cost = _resmap(comp, rules.get("craft.new_base_cost") or {}, res_index, "craft.new_base_cost",
                                  raw_rules)
    gate = rules.get("base_level_gate.min_level") or {}
    setup.gate = [int(gate.get(b, 0)) if rules.get("base_level_gate.enabled") else 0 for b in setup.biomes]
    _flows(setup)
    if comp.problems:
        raise ProblemsError(comp.problems)
    setup.play = PlayRules(setup.rules)   # (once every rule is there)
    return setup


def _resmap(comp, mapping, res_index, field_path, *records) -> Cost:
    out = []
    for key, n in (mapping or {}).items():
        if key not in res_index:
            comp.problem(field_path, f"unknown resource {key!r}; known: {', '.join(res_index)}", *records)
            continue
        out.append((res_index[key], int(n)))
    return tuple(out)


def _resources(setup: Setup, comp: SetupCompiler, tables: dict) -> None:
    for token in unique_records(tables.get("resource_tokens")):
        setup.res.append(token["resource"])
        setup.supply.append(copies_of(token))
    if not setup.res:
        comp.problem("resource_tokens", "no resource tokens: the simulator needs the supply counts", None)


def _biomes(setup: Setup, comp: SetupCompiler, tables: dict, res_index: dict) -> None:
    rows = sorted((b for b in unique_records(tables.get("biomes")) if b.get("kind") == "biome"), key=lambda b: b["tier"])
    bosses = {b["biome"]: b for b in unique_records(tables.get("bosses"))}
    for row in rows:
        setup.biomes.append(row["id"])
        setup.biome_res.append(tuple(res_index[r] for r in row.get("resources") or [] if r in res_index))
        boss = bosses.get(row["id"])
        if boss is None:
            comp.problem("bosses", f"biome {row['id']!r} has no avatar (boss card)", row)
            setup.boss_id.append(None)
            setup.boss_strength.append(0)
        else:
            setup.boss_id.append(boss["id"])
            setup.boss_strength.append(int(boss["strength"]))
    if not setup.biomes:
        comp.problem("biomes", "no biomes", None)


def _levels(setup: Setup, comp: SetupCompiler, tables: dict, res_index: dict) -> None:
    steps = sorted(tables.get("base_levels") or [], key=lambda s: s["from"])
    for i, step in enumerate(steps):
        if step["from"] != i or step["to"] != i + 1:
            comp.problem("base_levels", f"expected step {i}->{i + 1}, got {step['from']}->{step['to']}", step)
        setup.level_cost.append(_resmap(comp, step.get("cost"), res_index, "cost", step))
    top = setup.rules.get("bases.max_level") or 0
    if len(setup.level_cost) < top:
        comp.problem("bases.max_level", f"max level {top} but base_levels.yaml has {len(setup.level_cost)} steps",
                     tables.get("rules"))


def _tiles(setup: Setup, comp: SetupCompiler, tables: dict, res_index: dict, raw_rules) -> None:
    biome_index = {b: i for i, b in enumerate(setup.biomes)}
    setup.piles = [[] for _ in setup.biomes]
    start_id = setup.rules.get("map.start_tile")
    found_start = False
    for tile in unique_records(tables.get("map_tiles")):
        b = biome_index.get(tile.get("biome"))
        if b is None:
            comp.problem("biome", f"unknown biome {tile.get('biome')!r}", tile)
            continue
        edges: list[Optional[tuple[int, int]]] = [None] * 4
        for d, name in enumerate(DIRS):
            edge = (tile.get("edges") or {}).get(name)
            if edge:
                eb = biome_index.get(edge.get("biome"))
                if eb is None:
                    comp.problem(f"edges.{name}.biome", f"unknown biome {edge.get('biome')!r}", tile)
                    continue
                edges[d] = (eb, int(edge["cost"]))
        for _ in range(copies_of(tile)):
            i = len(setup.t_id)
            setup.t_id.append(tile["id"])
            setup.t_biome.append(b)
            setup.t_res.append(_resmap(comp, tile.get("resources"), res_index, "resources", tile))
            setup.t_rids.append(tuple(sorted({r for r, _ in setup.t_res[-1]})))
            setup.t_dungeon.append(bool(tile.get("dungeon")))
            setup.t_edges.append(tuple(edges))
            if tile["id"] == start_id:
                setup.start_tile = i
                setup.start_level = int(tile.get("base_level") or setup.rules.get("bases.start_level") or 0)
                found_start = True
            elif tile.get("start"):
                comp.problem("start", f"a second start tile {tile['id']!r} (rules.map.start_tile is {start_id!r})",
                             tile)
            else:
                setup.piles[b].append(i)
    if not found_start:
        comp.problem("map.start_tile", f"no map tile {start_id!r}", raw_rules)


def _effects(comp: SetupCompiler, effects, owner, field_path, ctx, where_: str) -> tuple:
    compiled = []
    for i, item in enumerate(effects or []):
        op = item.get("op") if isinstance(item, dict) else None
        path = f"{field_path}[{i}]"
        if op not in OP_PARAMS:
            comp.problem(f"{path}.op", f"the simulator does not implement op {op!r}; known ops: "
                         f"{', '.join(sorted(OP_PARAMS))}", item, owner)
            continue
        if where_ == "deck" and op in FACILITY_ONLY:
            comp.problem(f"{path}.op", f"op {op!r} works on facilities only, not on a deck card", item, owner)
            continue
        if where_ == "facility" and op in DECK_ONLY:
            comp.problem(f"{path}.op", f"op {op!r} works on deck cards only, not on a facility", item, owner)
            continue
        missing = [p for p in OP_PARAMS[op] if p not in item]
        if missing:
            comp.problem(path, f"op {op!r} needs {', '.join(missing)}", item, owner)
            continue
        params: dict[str, Any] = {}
        if "n" in OP_PARAMS[op]:
            params["n"] = int(item["n"])
        if "action" in OP_PARAMS[op]:
            if item["action"] not in ctx["act"]:
                comp.problem(f"{path}.action", f"unknown action {item['action']!r}", item, owner)
                continue
            params["action"] = ctx["act"][item["action"]]
        if op == "power":
            vs = item.get("vs") or "all"
            if vs not in POWER_VS:
                comp.problem(f"{path}.vs", f"the simulator supports {list(POWER_VS)}, got {vs!r}", item, owner)
                continue
            params["vs"] = vs
        if op == "craft_discount":
            params["kind"] = item.get("kind") or "any"
        if op == "gain":
            params["resources"] = _resmap(comp, item["resources"], ctx["res"], f"{path}.resources", item, owner)
        if op == "pay":
            params["cost"] = _resmap(comp, item["cost"], ctx["res"], f"{path}.cost", item, owner)
            then = _effects(comp, [item["then"]], owner, f"{path}.then", ctx, where_)
            if not then:
                continue
            params["then"] = then
        compiled.append((op, params))
    return tuple(compiled)


def _cards(setup: Setup, comp: SetupCompiler, tables: dict, ctx: dict) -> None:
    act_index = ctx["act"]
    by_set: dict = {}
    for card in unique_records(tables.get("actions")):
        by_set.setdefault(card["set"], []).append(card)
    for name, cards in by_set.items():
        seat_cards = []
        for card in cards:
            a = act_index.get(card.get("action"))
            if a is None:
                comp.problem("action", f"unknown action {card.get('action')!r}", card)
                continue
            for _ in range(copies_of(card)):
                seat_cards.append(_add_card(setup, card["id"], a, 1, (), -1, 0))
        size = setup.rules.get("deck.set_size")
        if size is not None and len(seat_cards) != size:
            comp.problem("actions", f"set {name!r} has {len(seat_cards)} cards, rules.deck.set_size is {size}",
                         cards[0])
        setup.sets.append(seat_cards)
        setup.set_names.append(name)
    tiers = []
    market_tables = [key for key in sorted(tables) if key.startswith("market")]
    market_cards = unique_records(card for key in market_tables for card in tables.get(key) or [])
    for card in market_cards:
        if card["tier"] not in tiers:
            tiers.append(card["tier"])
    rounds = sorted(unique_records(tables.get("rounds")), key=lambda r: r["round"])
    by_round = [r["market_tier"] for r in rounds]  # tiers in the order the round cards use them
    setup.tiers = sorted(tiers, key=lambda t: by_round.index(t) if t in by_round else len(by_round))
    setup.market = [[] for _ in setup.tiers]
    for card in market_cards:
        action = card.get("action")
        a = -1 if action == "wild" else act_index.get(action)
        if a is None:
            comp.problem("action", f"unknown action {action!r}", card)
            continue
        effect = _effects(comp, card.get("effect"), card, "effect", ctx, "deck")
        weight = 1 + sum(p["n"] - 1 for op, p in effect if op == "card_weight")
        effect = tuple((op, p) for op, p in effect if op != "card_weight")
        t = setup.tiers.index(card["tier"])
        for _ in range(copies_of(card)):
            setup.market[t].append(_add_card(setup, card["id"], a, weight, effect, t, int(card["cost_ap"])))
        setup.tracked.append(card["id"])
    tier_of = {t: i for i, t in enumerate(setup.tiers)}
    n_rounds = setup.rules.get("rounds") or 0
    if len(rounds) != n_rounds:
        comp.problem("rounds", f"rules.rounds is {n_rounds} but there are {len(rounds)} round cards",
                     tables.get("rules"))
    for r in rounds:
        if r["market_tier"] not in tier_of:
            comp.problem("market_tier", f"no market cards of tier {r['market_tier']!r}", r)
            setup.round_tier.append(0)
        else:
            setup.round_tier.append(tier_of[r["market_tier"]])
    initial = setup.rules.get("market.initial_tier")
    if initial is not None and initial not in tier_of:
        comp.problem("market.initial_tier", f"no market cards of tier {initial!r}", tables.get("rules"))


def _add_card(setup: Setup, card_id, action, weight, effect, tier, cost) -> int:
    setup.c_id.append(card_id)
    setup.c_action.append(action)
    setup.c_weight.append(weight)
    setup.c_effect.append(effect)
    setup.c_tier.append(tier)
    setup.c_cost.append(cost)
    return len(setup.c_id) - 1


def _enemies(setup: Setup, comp: SetupCompiler, tables: dict, res_index: dict) -> None:
    rounds = setup.rules.get("rounds") or 0
    for enemy in unique_records(tables.get("enemies")):
        boss = enemy.get("kind") == "boss_appears"
        strength = tuple(int(x) for x in enemy.get("strength_by_round") or ())
        if not boss and len(strength) < rounds:
            comp.problem("strength_by_round", f"needs {rounds} values (one per round)", enemy)
            continue
        reward = _resmap(comp, enemy.get("reward"), res_index, "reward", enemy)
        for _ in range(copies_of(enemy)):
            setup.e_id.append(enemy["id"])
            setup.e_boss.append(boss)
            setup.e_strength.append(strength)
            setup.e_reward.append(reward)
    if not any(setup.e_boss):
        comp.problem("enemies", "no 'boss_appears' card: no avatar can ever be met", None)
    if all(setup.e_boss):
        comp.problem("enemies", "no regular enemy card", None)


def _crafts(setup: Setup, comp: SetupCompiler, tables: dict, ctx: dict) -> None:
    slots = list(setup.rules.get("craft.equipment_slots") or [])
    raids = bool(setup.rules.get("raids.enabled"))
    for rec in unique_records(tables.get("crafts")):
        kind = rec["kind"]
        slot = -1
        if kind == "equipment":
            if rec.get("slot") not in slots:
                comp.problem("slot", f"slot {rec.get('slot')!r} is not in rules.craft.equipment_slots {slots}", rec)
                continue
            slot = slots.index(rec["slot"])
            if rec.get("level") is None:
                comp.problem("level", "equipment needs a level", rec)
                continue
        effect = _effects(comp, rec.get("effect"), rec, "effect", ctx, "facility" if kind == "facility" else "equip")
        setup.r_id.append(rec["id"])
        setup.r_kind.append(kind)
        setup.r_slot.append(slot)
        setup.r_tier.append(int(rec.get("tier") or 0))
        setup.r_level.append(int(rec.get("level") or 0))
        setup.r_ap.append(int(rec["cost_ap"]))
        setup.r_cost.append(_resmap(comp, rec.get("cost_resources"), ctx["res"], "cost_resources", rec))
        setup.r_effect.append(effect)
        setup.r_copies.append(copies_of(rec))
        setup.r_active.append(rec.get("variant") != "raids" or raids)


def _flows(setup: Setup) -> None:
    """Where each resource comes from and where it goes (static checks, M8)."""
    src: dict[Any, list] = {r: [] for r in range(len(setup.res))}
    snk: dict[Any, list] = {r: [] for r in range(len(setup.res))}
    for t, res in enumerate(setup.t_res):
        for r, _ in res:
            src[r].append(f"tile {setup.t_id[t]}")
    for e, reward in enumerate(setup.e_reward):
        for r, _ in reward:
            src[r].append(f"enemy {setup.e_id[e]}")
    for level, cost in enumerate(setup.level_cost):
        for r, _ in cost:
            snk[r].append(f"level {level}->{level + 1}")
    for k, cost in enumerate(setup.r_cost):
        if setup.r_active[k]:
            for r, _ in cost:
                snk[r].append(f"craft {setup.r_id[k]}")
    for r, _ in setup.new_base_cost:
        snk[r].append("new base")

    def walk(effect, owner):
        for op, p in effect:
            if op == "gain":
                for r, _ in p["resources"]:
                    src[r].append(owner)
            elif op == "pay":
                for r, _ in p["cost"]:
                    snk[r].append(owner)
                walk(p["then"], owner)
    seen = set()
    for c, effect in enumerate(setup.c_effect):
        if setup.c_id[c] not in seen:
            seen.add(setup.c_id[c])
            walk(effect, f"market {setup.c_id[c]}")
    setup.sources = {setup.res[r]: v for r, v in src.items()}
    setup.sinks = {setup.res[r]: v for r, v in snk.items()}
