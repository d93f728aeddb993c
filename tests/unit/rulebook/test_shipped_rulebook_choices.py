"""A shipped rulebook says in words what rules.yaml chooses; each such sentence is pinned to the choice.

Numbers are read from rules.yaml by the chapters (test_shipped_rulebook_numbers). A switch (a mode, a
flag, an idea left off) or the premise of a worked example is not a number a template can print: the
prose states it, and the simulator plays what rules.yaml says. Each entry names the value, the chapter
and a phrase of each edition that says it. Change the switch and the test names the sentences to
rewrite; rewrite a sentence and it asks for its entry. Both editions: the English book states every
rule the Japanese one does. Reads the sources only, so it stays fast.
"""
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[3]

# (chapter, where the value lives, the value the sentence describes, Japanese phrase, English phrase).
# ``where``: a rules.yaml path (``proposals.revive_mode``, ``die_by_will.1``), or ``file.yaml:id.field``
# for a record the sentence relies on.
CHOICES = {
    "fatal-fight": [
        ("05-action.md", "proposals.turn_order", "ascending",
         "の小さい順に1人ずつ手番を行います", "in ascending **turn order**"),
        ("05-action.md", "proposals.chain_close_by_choice", True,
         "移動・セービング・手番の終わり・宣言でも終わる", "or a declaration"),
        ("05-action.md", "proposals.combination_limit", "per_chain",
         "加えられる枚数は「チェーン1つにつき」数えます", 'The card limit counts "per chain"'),
        ("05-action.md", "proposals.partner_subs_to_partner", True,
         "参加したプレイヤーのガード・ドロー・回復は、そのプレイヤー自身に適用します",
         "The Guard, Draw and Heal of a joining player's cards apply to that player"),
        ("05-action.md", "proposals.revive_mode", "set",
         "「ライフを2にする」と解釈しています", 'is read as "set life to 2"'),
        ("05-action.md", "proposals.saving_any_square", True,
         "セービングは、どのマスにいても行えます", "A Saving can be done from any square"),
        ("04-round.md", "proposals.gym_refresh", "bottom",
         "ジムに残ったカードは山の一番下に戻します", "Cards left in the Gym go to the bottom of its deck"),
        ("04-round.md", "proposals.stage_card_replaces", True,
         "前のカードのギミックは終わります", "whose gimmicks end"),
        ("04-round.md", "proposals.boss_stage_repeats", True,
         "次のラウンドからも毎ラウンド敵を配置します", "places enemies every round from then on"),
        ("04-round.md", "proposals.enemy_deck_reshuffle", True,
         "エネミーの捨て札をシャッフルして新しい山にします", "shuffle the enemy discard pile into a new deck"),
        ("04-round.md", "proposals.enemy_guard_refresh", True,
         "毎ラウンドこのときにそのGPを受け取ります", "receives its GP at this point every round"),
        ("06-enemy.md", "proposals.enemy_acts_once", True,
         "もう一度スキルを使うことはありません", "does not use its skill again"),
        ("06-enemy.md", "proposals.boss_group_size", 1,
         "ボスは集団の敵1体として数えます", "The boss counts as one enemy of its group"),
        ("06-enemy.md", "proposals.boss_counts_toward_cap", False,
         "体**まで（ボスを除く）です", "(not counting the boss)"),
        ("06-enemy.md", "proposals.mass_damage_timing", "after_groups",
         "すべての集団の行動が終わったあと、リスポーン順に確認します",
         "Mass damage is checked after every group has acted, in respawn order"),
        ("07-clear.md", "proposals.escaped_carriers", "next_stage",
         "次のステージの準備のときにエネミー山に戻します", "Return them to the enemy deck when preparing the next stage"),
        ("07-clear.md", "proposals.board_enemies_return", True,
         "ボードに残っている敵、逃走したキャリアーをエネミー山に戻し",
         "the enemies left on the boards and the escaped Carriers to the enemy deck"),
        ("07-clear.md", "proposals.final_boss_gold.enabled", True,
         "最終ボスを弱らせることができます", "to weaken the final boss"),
        *[("09-faq.md", f"ideas.{idea}.enabled", False, "標準ルールでは使いません", "The standard rules do not use them")
          for idea in ("n1_line_targeting", "n2_grapple", "n5_chain_keyword", "n8_power_gauge",
                       "n10_free_extra_arts", "n11_debuffs")],
        # the worked example of 「ダメージを与える」: one AP 1 card does not defeat it, two do
        ("05-action.md", "enemies.yaml:e1_punk.life", 2,
         "ライフ2の「{{ record(\"enemies\", \"e1_punk\").name }}」", "(life 2) does not defeat it"),
    ],
    "valheim": [
        ("01-overview.md", "players.solo_variant", "two_decks", "**2人分のデッキ**", "use **two players' decks**"),
        ("03-setup.md", "market.initial_tier", "early", "**前期**の山から", "from the **Early** pile"),
        ("04-round.md", "market.tier_change", "swap_row",
         "マーケットに並んでいるカードをすべて捨て", "discard every card in the market"),
        ("04-round.md", "map.refill", "up_to_printed",
         "マップに描かれた数になるまで補充します", "Refill resources up to the number shown on the tile"),
        ("04-round.md", "ap.skip_action_without_cards", True,
         "そのアクションは行いません（拠点レベルのAPも得られません）", "that action is skipped"),
        ("04-round.md", "ap.leftover_lost", True, "余ったAPはなくなります", "AP left over is lost"),
        ("04-round.md", "round.played_to_discard", "after_main_phase",
         "メインフェイズの終わりにまとめて捨て札にします", "discarded together at the end of the main phase"),
        ("05-actions.md", "map.edges_must_match_neighbours", False,
         "すでに隣にあるマップと合っていなくてもかまいません", "need not match the tiles already next to it"),
        ("05-actions.md", "explore.walk_continues_past_new_tile", True,
         "開いたマップからさらに先へ進めますが", "You may go on from the tile you opened"),
        ("05-actions.md", "map.empty_pile", "closed",
         "バイオームの山が尽きていたら、その辺は開けません", "edges leading to it cannot be opened"),
        ("05-actions.md", "train.bought_to", "discard",
         "のうち1人の捨て札に入れます", "Put it in the discard pile of one of the **players who revealed Train**"),
        ("05-actions.md", "train.remove_from", "discard",
         "鍛錬を公開したプレイヤー1人の捨て札から", "from the discard pile of a player who revealed Train"),
        ("05-actions.md", "market.refill", "immediate",
         "すぐに同じ区分の山から1枚補充します", "refill its place at once from the same tier's pile"),
        ("05-actions.md", "hunt.dungeons_per_action", 1,
         "戦えるダンジョンは1つだけです", "One hunt fights in one dungeon only"),
        ("05-actions.md", "hunt.fighter_rotation", True,
         "すでに戦ったプレイヤーはもう一度戦えません", "cannot fight again until all of them have fought once"),
        *[("05-actions.md", f"hunt.{key}", value,
           "戦力＝手札の枚数＋装備レベルの合計＋サイコロ1個の目",
           "Power = cards in hand + total equipment level + 1 die roll")
          for key, value in (("power_adds_hand", True), ("power_adds_equipment", True),
                             ("combat_adds_base_level", False))],
        ("05-actions.md", "hunt.tie_wins", True, "**以上**なら勝ちです", "**equal to or higher than**"),
        ("05-actions.md", "hunt.boss_fail", "redraw",
         "同じAPのまま、エネミー山からもう1枚引いて", "the same AP goes on: draw another card"),
        ("05-actions.md", "hunt.boss_reward", "none",
         "魔石などの報酬はありません", "Defeating an avatar gives no magic stone or other reward"),
        ("05-actions.md", "craft.bases_per_tile", 1, "作れる拠点は1つだけ", "A tile can hold only one base"),
        ("05-actions.md", "craft.replaced_equipment", "supply",
         "クラフトカードの置き場に戻します", "goes back to the craft card display"),
        ("05-actions.md", "craft.equipment_tradeable", False,
         "作った装備を他のプレイヤーに渡すことはできません", "Crafted equipment cannot be handed to another player"),
        ("06-round-end.md", "round.hand_kept_at_round_end", True,
         "手札はそのまま持っておきます", "Keep the cards in your hand"),
        ("06-round-end.md", "bases.level_ups_per_base_per_round", 1,
         "1つの拠点は、1ラウンドに1回だけレベルアップできます", "each base can level up only once per round"),
        ("06-round-end.md", "final_battle.enabled", True,
         "残った分体が合体して**魔王**が復活します", "they merge and the **Demon Lord** revives"),
        ("08-faq.md", "tokens.supply", "limited",
         "サプライにない資源は、マップに置くことも得ることもできません",
         "A resource that is not in the supply can be neither placed on the map nor gained"),
        *[("08-faq.md", key, value, "標準ルールでは使いません", "The standard rules do not use them")
          for key, value in (("raids.enabled", False), ("inheritance.mode", "keep_all"),
                             ("bases.double_level_up", False), ("base_level_gate.enabled", False),
                             ("hunt.dungeon_dive_counter", 0))],
    ],
    "metroidvania": [
        ("01-overview.md", "turn_order_2p", "alternate", "（A→B→A→B）", "(A, B, A, B)"),
        ("03-setup.md", "setup.unique_servants", True, "同じ従者は1人しか選べません", "no two players may pick the same one"),
        ("03-setup.md", "start_explored", True,
         "スタート（S）に探索マーカーを1つ置きます", "an exploration marker on the start (S)"),
        ("04-round.md", "move.pass_through_unexplored", True,
         "入室せずに通り抜けられます", "You may pass through an unexplored room without entering it"),
        ("04-round.md", "move.no_destination", "skip_turn",
         "何もせずに手番を終えます", "do nothing this turn and end it"),
        ("04-round.md", "boss.marker_on_defeat", True,
         "ボスを倒したときに探索マーカーを置きます", "gets its exploration marker when its boss is defeated"),
        ("05-check.md", "ascension_max_pairs", 0, "何組でもアセンションできます", "you may ascend with every pair"),
        ("05-check.md", "ascension_white_dice_in_qte", "pairs_only",
         "白いサイコロは、アセンションの組にだけ使えます", "White dice serve only to make pairs"),
        ("05-check.md", "slate_damage_per_die", "danger",
         "1個につきデンジャーレベル分のダメージを受けます", "take damage equal to the danger level for each"),
        ("05-check.md", "threat.below", "criterion", "目がクライテリオン未満なら", "shows less than the criterion"),
        # the worked example: round 5 has criterion 3, Will 1 rolls d6s, Piety 1 adds one white die
        *[("05-check.md", key, value, "第5ラウンド（クライテリオン3）", "In round 5 (criterion 3)")
          for key, value in (("criterion.start", 1), ("criterion.every_rounds", 2))],
        ("05-check.md", "die_by_will.1", 6, "意思1なので6面体", "Your Will is 1, so you roll d6s"),
        ("05-check.md", "white_dice_per_pie", 1, "信仰1なので、赤・青・黒・白の4個", "Your Piety is 1, so you roll red"),
        # the boss life bonus is written once for 2 and 4 players (they have 4 turns a round), none for 1 and 3
        *[(chapter, f"boss_life_bonus.{n}", bonus, ja, en)
          for chapter, ja, en in (("01-overview.md", "手番の合計が多くなる2人と4人のときは", "With 2 and 4 players the party"),
                                  ("06-boss.md", "（2人と4人で遊ぶときは＋{{ rules.boss_life_bonus[2] }}）",
                                   "(+{{ rules.boss_life_bonus[2] }} with 2 or 4 players)"))
          for n, bonus in ((1, 0), (3, 0), (4, 2))],
        ("06-boss.md", "boss.reset_when_empty", True,
         "次に入室したときにボスのライフは全快し", "the boss has full life again"),
        ("07-growth.md", "boss.level_up_all_on_defeat", True,
         "**すべての白き乙女**がレベルアップします", "**every White Maiden** levels up"),
        ("07-growth.md", "skills.uses_per_turn", 1,
         "1つのスキルは、1手番に1回だけ使えます", "Each skill may be used once per turn"),
        ("07-growth.md", "items_kept_as", "room_card",
         "ルームカードを手元に持っておきます", "keep the room card in front of you"),
        ("07-growth.md", "death.exhaust_skills", True, "スキルをすべて消耗状態", "Exhaust all her skills"),
        ("07-growth.md", "death.turn_ends", True, "その手番はすぐに終わります", "Her turn ends at once"),
        ("07-growth.md", "deck_empty", "reshuffle_discards",
         "その捨て札をシャッフルして新しい山にします", "shuffle its discard pile into a new deck"),
    ],
}


