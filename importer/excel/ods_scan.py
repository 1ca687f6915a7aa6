"""OpenDocument spreadsheets (.ods): a byte-level pass before calamine reads them.

calamine (a) parses every table of content.xml when the workbook is opened and expands
repeated rows and cells densely (a 40 KB file that repeats a filled row a million times
asks for gigabytes), and (b) gives no number formats (zip code 00501 arrives as 501),
reads error cells (#N/A) as empty text, and reads LibreOffice's booleans (stored as the
formulas TRUE() and FALSE() with a number) as 1 and 0. This pass streams content.xml once,
in chunks and in bounded memory, and finds: the area calamine will allocate for every
table (refused above the memory budget), and, in the rows that may hold them, the cells
whose normalized value calamine cannot give, as per-cell overrides.

The styles (which number format a cell shows) come from ods_styles.py. Why an overlay and
not a whole reader of our own (or odfpy, which loads the whole document as a DOM through a
parser that is not defused): measured on a 65,001 x 10 sheet LibreOffice wrote (92 MB of
XML), calamine reads it in 0.4 s, ElementTree's iterparse alone takes 9.3 s, and this pass
2.4 s (1.7 s for 65,001 x 7 with no special cell: a few C-level counts and searches per
row; the Python work per cell is only for the cells it finds).
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass, field

from importer.errors import InputError
from importer.excel.base import first_with_header, sheet_candidates
from importer.excel.calamine_engine import CalamineReader
from importer.excel.calamine_workbook import (
    calamine_charts,
    calamine_sheets,
    open_calamine_workbook,
)
from importer.excel.ods_styles import MAX_PROLOG_BYTES, cell_style_kinds
from importer.excel.sniff import Source
from importer.excel.special_cells import SpecialCells, number_with_format
from importer.excel.values import CellError, serial_to_value
from importer.excel.xlsx_parts import UNPACK_ERRORS, xml_unescape

CHUNK = 4 << 20
MAX_ROW_BYTES = 64 << 20
# calamine's memory per cell of a table's area, measured: 2,000,000 one-letter text cells
# took 243 MB (the value, its text on the heap, and the formula text are all held).
BYTES_PER_CELL = 128

_TABLE = re.compile(rb"<table:table(?=[\s>])([^>]*)>|</table:table>")
_ROW = re.compile(rb"<table:table-row\b([^>]*?)(/?)>")
_ROW_END = b"</table:table-row>"
_COLUMN = re.compile(rb"<table:table-column\b([^>]*?)/?>")
_CELL = re.compile(rb"<table:(covered-table-cell|table-cell)\b([^>]*?)(/?)>")
_CELL_END = re.compile(rb"</table:(?:covered-)?table-cell>")
_ATTR = re.compile(rb'([\w:.-]+)="([^"]*)"')
_REPEATED_CELL = re.compile(rb'<table:(?:covered-)?table-cell\b[^>]*?columns-repeated="(\d+)"')
_TEXT = re.compile(rb"<[^>]*>")
# Value types calamine reads; a cell of another type ("unknown", from some writers) shows
# its text, which calamine leaves out.
_KNOWN_TYPES = (b"float", b"percentage", b"currency", b"date", b"time", b"boolean", b"string")
_ODD_TYPE = re.compile(rb'office:value-type="(?!(?:' + b"|".join(_KNOWN_TYPES) + rb')")')
# A number cell without a style of its own: it takes its column's default cell style.
_UNSTYLED_NUMBER = re.compile(
    rb"<table:table-cell\b(?![^>]*?table:style-name=)[^>]*?"
    rb'office:value-type="(?:float|percentage|currency)"'
)
_STYLE_NAME = re.compile(rb'table:style-name="([^"]*)"')
_NUMBER_TYPE = re.compile(rb'office:value-type="(?:float|percentage|currency)"')
_BOOLEAN_FORMULAS = {"of:=TRUE()": True, "of:=FALSE()": False}


@dataclass
class OdsScan:
    cells: int = 0  # cells calamine will allocate, over every table
    largest: tuple[str, int, int] = ("", 0, 0)  # the table with the largest area, rows, cols
    date1904: bool = False
    # table name -> (row number, 0-based column) -> the value calamine cannot give
    overrides: dict[str, dict[tuple[int, int], object]] = field(default_factory=dict)


# --- content ---------------------------------------------------------------------------


def _attrs(raw: bytes) -> dict[bytes, bytes]:
    return dict(_ATTR.findall(raw))


def _int(raw: bytes | None) -> int:
    try:
        return max(1, int(raw)) if raw else 1
    except ValueError:
        return 1


@dataclass
class _Table:
    name: str
    special: bool  # its cells may need overrides (see _Scanner)
    column_styles: list[tuple[int, str]] = field(default_factory=list)  # (repeat, style)
    row: int = 0  # rows seen so far (repeats counted)
    first: int | None = None  # 0-based first row holding a value
    end: int = 0  # one past the last row holding a value
    width: int = 0  # widest row's cells up to its last value
    overrides: dict[tuple[int, int], object] = field(default_factory=dict)


class _Scanner:
    def __init__(
        self, name: str, kinds: dict[str, tuple[str, int]], date1904: bool, max_cells: int
    ) -> None:
        self.name = name
        self.kinds = kinds
        # Overrides beyond this many cells are not kept: such a table is refused anyway.
        self.max_cells = max_cells
        names = b"|".join(re.escape(name.encode()) for name in sorted(kinds))
        style = rb'table:style-name="(?:' + names + rb')"'
        self.date1904 = date1904
        markers = [rb'value-type="error"', rb"of:=", _ODD_TYPE.pattern]
        if kinds:
            markers.append(style)
        # What a cell calamine cannot describe has in its start tag.
        self.markers = re.compile(b"|".join(markers))
        self.table: _Table | None = None
        self.scan = OdsScan(date1904=date1904)

    def chunk(self, data: bytes) -> None:
        at = 0
        while True:
            table = _TABLE.search(data, at)
            stop = table.start() if table is not None else len(data)
            if self.table is not None:
                self._rows(data, at, stop)
            if table is None:
                return
            if table.group(0).startswith(b"</"):
                self._end_table()
            else:
                self._end_table()
                attrs = _attrs(table.group(1))
                title = xml_unescape(attrs.get(b"table:name", b"").decode("utf-8", "replace"))
                self.table = _Table(title, special=False)
            at = table.end()

    def _end_table(self) -> None:
        table, self.table = self.table, None
        if table is None or table.first is None:
            return
        rows, cols = table.end - table.first, table.width
        self.scan.cells += rows * cols
        if rows * cols > self.scan.largest[1] * self.scan.largest[2]:
            self.scan.largest = (table.name, rows, cols)
        if table.overrides:
            self.scan.overrides[table.name] = table.overrides

    def finish(self) -> OdsScan:
        self._end_table()
        return self.scan

    def _rows(self, data: bytes, start: int, stop: int) -> None:
        table = self.table
        assert table is not None
        at = start
        while True:
            row = _ROW.search(data, at, stop)
            columns_end = row.start() if row is not None else stop
            if b"<table:table-column" in data[at:columns_end]:
                for column in _COLUMN.finditer(data, at, columns_end):
                    attrs = _attrs(column.group(1))
                    style = attrs.get(b"table:default-cell-style-name", b"").decode()
                    span = _int(attrs.get(b"table:number-columns-repeated"))
                    table.column_styles.append((span, style))
                    if style in self.kinds:
                        table.special = True
            if row is None:
                return
            raw = row.group(1)
            repeat = _int(_attrs(raw).get(b"table:number-rows-repeated")) if raw else 1
            if row.group(2):  # <table:table-row/>: no cells
                table.row += repeat
                at = row.end()
                continue
            begin = row.end()
            end = data.find(_ROW_END, begin, stop)
            if end < 0:
                end = stop
            if data.find(b"value-type=", begin, end) >= 0:
                self._row_with_values(table, data, begin, end, repeat)
            table.row += repeat
            at = end + len(_ROW_END)

    def _row_with_values(
        self, table: _Table, data: bytes, begin: int, end: int, repeat: int
    ) -> None:
        """A row holding values, data[begin:end] (its cells), repeated `repeat` times. The
        usual row costs a few C-level counts and searches over its bytes, no copy."""
        if table.first is None:
            table.first = table.row
        table.end = table.row + repeat
        width = data.count(b"<table:table-cell", begin, end) + data.count(
            b"<table:covered-table-cell", begin, end
        )
        if data.find(b"columns-repeated", begin, end) >= 0:
            repeats = [int(r) for r in _REPEATED_CELL.findall(data, begin, end)]
            width += sum(repeats) - len(repeats)
            last = _CELL.search(data, max(data.rfind(b"<table:table-cell", begin, end), begin), end)
            if last is not None and last.group(3) and b"value-type" not in last.group(2):
                # LibreOffice ends every row with one empty cell repeated to the last column:
                # calamine does not store it.
                width -= _int(_attrs(last.group(2)).get(b"table:number-columns-repeated")) - 1
        table.width = max(table.width, width)
        if self.markers.search(data, begin, end) is not None or (
            table.special and _UNSTYLED_NUMBER.search(data, begin, end) is not None
        ):
            self._overrides(table, data[begin:end], repeat)

    def _column_style(self, table: _Table, col: int) -> str:
        at = 0
        for repeat, style in table.column_styles:
            at += repeat
            if col < at:
                return style
        return ""

    def _overrides(self, table: _Table, body: bytes, repeat: int) -> None:
        """The row's special cells, found by one search each; a cell's column is counted at
        C speed from the cell tags (and repeats) before it."""
        # Number cells may take a special style from their column: then every cell is looked at.
        cells = list(_CELL.finditer(body)) if table.special else self._marked_cells(body)
        for cell in cells:
            raw = cell.group(2)
            if cell.group(1) != b"table-cell" or not self._may_be_special(table, raw):
                continue
            attrs = _attrs(raw)
            col = _column_at(body, cell.start())
            value = self._special_value(table, attrs, col, body, cell.end(), cell.group(3))
            if value is None:
                continue
            span = _int(attrs.get(b"table:number-columns-repeated"))
            if len(table.overrides) + repeat * span > self.max_cells:
                return  # a repeated cell past the budget: the table is refused for its area
            for row in range(table.row + 1, table.row + repeat + 1):
                for offset in range(span):
                    table.overrides[(row, col + offset)] = value

    def _marked_cells(self, body: bytes) -> list[re.Match[bytes]]:
        """The cell start tags holding a marker: one linear search for the markers, then the
        tag around each."""
        cells = []
        seen = -1
        for hit in self.markers.finditer(body):
            start = body.rfind(b"<table:", 0, hit.start())
            if start <= seen:
                continue  # a second marker in the same tag
            cell = _CELL.match(body, start)
            if cell is None or cell.end() < hit.end():
                continue  # the marker is cell text, not an attribute
            seen = start
            cells.append(cell)
        return cells

    def _may_be_special(self, table: _Table, raw: bytes) -> bool:
        """A few substring tests on a cell's start tag before its attributes are parsed."""
        if b"office:value-type" not in raw:
            return False
        if b"error" in raw or b"of:=" in raw or _ODD_TYPE.search(raw) is not None:
            return True
        if _NUMBER_TYPE.search(raw) is None:
            return False  # the styles change number cells only
        if b"table:style-name" not in raw:
            return table.special  # the column's default style may be special
        name = _STYLE_NAME.search(raw)
        return name is not None and name.group(1).decode("utf-8", "replace") in self.kinds

    def _special_value(
        self,
        table: _Table,
        attrs: dict[bytes, bytes],
        col: int,
        body: bytes,
        end: int,
        closed: bytes,
    ) -> object:
        kind = attrs.get(b"office:value-type")
        if attrs.get(b"calcext:value-type") == b"error":
            return CellError(_cell_text(body, end, closed).strip() or "#VALUE!")
        if kind not in _KNOWN_TYPES:
            return _cell_text(body, end, closed) or None
        if kind not in (b"float", b"percentage", b"currency"):
            return None
        try:
            number = float(attrs.get(b"office:value", b""))
        except ValueError:
            return None
        formula = xml_unescape(attrs.get(b"table:formula", b"").decode("utf-8", "replace"))
        if formula in _BOOLEAN_FORMULAS and number in (0, 1):
            return _BOOLEAN_FORMULAS[formula]
        style = attrs.get(b"table:style-name", b"").decode() or self._column_style(table, col)
        shown = self.kinds.get(style)
        if shown is None:
            return None
        if shown[0] == "zero":
            return number_with_format(number, shown[1])
        if shown[0] == "boolean":
            return number != 0
        try:
            return serial_to_value(number, self.date1904)
        except (OverflowError, ValueError):
            return None


