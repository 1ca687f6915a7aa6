"""open_sheet: sniff the file, pick the engine, return a SheetReader of normalized rows."""

from __future__ import annotations

import contextlib
import io
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from importer.errors import InputError
from importer.excel.base import (
    MAX_COLS,
    MAX_ROWS,
    SheetReader,
    choose_sheet,
    first_with_header,
    sheet_candidates,
)
from importer.excel.calamine_engine import CalamineReader, SheetUnreadable
from importer.excel.calamine_pieces import PiecewiseReader
from importer.excel.csv_engine import CsvReader
from importer.excel.guard import GuardedReader, reading
from importer.excel.ods_scan import open_ods
from importer.excel.openpyxl_engine import OpenpyxlReader
from importer.excel.sniff import Source, make_source, sniff
from importer.excel.special_cells import SpecialCells
from importer.excel.xls_engine import XlrdReader
from importer.excel.xlsb_scan import open_xlsb
from importer.excel.xlsx_parts import (
    XlsxInfo,
    calamine_strings_part,
    count_shared_strings,
    read_xlsx_info,
    shared_strings_bytes,
    sheet_part,
)
from importer.excel.xlsx_pieces import CannotCut, plan_pieces
from importer.excel.xlsx_scan import scan_sheet

ENGINES = ("auto", "calamine", "openpyxl")

# calamine's memory for a sheet, measured: ~1.6x the sheet's XML, ~2x its shared strings.
SHEET_XML_FACTOR = 1.6
STRINGS_XML_FACTOR = 2.0
# Bounding-box cells calamine may allocate (one slot each, ~32 bytes) when asked for
# explicitly: beyond it the sheet is refused (a stray cell at XFD1048576 would need 550 GB).
MAX_CALAMINE_CELLS = 64_000_000
# Above this, peek_sheet reads the header with calamine rather than openpyxl (see _open_xlsx);
# openpyxl took ~0.5 s per MB of shared strings here.
PEEK_STRINGS_BYTES = 1 << 20
# Below this, a piece's parse costs more in shared strings parsed again than it saves.
MIN_PIECE_BYTES = 4 << 20


def open_sheet(
    source: Path | bytes,
    *,
    sheet: str | None = None,
    engine: str = "auto",
    memory_budget_mb: int = 512,
    file_name: str | None = None,
    checked: bool = False,
) -> SheetReader:
    """Open one sheet of a workbook (or a CSV file); InputError for anything refused.

    `checked=True` says these exact bytes already passed open_sheet once (at submit):
    the safety pass over the sheet's cell references is then skipped. Every call on the
    returned reader goes through the same boundary (guard.py): a library's error or panic
    is an InputError, never a traceback.
    """
    if engine not in ENGINES:
        raise InputError(f"unknown engine {engine!r} (choose from {', '.join(ENGINES)})")
    name = _display_name(source, file_name)
    with reading(name):
        src = make_source(source, file_name)
        reader = _open(src, sheet, engine, memory_budget_mb << 20, checked, peek=False)
    return GuardedReader(reader, name)


def _display_name(source: Path | bytes, file_name: str | None) -> str:
    if file_name:
        return file_name
    if isinstance(source, bytes | bytearray | memoryview):
        return "workbook"
    return Path(source).name


def _open(
    src: Source, sheet: str | None, engine: str, budget: int, checked: bool, *, peek: bool
) -> SheetReader:
    fmt = sniff(src)
    if fmt == "csv":
        return CsvReader(src, sheet)
    if fmt == "xlsx":
        return _open_xlsx(src, sheet, engine, budget, checked, peek)
    if engine == "openpyxl":
        raise InputError(
            f"{src.name}: the streaming engine (openpyxl) reads .xlsx and .xlsm only; "
            f"this file is .{fmt}: use --engine calamine or auto"
        )
    if fmt == "xls":
        return XlrdReader(src, sheet, budget)  # whatever the engine asked: see xls_engine.py
    if fmt == "ods":
        return open_ods(src, sheet, budget)
    return open_xlsb(src, sheet, budget)


@dataclass(frozen=True)
class SheetPeek:
    """What open_sheet decides and checks, and the header, without reading the whole sheet."""

    sheet_name: str
    engine: str  # what a full read will use: "calamine" | "openpyxl" | "xlrd" | "csv"
    file_format: str
    header: list[str]
    header_row: int
    date1904: bool


