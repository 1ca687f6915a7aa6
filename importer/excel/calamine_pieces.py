"""A sheet too big for calamine at once, read by calamine one piece at a time.

Each piece (xlsx_pieces) is a small workbook calamine loads in full; the next piece is built
and loaded on a second thread while this one's rows are read and checked, so the parse (in
Rust, without the GIL) overlaps the work in Python. At most two pieces are in memory.
Rows come out exactly as CalamineReader gives them for the whole sheet: same numbers, same
cells, same error cells and zero-padded numbers (found per piece by the same scan).
"""

from __future__ import annotations

import ctypes
import zipfile
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor

from importer.excel.base import EmptySheet
from importer.excel.calamine_engine import Block, BlockReader, CalamineReader, KnownHeader
from importer.excel.sniff import Source
from importer.excel.special_cells import SpecialCells
from importer.excel.xlsx_parts import XlsxInfo
from importer.excel.xlsx_pieces import Cut, PieceMaker, SheetPlan
from importer.excel.xlsx_scan import scan_sheet
from importer.thread_names import name_os_thread


def _trimmer() -> Callable[[], object]:
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:  # not glibc
        return lambda: None
    return lambda: libc.malloc_trim(0)


# A piece's parse runs on the second thread, in its own malloc arena: what its close frees
# stays mapped there unless handed back (the reader alone at 1,000,000 rows peaked at
# 724 MB without, 620 MB with, with pieces twice today's size).
release_freed_memory = _trimmer()


def piece_reader(
    piece: Source, sheet_name: str, part: str, info: XlsxInfo, known: KnownHeader | None
) -> CalamineReader:
    """calamine over a piece's workbook (xlsx_pieces), with the piece's special cells:
    ``known``, the header found in an earlier piece; None, found in this one."""
    zero = info.zero_padded_styles

    def special() -> SpecialCells:
        with piece.open() as handle, zipfile.ZipFile(handle) as archive:
            return scan_sheet(archive, part, piece.name, zero, bounds=False).special()

    overrides = special() if zero else None
    if known is None:
        return CalamineReader.first_piece(
            piece,
            sheet_name,
            date1904=info.date1904,
            overrides=overrides,
            load_overrides=special,
        )
    return CalamineReader.later_piece(
        piece,
        sheet_name,
        known,
        date1904=info.date1904,
        overrides=overrides,
        load_overrides=special,
    )


class PiecewiseReader(BlockReader):
    engine = "calamine"
    file_format = "xlsx"
    reads_in_pieces = True

    def __init__(
        self, source: Source, sheet: str, info: XlsxInfo, plan: SheetPlan, sheet_names: list[str]
    ) -> None:
        self._name = source.name
        self._info = info
        self._plan = plan
        self.sheet_name = sheet
        self.sheet_names = sheet_names
        self.date1904 = info.date1904
        self._maker = PieceMaker(source, plan, [s.path for s in info.sheets if s.path])
        self._pool = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="piece", initializer=name_os_thread
        )
        self._pending: Future[CalamineReader | None] | None = None
        try:
            first = self._first_piece()
        except BaseException:
            self._maker.close()
            raise
        try:
            self.header, self.header_row = first.header, first.header_row
            self.leading, self.merges = first.leading, first.merges
            self._known = KnownHeader(first.header, first.header_row)
        except BaseException:
            first.close()
            self._maker.close()
            raise
        self._first: CalamineReader | None = first

    def rehead(self, number: int, rows: int = 1) -> None:
        super().rehead(number, rows)
        if self._first is not None:
            self._first.rehead(number, rows)
        self._known = KnownHeader(self.header, self.header_row)  # for the later pieces

    def _first_piece(self) -> CalamineReader:
        """The piece that holds the header: the first, joined with the next while it has
        none (blank rows above the header, or pieces of a row or two in tests)."""
        cuts = self._plan.cuts
        while True:
            cut, data = next(self._maker.pieces())
            try:
                return self._open(cut, data, None)
            except EmptySheet:
                if len(cuts) < 2:
                    raise
                first, second = cuts[0], cuts[1]
                cuts[0:2] = [
                    Cut(
                        first.start,
                        second.end,
                        first.first_row,
                        second.last_row,
                        first.rows_with_values + second.rows_with_values,
                    )
                ]

    def _open(self, cut: Cut, data: bytes, known: KnownHeader | None) -> CalamineReader:
        return piece_reader(
            Source(None, data, self._name), self.sheet_name, self._plan.part, self._info, known
        )

    def _readers(self, after_row: int) -> Iterator[CalamineReader]:
        """The pieces holding rows after ``after_row``, each loaded while the last is read."""
        pieces = self._maker.pieces(after_row)
        first, self._first = self._first, None
        current: CalamineReader | None
        if first is not None and self._plan.cuts[0].last_row > after_row:
            next(pieces, None)  # the first piece is loaded already
            current = first
        else:
            if first is not None:
                first.close()
            current = self._next_loaded(pieces)
        while current is not None:
            self._pending = self._pool.submit(self._next_loaded, pieces)
            try:
                yield current
            finally:
                current.close()
                release_freed_memory()
            pending, self._pending = self._pending, None
            current = pending.result()

    def _next_loaded(self, pieces: Iterator[tuple[Cut, bytes]]) -> CalamineReader | None:
        piece = next(pieces, None)
        return None if piece is None else self._open(piece[0], piece[1], self._known)

    def _blocks(self, first_row: int | None = None) -> Iterator[Block]:
        start = max(first_row or 0, self.header_row + 1)
        for reader in self._readers(start - 1):
            yield from reader._blocks(start)

    def count_rows(self) -> int:
        return self._plan.rows_after(self.header_row)

    def count_rows_after(self, row: int) -> int:
        return self._plan.rows_after(max(row, self.header_row))

    def close(self) -> None:
        first, self._first = self._first, None
        if first is not None:
            first.close()
        pending, self._pending = self._pending, None
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._maker.close()
        if pending is not None and pending.done() and pending.exception() is None:
            loaded = pending.result()
            if loaded is not None:
                loaded.close()
