"""A sheet over the memory budget is read by calamine a piece at a time (calamine_pieces):
the rows must be exactly those of the whole sheet read at once, on real-world files too."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import xlsxwriter

from importer.database import Connection
from importer.errors import InputError
from importer.excel import open_sheet, xlsx_strings
from importer.excel import reader as excel_reader
from importer.excel.sniff import make_source
from importer.excel.values import Row
from importer.excel.xlsx_pieces import CannotCut, plan_pieces
from importer.excel.xlsx_strings import StringsTable
from tests.forms.test_row_json import _tricky_workbook
from tests.running.test_resume_trim import _interrupted, _resume, _trim_messages
from tests.support.jobs import add_form, assert_exactly_once, orders_book

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "files"
PIECE_BYTES = 256  # a row or two a piece: every boundary case comes up in small files


@pytest.fixture
def small_pieces(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every .xlsx sheet over the budget, read in pieces of PIECE_BYTES."""
    monkeypatch.setattr(excel_reader, "piece_size", lambda *_: PIECE_BYTES)
    monkeypatch.setattr(excel_reader, "estimate_calamine_bytes", lambda *_: 1 << 62)
    yield


def _rows(path: Path | bytes, **options: object) -> tuple[list[str], int, list[Row], bool]:
    with open_sheet(path, engine="calamine", checked=True, **options) as reader:  # type: ignore[arg-type]
        rows = [row for batch in reader.batches(7) for row in batch]
        return reader.header, reader.header_row, rows, reader.reads_in_pieces