def peek_sheet(
    source: Path | bytes,
    *,
    sheet: str | None = None,
    engine: str = "auto",
    memory_budget_mb: int = 512,
    file_name: str | None = None,
) -> SheetPeek:
    """The checks of open_sheet (same InputErrors) and the header, reading only the sheet's
    first rows for .xlsx/.xlsm and CSV (other formats are read whole). For submit: the
    job reads the rows later with open_sheet(..., engine=peek.engine, checked=True).
    """
    if engine not in ENGINES:
        raise InputError(f"unknown engine {engine!r} (choose from {', '.join(ENGINES)})")
    name = _display_name(source, file_name)
    with reading(name):
        src = make_source(source, file_name)
        reader = _open(src, sheet, engine, memory_budget_mb << 20, checked=False, peek=True)
    with GuardedReader(reader, name) as guarded:
        return SheetPeek(
            sheet_name=guarded.sheet_name,
            engine=guarded.engine,
            file_format=guarded.file_format,
            header=list(guarded.header),
            header_row=guarded.header_row,
            date1904=guarded.date1904,
        )


def reads_in_pieces(content: bytes, sheet: str, memory_budget_mb: int = 512) -> bool:
    """Whether calamine would read this .xlsx sheet in pieces (it is over the budget)."""
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            part = sheet_part(archive, sheet)
            budget = memory_budget_mb << 20
            return part is not None and estimate_calamine_bytes(archive, part) > budget
    except (zipfile.BadZipFile, OSError, ValueError, KeyError, InputError):
        return False


def estimate_calamine_bytes(archive: zipfile.ZipFile, sheet_part: str) -> int:
    """What calamine would hold in memory for the sheet, from the parts' sizes."""
    size = archive.getinfo(sheet_part).file_size * SHEET_XML_FACTOR
    strings = calamine_strings_part(archive)
    if strings is not None:
        size += strings.file_size * STRINGS_XML_FACTOR
    return int(size)


def _open_xlsx(
    src: Source, sheet: str | None, engine: str, budget: int, checked: bool, peek: bool = False
) -> SheetReader:
    try:
        with src.open() as handle, zipfile.ZipFile(handle) as archive:
            info = read_xlsx_info(archive, src.name)
    except zipfile.BadZipFile:
        raise InputError(f"{src.name}: the file is damaged or truncated") from None
    sheets = [(s.name, s.state == "visible") for s in info.sheets]
    return first_with_header(
        sheet_candidates(src.name, sheet, sheets, info.charts),
        lambda chosen: _open_xlsx_sheet(src, chosen, engine, budget, checked, peek),
    )


def _open_xlsx_sheet(
    src: Source, sheet: str, engine: str, budget: int, checked: bool, peek: bool
) -> SheetReader:
    name = src.name
    requested = engine
    try:
        with src.open() as handle, zipfile.ZipFile(handle) as archive:
            info = read_xlsx_info(archive, name)
            chosen = choose_sheet(
                name, sheet, [(s.name, s.state == "visible") for s in info.sheets], info.charts
            )
            part = next(s.path for s in info.sheets if s.name == chosen)
            if part is None or part not in archive.NameToInfo:
                raise InputError(
                    f"{name}: the workbook is damaged (sheet {chosen!r} has no data part)"
                )
            if info.strings_claim_absurd:
                if engine == "calamine":
                    raise InputError(
                        f"{name}: the shared-strings table claims an absurd number of "
                        "strings; use --engine openpyxl (streaming)"
                    )
                engine = "openpyxl"
            strings_bytes = shared_strings_bytes(archive)
            # Over the budget, calamine reads the sheet in pieces (calamine_pieces).
            in_pieces = engine != "openpyxl" and estimate_calamine_bytes(archive, part) > budget
            if engine == "auto":
                engine = "calamine"
            if peek and engine == "calamine" and not in_pieces:
                # openpyxl loads the whole shared-strings table in Python before it gives the
                # header row (seconds for a big one): calamine's whole parse is sooner then.
                peek = strings_bytes <= PEEK_STRINGS_BYTES
            eager_special = (
                engine == "calamine"
                and not peek
                and not in_pieces  # each piece finds its own special cells
                and (not checked or bool(info.zero_padded_styles))
            )
            scan = None
            if not checked:  # the safety pass, before calamine allocates anything
                scan = scan_sheet(archive, part, name, info.zero_padded_styles, special=False)
            strings = None  # what the shared-strings table holds, when the sheet uses it
            if scan is not None and not checked and scan.max_string_index >= 0:
                strings = count_shared_strings(archive, name, enough=scan.max_string_index + 1)
    except zipfile.BadZipFile:
        raise InputError(f"{name}: the file is damaged or truncated") from None

    if scan is not None and not checked:
        if scan.bad_string_index:
            raise InputError(
                f"{name}: sheet {chosen!r} has a text cell pointing at a negative shared-string "
                "number; the file is damaged"
            )
        if strings is not None and scan.max_string_index >= strings:
            # Otherwise found only when the rows are read: after a detached submit, by the job.
            raise InputError(
                f"{name}: sheet {chosen!r} has a text cell pointing at shared string "
                f"{scan.max_string_index:,}, but the shared-strings table holds "
                f"{f'only {strings:,}' if strings else 'none'}; the file is damaged"
            )
        if scan.bad_ref is not None:
            raise InputError(
                f"{name}: sheet {chosen!r} has a cell reference that is not one "
                f"({scan.bad_ref!r}); the file is damaged"
            )
        if scan.max_row > MAX_ROWS or scan.max_col > MAX_COLS:
            raise InputError(
                f"{name}: sheet {chosen!r} refers to cells beyond Excel's limits "
                f"(row {scan.max_row:,}, column {scan.max_col:,}); refusing an absurd file"
            )
        too_big = scan.max_row * scan.max_col > MAX_CALAMINE_CELLS
        if too_big and requested == "auto":
            engine = "openpyxl"  # stray far cells: streaming reads them in constant memory
        elif too_big and engine == "calamine":
            raise InputError(
                f"{name}: sheet {chosen!r} spans up to {scan.max_row:,} rows x {scan.max_col:,} "
                "columns, too large to load at once: use --engine openpyxl (streaming), or "
                "delete stray cells far from the data"
            )
    if engine == "calamine" and in_pieces:
        pieces = _in_pieces(src, chosen, part, info, budget, strings_bytes)
        if pieces is not None:
            return pieces
        if requested == "auto":
            engine = "openpyxl"  # cannot be cut: streaming stays within the budget
        elif not checked or info.zero_padded_styles:
            eager_special = True  # read whole after all: as any calamine read
    if engine == "openpyxl" or peek:
        reader = OpenpyxlReader(src, chosen, zero_styles=info.zero_padded_styles)
        if peek:
            reader.engine = engine  # what a full read will use; this one only saw the header
        return reader
    return _calamine_whole(
        src, chosen, part, info, eager_special, fallback=requested == "auto" or checked
    )


