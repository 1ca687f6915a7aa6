"""open_sheet: sniff the file, gather the facts reading_plan decides on, build its reader."""

from __future__ import annotations

import contextlib
import io
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from importer.config import Engine, check_engine
from importer.errors import InputError
from importer.excel.base import (
    SheetReader,
    choose_sheet,
    first_with_header,
    sheet_candidates,
)
from importer.excel.calamine_engine import CalamineReader, SheetUnreadable
from importer.excel.calamine_pieces import PiecewiseReader, piece_reader, release_freed_memory
from importer.excel.calamine_workbook import calamine_sheets, open_calamine_workbook
from importer.excel.csv_engine import CsvReader
from importer.excel.guard import GuardedReader, reading
from importer.excel.layout import HeaderLayout
from importer.excel.ods_scan import open_ods
from importer.excel.openpyxl_engine import OpenpyxlReader
from importer.excel.reading_plan import PEEK_STRINGS_BYTES as PEEK_STRINGS_BYTES
from importer.excel.reading_plan import (
    Reader,
    ReadingPlan,
    ReadRequest,
    Refusal,
    SafetyScan,
    WorkbookFacts,
    XlsxSheetFacts,
    plan_reading,
)
from importer.excel.sniff import Source, make_source, sniff
from importer.excel.special_cells import SpecialCells
from importer.excel.xls_scan import open_xls, xls_sheets
from importer.excel.xlsb_scan import open_xlsb
from importer.excel.xlsx_parts import (
    XlsxInfo,
    calamine_strings_part,
    count_shared_strings,
    read_xlsx_info,
    shared_strings_bytes,
    sheet_part,
)
from importer.excel.xlsx_pieces import CannotCut, PieceMaker, plan_pieces
from importer.excel.xlsx_scan import RowsScanner, SheetScan, scan_sheet
from importer.excel.xlsx_split import first_rows
from importer.thread_names import name_os_thread

# calamine's memory for a sheet, measured: ~1.6x the sheet's XML, ~2x its shared strings.
SHEET_XML_FACTOR = 1.6
STRINGS_XML_FACTOR = 2.0
# Below this, a piece's parse costs more in shared strings parsed again than it saves.
MIN_PIECE_BYTES = 4 << 20
HEAD_BYTES = 256 << 10  # a peek's first rows (about 1,000 of ten columns)


def open_sheet(
    source: Path | bytes,
    *,
    sheet: str | None = None,
    engine: str = "auto",
    memory_budget_mb: int = 512,
    file_name: str | None = None,
    checked: bool = False,
    layout: HeaderLayout | None = None,
) -> SheetReader:
    """Open one sheet of a workbook (or a CSV file); InputError for anything refused.

    `checked=True` says these exact bytes already passed open_sheet once (at submit):
    the safety pass over the sheet's cell references is then skipped. Every call on the
    returned reader goes through the same boundary (guard.py): a library's error or panic
    is an InputError, never a traceback.
    """
    request = ReadRequest(check_engine(engine), peek=False, memory_budget=memory_budget_mb << 20)
    name = _display_name(source, file_name)
    with reading(name):
        reader = _open(make_source(source, file_name), sheet, request, checked)
    guarded = GuardedReader(reader, name)
    if layout is not None:
        try:
            guarded.lay_out(layout)
        except BaseException:
            guarded.close()
            raise
    return guarded


def list_sheets(
    source: Path | bytes, *, file_name: str | None = None, memory_budget_mb: int = 512
) -> list[tuple[str, bool]]:
    """(name, visible) of the workbook's worksheets, in order (a CSV file: one, "csv");
    InputError for a file that is no workbook (an .xls: or that the safety pass refuses)."""
    name = _display_name(source, file_name)
    with reading(name):
        src = make_source(source, file_name)
        fmt = sniff(src)
        if fmt == "csv":
            return [("csv", True)]
        if fmt == "xls":
            return xls_sheets(src, memory_budget_mb << 20)
        if fmt == "xlsx":
            try:
                with src.open() as handle, zipfile.ZipFile(handle) as archive:
                    info = read_xlsx_info(archive, src.name)
            except zipfile.BadZipFile:
                raise InputError(f"{src.name}: the file is damaged or truncated") from None
            return [(s.name, s.state == "visible") for s in info.sheets]
        workbook = open_calamine_workbook(src, fmt)
        try:
            return calamine_sheets(workbook)
        finally:
            with contextlib.suppress(Exception):
                workbook.close()


