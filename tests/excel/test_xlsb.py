"""Excel binary workbooks (.xlsb), read by calamine, proven on files Excel itself wrote.

Nothing installable here writes .xlsb, so sample_data/xlsb/ holds real Excel files from the
python-calamine project's test data (see sample_data/xlsb/NOTICE):
- any_sheets.xlsb: sheets Visible, Hidden, VeryHidden (both empty) and Chart (a chart
  sheet); Visible holds 1 2 / 3 4 / 5 6 in rows 1-3, a blank row 4 and a sentence in A5;
- base.xlsb: Sheet1 has one row of typed cells in A2:J2 (text, numbers, booleans, date,
  datetime, time, two durations); Sheet2 and 'Merged Cells' are empty; Sheet3 holds
  line1/line2/line3 in B2:D4;
- empty_file.xlsb (0 bytes) and password.xlsb (encrypted).
"""

from __future__ import annotations

import csv
import json
import struct
from pathlib import Path

import pytest

from importer.database import Connection
from importer.errors import InputError
from importer.excel import open_sheet, peek_sheet, xlsb_scan
from importer.excel.sniff import make_source, sniff
from importer.excel.values import NumberText, Row
from tests.conftest import Cli, CliResult
from tests.support.jobs import counts, json_rows
from tests.support.xlsb import patched_xlsb

XLSB = Path(__file__).resolve().parents[2] / "sample_data" / "xlsb"
ANY_SHEETS = XLSB / "any_sheets.xlsb"
BASE = XLSB / "base.xlsb"
SENTENCE = "This workbook contains 4 sheets: Visible, Hidden, VeryHidden and Chart"
WORKSHEETS = "'Visible', 'Hidden', 'VeryHidden'"  # the chart sheet is not one


def read(path: Path | bytes, **options: object) -> tuple[list[str], int, list[Row], int, str]:
    with open_sheet(path, **options) as reader:  # type: ignore[arg-type]
        rows = list(reader.rows())
        return reader.header, reader.header_row, rows, reader.count_rows(), reader.engine


def test_the_samples_are_all_there() -> None:
    names = {p.name for p in XLSB.iterdir()}
    assert {"any_sheets.xlsb", "base.xlsb", "empty_file.xlsb", "password.xlsb", "NOTICE"} <= names
    assert "MIT License" in (XLSB / "NOTICE").read_text(encoding="utf-8")


# --- the format comes from the bytes -------------------------------------------------------------


@pytest.mark.parametrize("name", ["any_sheets.xlsb", "base.xlsb"])
def test_sniffed_as_xlsb(name: str) -> None:
    assert sniff(make_source(XLSB / name, None)) == "xlsb"


@pytest.mark.parametrize("renamed", ["upload.xlsx", "upload.xls", "upload.csv", "upload"])
def test_sniffed_as_xlsb_whatever_its_name(tmp_path: Path, renamed: str) -> None:
    data = ANY_SHEETS.read_bytes()
    assert sniff(make_source(data, renamed)) == "xlsb"
    path = tmp_path / renamed
    path.write_bytes(data)
    assert sniff(make_source(path, None)) == "xlsb"
    with open_sheet(path) as reader:
        assert (reader.engine, reader.file_format) == ("calamine", "xlsb")
        assert [r.number for r in reader.rows()] == [2, 3, 5]


# --- sheets, header, rows ------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["auto", "calamine"])
def test_first_visible_sheet_header_rows_and_blank_row(engine: str) -> None:
    with open_sheet(ANY_SHEETS, engine=engine) as reader:
        assert (reader.engine, reader.file_format) == ("calamine", "xlsb")
        assert reader.sheet_name == "Visible"
        assert reader.sheet_names == ["Visible", "Hidden", "VeryHidden"]  # no chart sheet
        assert reader.date1904 is False
        assert (reader.header, reader.header_row) == (["1", "2"], 1)
        rows = list(reader.rows())
        # the blank row 4 is skipped and not counted; row 5's empty B5 is None
        assert rows == [
            Row(2, (3.0, 4.0)),
            Row(3, (5.0, 6.0)),
            Row(5, (SENTENCE, None)),
        ]
        assert all(type(v) is float for row in rows[:2] for v in row.values)  # ints as floats
        assert reader.count_rows() == 3
        assert reader.count_rows_after(2) == 2
        assert reader.count_rows_after(3) == 1
        assert [[r.number for r in batch] for batch in reader.batches(2)] == [[2, 3], [5]]
        assert [[r.number for r in batch] for batch in reader.batches(2, skip=1)] == [[3, 5]]
        assert [[r.number for r in b] for b in reader.batches(10, after_row=3)] == [[5]]