def _column_at(body: bytes, at: int) -> int:
    """The 0-based column of the cell whose tag starts at `at` in a row's body."""
    head = body[:at]
    col = head.count(b"<table:table-cell") + head.count(b"<table:covered-table-cell")
    if b"columns-repeated" in head:
        col += sum(int(n) - 1 for n in _REPEATED_CELL.findall(head))
    return col


def _cell_text(body: bytes, end: int, closed: bytes) -> str:
    """The text a cell shows: its paragraphs, one a line."""
    if closed:
        return ""
    close = _CELL_END.search(body, end)
    inner = body[end : close.start() if close else len(body)]
    paragraphs = [_TEXT.sub(b"", p) for p in re.findall(rb"<text:p\b[^>]*>(.*?)</text:p>", inner)]
    return xml_unescape(b"\n".join(paragraphs).decode("utf-8", "replace"))


def scan_ods(source: Source, max_cells: int) -> OdsScan:
    """One pass over content.xml: every table's area and its cells' overrides (none kept
    past `max_cells`, the area the caller refuses beyond)."""
    name = source.name
    try:
        with source.open() as handle, zipfile.ZipFile(handle) as archive:
            if "content.xml" not in archive.NameToInfo:
                raise InputError(f"{name}: the workbook is damaged (content.xml is missing)")
            with archive.open("content.xml") as content:
                prolog = b""
                while b"<office:body" not in prolog:
                    data = content.read(CHUNK)
                    if not data:
                        break
                    prolog += data
                    if len(prolog) > MAX_PROLOG_BYTES:
                        raise InputError(
                            f"{name}: the styles of content.xml are unreasonably large"
                        )
                body_at = prolog.find(b"<office:body")
                kinds = cell_style_kinds(archive, prolog[: max(body_at, 0)] or prolog, name)
                date1904 = b'table:date-value="1904-01-01"' in prolog
                scanner = _Scanner(name, kinds, date1904, max_cells)
                carry = prolog[max(body_at, 0) :] if body_at >= 0 else b""
                while True:
                    data = content.read(CHUNK)
                    buffer = carry + data
                    if not data:
                        scanner.chunk(buffer)
                        break
                    cut = buffer.rfind(_ROW_END)
                    if cut < 0:
                        if len(buffer) > MAX_ROW_BYTES:
                            raise InputError(
                                f"{name}: a single row of content.xml is larger than "
                                f"{MAX_ROW_BYTES >> 20} MB; refusing an unreasonable file"
                            )
                        carry = buffer
                        continue
                    cut += len(_ROW_END)
                    scanner.chunk(buffer[:cut])
                    carry = buffer[cut:]
                return scanner.finish()
    except zipfile.BadZipFile as exc:
        raise InputError(f"{name}: the file is damaged ({exc})") from None
    except UNPACK_ERRORS as exc:
        raise InputError(f"{name}: the file is damaged or truncated ({exc})") from None


