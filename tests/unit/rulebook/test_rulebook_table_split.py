"""A rulebook table splits between pages with at least two body rows on each side (KeptTable)."""
from reportlab.platypus import Table

from generator.rulebook.flowables import KeptTable

ROW = 20.0      # every row's height (pt)
PAGE = 500.0    # a page's text height


def table(body_rows: int, header: int = 1, cls=KeptTable, **kw):
    rows = [["head", "x"]] * header + [[f"r{i}", "x"] for i in range(body_rows)]
    return cls(rows, colWidths=[50, 50], rowHeights=[ROW] * len(rows), repeatRows=header, **kw)


def body_counts(parts, header=1):
    return [len(p._cellvalues) - header for p in parts]


def test_one_row_left_at_the_page_foot_moves_the_whole_table():
    # Valheim's rulebook p.28 left one row of the 8-row icon table under 7.3, the rest on p.29
    assert body_counts(table(8, cls=Table).split(100, 2.5 * ROW)) == [1, 7]       # plain ReportLab
    assert table(8, page_height=PAGE).split(100, 2.5 * ROW) == []
    assert body_counts(table(8, page_height=PAGE).split(100, 3.5 * ROW)) == [2, 6]


def test_one_row_alone_on_the_next_page_takes_a_row_with_it():
    # Fatal Fight's component table left its total row alone at the top of p.8
    assert body_counts(table(8, cls=Table).split(100, 8.5 * ROW)) == [7, 1]
    assert body_counts(table(8, page_height=PAGE).split(100, 8.5 * ROW)) == [6, 2]


def test_small_tables_move_whole_and_parts_keep_the_rule():
    assert table(3, page_height=PAGE).split(100, 3.5 * ROW) == []
    first, rest = table(30, page_height=PAGE).split(100, 10.5 * ROW)
    assert rest.split(100, 2.5 * ROW) == []          # the continuation keeps the rule too
    assert table(3, page_height=PAGE).split(100, 10 * ROW)[0].__class__ is KeptTable


def test_rows_taller_than_a_page_still_split_where_they_can():
    assert body_counts(table(8, page_height=1.5 * ROW).split(100, 2.5 * ROW)) == [1, 7]


def test_headerless_tables_follow_the_same_rule():
    assert table(8, header=0, page_height=PAGE).split(100, 1.5 * ROW) == []
    assert body_counts(table(8, header=0, page_height=PAGE).split(100, 7.5 * ROW), header=0) == [6, 2]


def _pages_of_a_heading_and_its_table(keep_class, room_rows: float):
    """A heading (keepWithNext) then a 12-row table, with ``room_rows`` rows' height left on page 1:
    the page each piece lands on."""
    import io

    from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, Spacer
    from reportlab.platypus.flowables import Flowable

    class Heading(Flowable):
        keepWithNext = True

        def wrap(self, aw, ah):
            return aw, ROW

        def draw(self):
            pass

    landed = []

    class Doc(BaseDocTemplate):
        def afterFlowable(self, flowable):
            if isinstance(flowable, (Heading, Table)):
                landed.append((type(flowable).__name__, self.page))

    doc = Doc(io.BytesIO(), pagesize=(200, PAGE), leftMargin=0, rightMargin=0, topMargin=0, bottomMargin=0)
    doc.addPageTemplates([PageTemplate("p", [Frame(0, 0, 200, PAGE, 0, 0, 0, 0)])])
    doc.keepTogetherClass = keep_class
    doc.build([Spacer(100, PAGE - ROW * (room_rows + 1)), Heading(), table(12, page_height=PAGE)])
    return landed


def test_a_heading_keeps_the_start_of_its_table_not_all_of_it():
    """ReportLab's KeepTogether moves heading and whole table to the next page when they fit one
    (Valheim's rulebook p.27 stood two-thirds empty before 7.2); KeepWithStart keeps the heading
    with the table's first rows and lets the table split."""
    from reportlab.platypus import KeepTogether

    from generator.rulebook.document import KeepWithStart

    assert _pages_of_a_heading_and_its_table(KeepTogether, 6) == [("Heading", 2), ("KeptTable", 2)]
    assert _pages_of_a_heading_and_its_table(KeepWithStart, 6) == [("Heading", 1), ("KeptTable", 1),
                                                                  ("KeptTable", 2)]
    # no room for the heading and two rows: both move, as before
    assert _pages_of_a_heading_and_its_table(KeepWithStart, 2.5) == [("Heading", 2), ("KeptTable", 2)]