def test_peek_gives_what_open_sheet_gives() -> None:
    peek = peek_sheet(ANY_SHEETS)
    assert (peek.sheet_name, peek.engine, peek.file_format) == ("Visible", "calamine", "xlsb")
    assert (peek.header, peek.header_row, peek.date1904) == (["1", "2"], 1, False)


def test_bytes_source_reads_the_same() -> None:
    assert read(ANY_SHEETS.read_bytes(), file_name="any_sheets.xlsb") == read(ANY_SHEETS)


@pytest.mark.parametrize("wanted", ["Visible", "visible", " VISIBLE "])
def test_sheet_named_exactly_or_in_another_case(wanted: str) -> None:
    with open_sheet(ANY_SHEETS, sheet=wanted) as reader:
        assert reader.sheet_name == "Visible"
        assert reader.count_rows() == 3


@pytest.mark.parametrize("wanted", ["Hidden", "hidden", "VeryHidden"])
def test_hidden_sheets_are_read_when_named(wanted: str) -> None:
    # Never picked implicitly (above), but read when named: both are empty in this workbook,
    # so naming one reaches that sheet and finds no header, rather than "no sheet named".
    expected = "VeryHidden" if wanted == "VeryHidden" else "Hidden"
    with pytest.raises(InputError) as refused:
        open_sheet(ANY_SHEETS, sheet=wanted)
    assert str(refused.value) == (
        f"any_sheets.xlsb: sheet {expected!r} is empty (no header row found)"
    )


@pytest.mark.parametrize("wanted", ["Chart", "chart"])
def test_a_chart_sheet_is_refused_as_one(wanted: str) -> None:
    with pytest.raises(InputError) as refused:
        open_sheet(ANY_SHEETS, sheet=wanted)
    assert str(refused.value) == (
        f"any_sheets.xlsb: sheet {wanted!r} is a chart sheet, with no cells to read "
        f"(the worksheets are: {WORKSHEETS})"
    )
    with pytest.raises(InputError, match="is a chart sheet"):
        peek_sheet(ANY_SHEETS, sheet=wanted)


def test_unknown_sheet_lists_the_worksheets() -> None:
    with pytest.raises(InputError) as refused:
        open_sheet(ANY_SHEETS, sheet="Nope")
    assert str(refused.value) == (
        f"any_sheets.xlsb: no sheet named 'Nope' (the workbook has: {WORKSHEETS})"
    )


def test_streaming_engine_refuses_xlsb_clearly() -> None:
    message = r"streaming engine \(openpyxl\) reads .xlsx and .xlsm only; this file is .xlsb"
    with pytest.raises(InputError, match=message):
        open_sheet(ANY_SHEETS, engine="openpyxl")
    with pytest.raises(InputError, match=message):
        peek_sheet(BASE, engine="openpyxl")


# --- cell types ----------------------------------------------------------------------------------


def test_typed_cells_as_the_header_of_sheet1() -> None:
    # Sheet1's only row (A2:J2) is its header: each typed cell arrives as the text Excel
    # shows, by display_text of the normalized value (numbers in General format, booleans
    # as TRUE/FALSE, ISO dates and times, durations as [h]:mm:ss).
    header, header_row, rows, count, engine = read(BASE)
    assert engine == "calamine"
    assert header_row == 2  # row 1 is blank
    assert header == [
        "String",
        "1",  # 1.0
        "1.1",
        "TRUE",
        "FALSE",
        "2010-10-10",  # a date cell: a date, no midnight time
        "2010-10-10 10:10:10",  # a datetime cell
        "10:10:10",  # a time cell (below one day): a time, not 1899-12-30 10:10:10
        "10:10:10",  # a duration of 36610.1 seconds: whole seconds shown
        "255:10:10",  # a duration of 10 days 15:10:10: hours past 24, as [h]:mm:ss
    ]
    assert rows == [] and count == 0


def _error_in_c2(sheet: bytearray) -> None:
    """Sheet1's C2 (the number 1.1, a BrtCellReal record) turned into a BrtCellError
    holding #N/A, the record otherwise as it was."""
    at = sheet.index(bytes.fromhex("0510") + bytes.fromhex("0200000000000000"))
    sheet[at] = 0x03  # BrtCellReal -> BrtCellError
    sheet[at + 2 + 8] = 0x2A  # #N/A


def test_error_cells_are_errors_not_empty_cells(tmp_path: Path) -> None:
    header, *_ = read(patched_xlsb(tmp_path, "e.xlsb", "xl/worksheets/sheet1.bin", _error_in_c2))
    assert header[:4] == ["String", "1", "#N/A", "TRUE"]  # calamine alone gives ""


