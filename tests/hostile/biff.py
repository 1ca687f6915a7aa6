"""A minimal .xls (BIFF8 in a compound file) writer for files no spreadsheet program writes.

The workbook globals (fonts, formats, cell styles) are those of sample_data/orders.xls, as
Excel-compatible writers leave them; the sheets, the shared strings and every size they
declare are the caller's, so a test can state any claim a hostile file makes: a
shared-string table counting strings it does not hold, a DIMENSIONS record far larger than
the cells, a text cell claiming 65,535 characters. ``compound_file`` wraps a stream in the
container (512-byte sectors, the FAT's sectors listed in the header), with ``Layout`` saying
where each part lies so that a test can damage the container itself (a sector chain, a
header count).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ORDERS_XLS = Path(__file__).resolve().parents[2] / "sample_data" / "orders.xls"

SECTOR = 512
MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
END_OF_CHAIN = 0xFFFFFFFE
FREE = 0xFFFFFFFF
FAT_SECTOR = 0xFFFFFFFD
NO_STREAM = 0xFFFFFFFF
CELL_XF = 15  # the first cell style of an Excel-made workbook: General

BOF, EOF, BOUNDSHEET, SST, EXTSST, DIMENSIONS, CONTINUE = (
    0x0809,
    0x000A,
    0x0085,
    0x00FC,
    0x00FF,
    0x0200,
    0x003C,
)


def record(kind: int, data: bytes) -> bytes:
    return struct.pack("<HH", kind, len(data)) + data


def number(row: int, col: int, value: float, xf: int = CELL_XF) -> bytes:
    return record(0x0203, struct.pack("<HHHd", row, col, xf, value))


def blank(row: int, col: int, xf: int = CELL_XF) -> bytes:
    return record(0x0201, struct.pack("<HHH", row, col, xf))


def label_sst(row: int, col: int, index: int, xf: int = CELL_XF) -> bytes:
    return record(0x00FD, struct.pack("<HHHI", row, col, xf, index))


def label(row: int, col: int, text: str, declared: int | None = None, xf: int = CELL_XF) -> bytes:
    """A LABEL cell (its text in the record), claiming ``declared`` characters if given."""
    chars = len(text) if declared is None else declared
    return record(0x0204, struct.pack("<HHHHB", row, col, xf, chars, 0) + text.encode("latin-1"))


def unicode_string(text: str) -> bytes:
    """An XLUnicodeRichExtendedString: its length, flags (8-bit characters), its text."""
    return struct.pack("<HB", len(text), 0) + text.encode("latin-1")


def sst(strings: Sequence[str], declared: int | None = None) -> bytes:
    """The shared-string table (CONTINUE records where it passes 8,224 bytes), claiming
    ``declared`` strings if given."""
    count = len(strings) if declared is None else declared
    body = struct.pack("<II", count, count)
    out, limit = b"", 8224
    kind = SST
    for text in strings:
        piece = unicode_string(text)
        if len(body) + len(piece) > limit:
            out += record(kind, body)
            kind, body = CONTINUE, b""
        body += piece
    return out + record(kind, body)


@dataclass
class Sheet:
    name: str
    cells: list[bytes] = field(default_factory=list)  # cell records
    # DIMENSIONS as (first row, last row + 1, first col, last col + 1); None: the cells' box
    dimensions: tuple[int, int, int, int] | None = None
    extra: list[bytes] = field(default_factory=list)  # records after the cells


def text_rows(header: Sequence[str], rows: Sequence[Sequence[object]]) -> tuple[Sheet, list[str]]:
    """A sheet of a header and rows (texts as shared strings, numbers as NUMBER cells) and
    the shared strings it uses."""
    strings: list[str] = []
    cells: list[bytes] = []
    table: list[Sequence[object]] = [header, *rows]
    for r, values in enumerate(table):
        for c, value in enumerate(values):
            if value is None:
                continue
            if isinstance(value, str):
                if value not in strings:
                    strings.append(value)
                cells.append(label_sst(r, c, strings.index(value)))
            else:
                assert isinstance(value, int | float)
                cells.append(number(r, c, float(value)))
    return Sheet("Sheet1", cells), strings


def _globals() -> list[bytes]:
    """The globals of orders.xls but its sheets, shared strings and end."""
    from importer.excel.xls_container import read_container

    stream = read_container(ORDERS_XLS.read_bytes()).data
    out, at = [], 0
    while at + 4 <= len(stream):
        kind, length = struct.unpack_from("<HH", stream, at)
        if kind == EOF:
            break
        if kind not in (BOUNDSHEET, SST, EXTSST, CONTINUE):
            out.append(stream[at : at + 4 + length])
        at += 4 + length
    return out


def _dimensions(sheet: Sheet) -> bytes:
    box = sheet.dimensions
    if box is None:
        places = [struct.unpack_from("<HH", cell, 4) for cell in sheet.cells]
        rows = [r for r, _ in places] or [0]
        cols = [c for _, c in places] or [0]
        box = (min(rows), max(rows) + 1, min(cols), max(cols) + 1)
    return record(DIMENSIONS, struct.pack("<IIHHH", *box, 0))


def workbook_stream(sheets: Sequence[Sheet], strings: Sequence[str] = (), **sst_args: int) -> bytes:
    """The Workbook stream: the globals, a BOUNDSHEET per sheet, the shared strings, then
    each sheet's substream (BOF, DIMENSIONS, cells, EOF)."""
    bodies = [
        record(BOF, struct.pack("<HHHHII", 0x0600, 0x0010, 0x0DBB, 0x07CC, 0, 0x0206))
        + _dimensions(sheet)
        + b"".join(sheet.cells)
        + b"".join(sheet.extra)
        + record(EOF, b"")
        for sheet in sheets
    ]
    names = [
        struct.pack("<BB", len(s.name), 1) + s.name.encode("utf-16-le") for s in sheets
    ]  # 16-bit characters
    head = b"".join(_globals())
    table = sst(strings, **sst_args) + record(EOF, b"")
    at = len(head) + sum(4 + 6 + len(n) for n in names) + len(table)
    bound = b""
    for name, body in zip(names, bodies, strict=True):
        bound += record(BOUNDSHEET, struct.pack("<IBB", at, 0, 0) + name)
        at += len(body)
    return head + bound + table + b"".join(bodies)


