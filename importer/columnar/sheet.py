"""An .xlsx sheet read as columns a piece at a time, with the tool's own rows on request.

The sheet is split (excel/xlsx_split.py) into one workbook of small sheets; fastexcel gives
each as a frame of texts (no Python object per cell) on a second thread while the previous
piece is checked, with the tool's scan of that piece's XML (error cells, uncalculated
formulas, numbers in a 00000 format). ``exact(piece, rows)`` gives chosen rows as the
row-at-a-time reader gives them: those rows' XML as a small workbook (xlsx_pieces), read by
CalamineReader with its special cells, so they are the tool's own cells, types and all.
"""

from __future__ import annotations

import re
import zipfile
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from itertools import repeat

import fastexcel
import numpy as np
import polars as pl

from importer.columnar.choice import PathChoice
from importer.columnar.rebuilt import CellTypes, rebuilt_rows
from importer.excel.base import EmptySheet
from importer.excel.calamine_engine import CalamineReader, KnownHeader
from importer.excel.calamine_pieces import piece_reader, release_freed_memory
from importer.excel.reader import HEAD_BYTES  # the first rows, where the header is found
from importer.excel.sniff import Source
from importer.excel.values import RowBatch
from importer.excel.xlsx_parts import XlsxInfo
from importer.excel.xlsx_pieces import CannotCut, PieceMaker
from importer.excel.xlsx_scan import SheetScan
from importer.excel.xlsx_split import ANCHOR_TEXT, Piece, SplitSheet, first_rows, split_sheet
from importer.thread_names import name_os_thread

# A row's or a cell's reference (r="12", r="AB12") up to its number, which the split drops:
# where a row read again is renumbered.
_REFERENCE = re.compile(rb'(\sr="[A-Za-z]{0,3})[0-9]+(?=")')
PIECE_BYTES = 8 << 20  # of sheet XML: ~25,000 rows of ten columns
ROW = "__row"  # the frame's column of Excel row numbers


class NotAligned(Exception):
    """A piece's frame does not start at its anchor: read the sheet row by row."""


@dataclass
class LoadedPiece:
    piece: Piece
    frame: pl.DataFrame  # ROW, then a text column per header column ("c0", "c1", ...)
    scan: SheetScan  # the piece's special cells
    xml: bytes  # the piece's sheet XML (for exact rows)
    # The piece's row numbers and where each row starts in its XML (found when first asked).
    starts: tuple[list[int], list[int]] | None = None