def value_at(game_dir: Path, where: str):
    """The value a sentence depends on: a rules.yaml path, or ``file.yaml:id.field`` of a record."""
    if ":" in where:
        file, path = where.split(":", 1)
        record_id, *keys = path.split(".")
        records = yaml.safe_load((game_dir / file).read_text(encoding="utf-8"))
        value = next(r for r in records if r.get("id") == record_id)
    else:
        keys = where.split(".")
        value = yaml.safe_load((game_dir / "rules.yaml").read_text(encoding="utf-8"))
    for key in keys:
        value = value[int(key)] if isinstance(value, list) else value.get(key, value.get(int(key)) if key.isdigit()
                                                                          else None)
    return value


def mismatches(game: str) -> list[str]:
    game_dir = REPO / "content" / game
    found = []
    for chapter, where, stated, ja, en in CHOICES[game]:
        for edition, phrase in (("rulebook", ja), ("rulebook/en", en)):
            path = game_dir / edition / chapter
            if phrase not in path.read_text(encoding="utf-8"):
                found.append(f"{path.relative_to(REPO)}: no longer says {phrase!r} (for {where} = {stated!r}): "
                             f"give this entry the sentence that states it now")
        actual = value_at(game_dir, where)
        if actual != stated or type(actual) is not type(stated):
            found.append(f"content/{game}/{where if ':' in where else 'rules.yaml: ' + where} is {actual!r}, but "
                         f"rulebook/{chapter} says {ja!r} (en: {en!r}), true of {stated!r}: rewrite both editions")
    return found