def _display_name(source: Path | bytes, file_name: str | None) -> str:
    if file_name:
        return file_name
    if isinstance(source, bytes | bytearray | memoryview):
        return "workbook"
    return Path(source).name


def _open(src: Source, sheet: str | None, request: ReadRequest, checked: bool) -> SheetReader:
    fmt = sniff(src)
    if fmt == "xlsx":
        return _open_xlsx(src, sheet, request, checked)
    plan = _decided(plan_reading(WorkbookFacts(src.name, fmt), request))
    budget = request.memory_budget
    if plan.reader is Reader.CSV:
        return CsvReader(src, sheet)
    if plan.reader is Reader.XLRD:  # the safety pass first, then xlrd (or calamine)
        return open_xls(src, sheet, budget)
    if plan.reader is Reader.CALAMINE_ODS:
        return open_ods(src, sheet, budget)
    return open_xlsb(src, sheet, budget)


def _decided(plan: ReadingPlan | Refusal) -> ReadingPlan:
    if isinstance(plan, Refusal):
        raise InputError(plan.message)
    return plan


@dataclass(frozen=True)
class SheetPeek:
    """What open_sheet decides and checks, and the header, without reading the whole sheet."""

    sheet_name: str
    engine: str  # what a full read will use: "calamine" | "openpyxl" | "xlrd" | "csv"
    file_format: str
    header: list[str]
    header_row: int
    date1904: bool
    notes: tuple[str, ...] = ()  # how the file was read, for the sender (one line each)
    has_rows: bool = True  # a row under the header (False: a header alone)
    layout: dict[str, object] | None = None  # where the header is (SheetReader.layout_json)
    safety_pending: bool = False  # only the first rows were measured (peek_sheet)


def calamine_may_read(
    source: Path | bytes,
    *,
    sheet: str,
    measured: SheetScan,
    engine: str = "auto",
    memory_budget_mb: int = 512,
    file_name: str | None = None,
) -> bool:
    """The safety pass's verdict on a sheet its caller's own pass ``measured`` (the columnar
    split, after a peek with head_safety): an InputError for what open_sheet refuses, as
    open_sheet words it; False when calamine would not read the sheet at all (the rows go
    to the streaming reader, which the caller opens with checked=False)."""
    request = ReadRequest(check_engine(engine), peek=False, memory_budget=memory_budget_mb << 20)
    name = _display_name(source, file_name)
    with reading(name):
        src = make_source(source, file_name)
        _chosen, _facts, plan, _ = _planned(src, sheet, request, False, measured)
    return plan.engine is Engine.CALAMINE


