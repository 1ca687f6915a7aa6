""".xls files xlrd cannot parse but other readers open: read by calamine, bounded by a pass
over the records, with a note saying so.

The damaged files are built here from real ones (the corpus's, and the sample orders.xls):
the shared-string table's counts raised (xlrd asserts them), the Workbook directory entry's
stream size raised past the file's end (xlrd's compound-file reader gives up), a sheet's
DIMENSIONS record claiming 65,536 x 256 or four billion rows for a few cells.
"""

from __future__ import annotations

import io
import struct
import subprocess
import sys
from pathlib import Path

import pytest
import xlrd

from importer.errors import InputError
from importer.excel import open_sheet, peek_sheet
from importer.excel.xls_scan import workbook_stream
from tests.conftest import Cli

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_data"
CORPUS = ROOT / "tests" / "corpus" / "files"
_SST, _DIMENSIONS, _LABELSST = 0x00FC, 0x0200, 0x00FD


def _records(stream: bytes) -> list[tuple[int, int, int]]:
    out, at = [], 0
    while at + 4 <= len(stream):
        kind, length = struct.unpack_from("<HH", stream, at)
        out.append((kind, at + 4, length))
        at += 4 + length
    return out


def _patched(data: bytes, kind: int, change: bytes, at: int = 0, nth: int = 0) -> bytes:
    """The file with the `nth` record of `kind` in its Workbook stream overwritten from byte
    `at` of the record's data (through the sectors the stream lies in)."""
    stream = workbook_stream(data)
    starts = [start for k, start, _ in _records(stream.data) if k == kind]
    out = bytearray(data)
    for index, byte in enumerate(change):
        out[stream.file_offset(starts[nth] + at + index)] = byte
    return bytes(out)


def wrong_string_count(data: bytes) -> bytes | None:
    """The file with its shared-string table claiming 7 strings more than it holds."""
    stream = workbook_stream(data).data
    for kind, start, _ in _records(stream):
        if kind == _SST:
            total, unique = struct.unpack_from("<II", stream, start)
            return _patched(data, _SST, struct.pack("<II", total + 7, unique + 7))
    return None


def xlrd_refuses(data: bytes) -> bool:
    try:
        xlrd.open_workbook(
            file_contents=data, formatting_info=True, on_demand=True, logfile=io.StringIO()
        )
    except Exception:
        return True
    return False


Read = tuple[str, list[str], list[object], tuple[str, ...]]


def read_all(source: Path | bytes, name: str) -> Read:
    with open_sheet(source, file_name=name) as reader:
        return reader.engine, reader.header, [r.values for r in reader.rows()], reader.notes


def _xls_with_strings() -> list[Path]:
    out = []
    for path in sorted(CORPUS.rglob("*.xls")):
        data = path.read_bytes()
        if data.startswith(b"\xd0\xcf\x11\xe0") and wrong_string_count(data) is not None:
            out.append(path)
    return out


CORPUS_XLS = _xls_with_strings()


def test_the_corpus_gives_enough_files_to_damage() -> None:
    assert len(CORPUS_XLS) >= 40


@pytest.mark.parametrize("path", CORPUS_XLS, ids=lambda p: str(p.relative_to(CORPUS)))
def test_a_wrong_string_count_is_read_by_calamine_as_xlrd_reads_the_file(path: Path) -> None:
    data = path.read_bytes()
    damaged = wrong_string_count(data)
    assert damaged is not None and xlrd_refuses(damaged)
    try:
        original = read_all(data, "original.xls")
    except InputError as empty:  # an empty first sheet: the damaged copy says the same
        with pytest.raises(InputError) as refused:
            read_all(damaged, "original.xls")
        assert str(refused.value) == str(empty)
        return
    engine, header, rows, notes = read_all(damaged, "damaged.xls")
    assert original[0] == "xlrd" and engine == "calamine"
    assert (header, rows) == (original[1], original[2])  # zero-padded and error cells too
    assert len(notes) == 1  # xlrd's reason in brackets: an assertion, a short record...
    assert notes[0].startswith("damaged.xls: read with calamine, since xlrd cannot parse this")


def test_zero_padded_numbers_keep_their_padding_when_calamine_reads() -> None:
    damaged = wrong_string_count((SAMPLES / "orders.xls").read_bytes())
    assert damaged is not None
    engine, header, rows, _ = read_all(damaged, "orders.xls")
    zip_codes = [str(row[header.index("Zip Code")]) for row in rows]  # type: ignore[index]
    assert engine == "calamine" and zip_codes[:2] == ["00501", "02134"]


def test_a_peek_carries_the_note() -> None:
    damaged = wrong_string_count((SAMPLES / "orders.xls").read_bytes())
    assert damaged is not None
    peek = peek_sheet(damaged, file_name="orders.xls")
    assert peek.engine == "calamine" and peek.header[0] == "Order ID"
    assert peek.notes[0].startswith("orders.xls: read with calamine, since xlrd cannot parse")
    assert peek_sheet(SAMPLES / "orders.xls").notes == ()


