"""One walk over the BIFF records of an .xls workbook stream, in Python: what each sheet
really holds, whatever its records declare.

For each worksheet: the box of the cells calamine would read (not its DIMENSIONS, which may
claim 65,536 x 256 for three cells), how far each row reaches as xlrd lays it out (blank
cells too: xlrd keeps them, with their formatting), the largest shared string a text cell
uses, and (when asked) the special cells calamine does not tell: error cells and numbers in
zero-padded formats. For the workbook: the shared-string table's declared count and the
strings it really holds, counted as xlrd reads them across CONTINUE records.

BIFF5 and BIFF8 workbooks are found through their BOUNDSHEET records; an older worksheet
saved alone (BIFF2-4, no container) is one sheet, as xlrd reads it.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass, field

from importer.excel.special_cells import number_with_format
from importer.excel.values import CellError, zero_padded_width
from importer.excel.xls_container import NotBounded

_U16 = struct.Struct("<H")
_HH = struct.Struct("<HH")
_U32 = struct.Struct("<I")
_I32 = struct.Struct("<i")
_F64 = struct.Struct("<d")

BOF = frozenset({0x0809, 0x0409, 0x0209, 0x0009})
_EOF = 0x000A
_BOUNDSHEET = 0x0085
_DATEMODE = 0x0022
_FORMAT = 0x041E
_XF = 0x00E0
SST = 0x00FC
_CONTINUE = 0x003C
DIMENSIONS = 0x0200
_MERGEDCELLS = 0x00E5
_NUMBER, _RK, _MULRK, _FORMULA, _BOOLERR = 0x0203, 0x027E, 0x00BD, 0x0006, 0x0205
_MULBLANK, _LABELSST = 0x00BE, 0x00FD
# The cells of a BIFF5/BIFF8 sheet (blanks too) and of the older versions'.
_CELLS = frozenset(
    {0x0201, _NUMBER, 0x0204, _BOOLERR, _FORMULA, _RK, _MULRK, _MULBLANK, 0x00D6, _LABELSST}
)
_OLD_CELLS = frozenset(
    {0x0001, 0x0002, 0x0003, 0x0004, 0x0005, 0x0006, 0x0201, 0x0203, 0x0204, 0x0205}
    | {0x0206, 0x0406, _RK, _MULRK, _MULBLANK, 0x00D6}
)
_BLANKS = frozenset({0x0001, 0x0201, _MULBLANK})  # xlrd keeps them; calamine does not
_ERROR_CODES = {
    0x00: "#NULL!",
    0x07: "#DIV/0!",
    0x0F: "#VALUE!",
    0x17: "#REF!",
    0x1D: "#NAME?",
    0x24: "#NUM!",
    0x2A: "#N/A",
}


def records(data: bytes, at: int = 0) -> Iterator[tuple[int, int, int]]:
    """(record type, data start, data end) from `at` on."""
    while at + 4 <= len(data):
        kind, length = _U16.unpack_from(data, at)[0], _U16.unpack_from(data, at + 2)[0]
        yield kind, at + 4, min(at + 4 + length, len(data))
        at += 4 + length


@dataclass
class XlsSheet:
    name: str
    visible: bool
    rows: int = 0  # the bounding box of the cells calamine reads
    cols: int = 0
    overrides: dict[tuple[int, int], object] = field(default_factory=dict)
    first: tuple[int, int] | None = None  # (row, col), 0-based
    last: tuple[int, int] = (0, 0)
    dimensions: int | None = None  # where its DIMENSIONS record's data starts in the stream
    dimensions_size: int = 0
    widths: dict[int, int] = field(default_factory=dict)  # row -> its last column + 1 (xlrd)
    merged_rows: int = 0  # the rows a merged range reaches (xlrd lays them out)
    largest_string: tuple[int, int, int] | None = None  # (index, row, col) of a text cell


@dataclass(frozen=True)
class SharedStrings:
    declared: int  # the count the table gives (what readers read up to)
    held: int  # the strings really there, read as xlrd reads them
    at: int  # where the SST record's data starts in the stream


@dataclass
class XlsScan:
    sheets: list[XlsSheet]  # worksheets, in workbook order
    date1904: bool
    formats_read: bool  # number formats were found (zero-padded cells recognised)
    strings: SharedStrings | None = None
    old: bool = False  # BIFF2-4: a worksheet saved alone, read by xlrd only


def _sheet_name(data: bytes, start: int, end: int, biff8: bool) -> str:
    length = data[start]
    if not biff8:
        return data[start + 1 : start + 1 + length].decode("latin-1")
    wide = data[start + 1] & 1
    body = data[start + 2 : min(end, start + 2 + length * (2 if wide else 1))]
    return body.decode("utf-16-le" if wide else "latin-1", "replace")


def _format_text(data: bytes, start: int, end: int, biff8: bool) -> str:
    if not biff8:
        return data[start + 3 : start + 3 + data[start + 2]].decode("latin-1", "replace")
    length, wide = _U16.unpack_from(data, start + 2)[0], data[start + 4] & 1
    body = data[start + 5 : min(end, start + 5 + length * (2 if wide else 1))]
    return body.decode("utf-16-le" if wide else "latin-1", "replace")


def _rk(raw: int) -> float:
    if raw & 2:
        value = float(_I32.unpack(_U32.pack(raw))[0] >> 2)
    else:
        value = _F64.unpack(b"\0\0\0\0" + _U32.pack(raw & 0xFFFFFFFC))[0]
    return value / 100 if raw & 1 else value


@dataclass
class _Globals:
    biff8: bool
    date1904: bool = False
    formats: dict[int, int] = field(default_factory=dict)  # format index -> zero-padded width
    xf_formats: list[int] = field(default_factory=list)
    formats_read: bool = False
    places: list[tuple[int, XlsSheet]] = field(default_factory=list)
    strings: SharedStrings | None = None

    def take(self, stream: bytes, kind: int, start: int, end: int) -> None:
        if kind == _DATEMODE and end - start >= 2:
            self.date1904 = _U16.unpack_from(stream, start)[0] == 1
        elif kind == _FORMAT and end - start >= 4:
            self.formats_read = True
            width = zero_padded_width(_format_text(stream, start, end, self.biff8))
            if width:
                self.formats[_U16.unpack_from(stream, start)[0]] = width
        elif kind == _XF and end - start >= 4:
            self.xf_formats.append(_U16.unpack_from(stream, start + 2)[0])
        elif kind == _BOUNDSHEET and end - start >= 7 and stream[start + 5] == 0:
            name = _sheet_name(stream, start + 6, end, self.biff8)
            sheet = XlsSheet(name, visible=stream[start + 4] == 0)
            self.places.append((_U32.unpack_from(stream, start)[0], sheet))
        elif kind == SST and end - start >= 8 and self.strings is None:
            declared = _I32.unpack_from(stream, start + 4)[0]
            self.strings = SharedStrings(declared, count_strings(stream, start), start)


def scan_xls(stream: bytes, special: bool = True) -> XlsScan:
    """The worksheets of a workbook stream: their real extents, and (``special``) the cells
    calamine cannot describe. NotBounded when the stream is no workbook this walk knows."""
    walk = records(stream)
    first = next(walk, None)
    if first is None or first[0] not in BOF or first[2] - first[1] < 4:
        raise NotBounded("not a BIFF workbook")
    if _U16.unpack_from(stream, first[1] + 2)[0] == 0x0010:  # a worksheet saved alone
        alone = XlsSheet("Sheet 1", visible=True)  # as xlrd names it
        _scan_sheet(stream, 0, alone, {}, special=False, old=first[0] != 0x0809)
        return XlsScan([alone], False, False, old=first[0] != 0x0809)
    if first[0] != 0x0809:
        raise NotBounded("a BIFF4 workbook")
    book = _Globals(biff8=_U16.unpack_from(stream, first[1])[0] >= 0x0600)
    for kind, start, end in walk:
        if kind == _EOF:
            break
        book.take(stream, kind, start, end)
    zero_styles = {i: book.formats[f] for i, f in enumerate(book.xf_formats) if f in book.formats}
    for place, sheet in book.places:
        _scan_sheet(stream, place, sheet, zero_styles, special=special)
    return XlsScan([s for _, s in book.places], book.date1904, book.formats_read, book.strings)


def count_strings(stream: bytes, start: int) -> int:
    """The strings an SST record (data at ``start``) and its CONTINUE records hold, read as
    xlrd reads them (a string's characters may go on in the next record, after a byte of
    flags), up to the first that is not all there."""
    pieces = [(start, _record_end(stream, start))]
    for kind, begin, end in records(stream, pieces[0][1]):
        if kind != _CONTINUE:
            break
        pieces.append((begin, end))
    reader = _Pieces(stream, pieces)
    count = 0
    while reader.string():
        count += 1
    return count


def _record_end(stream: bytes, start: int) -> int:
    length: int = _U16.unpack_from(stream, start - 2)[0]
    return min(start + length, len(stream))


class _Pieces:
    """A cursor over the SST's records, as xlrd's unpack_SST_table moves through them."""

    def __init__(self, stream: bytes, pieces: list[tuple[int, int]]) -> None:
        self.stream, self.pieces, self.index, self.pos = stream, pieces, 0, pieces[0][0] + 8

    def _end(self) -> int:
        return self.pieces[self.index][1]

    def _next(self, skip: int = 0) -> bool:
        """On to the next record, ``skip`` bytes into it; False past the last one."""
        self.index += 1
        if self.index >= len(self.pieces):
            return False
        self.pos = self.pieces[self.index][0] + skip
        return True

    def string(self) -> bool:
        """Pass one string; False when it is not all there (xlrd would fail on it)."""
        if self.index >= len(self.pieces) or self.pos + 3 > self._end():
            return False
        stream, at = self.stream, self.pos + 3
        chars, options = _U16.unpack_from(stream, self.pos)[0], stream[self.pos + 2]
        if at + (2 if options & 0x08 else 0) + (4 if options & 0x04 else 0) > self._end():
            return False
        runs = phonetic = 0
        if options & 0x08:
            runs, at = _U16.unpack_from(stream, at)[0], at + 2
        if options & 0x04:
            phonetic, at = _I32.unpack_from(stream, at)[0], at + 4
        self.pos = at
        if phonetic < 0 or not self._characters(chars, options & 1):
            return False
        for _ in range(runs):
            if self.pos == self._end() and not self._next():
                return False
            if self.pos + 4 > self._end():
                return False
            self.pos += 4
        self.pos += phonetic
        if self.pos >= self._end():
            self._next(self.pos - self._end())  # past the last record: it was the last string
        return True

    def _characters(self, chars: int, wide: int) -> bool:
        got = 0
        while True:
            take = min((self._end() - self.pos) >> wide, chars - got)
            self.pos += take << wide
            got += take
            if got == chars:
                return True
            if not self._next(1) or self.pos > self._end():
                return False
            wide = self.stream[self.pos - 1] & 1


def _scan_sheet(
    stream: bytes,
    at: int,
    sheet: XlsSheet,
    zero_styles: dict[int, int],
    *,
    special: bool,
    old: bool = False,
) -> None:
    """The sheet's extents (and special cells) from its substream at ``at``. An embedded
    substream (a chart's, BOF to EOF) is passed over, as xlrd passes it over."""
    if at + 4 > len(stream) or _HH.unpack_from(stream, at)[0] not in BOF:
        raise NotBounded(f"sheet {sheet.name!r} does not start where the workbook says")
    cells = _OLD_CELLS if old else _CELLS
    marks = _Marks(stream, sheet, zero_styles if special else None)
    widths, box = sheet.widths, marks.box
    at += 4 + _HH.unpack_from(stream, at)[1]
    nested = False
    while at + 4 <= len(stream):  # one record a turn: the loop of every cell, kept lean
        kind, length = _HH.unpack_from(stream, at)
        start, at = at + 4, at + 4 + length
        if nested or kind == _EOF or kind in BOF:
            if kind == _EOF and not nested:
                break
            nested = kind != _EOF
        elif kind in cells and length >= 4:
            row, col = _HH.unpack_from(stream, start)
            last = col
            if kind in (_MULRK, _MULBLANK) and length >= 6:
                last = max(col, _U16.unpack_from(stream, min(at, len(stream)) - 2)[0])
            reach = (last if last < 256 else 255) + 1  # xlrd stops at column 256
            if reach > widths.get(row, 0):
                widths[row] = reach
            if kind not in _BLANKS:
                box(row, col, last)
                if kind == _LABELSST or marks.zero_styles is not None:
                    marks.more(kind, start, min(at, len(stream)), row, col)
        elif kind == DIMENSIONS and length in (10, 14) and not old:
            sheet.dimensions, sheet.dimensions_size = start, length
        elif kind == _MERGEDCELLS:
            marks.merged(start, min(at, len(stream)))
    marks.close()


@dataclass
class _Marks:
    """What one sheet's cell records tell beyond their places, and the box of the cells
    calamine reads, gathered record by record."""

    stream: bytes
    sheet: XlsSheet
    zero_styles: dict[int, int] | None  # None: special cells not wanted
    top: int = 1 << 20
    left: int = 1 << 20
    bottom: int = -1
    right: int = -1

    def box(self, row: int, col: int, last: int) -> None:
        if row < self.top:
            self.top = row
        if row > self.bottom:
            self.bottom = row
        if col < self.left:
            self.left = col
        if last > self.right:
            self.right = last

    def close(self) -> None:
        sheet = self.sheet
        if self.bottom >= 0:
            sheet.first, sheet.last = (self.top, self.left), (self.bottom, self.right)
            sheet.rows = self.bottom - self.top + 1
            sheet.cols = self.right - self.left + 1

    def merged(self, start: int, end: int) -> None:
        count = _U16.unpack_from(self.stream, start)[0] if end - start >= 2 else 0
        for index in range(min(count, (end - start - 2) // 8)):
            last_row = _U16.unpack_from(self.stream, start + 4 + 8 * index)[0]
            self.sheet.merged_rows = max(self.sheet.merged_rows, last_row + 1)

    def more(self, kind: int, start: int, end: int, row: int, col: int) -> None:
        """A text cell's shared string; the special cells, when wanted."""
        sheet = self.sheet
        if kind == _LABELSST and end - start >= 10:
            index = _U32.unpack_from(self.stream, start + 6)[0]
            if sheet.largest_string is None or index > sheet.largest_string[0]:
                sheet.largest_string = (index, row, col)
        if self.zero_styles is not None and end - start >= 6:
            self._special(kind, start, end, row, col)

    def _number(self, row: int, col: int, xf: int, value: float) -> None:
        assert self.zero_styles is not None
        width = self.zero_styles.get(xf)
        if width is not None:
            self.sheet.overrides[(row + 1, col)] = number_with_format(value, width)

    def _special(self, kind: int, start: int, end: int, row: int, col: int) -> None:
        """Error cells and numbers in zero-padded formats (calamine tells neither)."""
        stream, size, overrides = self.stream, end - start, self.sheet.overrides
        xf = _U16.unpack_from(stream, start + 4)[0]
        if kind == _MULRK and size >= 12:
            last_col = _U16.unpack_from(stream, end - 2)[0]
            for index in range(min(last_col - col + 1, (size - 6) // 6)):
                item = start + 4 + 6 * index
                rk = _rk(_U32.unpack_from(stream, item + 2)[0])
                self._number(row, col + index, _U16.unpack_from(stream, item)[0], rk)
        elif kind == _NUMBER and size >= 14:
            self._number(row, col, xf, _F64.unpack_from(stream, start + 6)[0])
        elif kind == _RK and size >= 10:
            self._number(row, col, xf, _rk(_U32.unpack_from(stream, start + 6)[0]))
        elif kind == _BOOLERR and size >= 8 and stream[start + 7] == 1:
            overrides[(row + 1, col)] = CellError(_ERROR_CODES.get(stream[start + 6], "#VALUE!"))
        elif kind == _FORMULA and size >= 14:
            if stream[start + 12 : start + 14] != b"\xff\xff":
                self._number(row, col, xf, _F64.unpack_from(stream, start + 6)[0])
            elif stream[start + 6] == 2:  # an error result
                code = _ERROR_CODES.get(stream[start + 8], "#VALUE!")
                overrides[(row + 1, col)] = CellError(code)
