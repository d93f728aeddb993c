"""The fixture rulebook end to end in-process: outline, contents, data-driven numbers, errors."""
import io
import re

import pypdfium2 as pdfium
import pytest

from generator.errors import ContentError
from generator.manifest import manifest_of
from generator.rulebook import build_rulebook, compose
from generator.rulebook.booklet import padded


def pdf_text(data: bytes) -> list[str]:
    pdf = pdfium.PdfDocument(io.BytesIO(data))
    return [pdf[i].get_textpage().get_text_bounded() for i in range(len(pdf))]


def test_outline_has_every_heading_and_the_contents(composed):
    _game, book = composed
    pdf = pdfium.PdfDocument(io.BytesIO(book.pdf))
    outline = [(b.level, b.get_title(), b.get_dest().get_index() + 1) for b in pdf.get_toc()]
    titles = [t for _, t, _ in outline]
    assert titles[0] == "目次"
    expected = [(f"{h.number} " if h.number else "") + h.title for h in book.headings]
    assert titles[1:] == expected
    assert [lvl for lvl, _, _ in outline[1:]] == [h.outline_level for h in book.headings]
    for (_, _, page), h in zip(outline[1:], book.headings):
        assert page == book.heading_pages[h.key]


def test_contents_page_lists_headings_with_their_pages(composed):
    _game, book = composed
    pages = pdf_text(book.pdf)
    toc = pages[1].replace("\r\n", "\n")
    assert toc.startswith("目次")
    for h in book.headings:
        if h.level <= 2:
            assert re.search(rf"{re.escape(h.title)}\s*{book.heading_pages[h.key]}\b", toc), h.title
    assert book.pages == len(pages)


def test_only_embedded_fonts_and_byte_identical_rebuilds(composed):
    game, book = composed
    for data in (book.pdf, book.booklet):
        fonts = set(re.findall(rb"/BaseFont\s*/([A-Za-z0-9+\-_]+)", data))
        assert fonts and all(b"+" in f for f in fonts), fonts
        assert b"/FontFile2" in data and b"Helvetica" not in data
    again = compose(game, booklet=True)
    assert again.pdf == book.pdf and again.booklet == book.booklet


def test_component_table_matches_the_manifest(composed):
    game, book = composed
    manifest = manifest_of(game)
    assert [(r["id"], r["found"]) for r in book.component_rows] == \
        [(c["id"], c["found"]) for c in manifest["components"]]
    text = "\n".join(pdf_text(book.pdf)).replace("\r\n", "\n")
    printed = re.findall(r"(\S+) (?:カード|タイル|ボード|トークン) \d+×\d+mm (\d+)$", text, re.M)
    assert [int(n) for _, n in printed] == [c["found"] for c in manifest["components"]]


def test_numbers_come_from_the_data(composed):
    _game, book = composed
    text = pdf_text(book.pdf)
    assert "このゲームには4枚のヒーローカードがあります。開始ライフは10です。" in text[2].replace("\r\n", "")
    assert "ヒーローを2枚選ぶ。" in "".join(text)


def test_glossary_lists_the_icons_the_cards_use(composed):
    _game, book = composed
    assert [(r["icon"], r["cards"]) for r in book.glossary_rows] == [("guard", 2)]


def test_booklet_has_two_pages_per_sheet_side(composed):
    _game, book = composed
    sheets = pdfium.PdfDocument(io.BytesIO(book.booklet))
    assert len(sheets) == padded(book.pages) // 2
    w, h = sheets[0].get_size()
    assert w > h                                          # A4 landscape
    first = sheets[0].get_textpage().get_text_bounded()
    assert "ちいさなゲーム" in first                       # the cover sits on the first side


def test_changing_a_count_changes_the_rulebook(tiny_book, tmp_path):
    heroes = tiny_book / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("count: 2", "count: 5"))
    game_yaml = tiny_book / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("expected: 4", "expected: 7"))
    out = tmp_path / "out"
    written = build_rulebook(tiny_book, out)
    assert written == [out / "rulebook.pdf"]
    text = "".join(pdf_text((out / "rulebook.pdf").read_bytes())).replace("\r\n", "")
    assert "このゲームには7枚のヒーローカードがあります。" in text
    assert "ヒーローを5枚選ぶ。" in text


