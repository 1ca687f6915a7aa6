"""A piece's shared-strings table: only the strings its cells use, at their own numbers.

Every piece of a big sheet (xlsx_pieces) is a workbook calamine loads in full, shared
strings included: with a million unique texts that is a second of parsing and 200 MB per
piece, for strings the piece mostly does not use. Writers number strings in order of first
use, so a piece's cells use a few early strings and a window of their own. The piece's
table keeps those items byte for byte at their numbers and puts an empty item in every
other place, so that each cell still points at its own text.

Nothing is guessed: the piece's text cells are found by one pattern, and when that pattern
does not account for every text cell of the piece (an odd spelling, a formula in between),
the piece gets the whole table.
"""

from __future__ import annotations

import os
import re
import tempfile
from array import array
from itertools import pairwise
from typing import IO, overload

_ROOT = re.compile(rb"<((?:\w+:)?)sst\b")
_COUNTS = re.compile(rb'\b(count|uniqueCount)\s*=\s*"\s*\d+\s*"')
# A type attribute saying "shared string", however spelled (spaces, quotes): when the strict
# pattern below finds fewer text cells than this, some cell would lose its text.
_ANY_TEXT_TYPE = re.compile(rb"""t\s*=\s*["']s["']""")


# A text cell up to its string number (group 1) and the number (group 2). It starts with a
# literal: the search skips ahead at C speed between text cells.
_TEXT_CELL = rb'( t="s"[^>]*+>\s*+<(?:\w+:)?v>\s*+)0*(\d{1,18})(?=\s*+</)'

_ROOT_WITHIN = 65536  # the root tag is looked for in the part's first bytes
_END_WITHIN = 65536  # and its end tag in its last ones
_CHUNK = 1 << 20


class SpooledPart:
    """A part's bytes in a temporary file without a name, read back by slices (os.pread,
    safe from any thread): ``part[a:b]`` as with bytes, without the bytes in memory."""

    def __init__(self, part: IO[bytes]) -> None:
        self._file = tempfile.TemporaryFile()  # noqa: SIM115 (closed with the table)
        try:
            while chunk := part.read(_CHUNK):
                self._file.write(chunk)
            self._file.flush()
            self._size = self._file.tell()
        except BaseException:
            self._file.close()
            raise

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> bytes: ...
    def __getitem__(self, index: int | slice) -> int | bytes:
        if isinstance(index, int):
            return self[index : index + 1][0]
        start, stop, _ = index.indices(self._size)
        parts: list[bytes] = []
        while start < stop:
            read = os.pread(self._file.fileno(), stop - start, start)
            if not read:
                break
            parts.append(read)
            start += len(read)
        return b"".join(parts)

    def item_starts(self, ns: bytes) -> array[int]:
        """Where each item (<si>) begins, found a chunk at a time: a tag across two chunks
        is found in the second, which begins with the first one's last bytes."""
        pattern = re.compile(rb"<" + re.escape(ns) + rb"si\b")
        keep = len(ns) + 4  # a match may start this close to a chunk's end and be cut
        starts: array[int] = array("q")
        at = 0  # where ``buffer`` begins in the part
        buffer = b""
        while True:
            chunk = self[at + len(buffer) : at + len(buffer) + _CHUNK]
            buffer += chunk
            last = not chunk or at + len(buffer) >= self._size
            if not last and len(buffer) <= keep:
                continue  # too short to tell yet
            limit = len(buffer) if last else len(buffer) - keep
            starts.extend(at + m.start() for m in pattern.finditer(buffer) if m.start() < limit)
            if last:
                break
            at += limit
            buffer = buffer[limit:]
        return starts

    def close(self) -> None:
        self._file.close()