def _record(kind: int, payload: bytes) -> bytes:
    """One .xlsb record: type and size 7 bits a byte, high bit for "more"."""

    def varint(value: int) -> bytes:
        out = bytearray()
        while True:
            out.append((value & 0x7F) | (0x80 if value > 0x7F else 0))
            value >>= 7
            if not value:
                return bytes(out)

    return varint(kind) + varint(len(payload)) + payload


def test_numbers_in_zero_padded_formats_keep_their_zeros() -> None:
    code = "00000".encode("utf-16-le")
    styles = b"".join(
        [
            _record(0x2C, (164).to_bytes(2, "little") + (5).to_bytes(4, "little") + code),
            _record(0x269, (2).to_bytes(4, "little")),  # BrtBeginCellXFs
            _record(0x2F, bytes(2) + (0).to_bytes(2, "little") + bytes(12)),
            _record(0x2F, bytes(2) + (164).to_bytes(2, "little") + bytes(12)),
            _record(0x26A, b""),
        ]
    )
    zero_styles = xlsb_scan.zero_padded_styles(styles)
    assert zero_styles == {1: 5}
    rk_501 = (501 << 2) | 2  # an RK integer
    sheet = b"".join(
        [
            _record(0x00, (4).to_bytes(4, "little") + bytes(21)),  # BrtRowHdr: row 5
            _record(
                0x02,
                (1).to_bytes(4, "little")
                + (1).to_bytes(4, "little")
                + rk_501.to_bytes(4, "little"),
            ),  # B5, style 1
            _record(
                0x05,
                (2).to_bytes(4, "little") + (0).to_bytes(4, "little") + struct.pack("<d", 501.0),
            ),  # C5, style 0: a plain number
        ]
    )
    scan = xlsb_scan.scan_xlsb_sheet(sheet, zero_styles)
    assert scan.overrides == {(5, 1): NumberText(501.0, "00501")}
    assert (scan.rows, scan.cols) == (1, 2)


def test_the_1904_date_system_is_the_workbooks(tmp_path: Path) -> None:
    def from_1904(workbook: bytearray) -> None:
        at = workbook.index(bytes.fromhex("9901"))  # BrtWbProp, its size, then its flags
        workbook[at + 3] |= 1  # fDate1904

    path = patched_xlsb(tmp_path, "mac.xlsb", "xl/workbook.bin", from_1904)
    with open_sheet(BASE) as excel, open_sheet(path) as mac:
        assert (excel.date1904, mac.date1904) == (False, True)


def test_data_away_from_column_a() -> None:
    header, header_row, rows, count, _ = read(BASE, sheet="Sheet3")
    assert (header, header_row) == (["", "line1", "line1", "line1"], 2)
    assert rows == [
        Row(3, (None, "line2", "line2", "line2")),
        Row(4, (None, "line3", "line3", "line3")),
    ]
    assert count == 2


@pytest.mark.parametrize("sheet", ["Sheet2", "Merged Cells"])
def test_empty_sheets_are_refused(sheet: str) -> None:
    with pytest.raises(InputError) as refused:
        open_sheet(BASE, sheet=sheet)
    assert str(refused.value) == f"base.xlsb: sheet {sheet!r} is empty (no header row found)"


# --- through the real CLI ------------------------------------------------------------------------

FORM = """\
name = "pairs"
[[fields]]
name = "one"
header = "1"
type = "integer"
[[fields]]
name = "two"
header = "2"
type = "integer"
"""


@pytest.fixture
def pairs_form(cli: Cli, tmp_path: Path) -> str:
    path = tmp_path / "pairs.form.toml"
    path.write_text(FORM, encoding="utf-8")
    added = cli("forms", "add", str(path))
    assert added.exit_code == 0, added.stderr
    return "pairs"


def _job(result: CliResult) -> dict[str, object]:
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    assert len(lines) == 1, result.stdout
    data: dict[str, object] = json.loads(lines[0])
    return data


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("empty_file.xlsb", "empty_file.xlsb: the file is empty"),
        (
            "password.xlsb",
            "password.xlsb: the workbook is password-protected (encrypted); remove the "
            "password in Excel and try again",
        ),
    ],
)
def test_refused_files_exit_2_with_their_own_message_and_no_job(
    cli: Cli, conn: Connection, pairs_form: str, name: str, message: str
) -> None:
    result = cli("submit", str(XLSB / name), "--form", pairs_form)
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stderr.strip() == f"error: {message}"
    assert "Traceback" not in result.stderr
    assert counts(conn) == {"jobs": 0, "files": 0, "timers": 0, "rows": 0}


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        ("Chart", "is a chart sheet"),
        ("Nope", "no sheet named 'Nope'"),
        ("Hidden", "sheet 'Hidden' is empty"),
    ],
)
def test_refused_sheets_exit_2_and_no_job(
    cli: Cli, conn: Connection, pairs_form: str, sheet: str, message: str
) -> None:
    result = cli("submit", str(ANY_SHEETS), "--form", pairs_form, "--sheet", sheet)
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert counts(conn) == {"jobs": 0, "files": 0, "timers": 0, "rows": 0}