@pytest.mark.parametrize("game", sorted(CHOICES))
def test_rulebook_sentences_state_what_rules_yaml_chooses(game):
    assert mismatches(game) == []


def test_every_shipped_game_with_a_rulebook_is_covered():
    assert sorted(p.name for p in (REPO / "content").iterdir() if (p / "rulebook").is_dir()) == sorted(CHOICES)


def test_a_changed_switch_and_a_rewritten_sentence_are_found(tmp_path, monkeypatch):
    game = tmp_path / "content" / "g"
    (game / "rulebook" / "en").mkdir(parents=True)
    (game / "rules.yaml").write_text("revive: add\ndie: [4, 8]\n", encoding="utf-8")
    (game / "foes.yaml").write_text("- {id: punk, life: 2}\n", encoding="utf-8")
    (game / "rulebook" / "01.md").write_text("ライフを2にする。意思1なら8面体。ライフ2の敵。\n", encoding="utf-8")
    (game / "rulebook" / "en" / "01.md").write_text("Set life to 2. Will 1 rolls d8s.\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "REPO", tmp_path)
    monkeypatch.setitem(CHOICES, "g", [
        ("01.md", "revive", "set", "ライフを2にする", "Set life to 2"),
        ("01.md", "die.1", 8, "意思1なら8面体", "Will 1 rolls d8s"),
        ("01.md", "foes.yaml:punk.life", 2, "ライフ2の敵", "(life 2)"),
    ])
    assert mismatches("g") == [
        "content/g/rules.yaml: revive is 'add', but rulebook/01.md says 'ライフを2にする' (en: 'Set life to 2'), "
        "true of 'set': rewrite both editions",
        "content/g/rulebook/en/01.md: no longer says '(life 2)' (for foes.yaml:punk.life = 2): "
        "give this entry the sentence that states it now",
    ]