def test_a_missing_card_is_a_located_error_and_nothing_is_written(tiny_book, tmp_path):
    md = tiny_book / "rulebook" / "01-overview.md"
    md.write_text(md.read_text().replace("card:heroes/knight", "card:heroes/paladin"))
    with pytest.raises(ContentError) as info:
        build_rulebook(tiny_book, tmp_path / "out")
    [problem] = [p for p in info.value.problems if p.severity == "error"]
    assert problem.location.path.endswith("rulebook/01-overview.md") and problem.location.line == 13
    assert "paladin" in problem.message
    assert not (tmp_path / "out").exists()


def _extra_chapter_errors(tiny_book, source):
    """``(line, message)`` of the errors composing reports in a chapter holding ``source`` on line 3."""
    md = tiny_book / "rulebook" / "03-extra.md"
    md.write_text(f"# 追加\n\n{source}\n", encoding="utf-8")
    with pytest.raises(ContentError) as info:
        compose(tiny_book)
    return [(p.location.line, p.message) for p in info.value.problems
            if p.severity == "error" and p.location.path.endswith("03-extra.md")], info.value.problems


@pytest.mark.parametrize("source, line, needle", [
    ("{{ card('heroes', 'nobody') }}", 3, "no card 'nobody'"),
    ("{{ components.heros.found }}", 3, "did you mean 'heroes'"),
    ("[x](#nowhere)", 3, "unknown heading"),
    ("> [!NOPE]\n> x", 3, "unknown note type"),
    ("<div>x</div>", 3, "raw HTML"),
    ("文中の{{ card('heroes', 'knight') }}画像", 3, "stand alone"),
    ("{{ count('heroes', colour='red') }}", 3, "no field 'colour'"),
])
def test_reference_errors_point_at_the_markdown_line(tiny_book, source, line, needle):
    found, problems = _extra_chapter_errors(tiny_book, source)
    assert found and found[0][0] == line and needle in found[0][1], problems


@pytest.mark.parametrize("source, needle", [
    ("{{ card('heroes', 'knight', width='a') }}", "width must be a positive number"),
    ("{{ card('heroes', 'knight', width=-5) }}", "width must be a positive number"),
    ("{{ card('heroes', 'knight', caption=3) }}", "caption must be True, False or a text"),
    ("{{ cards('heroes', limit=-1) }}", "limit must be a whole number"),
    ("{{ icon_legend(columns=0) }}", "columns must be a whole number"),
    ("{{ icon_legend(columns=-1) }}", "columns must be a whole number"),
])
def test_bad_block_function_arguments_are_located_errors_not_tracebacks(tiny_book, source, needle):
    found, problems = _extra_chapter_errors(tiny_book, source)
    assert found and found[0][0] == 3 and needle in found[0][1], problems


def test_a_card_wider_than_the_page_is_drawn_at_the_text_width(tiny_book, monkeypatch):
    from generator.rulebook import flowables

    md = tiny_book / "rulebook" / "03-extra.md"
    md.write_text("# 追加\n\n{{ card('heroes', 'knight', width=5000) }}\n", encoding="utf-8")
    text_widths, drawn = [], []
    wrap, draw = flowables.CardGrid.wrap, flowables.CardFigure.draw
    monkeypatch.setattr(flowables.CardGrid, "wrap",
                        lambda self, w, h: (text_widths.append(w), wrap(self, w, h))[1])
    monkeypatch.setattr(flowables.CardFigure, "draw",
                        lambda self, c, *a: (drawn.append((self.component.id, self.w)), draw(self, c, *a))[1])
    compose(tiny_book)
    text_width = max(text_widths)
    assert text_width < 148 * 72 / 25.4 - 20                   # the A5 page's text width, not the paper
    cid, widest = max(drawn, key=lambda d: d[1])
    # 5,000 pt asked: cut to the text width (and then, too tall for the page, shrunk at most to
    # MIN_FIGURE_SHRINK of that rather than moved on alone)
    assert cid == "heroes" and flowables.MIN_FIGURE_SHRINK * text_width <= widest <= text_width


def test_a_chapter_row_of_the_contents_stays_with_its_sections(tiny_book):
    chapters = [f"# 章{i}\n\n本文。\n\n" + "".join(f"## 節{i}.{j}\n\nテキスト。\n\n" for j in range(1, 6))
                for i in range(1, 16)]
    for md in (tiny_book / "rulebook").glob("*.md"):
        md.unlink()
    (tiny_book / "rulebook" / "01-title.md").write_text("# 題だけの章\n", encoding="utf-8")   # a chapter with only a title
    (tiny_book / "rulebook" / "02-many.md").write_text("\n".join(chapters), encoding="utf-8")
    book = compose(tiny_book)
    contents = [t for t in pdf_text(book.pdf) if "目次" in t and "節" in t]
    assert len(contents) >= 2                              # the contents span pages
    for page in contents[:-1]:
        rows = [line for line in page.splitlines() if "章" in line or "節" in line]
        assert "節" in rows[-1], page                      # not a chapter row cut off from its sections


