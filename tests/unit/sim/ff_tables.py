"""Hand-built Fatal Fight tables (plain values shaped like ``game.tables``) for engine tests.

They follow content/fatal-fight/schema.yaml with the spec's G7 starting numbers, and do not
depend on the shipped content, so rules tests keep their meaning while designers tune the data.
"""
from __future__ import annotations

import copy

RULES = {
    "start_gold_per_player": 3, "gym_size": 4, "base_actions": 3, "base_hand_size": 4, "free_moves_per_turn": 1,
    "extra_move_cost": {"actions": 1, "cards": 1}, "group_cap": 4, "combo_bonus_min_hits": 4, "carrier_gold": 1,
    "saving_actions": 2, "saving_cards": 2, "revive_life": 2, "normal_stage_cards_used": 4,
    "max_rounds_per_stage": 15, "stages": 4, "pickup_move_cost": 1, "min_characters": 2, "max_characters": 4,
    "proposals": {
        "turn_order": "ascending", "start_square": "C-M", "boss_entry_respawn": 5, "subs_resolve_on_play": True,
        "chain_close_by_choice": True, "combination_limit": "per_chain", "partner_subs_to_partner": True,
        "boss_group_size": 1, "boss_counts_toward_cap": False, "enemy_acts_once": True,
        "mass_damage_timing": "after_groups", "enemy_deck_reshuffle": True, "stage_card_replaces": True,
        "boss_stage_repeats": True, "escaped_carriers": "next_stage", "board_enemies_return": True,
        "revive_mode": "set", "saving_any_square": True, "enemy_guard_refresh": True, "gym_refresh": "bottom",
        "extra_enemies_by_players": True, "pickups": True,
        "final_boss_gold": {"enabled": True, "gold_per_step_per_player": 1, "max_rage_removed": 2},
    },
    "ideas": {
        "n1_line_targeting": {"enabled": False}, "n2_grapple": {"enabled": False, "bonus_ap": 1},
        "n5_chain_keyword": {"enabled": False, "bonus_ap": 1},
        "n8_power_gauge": {"enabled": False, "size": 3, "feed_per_round": 1},
        "n10_free_extra_arts": {"enabled": False, "offer_extra": 1, "per_player": 1},
        "n11_debuffs": {"enabled": False, "trigger_damage": 3, "play_life": 1, "cure_gold": 1, "max_per_player": 3},
    },
}
_SUB = {"guard": 0, "draw": 0, "heal": 0, "range": False, "pierce": False, "launch": False}
_NAMES = ["axel", "blaze", "marie", "haggar", "guy", "cody"]
_INITIAL_AP = [1, 1, 2, 2, 2, 2, 3, 1, 2]


def _sub(**kw):
    return {**_SUB, **kw}


def _arts(char: str, i: int) -> list[dict]:
    arts = []
    for j, ap in enumerate(_INITIAL_AP):
        sub = _sub(range=(j == 7), pierce=(j == 6 and i % 2 == 0), launch=(j == 8 and i % 3 == 0))
        arts.append({"id": f"{char}_i{j:02d}", "character": char, "tier": "initial", "name": "", "ap": ap,
                     "attributes": ["attack"], "sub": sub, "text": "", "effect": [], "life_cost": 0, "mega": False,
                     "count": 1})
    support = [(_sub(guard=2), []), (_sub(draw=2), []), (_sub(heal=2), [{"op": "gain_action", "n": 1}])]
    for j, (sub, effect) in enumerate(support, start=len(_INITIAL_AP)):
        arts.append({"id": f"{char}_i{j:02d}", "character": char, "tier": "initial", "name": "", "ap": 0,
                     "attributes": [], "sub": sub, "text": "", "effect": effect, "life_cost": 0, "mega": False,
                     "count": 1})
    for j in range(12):
        base = arts[j]
        up = copy.deepcopy(base)
        up.update(id=f"{char}_u{j:02d}", tier="upgraded", upgrade_from=base["id"], upgrade_cost=1 + j % 3)
        if up["ap"]:
            up["ap"] += 1
        else:
            up["sub"] = {**up["sub"], "draw": up["sub"]["draw"] + 1}
        arts.append(up)
    return arts


def _enemies() -> list[dict]:
    spec = {1: [(1, 3, "none"), (2, 3, "none"), (2, 2, "carrier"), (3, 2, "cross"), (1, 2, "none")],
            2: [(2, 3, "none"), (3, 3, "none"), (3, 2, "carrier"), (4, 2, "cross")],
            3: [(2, 3, "none"), (4, 3, "none"), (3, 2, "carrier"), (5, 2, "cross")],
            4: [(3, 3, "none"), (5, 3, "none"), (4, 2, "carrier"), (6, 2, "cross")]}
    out = []
    for stage, kinds in spec.items():
        for j, (life, count, skill) in enumerate(kinds):
            out.append({"id": f"e{stage}_{j}", "stage": stage, "name": "", "count": count, "life": life,
                        "skill": skill, "guard": 1 if (stage >= 3 and j == 1) else 0, "strike": 0, "call": 0,
                        "text": ""})
    return out