def _workbook_entry_size(data: bytes, size: int) -> bytes:
    """The file with the Workbook stream's directory entry claiming `size` bytes."""
    shift = struct.unpack_from("<H", data, 0x1E)[0]
    first = struct.unpack_from("<I", data, 0x30)[0]
    sector = 1 << shift
    directory = (first + 1) * sector
    name = "Workbook".encode("utf-16-le")
    at = data.index(name, directory)
    out = bytearray(data)
    struct.pack_into("<I", out, at + 120, size)
    return bytes(out)


def test_a_directory_entry_claiming_more_than_the_file_holds() -> None:
    data = (SAMPLES / "orders.xls").read_bytes()
    damaged = _workbook_entry_size(data, len(data) * 4)
    assert xlrd_refuses(damaged)
    engine, header, rows, notes = read_all(damaged, "orders.xls")
    assert engine == "calamine" and (header, rows) == read_all(data, "orders.xls")[1:3]
    assert len(notes) == 1 and notes[0].startswith(
        "orders.xls: read with calamine, since xlrd cannot parse this .xls ('Workbook' "
        f"stream length ({len(data) * 4} bytes) > file data size ("
    )


@pytest.mark.parametrize("rows", [65_536, 4_000_000_000])
def test_a_sheet_is_sized_by_the_cells_it_holds_not_by_its_dimensions(
    tmp_path: Path, rows: int
) -> None:
    damaged = wrong_string_count((SAMPLES / "orders.xls").read_bytes())
    assert damaged is not None
    claims = _patched(damaged, _DIMENSIONS, struct.pack("<IIHH", 0, rows, 0, 256))
    path = tmp_path / "claims.xls"
    path.write_bytes(claims)
    # A child process: calamine aborts the process on a claim it cannot reserve.
    child = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from pathlib import Path; from importer.excel import open_sheet\n"
            "with open_sheet(Path(sys.argv[1])) as r: print(r.engine, r.count_rows())",
            str(path),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert (child.returncode, child.stdout.strip(), child.stderr) == (0, "calamine 30", "")


def test_a_sheet_whose_cells_really_span_too_far_is_refused_by_them() -> None:
    damaged = wrong_string_count((SAMPLES / "orders.xls").read_bytes())
    assert damaged is not None
    # One text cell moved to row 65,536, column 16,384: a box of a billion cells.
    stray = _patched(damaged, _LABELSST, struct.pack("<HH", 65_535, 16_383), nth=5)
    with pytest.raises(InputError) as refused:
        open_sheet(stray, file_name="stray.xls")
    assert str(refused.value) == (
        "stray.xls: sheet 'Orders' spans 65,536 rows x 16,384 columns, too large to load "
        "at once; delete stray cells far from the data"
    )


def test_a_file_neither_reader_can_parse_says_both_reasons() -> None:
    data = (SAMPLES / "orders.xls").read_bytes()
    wreck = _patched(data, 0x0809, b"\0\0", at=-4)  # the workbook's first record is none
    assert xlrd_refuses(wreck)
    with pytest.raises(InputError) as refused:
        open_sheet(wreck, file_name="wreck.xls")
    assert str(refused.value) == (
        "wreck.xls: the workbook cannot be read (Unsupported format, or corrupt file: "
        "Expected BOF record; found b'\\x00\\x00\\x10\\x00\\x00\\x06\\x05\\x00')"
    )


def test_submit_imports_a_file_xlrd_cannot_parse(cli: Cli, tmp_path: Path) -> None:
    damaged = wrong_string_count((SAMPLES / "orders.xls").read_bytes())
    assert damaged is not None
    path = tmp_path / "orders.xls"
    path.write_bytes(damaged)
    assert cli("forms", "add", str(SAMPLES / "orders.form.toml")).exit_code == 0
    result = cli("submit", str(path), "--form", "orders", "--quiet", "--json")
    assert result.exit_code in (0, 3), result.stderr
    assert '"success_rows"' in result.stdout


def test_submit_and_check_say_that_calamine_read_the_file(cli: Cli, tmp_path: Path) -> None:
    damaged = wrong_string_count((SAMPLES / "orders.xls").read_bytes())
    assert damaged is not None
    path = tmp_path / "orders.xls"
    path.write_bytes(damaged)
    assert cli("forms", "add", str(SAMPLES / "orders.form.toml")).exit_code == 0
    note = "note: orders.xls: read with calamine, since xlrd cannot parse this .xls ("
    checked = cli("check", str(path), "--form", "orders")
    assert checked.exit_code == 3 and note in checked.stderr, checked.stderr
    submitted = cli("submit", str(path), "--form", "orders")
    assert submitted.exit_code == 3 and note in submitted.stderr, submitted.stderr
    quiet = cli("submit", str(path), "--form", "orders", "--force", "--quiet")
    assert note not in quiet.stderr