@dataclass(frozen=True)
class Layout:
    """Where the parts of a compound_file lie: sector numbers (the header is sector -1)."""

    stream_sectors: int  # the stream is sectors 0 .. stream_sectors - 1
    fat: list[int]  # the FAT's own sectors
    directory: int  # the one directory sector

    @staticmethod
    def offset(sector: int) -> int:
        return (sector + 1) * SECTOR


def compound_file(stream: bytes, name: str = "Workbook") -> tuple[bytes, Layout]:
    """``stream`` as the only stream of a version-3 compound file (padded with zeros to 4,096
    bytes at least, so that it lies in whole sectors, not in the mini stream)."""
    body = stream.ljust(4096, b"\0")
    size = len(body)
    body += bytes(-len(body) % SECTOR)
    count = len(body) // SECTOR
    fat_count = 1
    while count + fat_count + 1 > fat_count * (SECTOR // 4):
        fat_count += 1
    assert fat_count <= 109, "one FAT in the header's 109 places only"
    fat_sectors = list(range(count, count + fat_count))
    directory = count + fat_count
    fat = [i + 1 for i in range(count - 1)] + [END_OF_CHAIN]
    fat += [FAT_SECTOR] * fat_count + [END_OF_CHAIN]
    fat += [FREE] * (fat_count * (SECTOR // 4) - len(fat))
    header = bytearray(SECTOR)
    header[:8] = MAGIC
    struct.pack_into("<HHHHH", header, 0x18, 0x3E, 3, 0xFFFE, 9, 6)
    struct.pack_into("<IIIII", header, 0x28, 0, fat_count, directory, 0, 4096)
    struct.pack_into("<IIII", header, 0x3C, END_OF_CHAIN, 0, END_OF_CHAIN, 0)
    places = fat_sectors + [FREE] * (109 - fat_count)
    struct.pack_into("<109I", header, 0x4C, *places)
    entries = _entry("Root Entry", 5, child=1, start=END_OF_CHAIN, size=0)
    entries += _entry(name, 2, child=NO_STREAM, start=0, size=size)
    entries += _entry("", 0, child=NO_STREAM, start=0, size=0) * 2
    data = bytes(header) + body + struct.pack(f"<{len(fat)}I", *fat) + entries
    return data, Layout(count, fat_sectors, directory)


def _entry(name: str, kind: int, *, child: int, start: int, size: int) -> bytes:
    encoded = name.encode("utf-16-le") + b"\0\0" if name else b""
    out = bytearray(128)
    out[: len(encoded)] = encoded
    struct.pack_into("<HBB", out, 64, len(encoded), kind, 1)
    struct.pack_into("<III", out, 68, NO_STREAM, NO_STREAM, child)
    struct.pack_into("<II", out, 116, start, size)
    return bytes(out)


def xls(sheets: Sequence[Sheet], strings: Sequence[str] = (), **sst_args: int) -> bytes:
    """A whole .xls file."""
    return compound_file(workbook_stream(sheets, strings, **sst_args))[0]


def put_u32(data: bytes, offset: int, value: int) -> bytes:
    out = bytearray(data)
    struct.pack_into("<I", out, offset, value)
    return bytes(out)