def _calamine_whole(
    src: Source, sheet: str, part: str, info: XlsxInfo, eager_special: bool, *, fallback: bool
) -> SheetReader:
    """calamine's parse of the sheet (in Rust, without the GIL) on a second thread while
    this one finds the special cells (which the header may need); the stream engine instead
    when calamine cannot read the sheet and `fallback`."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="calamine") as pool:
        loading = pool.submit(
            CalamineReader,
            src,
            "xlsx",
            sheet,
            date1904=info.date1904,
            load_overrides=lambda: _special_cells(src, part, info),
            defer_header=True,
        )
        try:
            overrides = _special_cells(src, part, info) if eager_special else None
        except BaseException:
            with contextlib.suppress(BaseException):
                loading.result().close()
            raise
        try:
            reader = loading.result()
        except SheetUnreadable:
            if not fallback:
                raise
            # e.g. error values calamine does not know (#GETTING_DATA): stream it instead.
            return OpenpyxlReader(src, sheet, zero_styles=info.zero_padded_styles)
    return reader.begin(overrides)


def _in_pieces(
    src: Source, sheet: str, part: str, info: XlsxInfo, budget: int, strings_bytes: int
) -> SheetReader | None:
    """The sheet read by calamine a piece at a time, two pieces in memory at most beside
    the shared strings (which every piece's load parses); None if it cannot be cut."""
    try:
        plan = plan_pieces(src, part, piece_size(budget, strings_bytes))
    except CannotCut:
        return None
    if len(plan.cuts) < 2:
        return None
    return PiecewiseReader(src, sheet, info, plan, [s.name for s in info.sheets])


def piece_size(budget: int, strings_bytes: int) -> int:
    """Sheet XML bytes per piece. Measured at 1,000,000 Excel-like rows (two million unique
    texts, 70 MB of shared strings, 9 MB pieces): peak 422 MB for the whole import, 573 MB
    with pieces twice as big, 357 MB with pieces a third smaller (and slower: each piece
    costs its own parse of its strings and its own pass for special cells)."""
    room = budget - strings_bytes * STRINGS_XML_FACTOR * 2
    return max(MIN_PIECE_BYTES, int(room / (SHEET_XML_FACTOR * 16)))


def _special_cells(src: Source, part: str, info: XlsxInfo) -> SpecialCells:
    with src.open() as handle, zipfile.ZipFile(handle) as archive:
        scan = scan_sheet(
            archive, part, src.name, info.zero_padded_styles, bounds=False, special=True
        )
    return scan.special()