def test_a_table_row_taller_than_a_page_is_a_located_error_and_nothing_is_written(tiny_book, tmp_path):
    md = tiny_book / "rulebook" / "03-extra.md"
    md.write_text("# 追加\n\n| a | b |\n|--|--|\n| x | " + "長い文章です。" * 400 + " |\n", encoding="utf-8")
    with pytest.raises(ContentError) as info:
        build_rulebook(tiny_book, tmp_path / "out", booklet=True)
    [problem] = info.value.problems
    assert problem.location.path.endswith("rulebook/03-extra.md") and problem.location.line == 3
    assert "taller than a page" in problem.message
    assert not (tmp_path / "out").exists()


def test_a4_paper(tiny_book):
    book = compose(tiny_book, paper="a4")
    pdf = pdfium.PdfDocument(io.BytesIO(book.pdf))
    assert pdf[0].get_size() == pytest.approx((595.28, 841.89), abs=0.1)


def test_a_missing_layout_is_a_warning_and_a_placeholder(tiny_book):
    game_yaml = tiny_book / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("layout: tiny/coin", "layout: tiny/not-yet"))
    book = compose(tiny_book)
    assert any("tiny/not-yet" in p.message and p.severity == "warning" for p in book.warnings)
    assert "coins" in "".join(pdf_text(book.pdf))


def test_heading_ids_unnumbered_headings_and_links(tiny_book):
    (tiny_book / "rulebook" / "03-extra.md").write_text(
        "# 付録 {-}\n\n## 用語 {#terms}\n\n[準備へ](#setup)、[用語へ](#terms)、[概要へ](#概要)。\n",
        encoding="utf-8")
    book = compose(tiny_book)
    extra = [h for h in book.headings if h.title in ("付録", "用語")]
    assert [(h.number, h.key) for h in extra] == [("", "h-付録"), ("2.1", "h-terms")]
    assert b"/Dest" in book.pdf or b"/GoTo" in book.pdf


def test_rulebook_yaml_is_checked_with_lines(tiny_book):
    (tiny_book / "rulebook" / "rulebook.yaml").write_text("subtitle: x\ncoverr: []\n", encoding="utf-8")
    with pytest.raises(ContentError) as info:
        compose(tiny_book)
    [p] = info.value.problems
    assert p.location.path.endswith("rulebook.yaml") and p.location.line == 2 and "did you mean 'cover'" in p.message


def test_paragraph_lines_follow_kinsoku_in_the_pdf(tiny_book):
    from generator.text.kinsoku import NO_END, NO_START

    text = "、".join(["カードを引いて（手札に加え）、「捨て札」をシャッフルする。"] * 12)
    (tiny_book / "rulebook" / "03-extra.md").write_text(f"# 追加\n\n{text}\n", encoding="utf-8")
    book = compose(tiny_book)
    page = pdf_text(book.pdf)[-1].split("\r\n")
    body = [ln for ln in page if "カード" in ln or "シャッフル" in ln]
    assert len(body) > 4
    assert "".join(body) == text
    for line in body:
        assert line[0] not in NO_START and line[-1] not in NO_END


def test_bold_around_cjk_brackets_prints_without_asterisks(tiny_book):
    (tiny_book / "rulebook" / "03-extra.md").write_text(
        "# 追加\n\nサプライは**【携帯】**して、使ったら**【追放】**します。\n", encoding="utf-8")
    book = compose(tiny_book)
    last = pdf_text(book.pdf)[-1]
    assert "サプライは【携帯】して、使ったら【追放】します。" in last.replace("\r\n", "")


def test_a_source_that_is_not_utf8_is_located_at_its_line(tiny_book):
    (tiny_book / "rulebook" / "03-extra.md").write_bytes(b"# extra\n\ncaf\xe9\n")
    with pytest.raises(ContentError) as info:
        compose(tiny_book)
    [problem] = info.value.problems
    assert problem.location.path.endswith("rulebook/03-extra.md") and problem.location.line == 3
    assert problem.message == "not UTF-8 text (invalid continuation byte at byte 12)"