def peek_sheet(
    source: Path | bytes,
    *,
    sheet: str | None = None,
    engine: str = "auto",
    memory_budget_mb: int = 512,
    file_name: str | None = None,
    layout: HeaderLayout | None = None,
    head_safety: bool = False,
) -> SheetPeek:
    """The checks of open_sheet (same InputErrors) and the header, reading only the sheet's
    first rows for .xlsx/.xlsm and CSV (other formats are read whole). For submit: the
    job reads the rows later with open_sheet(..., engine=peek.engine, checked=True).

    ``head_safety``: the caller's own pass over the rows takes the safety pass's measures
    (the columnar split, see importer.columnar): where the first rows are ordinary, only they
    are measured now, and the peek says ``safety_pending``. Its bytes are not checked then:
    a reader that does not take those measures opens them with checked=False.
    """
    request = ReadRequest(
        check_engine(engine),
        peek=True,
        memory_budget=memory_budget_mb << 20,
        head_safety=head_safety,
    )
    name = _display_name(source, file_name)
    with reading(name):
        reader = _open(make_source(source, file_name), sheet, request, checked=False)
    guarded = GuardedReader(reader, name)
    with guarded:
        if layout is not None:
            guarded.lay_out(layout)
        return SheetPeek(
            sheet_name=guarded.sheet_name,
            engine=guarded.engine,
            file_format=guarded.file_format,
            header=list(guarded.header),
            header_row=guarded.header_row,
            date1904=guarded.date1904,
            notes=guarded.notes,
            # One row past the header: a sheet with none is refused before any job exists.
            has_rows=next(iter(guarded.batches(1)), None) is not None,
            layout=guarded.layout_json(),
            safety_pending=guarded.safety_pending,
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


def _open_xlsx(src: Source, sheet: str | None, request: ReadRequest, checked: bool) -> SheetReader:
    try:
        with src.open() as handle, zipfile.ZipFile(handle) as archive:
            info = read_xlsx_info(archive, src.name)
    except zipfile.BadZipFile:
        raise InputError(f"{src.name}: the file is damaged or truncated") from None
    sheets = [(s.name, s.state == "visible") for s in info.sheets]
    return first_with_header(
        sheet_candidates(src.name, sheet, sheets, info.charts),
        lambda chosen: _open_xlsx_sheet(src, chosen, request, checked),
    )


def _open_xlsx_sheet(src: Source, sheet: str, request: ReadRequest, checked: bool) -> SheetReader:
    """The facts about the sheet, its reading plan, and the reader the plan says."""
    chosen, facts, plan, pending = _planned(src, sheet, request, checked)
    if plan.reader is Reader.CALAMINE_HEAD:
        head = _calamine_head(src, chosen)
        if head is not None:
            head.safety_pending = pending
            return head
        if pending:  # more than the first rows is read: the whole safety pass first
            return _open_xlsx_sheet(src, sheet, replace(request, head_safety=False), checked)
        assert plan.if_uncut is not None
        plan = plan.if_uncut
    if plan.reader is Reader.CALAMINE_PIECES:
        pieces = _in_pieces(src, chosen, request.memory_budget, facts.shared_strings_bytes)
        if pieces is not None:
            return pieces
        assert plan.if_uncut is not None
        plan = plan.if_uncut
    if plan.reader is Reader.OPENPYXL_STREAMING:
        reader = OpenpyxlReader(src, chosen.name, zero_styles=chosen.info.zero_padded_styles)
        if plan.engine is Engine.CALAMINE:  # a peek's stand-in: the full read uses calamine
            reader.engine = plan.engine.value
        reader.safety_pending = pending
        return reader
    return _calamine_whole(src, chosen, plan.eager_special, fallback=plan.fallback_to_streaming)


@dataclass(frozen=True)
class _ChosenSheet:
    info: XlsxInfo  # the package's small parts
    name: str
    part: str  # the part holding its cells


def _planned(
    src: Source,
    sheet: str,
    request: ReadRequest,
    checked: bool,
    measured: SheetScan | None = None,
) -> tuple[_ChosenSheet, XlsxSheetFacts, ReadingPlan, bool]:
    """The sheet's facts read from the package (the safety pass too, on bytes not checked
    before, unless the request is refused without it) and the plan for them; and whether
    the pass measured only the first rows (a request for head_safety, _head_safety).
    ``measured``: the pass's measures, taken by another pass over the rows."""
    name = src.name
    try:
        with src.open() as handle, zipfile.ZipFile(handle) as archive:
            info = read_xlsx_info(archive, name)
            sheets = [(s.name, s.state == "visible") for s in info.sheets]
            chosen = choose_sheet(name, sheet, sheets, info.charts)
            part = next(s.path for s in info.sheets if s.name == chosen)
            if part is None or part not in archive.NameToInfo:
                raise InputError(
                    f"{name}: the workbook is damaged (sheet {chosen!r} has no data part)"
                )
            facts = XlsxSheetFacts(
                file_name=name,
                sheet=chosen,
                calamine_bytes=estimate_calamine_bytes(archive, part),
                shared_strings_bytes=shared_strings_bytes(archive),
                strings_claim_absurd=info.strings_claim_absurd,
                zero_padded_styles=bool(info.zero_padded_styles),
                bytes_checked=checked,
            )
            plan = plan_reading(facts, request)
            pending = False
            if not checked and not isinstance(plan, Refusal):
                # The safety pass, before calamine allocates anything.
                head = None
                if request.head_safety and measured is None:
                    head = _head_safety(src, archive, facts, request, part, info)
                if head is not None:
                    facts, plan, pending = head
                else:
                    if measured is None:
                        measured = scan_sheet(
                            archive, part, name, info.zero_padded_styles, special=False
                        )
                    facts = replace(facts, scan=_safety_of(measured, archive, name))
                    plan = plan_reading(facts, request)
    except zipfile.BadZipFile:
        raise InputError(f"{name}: the file is damaged or truncated") from None
    return _ChosenSheet(info, chosen, part), facts, _decided(plan), pending


def _head_safety(
    src: Source,
    archive: zipfile.ZipFile,
    facts: XlsxSheetFacts,
    request: ReadRequest,
    part: str,
    info: XlsxInfo,
) -> tuple[XlsxSheetFacts, ReadingPlan, bool] | None:
    """The safety pass over the sheet's first rows alone, which are all a peek reads (its
    caller measures the rest in its own pass): the facts, the plan and True when those rows
    are ordinary and the plan reads only them; None: the whole pass is wanted."""
    try:
        plan, rows = first_rows(src, part, HEAD_BYTES)
    except CannotCut:
        return None
    scan = SheetScan()
    RowsScanner(plan.prefix, info.zero_padded_styles).measure(rows, scan)
    facts = replace(facts, scan=_safety_of(scan, archive, facts.file_name))
    planned = plan_reading(facts, request)
    if isinstance(planned, Refusal) or planned.engine is not Engine.CALAMINE:
        return None  # refused, or read otherwise: as the whole pass says
    if planned.reader not in (Reader.CALAMINE_HEAD, Reader.OPENPYXL_STREAMING):
        return None  # (openpyxl streams a peek's rows in constant memory)
    return facts, planned, True


def _safety_of(scan: SheetScan, archive: zipfile.ZipFile, name: str) -> SafetyScan:
    """The safety pass's facts from its measures (the shared strings counted when a text
    cell uses one, as far as the largest it uses)."""
    held = None
    if scan.max_string_index >= 0:
        held = count_shared_strings(archive, name, enough=scan.max_string_index + 1)
    return SafetyScan(
        max_row=scan.max_row,
        max_col=scan.max_col,
        bad_ref=scan.bad_ref,
        bad_string_index=scan.bad_string_index,
        max_string_index=scan.max_string_index,
        strings_held=held,
    )


def _calamine_whole(
    src: Source, sheet: _ChosenSheet, eager_special: bool, *, fallback: bool
) -> SheetReader:
    """calamine's parse of the sheet (in Rust, without the GIL) on a second thread while
    this one finds the special cells (which the header may need); the stream engine instead
    when calamine cannot read the sheet and `fallback`."""
    with ThreadPoolExecutor(
        max_workers=1, thread_name_prefix="calamine", initializer=name_os_thread
    ) as pool:
        loading = pool.submit(
            CalamineReader.loading,
            src,
            sheet.name,
            date1904=sheet.info.date1904,
            load_overrides=lambda: _special_cells(src, sheet),
        )
        try:
            overrides = _special_cells(src, sheet) if eager_special else None
            release_freed_memory()  # the scan's buffers, before calamine's peak
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
            return OpenpyxlReader(src, sheet.name, zero_styles=sheet.info.zero_padded_styles)
    return reader.begin(overrides)


def _calamine_head(src: Source, sheet: _ChosenSheet) -> SheetReader | None:
    """calamine over the sheet's first rows as a small workbook (xlsx_split.first_rows): its
    header and a row after it, for a peek; None when they are not both among them."""
    try:
        plan, rows = first_rows(src, sheet.part, HEAD_BYTES)
    except CannotCut:
        return None
    info = sheet.info
    maker = PieceMaker(src, plan, [s.path for s in info.sheets if s.path])
    try:
        head = Source(None, maker.workbook(rows), src.name)
    finally:
        maker.close()
    try:
        reader = piece_reader(head, sheet.name, plan.part, info, None)
    except InputError:
        return None  # no header among the first rows: the whole sheet says
    if next(iter(reader.batches(1)), None) is None:  # (batches reads the rows afresh)
        reader.close()
        return None
    return reader


def _in_pieces(
    src: Source, sheet: _ChosenSheet, budget: int, strings_bytes: int
) -> SheetReader | None:
    """The sheet read by calamine a piece at a time, two pieces in memory at most beside
    the shared strings (which every piece's load parses); None if it cannot be cut."""
    try:
        plan = plan_pieces(src, sheet.part, piece_size(budget, strings_bytes))
    except CannotCut:
        return None
    if len(plan.cuts) < 2:
        return None
    info = sheet.info
    return PiecewiseReader(src, sheet.name, info, plan, [s.name for s in info.sheets])


def piece_size(budget: int, strings_bytes: int) -> int:
    """Sheet XML bytes per piece. Measured at 1,000,000 Excel-like rows (two million unique
    texts, 70 MB of shared strings, 9 MB pieces): peak 422 MB for the whole import, 573 MB
    with pieces twice as big, 357 MB with pieces a third smaller (and slower: each piece
    costs its own parse of its strings and its own pass for special cells)."""
    room = budget - strings_bytes * STRINGS_XML_FACTOR * 2
    return max(MIN_PIECE_BYTES, int(room / (SHEET_XML_FACTOR * 16)))


def _special_cells(src: Source, sheet: _ChosenSheet) -> SpecialCells:
    with src.open() as handle, zipfile.ZipFile(handle) as archive:
        scan = scan_sheet(
            archive,
            sheet.part,
            src.name,
            sheet.info.zero_padded_styles,
            bounds=False,
            special=True,
        )
    return scan.special()