def test_openpyxl_engine_on_xlsb_exits_2_and_no_job(
    cli: Cli, conn: Connection, pairs_form: str
) -> None:
    result = cli("submit", str(ANY_SHEETS), "--form", pairs_form, "--engine", "openpyxl")
    assert result.exit_code == 2
    assert "reads .xlsx and .xlsm only; this file is .xlsb" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert counts(conn) == {"jobs": 0, "files": 0, "timers": 0, "rows": 0}


def test_submit_imports_the_good_rows_and_reports_the_bad_one(
    cli: Cli, conn: Connection, pairs_form: str, tmp_path: Path
) -> None:
    result = cli("submit", str(ANY_SHEETS), "--form", pairs_form, "--json", "--quiet")
    assert result.exit_code == 3, result.stderr  # finished, with rejected rows
    job = _job(result)
    assert {k: job[k] for k in ("status", "total_rows", "success_rows", "failed_rows")} == {
        "status": "partially_succeeded",
        "total_rows": 3,
        "success_rows": 2,
        "failed_rows": 1,
    }
    job_id = int(job["id"])  # type: ignore[call-overload]

    stored = [{"row_number": n, "data": d} for n, d in json_rows(conn, job_id).items()]
    assert [(r["row_number"], r["data"]) for r in stored] == [
        (2, {"one": 3, "two": 4}),
        (3, {"one": 5, "two": 6}),
    ]
    errors = conn.execute(
        "SELECT row_number, column_name, raw_value FROM import_row_errors WHERE import_job_id = %s",
        (job_id,),
    ).fetchall()
    assert errors == [{"row_number": 5, "column_name": "1", "raw_value": SENTENCE}]

    out = tmp_path / "rejected.csv"
    exported = cli("errors", str(job_id), "-o", str(out))
    assert exported.exit_code == 0, exported.stderr
    assert "wrote 1 rejected row" in exported.stdout
    with out.open(encoding="utf-8-sig", newline="") as stream:
        lines = list(csv.reader(stream))
    assert lines[0] == ["1", "2", "Problems", "Source row"]
    assert len(lines) == 2
    assert lines[1][:2] == [SENTENCE, ""] and lines[1][3] == "5"
    assert lines[1][2].startswith("1:")  # the reason names the column

    again = cli("submit", str(ANY_SHEETS), "--form", pairs_form, "--json")
    assert again.exit_code == 3
    assert _job(again)["id"] == job_id  # the same file is not imported twice
    assert counts(conn) == {"jobs": 1, "files": 1, "timers": 0, "rows": 2}


def test_submit_of_an_xlsb_named_xlsx(
    cli: Cli, conn: Connection, pairs_form: str, tmp_path: Path
) -> None:
    renamed = tmp_path / "any_sheets.xlsx"
    renamed.write_bytes(ANY_SHEETS.read_bytes())
    result = cli("submit", str(renamed), "--form", pairs_form, "--json", "--quiet")
    assert result.exit_code == 3, result.stderr
    job = _job(result)
    assert (job["success_rows"], job["failed_rows"]) == (2, 1)
    errors = conn.execute("SELECT row_number, column_name FROM import_row_errors").fetchall()
    assert errors == [{"row_number": 5, "column_name": "1"}]


@pytest.mark.parametrize("name", ["any_sheets.xlsb", "any_sheets.xlsx", "any_sheets.xls"])
def test_forms_infer_reads_the_sheet_whatever_the_name(cli: Cli, tmp_path: Path, name: str) -> None:
    path = tmp_path / name  # infer opens the file by its path, not stored bytes as submit does
    path.write_bytes(ANY_SHEETS.read_bytes())
    # Its first row holds numbers, not names: no table by itself, so the row is named.
    result = cli("forms", "infer", str(path), "--header-row", "1")
    assert result.exit_code == 0, result.stderr
    assert f"# inferred from {name}, sheet 'Visible'" in result.stdout
    assert 'header = "1"' in result.stdout and 'header = "2"' in result.stdout


def test_submit_plain_output_counts_the_rows(cli: Cli, pairs_form: str) -> None:
    result = cli("submit", str(ANY_SHEETS), "--form", pairs_form)
    assert result.exit_code == 3, result.stderr
    assert "done · 3/3 rows (100%)" in result.stdout
    assert "2 good, 1 rejected" in result.stdout
    assert "partially_succeeded" in result.stdout
