""".xls files whose declared sizes are wrong, which other readers open: read after the safety
pass (xls_scan.check_xls) made them true; by calamine, bounded by the pass, with a note
saying so, when xlrd cannot parse the file.

The damaged files are built here from real ones (the corpus's, and the sample orders.xls):
the shared-string table's count raised, lowered or zeroed (xlrd asserted it, or failed on
the first text past it, "list index out of range"), the Workbook directory entry's stream
size raised past the file's end (xlrd's compound-file reader gives up: calamine reads it),
a sheet's DIMENSIONS record claiming 65,536 x 256 or four billion rows for a few cells.
"""

from __future__ import annotations

import io
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import xlrd

from importer.errors import InputError
from importer.excel import open_sheet, peek_sheet
from importer.excel.xls_records import count_strings, scan_xls
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


def wrong_string_count(data: bytes, change: int = 7) -> bytes | None:
    """The file with its shared-string table claiming ``change`` strings more than it holds
    (fewer when negative; None: it has no table)."""
    stream = workbook_stream(data).data
    for kind, start, _ in _records(stream):
        if kind == _SST:
            total, unique = struct.unpack_from("<II", stream, start)
            claim = max(unique + change, 0)
            return _patched(data, _SST, struct.pack("<II", max(total + change, 0), claim))
    return None


def stream_past_the_file(data: bytes) -> bytes:
    """The file with its Workbook directory entry claiming four times the file's size:
    xlrd refuses it, calamine reads the sector chain (the pass holds it to the budget)."""
    return _workbook_entry_size(data, len(data) * 4)


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


def _corpus_xls(keep: Callable[[bytes], bool]) -> list[Path]:
    out = []
    for path in sorted(CORPUS.rglob("*.xls")):
        data = path.read_bytes()
        if data.startswith(b"\xd0\xcf\x11\xe0") and keep(data):
            out.append(path)
    return out


CORPUS_XLS = _corpus_xls(lambda data: wrong_string_count(data) is not None)
# Their Workbook stream in whole sectors (a small one lives in the mini stream).
CORPUS_BIG_STREAM = _corpus_xls(lambda data: len(workbook_stream(data).data) >= 4096)


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


def test_the_corpus_gives_enough_files_to_damage() -> None:
    assert len(CORPUS_XLS) >= 40 and len(CORPUS_BIG_STREAM) >= 30


@pytest.mark.parametrize("path", CORPUS_XLS, ids=lambda p: str(p.relative_to(CORPUS)))
def test_the_pass_counts_the_strings_every_table_declares(path: Path) -> None:
    stream = workbook_stream(path.read_bytes()).data
    strings = scan_xls(stream, special=False).strings
    assert strings is not None and strings.held == strings.declared


def _same_or_same_refusal(original: bytes, damaged: bytes) -> tuple[Read, Read] | None:
    """Both read (as original.xls); None when the original's first sheet is empty and the
    damaged copy is refused the same."""
    try:
        first = read_all(original, "original.xls")
    except InputError as empty:
        with pytest.raises(InputError) as refused:
            read_all(damaged, "original.xls")
        assert str(refused.value) == str(empty)
        return None
    return first, read_all(damaged, "original.xls")


@pytest.mark.parametrize("change", [7, -1, "none"])
@pytest.mark.parametrize("path", CORPUS_XLS, ids=lambda p: str(p.relative_to(CORPUS)))
def test_a_wrong_string_count_is_read_as_the_strings_the_table_holds(
    path: Path, change: int | str
) -> None:
    data = path.read_bytes()
    claims = -(1 << 31) if change == "none" else int(change)
    damaged = wrong_string_count(data, claims)
    assert damaged is not None
    if damaged == data:
        return  # a table of no string: none to claim fewer of
    read = _same_or_same_refusal(data, damaged)
    if read is not None:
        original, fixed = read
        assert original[0] == fixed[0] == "xlrd" and fixed == original  # no note either


@pytest.mark.parametrize("path", CORPUS_BIG_STREAM, ids=lambda p: str(p.relative_to(CORPUS)))
def test_a_file_xlrd_cannot_parse_is_read_by_calamine_as_xlrd_reads_the_original(
    path: Path,
) -> None:
    data = path.read_bytes()
    damaged = stream_past_the_file(data)
    assert xlrd_refuses(damaged)
    read = _same_or_same_refusal(data, damaged)
    if read is None:
        return
    original, (engine, header, rows, notes) = read
    assert original[0] == "xlrd" and engine == "calamine"
    assert (header, rows) == (original[1], original[2])  # zero-padded and error cells too
    assert len(notes) == 1  # xlrd's reason in brackets
    assert notes[0].startswith("original.xls: read with calamine, since xlrd cannot parse this")


def test_zero_padded_numbers_keep_their_padding_when_calamine_reads() -> None:
    damaged = stream_past_the_file((SAMPLES / "orders.xls").read_bytes())
    engine, header, rows, _ = read_all(damaged, "orders.xls")
    zip_codes = [str(row[header.index("Zip Code")]) for row in rows]  # type: ignore[index]
    assert engine == "calamine" and zip_codes[:2] == ["00501", "02134"]


def test_a_peek_carries_the_note() -> None:
    damaged = stream_past_the_file((SAMPLES / "orders.xls").read_bytes())
    peek = peek_sheet(damaged, file_name="orders.xls")
    assert peek.engine == "calamine" and peek.header[0] == "Order ID"
    assert peek.notes[0].startswith("orders.xls: read with calamine, since xlrd cannot parse")
    assert peek_sheet(SAMPLES / "orders.xls").notes == ()