class ColumnarSheet:
    def __init__(
        self,
        source: Source,
        info: XlsxInfo,
        part: str,
        *,
        sheet_name: str,
        after_row: int,
        measured: bool = False,
        on_piece: Callable[[int], None] | None = None,
    ) -> None:
        self.source = source
        self.info = info
        self.sheet_name = sheet_name
        self.choice: PathChoice | None = None  # why the columnar path reads it (open_columnar)
        self.plan, head = first_rows(source, part, HEAD_BYTES)  # its cuts: split_sheet's
        # The safety pass's measures of the rows the split reads (``measured``: bytes whose
        # first rows alone were checked, by the peek that read the same head).
        self.measures = SheetScan() if measured else None
        self._maker: PieceMaker | None = None
        self._strings: Future[None] | None = None  # the shared strings read after the split
        prefix = self.plan.prefix
        self._row_start = re.compile(rb"<" + re.escape(prefix) + rb'row\b[^>]*?\br="(\d+)"')
        self._data_end = b"</" + prefix + b"sheetData>"
        self._row_tag = b"<" + prefix + b"row r="
        self._row_end = b"</" + prefix + b"row>"
        self._types = CellTypes(prefix)
        try:
            self.known = self._find_header(head)
            self.header = list(self.known.header)
            self.after_row = max(after_row, self.known.row)
            self.split: SplitSheet = split_sheet(
                source,
                self.plan,
                piece_bytes=PIECE_BYTES,
                after_row=self.after_row,
                date1904=info.date1904,
                zero_styles=info.zero_padded_styles,
                measures=self.measures,
                on_piece=on_piece,
            )
        except BaseException:
            if self._maker is not None:
                self._maker.close()
            raise
        # Split, the workbook's bytes are not read again (the rows read again come from the
        # pieces, the parts they need are the maker's): let them go (60 MB at 1,000,000
        # rows) once the maker's strings are read, and hand back what the pass freed.
        self.source = Source(None, b"", source.name)
        if self._maker is not None:
            self._maker.source = self.source
        self._pool = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="columnar", initializer=name_os_thread
        )
        # The rest of the shared strings (the header's read needed only the first ones) are
        # read on a thread of their own while fastexcel opens the pieces and parses the first
        # (in Rust, the interpreter free): 0.75 s at 1,000,000 unique texts, which the run
        # waited for before its first piece.
        self._reading = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="columnar-strings", initializer=name_os_thread
        )
        self._strings = self._reading.submit(self._read_strings)
        self._ahead: tuple[Future[fastexcel.ExcelReader], Future[fastexcel.ExcelSheet]] | None
        self._ahead = None

    def _read_strings(self) -> None:
        if self._maker is not None:
            self._maker.read_strings()
        release_freed_memory()

    def count_rows(self) -> int:
        """The rows after the header holding a value (xlsx_pieces' count)."""
        return self.plan.rows_after(self.known.row)

    def _find_header(self, head: bytes) -> KnownHeader:
        """The header as the row path finds it, from the sheet's first rows (CannotCut: not
        among them; the row path reads the sheet)."""
        try:
            with self.tool_reader(head, None) as first:
                return KnownHeader(list(first.header), first.header_row)
        except EmptySheet as exc:
            raise CannotCut(str(exc)) from None

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._reading.shutdown(wait=True)  # the maker's table is not closed under it
        if self._maker is not None:
            self._maker.close()
        self.split.remove()

    def __enter__(self) -> ColumnarSheet:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the pieces as columns ------------------------------------------------------------

    def pieces(self) -> Iterator[LoadedPiece]:
        """Each piece, the next one loading (fastexcel's parse, in Rust, without the
        interpreter) while this one is used."""
        book_read, first_parsed = self.read_ahead()
        book = book_read.result()
        with zipfile.ZipFile(self.split.path) as archive:
            # Both hold the file open by now: the split's own hold goes (the file has no
            # name to leave behind, whatever ends this process: see ScratchFile).
            self.split.remove()

            def start(piece: Piece) -> tuple[Piece, Future[fastexcel.ExcelSheet]]:
                return piece, self._pool.submit(self._parse, book, piece)

            todo = iter(self.split.pieces)
            first = next(todo, None)
            pending = (first, first_parsed) if first is not None else None
            while pending is not None:
                piece, parsed = pending
                following = next(todo, None)
                pending = start(following) if following is not None else None
                frame = self._frame(parsed.result(), piece)
                if self._strings is not None:
                    self._strings.result()  # its error, if any, before a row is used
                yield LoadedPiece(piece, frame, piece.special, archive.read(piece.part))

    def read_ahead(self) -> tuple[Future[fastexcel.ExcelReader], Future[fastexcel.ExcelSheet]]:
        """The pieces' workbook opened and the first piece parsed on the parse thread, while
        the caller makes the job and its run (0.15 s at 200,000 rows that the first batch
        waited for). Only for a sheet calamine may read: given a far stray cell, it would
        allocate the whole range, which the safety checks are there to refuse."""
        if self._ahead is None:
            book = self._pool.submit(fastexcel.read_excel, str(self.split.path))
            first = self.split.pieces[0]
            self._ahead = (book, self._pool.submit(lambda: self._parse(book.result(), first)))
        return self._ahead

    def _parse(self, book: fastexcel.ExcelReader, piece: Piece) -> fastexcel.ExcelSheet:
        """fastexcel's parse of a piece (in Rust, the interpreter free meanwhile)."""
        return book.load_sheet(piece.index, header_row=None, dtypes="string")

    def _frame(self, sheet: fastexcel.ExcelSheet, piece: Piece) -> pl.DataFrame:
        """The piece's rows: ROW, then a text column per header column. On the thread that
        uses them: the conversion holds the interpreter, and beside Python work on another
        thread it took ten times as long (each waiting on the other's turn)."""
        frame = sheet.to_polars()
        if frame.height == 0 or frame[0, 0] != ANCHOR_TEXT:
            raise NotAligned(f"piece {piece.index} does not start at its anchor")
        width = len(self.header)
        columns = [
            frame.to_series(i).alias(f"c{i}")
            if i < frame.width
            else pl.Series(f"c{i}", [None] * frame.height, dtype=pl.String)
            for i in range(width)
        ]
        rows = np.arange(piece.anchor, piece.anchor + frame.height, dtype=np.int64)
        return pl.DataFrame([pl.Series(ROW, rows), *columns]).slice(1)

    # --- the tool's own rows --------------------------------------------------------------

    def tool_reader(self, rows_xml: bytes, known: KnownHeader | None) -> CalamineReader:
        """The row path's reader over these rows of the sheet's XML, as a small workbook
        (``known``: the header; None: found in these rows, as for a sheet's first piece)."""
        if self._strings is not None:
            self._strings.result()  # the rest of the table read first (or its error)
        if self._maker is None:
            self._maker = PieceMaker(
                self.source, self.plan, [s.path for s in self.info.sheets if s.path]
            )
        source = Source(None, self._maker.workbook(rows_xml), self.source.name)
        return piece_reader(source, self.sheet_name, self.plan.part, self.info, known)

    def _rows_xml(self, loaded: LoadedPiece, numbers: Sequence[int]) -> list[tuple[int, bytes]]:
        """These rows' XML in the piece (ascending numbers), found by a forward search for
        <row r="N" (how writers put it); else from the piece's row starts, found once."""
        xml, parts, at = loaded.xml, [], 0
        for number in numbers:
            found = xml.find(self._row_tag + b'"%d"' % number, at)
            end = xml.find(self._row_end, found) if found >= 0 else -1
            if end < 0:
                return self._rows_by_index(loaded, numbers)
            at = end + len(self._row_end)
            parts.append((number, xml[found:at]))
        return parts

    def _rows_by_index(
        self, loaded: LoadedPiece, numbers: Sequence[int]
    ) -> list[tuple[int, bytes]]:
        if loaded.starts is None:
            found = [(int(m[1]), m.start()) for m in self._row_start.finditer(loaded.xml)]
            loaded.starts = ([n for n, _ in found], [at for _, at in found])
            loaded.starts[1].append(loaded.xml.rfind(self._data_end))
        rows, starts = loaded.starts
        parts = []
        for number in numbers:
            i = bisect_left(rows, number)
            if i < len(rows) and rows[i] == number:
                parts.append((number, loaded.xml[starts[i] : starts[i + 1]]))
        return parts

    def unsettled(self, loaded: LoadedPiece, hard: pl.DataFrame) -> RowBatch:
        """The rows of ``hard`` as the row-at-a-time reader gives them: rebuilt where their
        texts and their XML's types tell every cell, the others read again exactly."""
        batch, others = self.rebuilt(loaded, hard)
        if not others:
            return batch
        again = self.exact(loaded, others)
        return RowBatch(batch.numbers + again.numbers, [*batch.cells, *again.cells])

    def rebuilt(self, loaded: LoadedPiece, hard: pl.DataFrame) -> tuple[RowBatch, list[int]]:
        """The rows of ``hard`` (ROW, the text columns, the __pad columns of with_pads)
        whose cells their texts and their XML's types tell (rebuilt.py), as the reader gives
        them; and the numbers of the others."""
        numbers: list[int] = hard[ROW].to_list()
        parts = self._rows_xml(loaded, numbers)
        if len(parts) != len(numbers):
            return RowBatch([], []), numbers
        texts = [hard[f"c{i}"].to_list() for i in range(len(self.header))]
        pads = {int(c[5:]): hard[c].to_list() for c in hard.columns if c.startswith("__pad")}
        special: dict[int, list[tuple[int, object]]] = {}
        for (row, column), value in loaded.scan.overrides.items():
            special.setdefault(row, []).append((column, value))
        return rebuilt_rows(parts, texts, pads, self._types, special)

    def exact(self, loaded: LoadedPiece, numbers: Sequence[int]) -> RowBatch:
        """Rows ``numbers`` of this piece as the row-at-a-time reader gives them (rows it
        finds blank left out). They are numbered anew one after the other below the header
        for the read (rows far apart would have calamine fill every row between) and given
        their own numbers back."""
        if not numbers:
            return RowBatch([], [])
        parts = self._rows_xml(loaded, numbers)
        if not parts:
            return RowBatch([], [])
        first = self.known.row + 1
        xml = b"".join(_renumbered(row, first + i) for i, (_, row) in enumerate(parts))
        reader = self.tool_reader(xml, self.known)
        try:
            numbers_out: list[int] = []
            cells: list[Sequence[object]] = []
            for block_numbers, block_cells in reader._blocks(first):
                numbers_out += [parts[n - first][0] for n in block_numbers]
                cells += block_cells
        finally:
            reader.close()
        return RowBatch(numbers_out, cells)


def _renumbered(row_xml: bytes, number: int) -> bytes:
    """The row with every reference in it numbered ``number``. Split and joined in C-level
    steps: re.sub with a template per row parsed each template, 50 us a row."""
    parts = _REFERENCE.split(row_xml)  # [before, prefix, between, prefix, ..., after]
    parts[1::2] = map(b"".join, zip(parts[1::2], repeat(b"%d" % number)))
    return b"".join(parts)