def test_an_unknown_icon_from_icon_is_warned_once_at_its_line(tiny_book):
    (tiny_book / "rulebook" / "03-extra.md").write_text("# 追加\n\n{{ icon('nope') }}です。\n", encoding="utf-8")
    book = compose(tiny_book)
    found = [(p.location.path.rsplit("/", 1)[-1], p.location.line) for p in book.warnings if "'nope'" in p.message]
    assert found == [("03-extra.md", 3)]


def test_cover_texts_and_cover_cards_are_located_at_their_line(tiny_book):
    (tiny_book / "rulebook" / "rulebook.yaml").write_text(
        "subtitle: x\ntagline: '{{ rules.nope }}'\nfacts:\n  - a\n  - '{{ nope }}'\ncover:\n  - heroes/knight\n"
        "  - heroes/paladin\n", encoding="utf-8")
    with pytest.raises(ContentError) as info:
        compose(tiny_book)
    assert sorted((p.location.line, p.field) for p in info.value.problems) == \
        [(2, "tagline"), (5, "facts[1]")]
    (tiny_book / "rulebook" / "rulebook.yaml").write_text(
        "cover:\n  - heroes/knight\n  - heroes/paladin\n", encoding="utf-8")
    with pytest.raises(ContentError) as info:
        compose(tiny_book)
    assert [(p.location.line, p.field) for p in info.value.problems if p.severity == "error"] == [(3, "cover[1]")]


def test_a_letter_booklet_from_the_letter_sheet_profile(tiny_book):
    book = compose(tiny_book, booklet=True, sheet="letter-portrait")
    sheets = pdfium.PdfDocument(io.BytesIO(book.booklet))
    assert len(sheets) == padded(book.pages) // 2
    assert [sheets[i].get_size() for i in range(len(sheets))] == [pytest.approx((792, 612))] * len(sheets)
    total = padded(book.pages)
    first = sheets[0].get_textpage()
    left = first.get_text_bounded(0, 0, 396, 612)
    right = first.get_text_bounded(396, 0, 792, 612)
    assert "ちいさなゲーム" in right and "ちいさなゲーム" not in left   # page 1 (cover) right of the fold
    assert left.strip() in ("", str(total))                          # the last page (blank or numbered) left
    # the game's own sheet (a4-portrait) by default, as before
    default = pdfium.PdfDocument(io.BytesIO(compose(tiny_book, booklet=True).booklet))
    assert default[0].get_size() == pytest.approx((841.89, 595.28), abs=0.1)


def test_an_unknown_booklet_sheet_names_the_known_ones(tiny_book):
    with pytest.raises(ContentError) as info:
        compose(tiny_book, booklet=True, sheet="legal-portrait")
    [problem] = info.value.problems
    assert problem.field == "--sheet"
    assert problem.message.startswith("unknown sheet profile 'legal-portrait'; known: a3-landscape, a3-portrait, a4-landscape, a4-portrait,")


def _title_lefts(data: bytes, titles) -> dict:
    """The x of the first character of each title on the contents pages (the first match)."""
    pdf = pdfium.PdfDocument(io.BytesIO(data))
    found = {}
    for i in range(1, len(pdf)):
        text = pdf[i].get_textpage()
        if "目次" not in text.get_text_bounded():                 # the contents pages' header
            break
        for title in titles:
            if title in found:
                continue
            match = text.search(title).get_next()
            if match:
                found[title] = round(text.get_charbox(match[0])[0], 2)
    return found


def test_contents_titles_align_past_chapter_nine(tiny_book):
    for md in (tiny_book / "rulebook").glob("*.md"):
        md.unlink()
    chapters = [f"# 題{chr(0x30A2 + 2 * i)}あ\n\n本文。\n\n"
                + "".join(f"## 節{chr(0x30A2 + 2 * i)}{chr(0x30A2 + 2 * j)}い\n\nテキスト。\n\n" for j in range(11))
                for i in range(12)]
    (tiny_book / "rulebook" / "01-many.md").write_text("\n".join(chapters[:2]), encoding="utf-8")
    (tiny_book / "rulebook" / "02-more.md").write_text("\n".join(chapters[2:]), encoding="utf-8")
    book = compose(tiny_book)
    numbers = {h.title: h.number for h in book.headings}
    chapter_titles = [h.title for h in book.headings if h.level == 1]
    assert [numbers[t] for t in chapter_titles][8:10] == ["9", "10"]
    lefts = _title_lefts(book.pdf, chapter_titles)
    assert len(lefts) == 12 and len(set(lefts.values())) == 1, lefts       # 1 .. 12: one column
    sections = [h.title for h in book.headings if h.level == 2 and h.number.startswith("1.")]
    assert [numbers[t] for t in sections][8:10] == ["1.9", "1.10"]
    lefts = _title_lefts(book.pdf, sections)
    assert len(lefts) == 11 and len(set(lefts.values())) == 1, lefts       # 1.1 .. 1.11


