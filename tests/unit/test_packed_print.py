"""The shipped games' print files with small components packed: every page count agrees."""
from dataclasses import replace
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from generator import sheets
from generator.manifest import manifest_of
from generator.profiles import load_profile
from generator.validate import check_content

CONTENT = Path(__file__).resolve().parents[2] / "content"


@pytest.fixture(scope="module", params=["fatal-fight", "metroidvania", "valheim"])
def shipped(request):
    game, cards, problems = check_content(CONTENT / request.param, check_faces=False)
    assert not [p for p in problems if p.severity == "error"]
    settings = game.meta["print"]
    profile = load_profile(settings["profile"], game.root, settings["duplex"]).profile
    return request.param, game, cards, profile


def _render(cards, profile, title):
    seen = []
    pdf = sheets.render_print_pdf(cards, profile, title=title, progress=lambda done, total: seen.append(total))
    return pdfium.PdfDocument(pdf), set(seen)


def test_the_progress_total_the_manifest_and_the_pdf_count_the_same_pages(shipped):
    name, game, cards, profile = shipped
    doc, totals = _render(cards, profile, game.title)
    assert totals == {len(doc)}
    assert manifest_of(CONTENT / name)["print_pages"] == len(doc)


def test_packing_off_prints_each_component_on_its_own_pages_as_the_manifest_counts_them(shipped):
    name, game, cards, profile = shipped
    doc, totals = _render(cards, replace(profile, pack=False), game.title)
    own = sum(c["pages"] for c in manifest_of(CONTENT / name)["components"])
    assert len(doc) == own and totals == {own}


def test_a_shared_page_names_each_component_on_it_with_its_own_page_number(shipped):
    name, game, cards, profile = shipped
    doc, _ = _render(cards, profile, game.title)
    labels = [doc[i].get_textpage().get_text_range().splitlines()[-1] for i in range(len(doc))]
    shared = {"fatal-fight": [],  # its small parts follow components with backs: nothing shares
              "metroidvania": ["ボスカード 3/3 · サイコロ一覧カード 1/1 · プレイヤーマーカー 1/1 · 表 (front)",
                               "探索マーカー 1/1 · 時計マーカー 1/1 · ライフトークン 1/1 · デンジャーマーカー 1/1"
                               " · アイテムトークン 1/1 · 表 (front)"],
              "valheim": ["資源トークン 2/2 · アクションマーカー 1/1 · 拠点マーカー 1/1 · 拠点レベルマーカー 1/1"
                          " · 探索コマ 1/1 · 討伐済みマーカー 1/1 · 魔王HPマーカー 1/1 · 表 (front)"]}[name]
    assert [label.split(" · ", 1)[1] for label in labels if label.count("/") > 1] == shared
