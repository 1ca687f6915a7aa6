"""The compound file around an .xls (OLE2): its Workbook stream, found as a reader finds it,
with every size and sector chain a reader follows checked first.

A reader trusts what the container declares: calamine reserves memory for the counts in the
header and the sizes in the directory, and follows each chain of sectors until it ends. A
25 KB file whose directory chain loops back on itself made calamine grow a buffer until the
machine ran out (xlrd refuses that file, and calamine was the reader it fell back to). So,
before any reader runs:

- every count the header declares (FAT, DIFAT, mini FAT and directory sectors) and the size
  the directory gives the Workbook stream and the mini stream are held to the memory budget
  (a claim the file cannot hold but that fits the budget is left to the readers, which read
  what there is: a stream size larger than its chain is a known kind of damage they read);
- every chain a reader follows (the DIFAT, the directory, the mini FAT, the mini stream, the
  Workbook stream) must not loop: one that comes back to a sector it passed is refused. A
  chain that runs past the end of the file ends there, as the readers end it.

A refusal is an InputError naming what is wrong; a structure too damaged to find the stream
in is NotBounded (xlrd, whose memory is bounded by the file, may still say more).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from importer.errors import InputError

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
SPECIAL = 0xFFFFFFFA  # this and above: no sector (end of chain, free, FAT or DIFAT sector)
_U16 = struct.Struct("<H")
_U32 = struct.Struct("<I")
_U64 = struct.Struct("<Q")
# The header's counts of sectors: (offset, what they count).
_COUNTS = (
    (0x2C, "FAT sectors"),
    (0x48, "DIFAT sectors"),
    (0x40, "mini FAT sectors"),
    (0x28, "directory sectors"),
)


class NotBounded(Exception):
    """The file's structure is too damaged to bound a reader's reading of it."""


@dataclass
class Stream:
    """A stream of the compound file: its bytes, and where each of its sectors lies in the
    file (so that a record can be rewritten in place)."""

    data: bytes
    sector_offsets: list[int]
    sector_size: int

    def file_offset(self, at: int) -> int:
        return self.sector_offsets[at // self.sector_size] + at % self.sector_size


def bare_stream(data: bytes) -> Stream:
    """A BIFF stream saved without the container (Excel 2.x-4.x and some old tools)."""
    return Stream(data, [0], max(len(data), 1))


@dataclass
class _File:
    data: bytes
    name: str
    budget: int | None  # None: no budget to hold claims to (tests reading a stream)
    size: int  # sector size
    sectors: int  # whole sectors in the file after the header

    def sector(self, number: int) -> bytes:
        return self.data[(number + 1) * self.size : (number + 2) * self.size]

    def claim(self, amount: int, what: str) -> None:
        """Refuse a declared size a reader would reserve that is over the memory budget
        (``what`` says who declares it, and what)."""
        if self.budget is not None and amount > self.budget:
            raise InputError(
                f"{self.name}: the file is damaged or crafted: {what}, "
                f"{amount / (1 << 20):,.0f} MB in a file of {len(self.data):,} bytes, over "
                f"the reader's memory budget ({self.budget >> 20} MB); refusing it"
            )

    def chain(self, table: list[int], start: int, what: str) -> list[int]:
        """The sectors of a chain through ``table``, followed to its end as a reader follows
        it (a special value, or past the end of ``table``); one that comes back to a sector
        it passed is refused, wherever the stream it holds ends."""
        out: list[int] = []
        seen: set[int] = set()
        sector = start
        while sector < SPECIAL and sector < len(table):
            if sector in seen:
                raise InputError(
                    f"{self.name}: the file is damaged: the chain of sectors of {what} loops "
                    f"back to sector {sector:,}; refusing it"
                )
            seen.add(sector)
            out.append(sector)
            sector = table[sector]
        return out


def read_container(data: bytes, name: str = "workbook", budget: int | None = None) -> Stream:
    """The Workbook (or Book) stream of a compound file, read as far as its sector chain
    goes (a directory entry may claim more bytes than the chain holds: other readers, and
    Excel, read the chain), once the header's counts and the chains are checked."""
    if not data.startswith(OLE_MAGIC) or len(data) < 512:
        raise NotBounded("not a compound file")
    shift = _U16.unpack_from(data, 0x1E)[0]
    if shift not in (9, 12):
        raise NotBounded("sector size")
    size = 1 << shift
    file = _File(data, name, budget, size, max(0, len(data) // size - 1))
    for offset, what in _COUNTS:
        count = _U32.unpack_from(data, offset)[0]
        file.claim(count * size, f"its header counts {count:,} {what}")
    fat = _fat(file)
    directory_chain = file.chain(fat, _U32.unpack_from(data, 0x30)[0], "the directory")
    entries = [
        (sector, at)
        for sector in directory_chain
        for at in range(0, len(file.sector(sector)) - 127, 128)
    ]
    if not entries:
        raise NotBounded("no directory")
    return _workbook(file, fat, entries)


def _fat(file: _File) -> list[int]:
    """The FAT: its sectors are listed in the header (109) and the DIFAT chain."""
    data = file.data
    fat_sectors = [_U32.unpack_from(data, 0x4C + 4 * i)[0] for i in range(109)]
    difat = _U32.unpack_from(data, 0x44)[0]
    seen: set[int] = set()
    while difat < SPECIAL and difat < file.sectors:
        if difat in seen:
            raise InputError(
                f"{file.name}: the file is damaged: the chain of its DIFAT sectors loops "
                f"back to sector {difat:,}; refusing it"
            )
        seen.add(difat)
        block = file.sector(difat)
        fat_sectors += [_U32.unpack_from(block, 4 * i)[0] for i in range(file.size // 4 - 1)]
        difat = _U32.unpack_from(block, file.size - 4)[0]
    fat: list[int] = []
    for sector in fat_sectors:
        if sector < file.sectors:
            block = file.sector(sector)
            fat += struct.unpack(f"<{len(block) // 4}I", block[: len(block) // 4 * 4])
    # A FAT may describe sectors past the end of the file: a chain ends there.
    return [s if s < file.sectors else 0xFFFFFFFE for s in fat[: file.sectors]]


def _entry(file: _File, sector: int, at: int) -> tuple[str, int, int, int]:
    """(name, type, first sector, size) of the directory entry at ``at`` in ``sector``."""
    raw = file.sector(sector)[at : at + 128]
    length = min(_U16.unpack_from(raw, 64)[0], 64)
    name = raw[: max(length - 2, 0)].decode("utf-16-le", "replace")
    wide = _U64 if file.size == 4096 else _U32
    return name, raw[66], _U32.unpack_from(raw, 116)[0], wide.unpack_from(raw, 120)[0]


def _workbook(file: _File, fat: list[int], entries: list[tuple[int, int]]) -> Stream:
    found: dict[str, tuple[str, int, int, int]] = {}
    for sector, at in entries:
        entry = _entry(file, sector, at)
        if entry[1] == 2:  # a stream
            found.setdefault(entry[0].casefold(), entry)
    book = found.get("workbook") or found.get("book")
    if book is None:
        raise NotBounded("no Workbook stream")
    name, _, start, claimed = book
    file.claim(claimed, f"its directory gives stream {name!r} {claimed:,} bytes")
    small = claimed < _U32.unpack_from(file.data, 0x38)[0]
    # calamine loads the mini stream whenever the header counts mini FAT sectors.
    mini = _mini(file, fat, entries[0]) if small or _U32.unpack_from(file.data, 0x40)[0] else None
    if small:  # a small stream lives in the mini stream
        assert mini is not None
        return mini.stream(file, start, claimed, name)
    chain = file.chain(fat, start, f"stream {name!r}")[: -(-claimed // file.size)]
    body = b"".join(map(file.sector, chain))
    return Stream(body[:claimed], [(s + 1) * file.size for s in chain], file.size)


@dataclass(frozen=True)
class _Mini:
    """The mini stream (its sectors in the file) and the mini FAT (its chains)."""

    container: list[int]
    minifat: list[int]

    def stream(self, file: _File, start: int, claimed: int, name: str) -> Stream:
        mini = file.chain(self.minifat, start, f"stream {name!r}")[: -(-claimed // 64)]
        offsets = [
            (self.container[m * 64 // file.size] + 1) * file.size + m * 64 % file.size for m in mini
        ]
        body = b"".join(file.data[o : o + 64] for o in offsets)
        return Stream(body[:claimed], offsets, 64)


def _mini(file: _File, fat: list[int], root_place: tuple[int, int]) -> _Mini:
    _, _, start, size = _entry(file, *root_place)
    file.claim(size, f"its directory gives the mini stream {size:,} bytes")
    container = file.chain(fat, start, "the mini stream")
    minifat_chain = file.chain(fat, _U32.unpack_from(file.data, 0x3C)[0], "the mini FAT")
    minifat_bytes = b"".join(map(file.sector, minifat_chain))
    minifat = list(struct.unpack(f"<{len(minifat_bytes) // 4}I", minifat_bytes))
    mini_sectors = len(container) * file.size // 64
    return _Mini(container, [s if s < mini_sectors else 0xFFFFFFFE for s in minifat[:mini_sectors]])
