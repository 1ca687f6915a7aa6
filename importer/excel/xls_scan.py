""".xls files xlrd cannot parse, read by calamine instead, within bounds.

Other readers open .xls files that xlrd refuses: a shared-string table whose count is
wrong (xlrd asserts it), a directory entry whose stream size claims more than the file
holds (xlrd's compound-file reader gives up; the sector chain says where the stream ends).
calamine reads them. But calamine loads every sheet when it opens the workbook, reserving
memory for each sheet's recorded DIMENSIONS (a forged claim of four billion rows aborts the
process) and laying cells out densely over their bounding box, and it reads error cells
(#N/A) as empty and gives no number formats (zip code 00501 arrives as 501).

So this pass walks the workbook stream's records once, in Python: it sizes each sheet by
the cells it really holds (not by its DIMENSIONS, which may claim 65,536 x 256 for three
cells), holds that to the memory budget, rewrites each DIMENSIONS record to the real box in
the bytes calamine is given, and notes the error cells and the numbers in zero-padded
formats as overrides, as xlsb_scan does for .xlsb.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass, field

from importer.errors import InputError
from importer.excel.base import SheetReader, first_with_header, sheet_candidates
from importer.excel.calamine_engine import CalamineReader
from importer.excel.calamine_workbook import (
    calamine_charts,
    calamine_sheets,
    open_calamine_workbook,
)
from importer.excel.sniff import Source
from importer.excel.special_cells import SpecialCells, number_with_format
from importer.excel.values import CellError, zero_padded_width
from importer.excel.xlsb_scan import BYTES_PER_CELL

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_END_OF_CHAIN = 0xFFFFFFFA  # this and above: no further sector
_U16 = struct.Struct("<H")
_U32 = struct.Struct("<I")
_I32 = struct.Struct("<i")
_F64 = struct.Struct("<d")

_BOF = frozenset({0x0809, 0x0409, 0x0209, 0x0009})
_EOF = 0x000A
_BOUNDSHEET = 0x0085
_DATEMODE = 0x0022
_FORMAT = 0x041E
_XF = 0x00E0
_DIMENSIONS = 0x0200
_NUMBER, _RK, _MULRK, _FORMULA, _BOOLERR = 0x0203, 0x027E, 0x00BD, 0x0006, 0x0205
_TEXT_CELLS = frozenset({0x0204, 0x00FD, 0x00D6})  # LABEL, LABELSST, RSTRING
_ERROR_CODES = {
    0x00: "#NULL!",
    0x07: "#DIV/0!",
    0x0F: "#VALUE!",
    0x17: "#REF!",
    0x1D: "#NAME?",
    0x24: "#NUM!",
    0x2A: "#N/A",
}


class NotBounded(Exception):
    """The file's structure is too damaged to bound calamine's reading of it."""


@dataclass
class _Stream:
    """A stream of the compound file: its bytes, and where each of its sectors lies in the
    file (so a record can be rewritten in place)."""

    data: bytes
    sector_offsets: list[int]
    sector_size: int

    def file_offset(self, at: int) -> int:
        return self.sector_offsets[at // self.sector_size] + at % self.sector_size


def _chain(fat: list[int], start: int, limit: int) -> list[int]:
    """The sectors of a chain, stopping at its end, a sector out of range or a loop."""
    out: list[int] = []
    seen: set[int] = set()
    sector = start
    while sector < _END_OF_CHAIN and sector < limit and sector not in seen:
        seen.add(sector)
        out.append(sector)
        sector = fat[sector] if sector < len(fat) else _END_OF_CHAIN
    return out


def workbook_stream(data: bytes) -> _Stream:
    """The Workbook (or Book) stream of a compound file, read as far as its sector chain
    goes: a directory entry may claim more bytes than the chain holds (other readers, and
    Excel, read the chain)."""
    if not data.startswith(_OLE_MAGIC) or len(data) < 512:
        raise NotBounded("not a compound file")
    shift = _U16.unpack_from(data, 0x1E)[0]
    if shift not in (9, 12):
        raise NotBounded("sector size")
    size = 1 << shift
    sectors = max(0, len(data) // size - 1)

    def sector_bytes(sector: int) -> bytes:
        return data[(sector + 1) * size : (sector + 2) * size]

    # The FAT's own sectors: 109 in the header, the rest in the DIFAT chain.
    fat_sectors = [_U32.unpack_from(data, 0x4C + 4 * i)[0] for i in range(109)]
    difat, seen = _U32.unpack_from(data, 0x44)[0], set()
    while difat < _END_OF_CHAIN and difat < sectors and difat not in seen:
        seen.add(difat)
        block = sector_bytes(difat)
        fat_sectors += [_U32.unpack_from(block, 4 * i)[0] for i in range(size // 4 - 1)]
        difat = _U32.unpack_from(block, size - 4)[0]
    fat: list[int] = []
    for sector in fat_sectors:
        if sector < sectors:
            block = sector_bytes(sector)
            fat += struct.unpack(f"<{len(block) // 4}I", block[: len(block) // 4 * 4])
    directory = b"".join(map(sector_bytes, _chain(fat, _U32.unpack_from(data, 0x30)[0], sectors)))
    entries = [directory[at : at + 128] for at in range(0, len(directory) - 127, 128)]
    if not entries:
        raise NotBounded("no directory")
    by_name: dict[str, bytes] = {}
    for entry in entries:
        length = min(_U16.unpack_from(entry, 64)[0], 64)
        name = entry[: max(length - 2, 0)].decode("utf-16-le", "replace").casefold()
        if entry[66] == 2:  # a stream
            by_name.setdefault(name, entry)
    found = by_name.get("workbook") or by_name.get("book")
    if found is None:
        raise NotBounded("no Workbook stream")
    start, claimed = _U32.unpack_from(found, 116)[0], _U32.unpack_from(found, 120)[0]
    if claimed < _U32.unpack_from(data, 0x38)[0]:  # a small stream lives in the mini stream
        root = entries[0]
        container = _chain(fat, _U32.unpack_from(root, 116)[0], sectors)
        minifat_bytes = b"".join(
            map(sector_bytes, _chain(fat, _U32.unpack_from(data, 0x3C)[0], sectors))
        )
        minifat = list(struct.unpack(f"<{len(minifat_bytes) // 4}I", minifat_bytes))
        mini = _chain(minifat, start, len(container) * size // 64)
        offsets = [(container[m * 64 // size] + 1) * size + m * 64 % size for m in mini]
        body = b"".join(data[o : o + 64] for o in offsets)
        return _Stream(body[:claimed], offsets, 64)
    chain = _chain(fat, start, sectors)
    body = b"".join(map(sector_bytes, chain))
    return _Stream(body[:claimed], [(s + 1) * size for s in chain], size)


def _records(data: bytes, at: int = 0) -> Iterator[tuple[int, int, int]]:
    """(record type, data start, data end) from `at` on."""
    while at + 4 <= len(data):
        kind, length = _U16.unpack_from(data, at)[0], _U16.unpack_from(data, at + 2)[0]
        yield kind, at + 4, min(at + 4 + length, len(data))
        at += 4 + length


@dataclass
class XlsSheet:
    name: str
    visible: bool
    rows: int = 0  # the bounding box of the cells it holds
    cols: int = 0
    overrides: dict[tuple[int, int], object] = field(default_factory=dict)
    first: tuple[int, int] | None = None  # (row, col), 0-based
    last: tuple[int, int] = (0, 0)
    dimensions: int | None = None  # where its DIMENSIONS record's data starts in the stream
    dimensions_size: int = 0


@dataclass
class XlsScan:
    sheets: list[XlsSheet]  # worksheets, in workbook order
    date1904: bool
    formats_read: bool  # number formats were found (zero-padded cells recognised)


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


def scan_xls(stream: bytes) -> XlsScan:
    """The worksheets of a BIFF5/BIFF8 workbook stream: their real boxes and special cells."""
    records = _records(stream)
    first = next(records, None)
    if first is None or first[0] != 0x0809 or first[2] - first[1] < 4:
        raise NotBounded("not a BIFF5 or BIFF8 workbook")
    biff8 = _U16.unpack_from(stream, first[1])[0] >= 0x0600
    date1904 = False
    formats: dict[int, int] = {}  # format index -> zero-padded width
    xf_formats: list[int] = []
    formats_read = False
    places: list[tuple[int, XlsSheet]] = []
    for kind, start, end in records:
        if kind == _EOF:
            break
        if kind == _DATEMODE and end - start >= 2:
            date1904 = _U16.unpack_from(stream, start)[0] == 1
        elif kind == _FORMAT and end - start >= 4:
            formats_read = True
            width = zero_padded_width(_format_text(stream, start, end, biff8))
            if width:
                formats[_U16.unpack_from(stream, start)[0]] = width
        elif kind == _XF and end - start >= 4:
            xf_formats.append(_U16.unpack_from(stream, start + 2)[0])
        elif kind == _BOUNDSHEET and end - start >= 7 and stream[start + 5] == 0:
            sheet = XlsSheet(
                _sheet_name(stream, start + 6, end, biff8), visible=stream[start + 4] == 0
            )
            places.append((_U32.unpack_from(stream, start)[0], sheet))
    zero_styles = {i: formats[f] for i, f in enumerate(xf_formats) if f in formats}
    for place, sheet in places:
        _scan_sheet(stream, place, sheet, zero_styles)
    return XlsScan([s for _, s in places], date1904, formats_read)


def _scan_sheet(stream: bytes, at: int, sheet: XlsSheet, zero_styles: dict[int, int]) -> None:
    def cell(row: int, col: int) -> None:
        if sheet.first is None:
            sheet.first = (row, col)
        else:
            sheet.first = (min(sheet.first[0], row), min(sheet.first[1], col))
        sheet.last = (max(sheet.last[0], row), max(sheet.last[1], col))

    def number(row: int, col: int, xf: int, value: float) -> None:
        width = zero_styles.get(xf)
        if width is not None:
            sheet.overrides[(row + 1, col)] = number_with_format(value, width)

    records = _records(stream, at)
    opening = next(records, None)
    if opening is None or opening[0] not in _BOF:
        raise NotBounded(f"sheet {sheet.name!r} does not start where the workbook says")
    for kind, start, end in records:
        size = end - start
        if kind == _EOF or kind in _BOF:
            break
        if kind == _DIMENSIONS and size in (10, 14):
            sheet.dimensions, sheet.dimensions_size = start, size
            continue
        if size < 6:
            continue
        row, col, xf = struct.unpack_from("<HHH", stream, start)
        if kind == _MULRK and size >= 12:
            last_col = _U16.unpack_from(stream, end - 2)[0]
            cell(row, col)
            cell(row, max(col, last_col))
            for index in range(min(last_col - col + 1, (size - 6) // 6)):
                item = start + 4 + 6 * index
                xf = _U16.unpack_from(stream, item)[0]
                number(row, col + index, xf, _rk(_U32.unpack_from(stream, item + 2)[0]))
            continue
        if kind not in (_NUMBER, _RK, _FORMULA, _BOOLERR) and kind not in _TEXT_CELLS:
            continue
        cell(row, col)
        if kind == _NUMBER and size >= 14:
            number(row, col, xf, _F64.unpack_from(stream, start + 6)[0])
        elif kind == _RK and size >= 10:
            number(row, col, xf, _rk(_U32.unpack_from(stream, start + 6)[0]))
        elif kind == _BOOLERR and size >= 8 and stream[start + 7] == 1:
            sheet.overrides[(row + 1, col)] = CellError(
                _ERROR_CODES.get(stream[start + 6], "#VALUE!")
            )
        elif kind == _FORMULA and size >= 14:
            if stream[start + 12 : start + 14] == b"\xff\xff":
                if stream[start + 6] == 2:  # an error result
                    code = _ERROR_CODES.get(stream[start + 8], "#VALUE!")
                    sheet.overrides[(row + 1, col)] = CellError(code)
            else:
                number(row, col, xf, _F64.unpack_from(stream, start + 6)[0])
    if sheet.first is not None:
        sheet.rows = sheet.last[0] - sheet.first[0] + 1
        sheet.cols = sheet.last[1] - sheet.first[1] + 1


def _resized(data: bytes, stream: _Stream, scan: XlsScan) -> bytes:
    """The file with each sheet's DIMENSIONS saying the box of the cells it holds."""
    out = bytearray(data)
    for sheet in scan.sheets:
        if sheet.dimensions is None:
            continue
        first_row, first_col = sheet.first or (0, 0)
        end_row, end_col = (sheet.last[0] + 1, sheet.last[1] + 1) if sheet.first else (0, 0)
        if sheet.dimensions_size == 14:
            record = struct.pack("<IIHH", first_row, end_row, first_col, end_col)
        else:
            record = struct.pack("<HHHH", first_row, end_row, first_col, end_col)
        for index, byte in enumerate(record):
            out[stream.file_offset(sheet.dimensions + index)] = byte
    return bytes(out)


