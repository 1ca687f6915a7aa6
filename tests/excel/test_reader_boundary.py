"""Nothing a file holds crashes the tool or takes unbounded memory, in any format.

Each case is a real file that made the reader of its format fail badly: a calamine panic
(which is a BaseException), a claimed or forged size that made calamine abort the process,
a text file named like a workbook. Through a real `importer` child process (the kernel
measures its peak memory), each ends with one line and exit code 2, or is read within
bounds.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from importer.errors import InputError
from importer.excel import open_sheet
from tests.chaos.procs import run_measured
from tests.support.xlsb import patched_xlsb

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
BOUND_RSS_MB = 200.0


def _xlsb_with_sheet1(tmp_path: Path, name: str, change: bytes, to: bytes) -> Path:
    def edit(sheet: bytearray) -> None:
        assert sheet.count(change) == 1
        at = sheet.index(change)
        sheet[at : at + len(change)] = to

    return patched_xlsb(tmp_path, name, "xl/worksheets/sheet1.bin", edit)


def panicking_xlsb(tmp_path: Path) -> Path:
    """A text cell (BrtCellIsst) pointing at shared string 999 of 4: calamine panics."""
    isst_a2 = bytes.fromhex("070c") + bytes(12)
    return _xlsb_with_sheet1(
        tmp_path, "panic.xlsb", isst_a2, isst_a2[:10] + (999).to_bytes(4, "little")
    )


def far_column_xlsb(tmp_path: Path) -> Path:
    """C2 moved to column 4,000,000,000: calamine's dense layout aborts the process."""
    real_c2 = bytes.fromhex("0510") + bytes.fromhex("0200000000000000")
    far = bytes.fromhex("0510") + (4_000_000_000).to_bytes(4, "little") + bytes(4)
    return _xlsb_with_sheet1(tmp_path, "far.xlsb", real_c2, far)


def xls_claiming_a_huge_sheet(tmp_path: Path) -> Path:
    """orders.xls whose DIMENSIONS record claims 2**31 rows x 65,535 columns: calamine
    reserved that much memory on opening the workbook and aborted."""
    data = bytearray((SAMPLES / "orders.xls").read_bytes())
    at = data.index(b"\x00\x02\x0e\x00")  # the DIMENSIONS record and its length
    data[at + 8 : at + 12] = (0x7FFFFFFF).to_bytes(4, "little")
    data[at + 14 : at + 16] = (0xFFFF).to_bytes(2, "little")
    path = tmp_path / "claims.xls"
    path.write_bytes(bytes(data))
    return path


def ods(tmp_path: Path, name: str, rows: str) -> Path:
    header = "".join(
        f'<table:table-cell office:value-type="string"><text:p>{h}</text:p></table:table-cell>'
        for h in ("Name", "Qty")
    )
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
        'xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" '
        'office:version="1.2">'
        '<office:body><office:spreadsheet><table:table table:name="Data">'
        f"<table:table-row>{header}</table:table-row>{rows}"
        "</table:table></office:spreadsheet></office:body></office:document-content>"
    )
    path = tmp_path / name
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("META-INF/manifest.xml", MANIFEST, zipfile.ZIP_DEFLATED)
        archive.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
    return path


MANIFEST = (
    '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest='
    '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
    '<manifest:file-entry manifest:full-path="/" manifest:media-type='
    '"application/vnd.oasis.opendocument.spreadsheet"/></manifest:manifest>'
)


def repeated_row(times: int, columns: int) -> str:
    return (
        f'<table:table-row table:number-rows-repeated="{times}">'
        f'<table:table-cell office:value-type="string" table:number-columns-repeated="{columns}">'
        "<text:p>x</text:p></table:table-cell></table:table-row>"
    )


def ods_repeat_bomb(tmp_path: Path) -> Path:
    """One filled row repeated a million times across 16,384 columns: 40 KB that asks
    calamine for 17 billion cells."""
    return ods(tmp_path, "bomb.ods", repeated_row(1_000_000, 16_384))


def ods_error_bomb(tmp_path: Path) -> Path:
    """An error cell (which the scan notes for calamine) repeated over a million rows and
    16,384 columns: the scan itself must not note 17 billion of them."""
    row = (
        '<table:table-row table:number-rows-repeated="1000000">'
        '<table:table-cell office:value-type="string" calcext:value-type="error" '
        'table:number-columns-repeated="16384"><text:p>#N/A</text:p></table:table-cell>'
        "</table:table-row>"
    )
    return ods(tmp_path, "errors.ods", row)


def hello_world(tmp_path: Path) -> Path:
    path = tmp_path / "hello.xlsx"
    path.write_text("hello world\n", encoding="utf-8")
    return path


