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

import contextlib
import os
import re
import tempfile
import threading
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable
from itertools import accumulate, islice, pairwise
from operator import add
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
    safe from any thread): ``part[a:b]`` as with bytes, without the bytes in memory. It is
    read from the part as far as asked (more()): a sheet's first rows need only the
    first strings of a big table. Where the temporary folder cannot take it, in memory."""

    def __init__(self, part: IO[bytes], release: Callable[[], None] = lambda: None) -> None:
        self._part: IO[bytes] | None = part
        self._release = release  # what holds the part open, let go once it is read
        self._memory = bytearray()  # the bytes, when the folder could not take them
        self._file: IO[bytes] | None = None
        with contextlib.suppress(OSError):
            self._file = tempfile.TemporaryFile()  # noqa: SIM115 (closed with the table)
        self._size = 0

    def more(self) -> bool:
        """One more chunk of the part read; False once it is all read."""
        if self._part is None:
            return False
        try:
            chunk = self._part.read(_CHUNK)
        except BaseException:
            self._let_go()
            raise
        if not chunk:
            self._let_go()
            return False
        if self._file is not None:
            try:
                self._file.seek(self._size)
                self._file.write(chunk)
                self._file.flush()
            except OSError:
                self._memory = bytearray(self[0 : self._size])
                self._file.close()
                self._file = None
        if self._file is None:
            self._memory += chunk
        self._size += len(chunk)
        return True

    def _let_go(self) -> None:
        self._part = None
        self._release()

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
        if self._file is None:
            return bytes(self._memory[start:stop])
        parts: list[bytes] = []
        while start < stop:
            read = os.pread(self._file.fileno(), stop - start, start)
            if not read:
                break
            parts.append(read)
            start += len(read)
        return b"".join(parts)

    def close(self) -> None:
        if self._part is not None:
            self._let_go()
        if self._file is not None:
            self._file.close()


class StringsTable:
    """The shared-strings part, split into its items: at once for a part in memory, as far
    as the cells asked for need for one read from a package (streamed)."""

    def __init__(self, xml: bytes | SpooledPart) -> None:
        self.xml = xml
        self._lock = threading.Lock()  # a spooled table grows from whichever thread asks
        if isinstance(xml, SpooledPart):
            while len(xml) < _ROOT_WITHIN and xml.more():
                pass
        root = _ROOT.search(xml[:_ROOT_WITHIN], 0, _ROOT_WITHIN)
        self.root = root is not None
        self.ns = root.group(1) if root else b""
        self._pattern = _item_pattern(self.ns)
        self.starts: array[int] = array("q")
        self._scanned = 0  # the items beginning before this offset are in starts
        self.end = len(xml)  # where </sst> begins (the part's end until it is found)
        self.usable = False
        self.whole = False  # every item found
        if isinstance(xml, SpooledPart):
            self._find_more()
        else:
            self.starts.extend(_tag_starts(xml, len(xml), 0, self.ns, self._pattern))
            self._found_all(xml.rfind(b"</" + self.ns + b"sst>"))
        self.filler = b"<" + self.ns + b"si><" + self.ns + b"t/></" + self.ns + b"si>"
        self.cell_number = re.compile(_TEXT_CELL)
        self.cell_value = re.compile(_TEXT_CELL.replace(b"(", b"(?:", 1))  # the number only

    def _found_all(self, end: int) -> None:
        self.whole = True
        self.end = end if end >= 0 else len(self.xml)
        self.usable = self.root and end >= 0 and len(self.starts) > 0

    def _find_more(self) -> bool:
        """The items in one more chunk of a spooled part; False once all are found. A tag
        across two chunks is found with the second: the scan goes on from a little before
        the first one's end."""
        xml = self.xml
        if self.whole or not isinstance(xml, SpooledPart):
            return False
        grew = xml.more()
        buffer = xml[self._scanned : len(xml)]
        keep = len(self.ns) + 4  # a tag may start this close to the end and be cut
        limit = len(buffer) if not grew else max(len(buffer) - keep, 0)
        self.starts.extend(_tag_starts(buffer, limit, self._scanned, self.ns, self._pattern))
        self._scanned += limit
        if not grew:
            tail_from = max(0, len(xml) - _END_WITHIN)
            end = xml[tail_from:].rfind(b"</" + self.ns + b"sst>")
            self._found_all(end + tail_from if end >= 0 else -1)
        else:
            # What is known so far: read on when a cell asks for more.
            self.usable = self.root and len(self.starts) > 0
        return True

    def _items(self, count: int) -> None:
        """Found: ``count`` items and where the last of them ends (or all there are)."""
        while len(self.starts) <= count and self._find_more():
            pass

    def complete(self) -> None:
        """Every item found (the whole part read): nothing held open any longer."""
        with self._lock:
            self._find_all()

    def _find_all(self) -> None:
        while self._find_more():
            pass

    @classmethod
    def streamed(cls, part: IO[bytes], release: Callable[[], None] = lambda: None) -> StringsTable:
        """The table of a part read in chunks as far as needed and kept on disk, not in
        memory (73 MB at 1,000,000 unique texts, held as long as pieces are made);
        ``release`` lets go of what holds the part open, once it is read."""
        return cls(SpooledPart(part, release))

    def close(self) -> None:
        """Let the temporary file and the part go (a table in memory has neither)."""
        if isinstance(self.xml, SpooledPart):
            self.xml.close()

    def for_cells(self, rows_xml: bytes) -> tuple[bytes, bytes]:
        """(the table, the rows) for the cells in ``rows_xml``: the whole table and the rows
        as they are when in doubt. When the strings a piece uses lie far apart (a window late
        in a big table), they are numbered anew from 0 in the table and in the cells: empty
        items in between would cost more than the strings themselves."""
        with self._lock:
            return self._for_cells(rows_xml)

    def _for_cells(self, rows_xml: bytes) -> tuple[bytes, bytes]:
        found = self.cell_value.findall(rows_xml)
        if len(found) != len(_ANY_TEXT_TYPE.findall(rows_xml)):
            return self._whole_table(), rows_xml
        used = sorted(set(map(int, found)))
        if used:
            self._items(used[-1] + 1)
        if not self.usable:
            return self._whole_table(), rows_xml
        if used and used[-1] >= len(self.starts):
            return self._whole_table(), rows_xml  # a cell past the table: as the sheet reads it
        if not used or used[-1] + 1 <= 2 * len(used):
            return self.subset(used, renumbered=False), rows_xml
        new = {str(old).encode(): str(number).encode() for number, old in enumerate(used)}
        # Split at the numbers and swap them in C-level passes: re.sub with a Python function
        # per text cell took 3 s of 1,000,000 rows, holding the interpreter the rows wait for.
        parts = self.cell_number.split(rows_xml)  # [before, prefix, number, between, ...]
        parts[2::3] = map(new.__getitem__, parts[2::3])
        return self.subset(used, renumbered=True), b"".join(parts)

    def _whole_table(self) -> bytes:
        self._find_all()
        return self.xml[:]

    def subset(self, used: list[int], *, renumbered: bool) -> bytes:
        """Items ``used`` (ascending, all found): at their numbers with empty items before
        and between, or one after the other when the cells were `renumbered`."""
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
        # The part's own end once read; before, the end tag alone (all after it is space).
        parts.append(xml[self.end :] if self.whole else b"</" + self.ns + b"sst>")
        return b"".join(parts)


def _item_pattern(ns: bytes) -> re.Pattern[bytes]:
    return re.compile(rb"<" + re.escape(ns) + rb"si\b")


def _tag_starts(
    buffer: bytes, limit: int, base: int, ns: bytes, pattern: re.Pattern[bytes]
) -> Iterable[int]:
    """``base`` + where each item tag begins in ``buffer`` before ``limit``. Split at the
    tag and summed in C-level loops (a Python step per match took 0.3 s of a table of
    200,000 texts, read twice before a big sheet's first row); by the pattern when some
    tag is followed by more of a name (``<sit``), which the split would take for one."""
    tag = b"<" + ns + b"si"
    if re.search(re.escape(tag) + rb"[\w.:-]", buffer) is not None:
        return [base + m.start() for m in pattern.finditer(buffer) if m.start() < limit]
    parts = buffer.split(tag)
    parts.pop()  # after the last tag
    # Where the n-th tag begins: the parts before it and n tags.
    ends = accumulate(map(len, parts), initial=base)
    found = list(map(add, islice(ends, 1, None), range(0, len(parts) * len(tag), len(tag))))
    cut = bisect_left(found, base + limit)
    del found[cut:]
    return found


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