def test_progress_is_reported_per_chapter_and_ends_at_the_total(tiny_book):
    calls = []
    book = compose(tiny_book, booklet=True, progress=lambda done, total: calls.append((done, total)))
    chapters = sum(1 for h in book.headings if h.level == 1)
    assert chapters >= 2
    total = chapters * 3                                   # two layout passes and the booklet's
    assert calls == [(n, total) for n in range(1, total + 1)]


def test_the_rulebooks_own_words_follow_the_games_language(tiny_book):
    """lang: en: the cover's default subtitle, the version fact, the contents and the box titles are
    English (wording.py); the designer's own Japanese text is printed as written."""
    game_yaml = tiny_book / "game.yaml"
    game_yaml.write_text("lang: en\n" + game_yaml.read_text(encoding="utf-8"), encoding="utf-8")
    config = tiny_book / "rulebook" / "rulebook.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("subtitle: テスト用ルールブック\n", ""),
                      encoding="utf-8")
    pages = [page.replace("\r\n", "") for page in pdf_text(compose(tiny_book).pdf)]
    text = "".join(pages)
    assert "Rulebook" in pages[0] and "version 1" in pages[0] and "ルールブック" not in pages[0]
    assert "Contents" in text and "目次" not in text
    assert "Note" in text and "Sample Component Kind Size Count" in text and "Cards in all" in text
    assert "Keyword Meaning" in text and "(2 cards)" in text and "枚のカード）" not in text
    assert "このゲームには" in text                                  # the Markdown itself is not translated


def test_another_language_gets_english_words_and_words_replaces_any_of_them(tiny_book):
    """lang: fr has no table: English, not Japanese, words; rulebook.yaml ``words:`` gives the
    designer's own for the ones they want (here the contents and the keyword column)."""
    game_yaml = tiny_book / "game.yaml"
    game_yaml.write_text("lang: fr\n" + game_yaml.read_text(encoding="utf-8"), encoding="utf-8")
    config = tiny_book / "rulebook" / "rulebook.yaml"
    config.write_text(config.read_text(encoding="utf-8")
                      + "words: {contents: Sommaire, keyword: Mot-clé, cards_with: ' ({n} cartes)'}\n",
                      encoding="utf-8")
    text = "".join(page.replace("\r\n", "") for page in pdf_text(compose(tiny_book).pdf))
    assert "Sommaire" in text and "Contents" not in text and "目次" not in text
    assert "Mot-clé Meaning" in text and "(2 cartes)" in text and "コンポーネント" not in text


@pytest.mark.parametrize("version, field", [("版", "words.version"),  # in any of its languages:
                                            ("{ja: '版 {version}', en: v}", "words.version.en")])