REFUSED = {
    "a calamine panic": (panicking_xlsb, "the workbook cannot be read (index out of bounds"),
    "a forged far column": (far_column_xlsb, "spans 1 rows x 4,000,000,001 columns"),
    "rows repeated a million times": (ods_repeat_bomb, "too large to load at once"),
    "error cells repeated a million times": (ods_error_bomb, "too large to load at once"),
    "a text file named .xlsx": (hello_world, "plain text file, not a workbook"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(REFUSED))
@pytest.mark.parametrize("command", ["forms infer", "submit"])
def test_refused_with_one_line_in_bounded_memory(
    cli_env: dict[str, str], tmp_path: Path, case: str, command: str
) -> None:
    build, message = REFUSED[case]
    path = build(tmp_path)
    args = ["forms", "infer", str(path)] if command == "forms infer" else ["submit", str(path)]
    run = run_measured(args, env=cli_env, cwd=tmp_path, timeout=60, rss_limit_mb=1024)
    assert run.stopped_for is None and run.exit_code == 2, (run.exit_code, run.stderr[-2000:])
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and message in lines[0], run.stderr[-2000:]
    assert run.peak_rss_mb < BOUND_RSS_MB


@pytest.mark.slow
def test_an_xls_claiming_a_huge_sheet_is_read_in_bounded_memory(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    path = xls_claiming_a_huge_sheet(tmp_path)
    run = run_measured(
        ["forms", "infer", str(path)], env=cli_env, cwd=tmp_path, timeout=60, rss_limit_mb=1024
    )
    assert run.exit_code == 0, run.stderr[-2000:]
    assert 'header = "Zip Code"' in run.stdout
    assert run.peak_rss_mb < BOUND_RSS_MB


def test_an_xls_too_big_for_the_memory_budget_is_refused_before_it_is_read() -> None:
    path = SAMPLES / "libreoffice" / "orders.xls"  # 64,000 bytes: about 500 KB to read
    with open_sheet(path, memory_budget_mb=1) as reader:
        assert reader.count_rows() == 300
    with pytest.raises(InputError, match=r"over the reader's memory budget \(0 MB"):
        open_sheet(path, memory_budget_mb=0)


def test_a_panic_is_an_input_error_in_process(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"panic\.xlsb: the workbook cannot be read"):
        open_sheet(panicking_xlsb(tmp_path))


def test_a_forged_far_column_is_refused_in_process(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"spans 1 rows x 4,000,000,001 columns, too large"):
        open_sheet(far_column_xlsb(tmp_path))


def test_repeated_rows_within_bounds_are_read_as_repeated(tmp_path: Path) -> None:
    path = ods(tmp_path, "repeated.ods", repeated_row(1000, 2))
    with open_sheet(path) as reader:
        rows = list(reader.rows())
        assert reader.header == ["Name", "Qty"]
        assert len(rows) == reader.count_rows() == 1000
        assert rows[0].values == ("x", "x") and rows[-1].number == 1001


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("orders.csv", "Name,Qty\nalpha,1\n"),
        ("export.xls", "Name;Qty\nalpha;1\n"),  # systems export CSV under .xls
        ("export.xlsx", "Name\tQty\nalpha\t1\n"),
    ],
)
def test_delimited_text_is_read_as_csv_whatever_its_name(
    tmp_path: Path, name: str, text: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with open_sheet(path) as reader:
        assert (reader.file_format, reader.header) == ("csv", ["Name", "Qty"])
        assert [r.values for r in reader.rows()] == [("alpha", "1")]


@pytest.mark.parametrize("name", ["hello.xlsx", "hello.xls", "hello.ods", "hello.xlsb"])
def test_text_that_is_no_table_under_a_workbook_name_is_refused(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text("hello world\nsecond line\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"plain text file, not a workbook"):
        open_sheet(path)
    plain = tmp_path / "hello.csv"  # a one-column CSV under its own name is still read
    plain.write_text("hello world\nsecond line\n", encoding="utf-8")
    with open_sheet(plain) as reader:
        assert reader.header == ["hello world"]


def test_an_xls_whose_directory_lies_past_its_first_megabyte_is_one(tmp_path: Path) -> None:
    # LibreOffice writes the stream directory of a 12 MB .xls near its end.
    from importer.excel.sniff import make_source, sniff

    sector = 2100  # * 512 bytes: past the first MB
    header = bytearray(512)
    header[:8] = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
    header[0x1E:0x20] = (9).to_bytes(2, "little")
    header[0x30:0x34] = sector.to_bytes(4, "little")
    directory = "Root Entry".encode("utf-16-le").ljust(128, b"\0")
    directory += "Workbook".encode("utf-16-le").ljust(384, b"\0")
    data = bytes(header) + bytes(sector * 512) + directory
    assert sniff(make_source(data, "big.xls")) == "xls"
    with pytest.raises(InputError, match="an Office file that is not a workbook"):
        sniff(make_source(data.replace("Workbook".encode("utf-16-le"), bytes(16)), "big.xls"))