def open_xls_by_calamine(
    source: Source, wanted_sheet: str | None, budget: int, why: str
) -> SheetReader:
    """The sheet read by calamine, for an .xls xlrd cannot parse (`why`: xlrd's reason).
    InputError with that reason when the file cannot be bounded or calamine fails too."""
    name = source.name
    with source.open() as handle:
        data = handle.read()
    try:
        stream = workbook_stream(data)
        scan = scan_xls(stream.data)
    except (NotBounded, struct.error, IndexError):
        raise InputError(f"{name}: the workbook cannot be read ({why})") from None
    held = sum(s.rows * s.cols for s in scan.sheets) * BYTES_PER_CELL
    if held > budget:  # calamine loads every sheet when the workbook opens
        largest = max(scan.sheets, key=lambda s: s.rows * s.cols)
        raise InputError(
            f"{name}: sheet {largest.name!r} spans {largest.rows:,} rows x "
            f"{largest.cols:,} columns, too large to load at once; delete stray cells far "
            "from the data"
        )
    resized = Source(None, _resized(data, stream, scan), name)
    try:
        workbook = open_calamine_workbook(resized, "xls")
    except InputError as also:
        raise InputError(
            f"{name}: the workbook cannot be read ({why}; nor by calamine: "
            f"{str(also).rsplit('(', 1)[-1].rstrip(')')})"
        ) from None
    opened = [workbook]
    try:
        candidates = sheet_candidates(
            name, wanted_sheet, calamine_sheets(workbook), calamine_charts(workbook)
        )
    except BaseException:
        workbook.close()
        raise
    by_name = {s.name: s for s in scan.sheets}
    note = f"{name}: read with calamine, since xlrd cannot parse this .xls ({why})"
    if not scan.formats_read:
        note += "; its number formats were not found: zero-padded numbers (00501) read as 501"

    def open_one(chosen: str) -> CalamineReader:
        sheet = by_name.get(chosen)
        reader = CalamineReader.whole_sheet(
            resized,
            "xls",
            chosen,
            SpecialCells(dict(sheet.overrides) if sheet else {}),
            workbook=opened.pop() if opened else None,
            date1904=scan.date1904,
        )
        reader.notes = (note,)
        return reader

    return first_with_header(candidates, open_one)