def test_a_directory_entry_claiming_more_than_the_file_holds() -> None:
    data = (SAMPLES / "orders.xls").read_bytes()
    damaged = stream_past_the_file(data)
    engine, header, rows, notes = read_all(damaged, "orders.xls")
    assert engine == "calamine" and (header, rows) == read_all(data, "orders.xls")[1:3]
    assert len(notes) == 1 and notes[0].startswith(
        "orders.xls: read with calamine, since xlrd cannot parse this .xls ('Workbook' "
        f"stream length ({len(data) * 4} bytes) > file data size ("
    )


@pytest.mark.parametrize("rows", [65_536, 4_000_000_000])
@pytest.mark.parametrize("xlrd_parses", [True, False])
def test_a_sheet_is_sized_by_the_cells_it_holds_not_by_its_dimensions(
    tmp_path: Path, rows: int, xlrd_parses: bool
) -> None:
    data = (SAMPLES / "orders.xls").read_bytes()
    claims = _patched(data, _DIMENSIONS, struct.pack("<IIHH", 0, rows, 0, 256))
    path = tmp_path / "claims.xls"
    path.write_bytes(claims if xlrd_parses else stream_past_the_file(claims))
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
    engine = "xlrd" if xlrd_parses else "calamine"
    assert (child.returncode, child.stdout.strip(), child.stderr) == (0, f"{engine} 30", "")


def test_a_sheet_whose_cells_really_span_too_far_is_refused_by_them() -> None:
    damaged = stream_past_the_file((SAMPLES / "orders.xls").read_bytes())
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
    path = tmp_path / "orders.xls"
    path.write_bytes(stream_past_the_file((SAMPLES / "orders.xls").read_bytes()))
    assert cli("forms", "add", str(SAMPLES / "orders.form.toml")).exit_code == 0
    result = cli("submit", str(path), "--form", "orders", "--quiet", "--json")
    assert result.exit_code in (0, 3), result.stderr
    assert '"success_rows"' in result.stdout


def test_submit_and_check_say_that_calamine_read_the_file(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "orders.xls"
    path.write_bytes(stream_past_the_file((SAMPLES / "orders.xls").read_bytes()))
    assert cli("forms", "add", str(SAMPLES / "orders.form.toml")).exit_code == 0
    note = "note: orders.xls: read with calamine, since xlrd cannot parse this .xls ("
    checked = cli("check", str(path), "--form", "orders")
    assert checked.exit_code == 3 and note in checked.stderr, checked.stderr
    submitted = cli("submit", str(path), "--form", "orders")
    assert submitted.exit_code == 3 and note in submitted.stderr, submitted.stderr
    quiet = cli("submit", str(path), "--form", "orders", "--force", "--quiet")
    assert note not in quiet.stderr


def _string(text: str, wide: bool = False, runs: int = 0, phonetic: bytes = b"") -> bytes:
    """An XLUnicodeRichExtendedString: its header, characters, runs and phonetic block."""
    flags = int(wide) | (0x08 if runs else 0) | (0x04 if phonetic else 0)
    out = struct.pack("<HB", len(text), flags)
    out += struct.pack("<H", runs) if runs else b""
    out += struct.pack("<i", len(phonetic)) if phonetic else b""
    out += text.encode("utf-16-le" if wide else "latin-1")
    return out + bytes(4 * runs) + phonetic


COUNTS = struct.pack("<II", 0, 0)
RICH = _string("rich", runs=3)  # its header (5 bytes), 4 characters, 3 runs of 4 bytes
RUBY = _string("ruby", phonetic=bytes(10))  # its header (7 bytes), 4 characters, 10 bytes
# The SST record's data and its CONTINUE records': how many strings xlrd reads from them.
TABLES: dict[str, tuple[list[bytes], int]] = {
    "within one record": ([COUNTS + _string("alpha") + _string("béta", wide=True)], 2),
    "characters across a CONTINUE, 16-bit after it": (
        [
            COUNTS + _string("x" * 40)[:23],  # the header and 20 x's
            b"\x01" + ("x" * 20).encode("utf-16-le") + _string("y" * 30),
        ],
        2,
    ),
    "runs and a phonetic block across CONTINUEs": (
        [COUNTS + RICH[:13], RICH[13:] + RUBY[:17], RUBY[17:] + _string("end")],
        3,
    ),
    "a last string cut short": ([COUNTS + _string("whole") + _string("cut" * 10)[:12]], 1),
}


@pytest.mark.parametrize("case", sorted(TABLES))
def test_strings_are_counted_as_xlrd_reads_them(case: str) -> None:
    from xlrd.book import unpack_SST_table

    pieces, held = TABLES[case]
    stream = b"".join(
        struct.pack("<HH", 0x00FC if i == 0 else 0x003C, len(p)) + p for i, p in enumerate(pieces)
    )
    assert count_strings(stream + struct.pack("<HH", 0x000A, 0), 4) == held
    strings, _ = unpack_SST_table(pieces, held)
    assert len(strings) == held and strings[-1] in ("béta", "y" * 30, "end", "whole")
    with pytest.raises((AssertionError, IndexError, struct.error)):
        unpack_SST_table(pieces, held + 1)