class StringsTable:
    """The shared-strings part, split into its items once."""

    def __init__(self, xml: bytes | SpooledPart) -> None:
        self.xml = xml
        root = _ROOT.search(xml[:_ROOT_WITHIN], 0, _ROOT_WITHIN)
        self.ns = root.group(1) if root else b""
        if isinstance(xml, SpooledPart):
            self.starts = xml.item_starts(self.ns)
            tail_from = max(0, len(xml) - _END_WITHIN)
            end = xml[tail_from:].rfind(b"</" + self.ns + b"sst>")
            end = end + tail_from if end >= 0 else -1
        else:
            ns = re.escape(self.ns)
            self.starts = array("q", (m.start() for m in re.finditer(rb"<" + ns + rb"si\b", xml)))
            end = xml.rfind(b"</" + self.ns + b"sst>")
        self.end = end if end >= 0 else len(xml)
        self.usable = root is not None and end >= 0 and len(self.starts) > 0
        self.filler = b"<" + self.ns + b"si><" + self.ns + b"t/></" + self.ns + b"si>"
        self.cell_number = re.compile(_TEXT_CELL)
        self.cell_value = re.compile(_TEXT_CELL.replace(b"(", b"(?:", 1))  # the number only

    @classmethod
    def streamed(cls, part: IO[bytes]) -> StringsTable:
        """The table of a part read in chunks and kept on disk, not in memory (73 MB at
        1,000,000 unique texts, held as long as pieces are made); in memory when the
        temporary folder cannot take it."""
        try:
            return cls(SpooledPart(part))
        except OSError:
            part.seek(0)
            return cls(part.read())

    def close(self) -> None:
        """Let the temporary file go (a table in memory has none)."""
        if isinstance(self.xml, SpooledPart):
            self.xml.close()

    def for_cells(self, rows_xml: bytes) -> tuple[bytes, bytes]:
        """(the table, the rows) for the cells in ``rows_xml``: the whole table and the rows
        as they are when in doubt. When the strings a piece uses lie far apart (a window late
        in a big table), they are numbered anew from 0 in the table and in the cells: empty
        items in between would cost more than the strings themselves."""
        if not self.usable:
            return self.xml[:], rows_xml
        found = self.cell_value.findall(rows_xml)
        if len(found) != len(_ANY_TEXT_TYPE.findall(rows_xml)):
            return self.xml[:], rows_xml
        used = sorted(set(map(int, found)))
        if used and used[-1] >= len(self.starts):
            return self.xml[:], rows_xml  # a cell past the table: as the whole sheet reads it
        if not used or used[-1] + 1 <= 2 * len(used):
            return self.subset(used, renumbered=False), rows_xml
        new = {str(old).encode(): str(number).encode() for number, old in enumerate(used)}
        # Split at the numbers and swap them in C-level passes: re.sub with a Python function
        # per text cell took 3 s of 1,000,000 rows, holding the interpreter the rows wait for.
        parts = self.cell_number.split(rows_xml)  # [before, prefix, number, between, ...]
        parts[2::3] = map(new.__getitem__, parts[2::3])
        return self.subset(used, renumbered=True), b"".join(parts)

    def subset(self, used: list[int], *, renumbered: bool) -> bytes:
        """Items ``used`` (ascending): at their numbers with empty items before and between,
        or one after the other when the cells were `renumbered`."""
        starts, xml = self.starts, self.xml
        count = len(used) if renumbered else (used[-1] + 1 if used else 0)
        head = _COUNTS.sub(
            lambda m: m.group(1) + b'="' + str(count).encode() + b'"', xml[: starts[0]], count=2
        )
        parts = [head]
        expected = 0
        for first, last in _runs(used):
            if first > expected and not renumbered:
                parts.append(self.filler * (first - expected))
            stop = starts[last + 1] if last + 1 < len(starts) else self.end
            parts.append(xml[starts[first] : stop])
            expected = last + 1
        parts.append(xml[self.end :])
        return b"".join(parts)


def _runs(numbers: list[int]) -> list[tuple[int, int]]:
    """Consecutive stretches of ascending ``numbers``, as (first, last)."""
    if not numbers:
        return []
    runs: list[tuple[int, int]] = []
    first = numbers[0]
    for before, after in pairwise(numbers):
        if after != before + 1:
            runs.append((first, before))
            first = after
    runs.append((first, numbers[-1]))
    return runs