def test_a_word_that_drops_its_value_or_is_unknown_is_a_located_error(tiny_book, version, field):
    config = tiny_book / "rulebook" / "rulebook.yaml"
    lines = config.read_text(encoding="utf-8").count("\n")
    config.write_text(config.read_text(encoding="utf-8") + "words:\n  version: " + version + "\n  contets: もくじ\n",
                      encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        compose(tiny_book)
    shown = [p.display() for p in caught.value.problems]
    assert any(s.endswith(f"rulebook.yaml:{lines + 2}: {field}: must keep {{version}} (where the value goes),"
                          " e.g. 'version {version}'") for s in shown), shown
    assert any(f"rulebook.yaml:{lines + 3}:" in s and "contets" in s and "did you mean 'contents'" in s
               for s in shown), shown


def test_words_per_language_print_in_their_edition_and_the_others_keep_the_built_in_word(tiny_book):
    """A ``words:`` mapping replaces a word in the editions it names only: the English edition of a
    Japanese game must not print the Japanese house word, nor the Japanese one the English."""
    config = tiny_book / "rulebook" / "rulebook.yaml"
    config.write_text(config.read_text(encoding="utf-8")
                      + "words: {contents: {ja: もくじ}, note: {ja: メモ書き, en: Remember}, keyword: 用語}\n",
                      encoding="utf-8")
    ja = "".join(page.replace("\r\n", "") for page in pdf_text(compose(tiny_book).pdf))
    en = "".join(page.replace("\r\n", "") for page in pdf_text(compose(tiny_book, lang="en").pdf))
    assert "もくじ" in ja and "目次" not in ja and "メモ書き" in ja and "Remember" not in ja
    assert "Contents" in en and "もくじ" not in en and "Remember" in en and "メモ書き" not in en
    assert "用語 意味" in ja and "用語 Meaning" in en  # a plain string: every edition, as written


def test_the_format_doc_names_every_word_words_can_replace():
    from pathlib import Path

    from generator.rulebook.wording import WORDS

    doc = (Path(__file__).resolve().parents[3] / "docs" / "rulebook-format.md").read_text(encoding="utf-8")
    listed = doc.split("The words are ", 1)[1].split("An unknown word", 1)[0]
    assert set(re.findall(r"`([a-z_]+)`", listed)) == set(WORDS["en"]) == set(WORDS["ja"])


def test_a_word_wider_than_the_line_is_a_warning_at_its_markdown_line_and_a_url_breaks_at_its_slashes(tiny_book):
    """A URL broke anywhere ('.../game' / 's/...') and a too-long word was cut, both in silence."""
    url = "https://example.com/" + "/".join(["games", "tiny", "rulebook", "printable", "editions"] * 2) + "_v2.pdf"
    word = "Pneumonoultramicroscopicsilicovolcanoconiosis" * 3
    md = tiny_book / "rulebook" / "03-extra.md"
    md.write_text(f"# Links\n\nThe rules: {url} here.\n\n| term |\n| --- |\n| {word} |\n", encoding="utf-8")
    book = compose(tiny_book)
    text = "".join(pdf_text(book.pdf))
    lines = [ln.strip() for ln in re.split(r"[\r\n]+", text[text.index("The rules"):]) if ln.strip()][:3]
    assert lines[1].startswith("https://") and lines[2][0] in "/.", lines  # its 2nd line starts at a slash or dot
    found = [(p.location.path.rsplit("/", 1)[1], p.location.line, p.severity, p.message) for p in book.warnings
             if "cut mid-word" in p.message]
    assert [f[:3] for f in found] == [("03-extra.md", 7, "warning")], found  # the word, not the URL
    assert found[0][3].startswith(f"{word!r} is wider than its line (")


def test_a_table_column_is_as_wide_as_its_longest_word_when_the_table_has_room(tiny_book):
    """The English Metroidvania boss table cut 'Choirmistress' and 'Gravekeeper' mid-word: a column's
    minimum was one character wide, so long texts in the other columns squeezed the names to 16 mm."""
    filler = " ".join(["the boss heals one life whenever its action track returns to the top"] * 2)
    rows = "".join(f"| **{name}** | Grand Cathedral | 3 | {filler} | {filler} |\n"
                   for name in ("Choirmistress of a Thousand Mouths", "The Gravekeeper Samuel"))
    md = tiny_book / "rulebook" / "03-extra.md"
    md.write_text("# Bosses\n\n| Boss | Area | Life | Trait | Weakness |\n|:--|:--|--:|:--|:--|\n" + rows,
                  encoding="utf-8")
    book = compose(tiny_book)
    assert [p.message for p in book.warnings if "cut mid-word" in p.message] == []
    words = set(re.split(r"\s+", "".join(pdf_text(book.pdf))))
    assert {"Choirmistress", "Gravekeeper"} <= words


def test_a_word_longer_than_a_table_has_room_for_is_still_cut_not_the_other_columns_squeezed(tiny_book):
    """When the table cannot hold every column's longest word whole, a word still counts at most
    6 body sizes: the one overlong word is cut (with its warning), the others keep their width."""
    word = "Pneumonoultramicroscopicsilicovolcanoconiosis" * 2
    md = tiny_book / "rulebook" / "03-extra.md"
    md.write_text(f"# Terms\n\n| term | meaning |\n| --- | --- |\n| {word} | Lung disease from very fine dust |\n",
                  encoding="utf-8")
    book = compose(tiny_book)
    assert [p.message.split(" is wider")[0] for p in book.warnings if "cut mid-word" in p.message] == [repr(word)]
    assert "disease" in re.split(r"\s+", "".join(pdf_text(book.pdf)))