def _same_rows(path: Path, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Whole and in pieces give the same header and rows; True if pieces were used."""
    try:
        whole = _rows(path)
    except InputError:
        return False  # refused whole: nothing to compare
    with monkeypatch.context() as patch:
        patch.setattr(excel_reader, "piece_size", lambda *_: PIECE_BYTES)
        patch.setattr(excel_reader, "estimate_calamine_bytes", lambda *_: 1 << 62)
        header, header_row, rows, in_pieces = _rows(path)
    assert (header, header_row) == whole[:2]
    assert [(r.number, r.values) for r in rows] == [(r.number, r.values) for r in whole[2]]
    # Types too: 5 and 5.0 and "5" compare alike in places, and the checks tell them apart.
    assert [tuple(map(type, r.values)) for r in rows] == [
        tuple(map(type, r.values)) for r in whole[2]
    ]
    return in_pieces


def test_real_world_xlsx_files_read_alike_in_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    files = sorted(CORPUS.rglob("*.xlsx"))
    assert len(files) > 40
    cut = [path.name for path in files if _same_rows(path, monkeypatch)]
    # Most files have a sheet of more than one piece; tiny ones are read whole.
    assert len(cut) >= 15, cut


@pytest.mark.parametrize("padded", [False, True])  # special cells found lazily / up front
@pytest.mark.parametrize("ghost", [False, True])
def test_error_cells_blank_rows_and_zero_padding_survive_the_cuts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, padded: bool, ghost: bool
) -> None:
    path = _tricky_workbook(tmp_path / "tricky.xlsx", padded=padded, ghost_column=ghost)
    assert _same_rows(path, monkeypatch)


def _ragged(path: Path) -> Path:
    """Pieces whose cells start right of the header's first column, or end before its last,
    or hold a cell left of the header; shared strings reused from far back."""
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Data")
    sheet.write_row(0, 1, ["ID", "Name", "Note"])
    for r in range(1, 400):
        if 100 <= r < 200:
            sheet.write_string(r, 2, f"only the name {r}")  # no ID, no note
        elif 200 <= r < 300:
            sheet.write_row(r, 0, ["left of the header", r, "name", "late note"])
        else:
            sheet.write_row(r, 1, [r, "name", "first" if r % 3 else "far reuse"])
    book.close()
    return path


def test_pieces_narrower_or_shifted_than_the_header_line_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _same_rows(_ragged(tmp_path / "ragged.xlsx"), monkeypatch)


@pytest.mark.parametrize("after", [0, 1, 2, 57, 150, 399, 1000])
def test_rows_after_a_committed_row_skip_whole_pieces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, after: int
) -> None:
    path = _ragged(tmp_path / "ragged.xlsx")
    with open_sheet(path, engine="calamine", checked=True) as whole:
        assert not whole.reads_in_pieces
        expected = [row for row in whole.rows() if row.number > after]
    monkeypatch.setattr(excel_reader, "piece_size", lambda *_: PIECE_BYTES)
    monkeypatch.setattr(excel_reader, "estimate_calamine_bytes", lambda *_: 1 << 62)
    with open_sheet(path, engine="calamine", checked=True) as reader:
        assert reader.reads_in_pieces
        later = [row for batch in reader.batches(10, after_row=after) for row in batch]
        assert reader.count_rows_after(after) == pytest.approx(len(later), abs=5)
    assert later == expected


def _rewrite_sheet(path: Path, change: bytes, into: bytes) -> None:
    with zipfile.ZipFile(path) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    part = "xl/worksheets/sheet1.xml"
    assert change in parts[part]
    parts[part] = parts[part].replace(change, into)
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)


def test_rows_out_of_order_are_not_cut(tmp_path: Path) -> None:
    path = _ragged(tmp_path / "ragged.xlsx")
    _rewrite_sheet(path, b'<row r="300"', b'<row r="30"')  # row 30 again, after row 299
    with pytest.raises(CannotCut, match="order"):
        plan_pieces(make_source(path, None), "xl/worksheets/sheet1.xml", PIECE_BYTES)


@pytest.mark.usefixtures("small_pieces")
def test_a_sheet_that_cannot_be_cut_is_streamed_under_auto(tmp_path: Path) -> None:
    path = _ragged(tmp_path / "ragged.xlsx")
    _rewrite_sheet(path, b'<row r="300"', b'<row r="30"')
    with open_sheet(path) as reader:
        assert (reader.engine, reader.reads_in_pieces) == ("openpyxl", False)


def test_a_piece_gets_only_the_strings_its_cells_use() -> None:
    items = [f"<si><t>text {i}</t></si>".encode() for i in range(10)]
    table = StringsTable(b'<sst count="10" uniqueCount="10">' + b"".join(items) + b"</sst>")
    rows = (
        b'<row r="5"><c r="A5" t="s"><v>1</v></c><c r="B5" t="s"><v>4</v></c>'
        b'<c r="C5" t="s"><v>5</v></c></row>'
    )
    subset, same = table.for_cells(rows)
    empty = b"<si><t/></si>"
    assert same == rows  # close together: the cells keep their numbers
    assert subset == (
        b'<sst count="6" uniqueCount="6">'
        + empty
        + items[1]
        + empty * 2
        + items[4]
        + items[5]
        + b"</sst>"
    )


def test_strings_far_apart_are_numbered_anew_in_the_table_and_the_cells() -> None:
    items = [f"<si><t>text {i}</t></si>".encode() for i in range(100)]
    table = StringsTable(b'<sst count="100" uniqueCount="100">' + b"".join(items) + b"</sst>")
    rows = (
        b'<row r="5"><c r="A5" t="s"><v>97</v></c><c r="B5" t="s"><v> 003 </v></c>'
        b'<c r="C5" t="s"><v>98</v></c><c r="D5"><v>97</v></c></row>'
    )
    subset, renumbered = table.for_cells(rows)
    assert (
        subset == b'<sst count="3" uniqueCount="3">' + items[3] + items[97] + items[98] + b"</sst>"
    )
    assert renumbered == (
        b'<row r="5"><c r="A5" t="s"><v>1</v></c><c r="B5" t="s"><v> 0 </v></c>'
        b'<c r="C5" t="s"><v>2</v></c><c r="D5"><v>97</v></c></row>'
    )


@pytest.mark.parametrize(
    "odd",
    [
        b'<c r="A5" t = "s"><v>2</v></c>',  # spaces around =: the pattern misses it
        b"<c r=\"A5\" t='s'><v>2</v></c>",  # single quotes
        b'<c r="A5" t="s"><f>X</f><v>2</v></c>',  # something between the tag and its value
        b'<c r="A5" t="s"><v>12</v></c>',  # past the table
    ],
)
def test_a_text_cell_the_pattern_does_not_account_for_gets_the_whole_table(odd: bytes) -> None:
    items = b"".join(f"<si><t>text {i}</t></si>".encode() for i in range(10))
    table = StringsTable(b'<sst count="10">' + items + b"</sst>")
    rows = b'<row r="5">' + odd + b"</row>"
    assert table.for_cells(rows) == (table.xml, rows)


@pytest.mark.parametrize("chunk", [1, 5, 7, 64, 1 << 20])
@pytest.mark.parametrize("ns", [b"", b"x:"])
def test_a_table_kept_on_disk_gives_what_the_table_in_memory_gives(
    monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest, chunk: int, ns: bytes
) -> None:
    """Read in chunks of any size (a tag cut in two included), the spooled table finds the
    same items and gives every piece the same table and cells."""
    monkeypatch.setattr(xlsx_strings, "_CHUNK", chunk)
    monkeypatch.setattr(xlsx_strings, "_ROOT_WITHIN", 100)  # read on as the cells ask
    n = ns.decode()
    items = [f"<{n}si><{n}t>t{i}{'é' * (i % 3)}</{n}t></{n}si>".encode() for i in range(300)]
    xml = (
        b'<?xml version="1.0"?><'
        + ns
        + b'sst xmlns:x="urn:x" count="300" uniqueCount="300">'
        + b"".join(items)
        + b"</"
        + ns
        + b"sst>"
    )
    in_memory = StringsTable(xml)
    spooled = StringsTable.streamed(io.BytesIO(xml))
    request.addfinalizer(spooled.close)
    for cells in ([1, 4, 5], [0], [3, 297, 298], [299], list(range(0, 300, 7)), [400]):
        rows = b"".join(
            b'<c r="A%d" t="s"><v>%d</v></c>' % (n + 1, number) for n, number in enumerate(cells)
        )
        assert spooled.for_cells(rows) == in_memory.for_cells(rows)
    spooled.complete()
    assert list(spooled.starts) == list(in_memory.starts) and len(in_memory.starts) == 300
    assert (spooled.ns, spooled.end, spooled.usable) == (ns, in_memory.end, True)


def test_a_table_read_from_a_package_is_read_only_as_far_as_its_cells_ask() -> None:
    """A header's first rows use the first strings of a table of millions: the rest of the
    part is neither read nor kept, until a cell asks for a later string."""
    items = [f"<si><t>text {i:07}</t></si>".encode() for i in range(200_000)]
    xml = b'<sst count="200000" uniqueCount="200000">' + b"".join(items) + b"</sst>"
    whole = StringsTable(xml)
    released: list[bool] = []
    table = StringsTable.streamed(io.BytesIO(xml), lambda: released.append(True))
    try:
        first = b'<c r="A2" t="s"><v>0</v></c><c r="B2" t="s"><v>3</v></c>'
        assert table.for_cells(first) == whole.for_cells(first)
        assert len(table.xml) < len(xml) // 2 and not released
        late = b'<c r="A9" t="s"><v>199999</v></c>'
        assert table.for_cells(late) == whole.for_cells(late)
        assert released == [True]  # read to its end: the package is let go
    finally:
        table.close()


@pytest.mark.usefixtures("small_pieces")
def test_a_resume_in_pieces_starts_after_the_last_committed_row(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 300, bad_every=7)
    paused = _interrupted(database_url, conn, book.path, 100)
    events, _ = _resume(database_url, conn)
    assert _trim_messages(events) == [paused.last_row]
    assert events[-1].run_rows == 300 - paused.cursor
    assert_exactly_once(conn, paused.id, book)


@pytest.mark.parametrize("ns", [b"", b"x:"], ids=["plain", "prefixed"])
def test_the_survey_counts_rows_holding_a_value_and_refuses_rows_without_numbers(
    ns: bytes,
) -> None:
    from importer.excel.xlsx_pieces import RowPatterns, rows_in

    def row(number: int, cells: bytes) -> bytes:
        return b'<%srow r="%d">%s</%srow>' % (ns, number, cells, ns)

    def cell(ref: bytes, value: bytes | None) -> bytes:
        if value is None:
            return b'<%sc r="%s" s="2"/>' % (ns, ref)  # styled, empty
        return b'<%sc r="%s"><%sv>%s</%sv></%sc>' % (ns, ref, ns, value, ns, ns)

    rows = RowPatterns.for_prefix(ns)
    valued = row(2, cell(b"A2", b"1")) + row(3, cell(b"A3", None) + cell(b"B3", b"2"))
    assert rows_in(valued, rows) == ([2, 3], 2)
    # A value before styled empty cells, a row of styled empty cells, a self-closing row.
    mixed = (
        row(4, cell(b"A4", b"1") + cell(b"B4", None))
        + row(5, cell(b"A5", None) + cell(b"B5", None))
        + b'<%srow r="6" spans="1:2"/>' % ns
        + row(7, cell(b"A7", b"3"))
    )
    assert rows_in(mixed, rows) == ([4, 5, 6, 7], 2)
    unnumbered = b"<%srow>%s</%srow>" % (ns, cell(b"A8", b"1"), ns)
    with pytest.raises(CannotCut, match="numbers"):
        rows_in(valued + unnumbered, rows)
    with pytest.raises(CannotCut, match="order"):
        rows_in(row(9, cell(b"A9", b"1")) + row(8, cell(b"A8", b"1")), rows)