def open_ods(source: Source, wanted_sheet: str | None, budget: int) -> CalamineReader:
    """The sheet read by calamine, within the memory budget, with the overrides."""
    scan = scan_ods(source, budget // BYTES_PER_CELL)
    if scan.cells * BYTES_PER_CELL > budget:
        table, rows, cols = scan.largest
        raise InputError(
            f"{source.name}: the workbook's tables span {scan.cells:,} cells (sheet "
            f"{table!r}: {rows:,} rows x {cols:,} columns, rows or cells repeated), too "
            "large to load at once; delete stray cells far from the data, or save it as .xlsx"
        )
    try:
        workbook = open_calamine_workbook(source, "ods")
    except InputError as refused:
        # (read from bytes, calamine reports the same as a format it cannot detect)
        if not any(m in str(refused) for m in ("Expecting 'table-cell'", "Cannot detect")):
            raise
        # Pretty-printed content (white space between cells, as KSpread wrote) stops
        # calamine; without it the same cells are read.
        try:
            cleaned = _without_layout_space(source, budget)
            workbook = open_calamine_workbook(cleaned, "ods")
        except InputError:
            raise refused from None
        source = cleaned
    opened = [workbook]  # the first sheet tried uses it; a later one opens its own

    def open_one(chosen: str) -> CalamineReader:
        return CalamineReader.whole_sheet(
            source,
            "ods",
            chosen,
            SpecialCells(scan.overrides.get(chosen, {})),
            workbook=opened.pop() if opened else None,
            date1904=scan.date1904,
        )

    try:
        candidates = sheet_candidates(
            source.name, wanted_sheet, calamine_sheets(workbook), calamine_charts(workbook)
        )
    except BaseException:
        workbook.close()
        raise
    return first_with_header(candidates, open_one)


_LAYOUT_SPACE = re.compile(rb">\s+(?=</?table:)")


def _without_layout_space(source: Source, budget: int) -> Source:
    """The workbook with the white space before table tags taken out of content.xml (it is
    never cell text: that lives in text:p), every part otherwise as it was. It is rebuilt in
    memory: InputError when its parts would not fit the budget."""
    out = io.BytesIO()
    try:
        with source.open() as handle, zipfile.ZipFile(handle) as archive:
            if sum(info.file_size for info in archive.infolist()) * 2 > budget:
                raise InputError(f"{source.name}: too large to rewrite within the budget")
        with (
            source.open() as handle,
            zipfile.ZipFile(handle) as archive,
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as cleaned,
        ):
            for member in archive.infolist():  # in order: the mimetype first, as stored
                data = archive.read(member)
                if member.filename == "content.xml":
                    data = _LAYOUT_SPACE.sub(b">", data)
                cleaned.writestr(member, data, member.compress_type)
    except UNPACK_ERRORS as exc:
        raise InputError(f"{source.name}: the file is damaged or truncated ({exc})") from None
    return Source(None, out.getvalue(), source.name)
