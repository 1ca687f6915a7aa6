""".xls files whose declared sizes lie, each made from a healthy workbook (tests/hostile/biff.py).

No spreadsheet program writes them, and the readers' own test files of this kind could not be
had here (calamine keeps tiny files of the sort, OOM_alloc*.xls, issue444.xls, in its
repository, not in the packages a registry gives), so each one is made to state the claim
such a file makes, at the size such files have (25-35 KB):

- ``directory_loop``: the directory's chain of sectors comes back to itself. xlrd refuses the
  file ("directory corruption"); calamine, the reader it fell back to, grew a buffer until
  the process died (``memory allocation of 4294967296 bytes failed`` under a 3 GB limit,
  22 GB and more without one);
- the other chains a reader follows looping (the DIFAT's, the Workbook stream's);
- the header counting a billion FAT sectors, the directory giving the stream 4 GB;
- the shared-string table claiming 2**31 strings, none, or a text cell past its end;
- a sheet's DIMENSIONS claiming 65,536 x 256 with a cell at the far corner, a text cell
  claiming 65,535 characters, a blank cell in column IV of every row (xlrd lays each row out
  as far as its last cell).
"""

from __future__ import annotations

import struct
from collections.abc import Callable

from tests.hostile.biff import (
    FREE,
    SECTOR,
    Layout,
    Sheet,
    blank,
    compound_file,
    label,
    label_sst,
    number,
    put_u32,
    text_rows,
    workbook_stream,
)

HEADER = ["Name", "Qty", "Note", "When"]
ROWS = 600  # about 30 KB of .xls


def _rows(count: int = ROWS) -> list[list[object]]:
    return [[f"item {i}", i, None, None] for i in range(1, count + 1)]


def healthy(rows: int = ROWS) -> tuple[bytes, Layout]:
    sheet, strings = text_rows(HEADER, _rows(rows))
    return compound_file(workbook_stream([sheet], strings))


def fat_entry(data: bytes, layout: Layout, sector: int, value: int) -> bytes:
    return put_u32(data, Layout.offset(layout.fat[0]) + 4 * sector, value)


def directory_loop() -> bytes:
    data, layout = healthy()
    return fat_entry(data, layout, layout.directory, layout.directory)


def stream_loop() -> bytes:
    data, layout = healthy()
    return fat_entry(data, layout, layout.stream_sectors - 1, 0)


def difat_loop() -> bytes:
    """One DIFAT sector, after the directory, whose next DIFAT sector is itself."""
    data, _ = healthy()
    sector = len(data) // SECTOR - 1
    difat = struct.pack(f"<{SECTOR // 4 - 1}I", *[FREE] * (SECTOR // 4 - 1))
    data += difat + struct.pack("<I", sector)
    return put_u32(put_u32(data, 0x44, sector), 0x48, 1)


def fat_count_claim() -> bytes:
    return put_u32(healthy()[0], 0x2C, 1 << 30)


def stream_size_claim() -> bytes:
    data, layout = healthy()
    entry = Layout.offset(layout.directory) + 128  # the Workbook stream's entry
    return put_u32(data, entry + 120, 0xFFFFFFF0)


def stream_size_past_the_file(data: bytes, layout: Layout) -> bytes:
    """The Workbook stream's size four times the file's: xlrd refuses it, calamine reads
    the chain (the damage that makes calamine the reader)."""
    entry = Layout.offset(layout.directory) + 128
    return put_u32(data, entry + 120, len(data) * 4)


def strings_claimed(count: int) -> bytes:
    sheet, strings = text_rows(HEADER, _rows())
    return compound_file(workbook_stream([sheet], strings, declared=count))[0]


def string_past_the_table() -> bytes:
    sheet, strings = text_rows(HEADER, _rows())
    sheet.cells.append(label_sst(ROWS + 1, 0, len(strings) + 400))
    return compound_file(workbook_stream([sheet], strings))[0]


def far_corner(xlrd_refuses: bool = False) -> bytes:
    """DIMENSIONS of 65,536 x 256 and a number really in the far corner (IV65536)."""
    sheet, strings = text_rows(HEADER, _rows())
    sheet.cells.append(number(65535, 255, 1.0))
    sheet.dimensions = (0, 65536, 0, 256)
    data, layout = compound_file(workbook_stream([sheet], strings))
    return stream_size_past_the_file(data, layout) if xlrd_refuses else data


def text_claims() -> bytes:
    """Every Name a LABEL cell claiming 65,535 characters that holds a few."""
    cells = [label(0, c, text) for c, text in enumerate(HEADER)]
    for r, (name, qty, _, _) in enumerate(_rows(), 1):
        cells += [label(r, 0, str(name), declared=65535), number(r, 1, float(str(qty)))]
    return compound_file(workbook_stream([Sheet("Sheet1", cells)]))[0]


def wide_rows(rows: int) -> bytes:
    """The rows, and a blank cell with a style in column IV of each of ``rows`` rows."""
    sheet, strings = text_rows(HEADER, _rows())
    sheet.cells += [blank(r, 255) for r in range(1, rows)]
    sheet.cells.sort(key=lambda cell: struct.unpack_from("<H", cell, 4)[0])  # by row
    return compound_file(workbook_stream([sheet], strings))[0]


# name -> (builder, what a refusal names); every one refused before a reader allocates.
REFUSED: dict[str, tuple[Callable[[], bytes], str]] = {
    "directory_loop.xls": (
        directory_loop,
        "the chain of sectors of the directory loops back to sector",
    ),
    "difat_loop.xls": (difat_loop, "the chain of its DIFAT sectors loops back to sector"),
    "stream_loop.xls": (stream_loop, "the chain of sectors of stream 'Workbook' loops back"),
    "fat_count_claim.xls": (fat_count_claim, "its header counts 1,073,741,824 FAT sectors"),
    "stream_size_claim.xls": (
        stream_size_claim,
        "its directory gives stream 'Workbook' 4,294,967,280 bytes",
    ),
    "string_past_the_table.xls": (
        string_past_the_table,
        "pointing at shared string 1,004, but the shared-strings table holds only 604",
    ),
    "far_corner_for_calamine.xls": (
        lambda: far_corner(xlrd_refuses=True),
        "spans 65,536 rows x 256 columns, too large to load at once",
    ),
}
# name -> builder; every one read, its 600 rows imported.
READ: dict[str, Callable[[], bytes]] = {
    "strings_claim_2_31.xls": lambda: strings_claimed(0x7FFFFFFF),
    "strings_claim_none.xls": lambda: strings_claimed(0),
    "strings_claim_too_few.xls": lambda: strings_claimed(5),
    "far_corner.xls": far_corner,
    "text_claims_65535.xls": text_claims,
    "wide_rows.xls": lambda: wide_rows(2000),
}