def _bosses():
    profiles, cards = [], []
    for stage, life in enumerate([6, 8, 10, 12], start=1):
        boss = f"boss{stage}"
        profiles.append({"id": boss, "stage": stage, "name": "", "life": life, "card_width": 1,
                         **({"min_life": life - 3} if stage == 4 else {})})
        skills = [[{"op": "damage", "n": 2, "target": "boss_line", "pierce": False}],
                  [{"op": "spawn", "n": 1, "respawn": 5}],
                  [{"op": "enemy_guard", "n": 2, "target": "boss"}]]
        for j, effect in enumerate(skills):
            cards.append({"id": f"{boss}_s{j}", "boss": boss, "stage": stage, "skill": f"s{j}", "rage": False,
                          "name": "", "count": 1, "text": "", "effect": effect})
        if stage == 4:
            for j in range(2):
                cards.append({"id": f"{boss}_r{j}", "boss": boss, "stage": stage, "skill": f"r{j}", "rage": True,
                              "name": "", "count": 1, "text": "",
                              "effect": [{"op": "damage", "n": 1, "target": "all", "pierce": False}]})
    return profiles, cards


def _stages() -> list[dict]:
    layouts = [{1: 1, 5: 1, 6: 1}, {2: 1, 4: 1, 3: 1}, {1: 1, 2: 1, 5: 1, 6: 1}, {3: 1, 4: 1, 5: 1},
               {2: 2, 5: 1}, {1: 1, 6: 2}]
    out = []
    for stage in range(1, 5):
        for j, respawn in enumerate(layouts):
            card = {"id": f"s{stage}_n{j}", "stage": stage, "kind": "normal", "name": "", "count": 1,
                    "respawn": dict(respawn), "extra_by_players": {3: {"d6": 1}, 4: {"d6": 2}},
                    "gimmicks": [], "pickups": [], "text": ""}
            if j == 0:
                card["pickups"] = [{"square": "C-U", "supply": "chicken"}]
            if j == 1:
                card["gimmicks"] = [{"kind": "gold", "name": "", "timing": "round_start", "persistent": False,
                                     "text": "", "effect": [{"op": "gold", "n": 1}]}]
            out.append(card)
        out.append({"id": f"s{stage}_boss", "stage": stage, "kind": "boss", "name": "", "count": 1,
                    "respawn": {2: 1, 4: 1}, "extra_by_players": {4: {"d6": 1}}, "gimmicks": [], "pickups": [],
                    "boss_spawn": {"boss": f"boss{stage}", "respawn": 5, "position": "tail"}, "text": ""})
    return out


def tables() -> dict:
    """A fresh, complete table set (safe to mutate)."""
    chars = [{"id": name, "name": "", "role": "", "order": i + 1, "life": 12, "actions": 3, "hand_size": 4,
              "max_carry": 2, "color": "#ff0000",
              "special": {"name": "", "trigger": "turn_end", "text": "", "effect": [{"op": "heal", "n": 1}]}}
             for i, name in enumerate(_NAMES)]
    arts = [a for i, name in enumerate(_NAMES) for a in _arts(name, i)]
    extra = [{"id": f"x{j:02d}", "tier": "extra", "name": "", "ap": 2 + j % 3, "attributes": ["attack"],
              "sub": _sub(range=(j % 5 == 0), pierce=(j % 4 == 0)), "text": "", "effect": [], "life_cost": 0,
              "mega": False, "cost": 2 + j % 4, "count": 1} for j in range(24)]
    supplies = [
        {"id": "chicken", "name": "", "count": 8, "attributes": ["carry", "exile"], "text": "",
         "effect": [{"op": "heal", "n": 4, "who": "self"}]},
        {"id": "knife", "name": "", "count": 8, "attributes": ["carry", "exile"], "text": "",
         "effect": [{"op": "strike", "ap": 3, "range": False, "pierce": False, "launch": True}]},
        {"id": "coin", "name": "", "count": 8, "attributes": ["carry", "exile"], "text": "",
         "effect": [{"op": "gold", "n": 1}]},
    ]
    profiles, boss_cards = _bosses()
    return {"rules": copy.deepcopy(RULES), "characters": chars, "arts": arts, "extra_arts": extra,
            "supplies": supplies, "enemies": _enemies(), "boss_profiles": profiles, "bosses": boss_cards,
            "stages": _stages()}
