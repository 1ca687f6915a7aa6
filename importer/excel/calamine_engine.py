"""The fast engine: python-calamine parses the whole sheet in Rust, we normalize rows.

calamine yields every number as float (xlsx) and every empty, error or uncalculated cell
as "". Empty becomes None here; errors, uncalculated formulas and zero-padded numbers come
from the byte-level scan done before (see xlsx_scan), as per-cell overrides.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, compress, count, islice
from operator import itemgetter, methodcaller
from typing import Any, cast

import python_calamine as pc

from importer.errors import InputError
from importer.excel.base import SheetReader, choose_sheet, header_texts, no_header
from importer.excel.calamine_workbook import (
    calamine_charts,
    calamine_sheets,
    open_calamine_workbook,
    panic_output_held,
    short_error,
)
from importer.excel.layout import LEADING_ROWS
from importer.excel.sniff import Source
from importer.excel.special_cells import PaddedIndex, SpecialCells
from importer.excel.values import Row, RowBatch, new_row

BLOCK = 1000  # rows read from calamine at a time (one C-level check per block)
_NONE_FOR_EMPTY = {"": None}.get  # (cell, cell): None for "", else the cell
_NONES = methodcaller("count", None)


@dataclass(frozen=True)
class KnownHeader:
    """The header found in a sheet's first piece: its texts (from column A) and Excel row."""

    header: list[str]
    row: int


class SheetUnreadable(InputError):
    """calamine could not read the sheet (the streaming engine may still manage)."""


Block = tuple[list[int], list[Sequence[object]]]  # (Excel row numbers, their cells)


class BlockReader(SheetReader):
    """rows() and batches() from blocks of rows: what calamine's readers share."""

    def _blocks(self, first_row: int | None = None) -> Iterator[Block]:
        raise NotImplementedError

    def rows(self) -> Iterator[Row]:
        for numbers, cells in self._blocks():
            yield from map(new_row, zip(numbers, map(tuple, cells), strict=True))

    def batches(self, size: int, *, skip: int = 0, after_row: int = 0) -> Iterator[Sequence[Row]]:
        """Exactly ``size`` rows per batch (the last one shorter), as RowBatch objects."""
        numbers: list[int] = []
        cells: list[Sequence[object]] = []
        for block_numbers, block_cells in self._blocks(after_row + 1):
            if skip:
                if skip >= len(block_numbers):
                    skip -= len(block_numbers)
                    continue
                block_numbers, block_cells = block_numbers[skip:], block_cells[skip:]
                skip = 0
            if not numbers and len(block_numbers) == size:
                yield RowBatch(block_numbers, block_cells)  # the usual case: no copying
                continue
            numbers += block_numbers
            cells += block_cells
            while len(numbers) >= size:
                yield RowBatch(numbers[:size], cells[:size])
                del numbers[:size], cells[:size]
        if numbers:
            yield RowBatch(numbers, cells)


class CalamineReader(BlockReader):
    """A sheet calamine loaded whole. Made by one of the constructors, which differ in how
    the header is found: whole_sheet (now), loading (later, by begin()), first_piece and
    later_piece (a piece of a sheet, xlsx_pieces: the first holds the header)."""

    engine = "calamine"

    def __init__(
        self,
        source: Source,
        file_format: str,
        wanted_sheet: str | None,
        *,
        workbook: Any = None,
        date1904: bool = False,
        overrides: SpecialCells | None = None,
        load_overrides: Callable[[], SpecialCells] | None = None,
    ) -> None:
        """The sheet loaded, its header not looked for yet (the constructors do that).
        `overrides` are the cells calamine cannot give; `load_overrides` finds them on
        first need instead (when a row shows an empty cell, which errors also look like)."""
        self.file_format = file_format
        self.date1904 = date1904
        self._name = source.name
        self._workbook = (
            workbook if workbook is not None else open_calamine_workbook(source, file_format)
        )
        try:
            self.sheet_names = [name for name, _ in calamine_sheets(self._workbook)]
            charts = calamine_charts(self._workbook)
            self.sheet_name = choose_sheet(
                source.name, wanted_sheet, calamine_sheets(self._workbook), charts
            )
            try:
                with panic_output_held():
                    self._sheet = self._workbook.get_sheet_by_name(self.sheet_name)
            except pc.PasswordError:
                raise InputError(f"{source.name}: the workbook is password-protected") from None
            except (pc.CalamineError, ValueError, OSError) as exc:
                if "entity" in str(exc):
                    raise InputError(
                        f"{source.name}: sheet {self.sheet_name!r} declares XML entities, "
                        f"refused as unsafe ({short_error(exc)})"
                    ) from None
                raise SheetUnreadable(
                    f"{source.name}: sheet {self.sheet_name!r} cannot be read ({short_error(exc)})"
                ) from None
            # Only xlsx numbers are all floats already; other formats also give ints.
            self._ints_to_float = file_format != "xlsx"
            self._load_overrides = load_overrides
            self._overrides: dict[int, list[tuple[int, object]]] | None = None
            self._padded = PaddedIndex(())
            if overrides is not None or load_overrides is None:
                self._set_overrides(overrides or SpecialCells())
            self._count: int | None = None
            self._lead = 0  # columns between the header's first and this sheet's first
            self._empty = False  # a piece with no cells at all
            self._piece = False  # a piece of a sheet, whose header another piece held
        except BaseException:
            self.close()
            raise

    @classmethod
    def whole_sheet(
        cls,
        source: Source,
        file_format: str,
        wanted_sheet: str | None,
        overrides: SpecialCells,
        *,
        workbook: Any = None,
        date1904: bool = False,
    ) -> CalamineReader:
        """A whole sheet whose special cells a scan found before (ods_scan, xlsb_scan), its
        header found now. `workbook`: the one already open for the file, taken over."""
        reader = cls(
            source,
            file_format,
            wanted_sheet,
            workbook=workbook,
            date1904=date1904,
            overrides=overrides,
        )
        return reader._then(reader._find_header)

    @classmethod
    def loading(
        cls,
        source: Source,
        wanted_sheet: str,
        *,
        date1904: bool,
        load_overrides: Callable[[], SpecialCells],
    ) -> CalamineReader:
        """An .xlsx sheet only loaded (on another thread, say): begin() then takes the special
        cells found meanwhile, if any, and finds the header."""
        return cls(source, "xlsx", wanted_sheet, date1904=date1904, load_overrides=load_overrides)

    @classmethod
    def first_piece(
        cls,
        source: Source,
        wanted_sheet: str,
        *,
        date1904: bool,
        overrides: SpecialCells | None,
        load_overrides: Callable[[], SpecialCells],
    ) -> CalamineReader:
        """The piece of a sheet (xlsx_pieces) that holds its header, found now."""
        reader = cls(
            source,
            "xlsx",
            wanted_sheet,
            date1904=date1904,
            overrides=overrides,
            load_overrides=load_overrides,
        )
        return reader._then(reader._find_header)

    @classmethod
    def later_piece(
        cls,
        source: Source,
        wanted_sheet: str,
        header: KnownHeader,
        *,
        date1904: bool,
        overrides: SpecialCells | None,
        load_overrides: Callable[[], SpecialCells],
    ) -> CalamineReader:
        """A piece after the one that held the header: the workbook is released as soon as
        the sheet is loaded."""
        reader = cls(
            source,
            "xlsx",
            wanted_sheet,
            date1904=date1904,
            overrides=overrides,
            load_overrides=load_overrides,
        )
        return reader._then(lambda: reader._take_header(header))

    def _then(self, step: Callable[[], None]) -> CalamineReader:
        """This reader after ``step``; closed when the step fails."""
        try:
            step()
        except BaseException:
            self.close()
            raise
        return self

    def begin(self, overrides: SpecialCells | None) -> CalamineReader:
        """A reader made by loading(): its special cells, if found meanwhile, then its
        header."""

        def header() -> None:
            if overrides is not None:
                self._set_overrides(overrides)
            self._find_header()

        return self._then(header)

    def _set_overrides(self, special: SpecialCells) -> None:
        self._padded = PaddedIndex(special.padded)
        self._overrides = special.by_row()

    def _special_cells(self) -> dict[int, list[tuple[int, object]]]:
        if self._overrides is None:
            assert self._load_overrides is not None
            self._set_overrides(self._load_overrides())
        assert self._overrides is not None
        return self._overrides

    # calamine's iter_rows yields absolute rows (leading empty rows included) but columns
    # from the first used one: self._col0 is that column's 0-based index.
    def _find_header(self) -> None:
        start = self._sheet.start
        if start is None:
            raise no_header(self._name, self.sheet_name)
        self._col0 = int(start[1])
        self._range_width = int(self._sheet.width)
        self.leading = []
        for number, raw in enumerate(self._sheet.iter_rows(), start=1):
            values = self._normalize(raw, number, self._range_width)
            if values is not None and header_texts(values):  # spaces alone: a blank row
                self.leading.append((number, values))
                if len(self.leading) == LEADING_ROWS:
                    break
        if not self.leading:
            raise no_header(self._name, self.sheet_name)
        self.header_row, first = self.leading[0]
        self.header = header_texts(first)
        # Every merged range: those over the header rows join them, those below fill their
        # cells for fill_merged.
        self.merges = [
            (int(top) + 1, int(left), int(bottom) + 1, int(right))
            for (top, left), (bottom, right) in (self._sheet.merged_cell_ranges or ())
        ]

    def reheaded(self) -> None:
        self._count = None

    def _take_header(self, known: KnownHeader) -> None:
        # A piece's rows are lined up from column A: its own first column may lie left of
        # the header's (cells under no header, kept as a whole read keeps them) or right.
        self.header, self.header_row, self._col0 = list(known.header), known.row, 0
        self._piece = True
        start = self._sheet.start
        self._empty = start is None
        self._range_width = int(self._sheet.width) if start is not None else 0
        self._lead = int(start[1]) if start is not None else 0
        self._workbook.close()  # the sheet is loaded: its piece's workbook is not needed
        self._workbook = None

    def _normalize(self, raw: list[Any], number: int, n: int) -> tuple[object, ...] | None:
        """One calamine row as normalized values for absolute columns A.. (slow, general path)."""
        if len(raw) > n:
            raw = raw[:n]
        known = self._overrides
        if known is None and "" in raw:
            known = self._special_cells()
        fixes = known.get(number) if known else None
        if not fixes and raw.count("") == len(raw):
            return None  # e.g. a cut sheet's rows above its first: nothing to pad
        if fixes:
            for col, value in fixes:
                pos = col - self._col0
                if 0 <= pos < len(raw):
                    raw[pos] = value
        if self._padded:
            self._padded.pad((raw,), (number,), self._col0)
        values = [
            None if v == "" else (float(v) if self._ints_to_float and type(v) is int else v)
            for v in raw
        ]
        if all(v is None for v in values):
            return None
        return (None,) * self._col0 + tuple(values)

    def _data_rows(self, n: int, first: int | None = None) -> tuple[int, Iterator[list[Any]]]:
        """calamine's rows from Excel row ``first`` (default: the one after the header), cut
        to the `n` columns under the header; and the Excel row of the first of them (later
        than ``first`` for a piece whose rows begin below it)."""
        start = self.header_row if first is None else first - 1  # 0-based
        if self._empty:
            return start + 1, iter(())
        rows: Iterator[list[Any]]
        if self._piece:
            # A piece's rows begin far below row 1, and iter_rows makes a list of empty cells
            # for every row above them: 18 million lists (3-4 s) for 1,000,000 rows in 37
            # pieces. A piece is small, so its rows are taken at once, from its first one.
            top = int(self._sheet.start[0])
            start = max(start, top)
            rows = iter(self._sheet.to_python(skip_empty_area=True)[start - top :])
        else:
            rows = islice(self._sheet.iter_rows(), start, None)
        if self._lead or self._range_width < n:
            # A piece whose cells begin right of column A, or end before the header's last
            # column: line its rows up under the header.
            lead, pad = [""] * self._lead, [""] * n
            return start + 1, ((lead + raw + pad)[:n] for raw in rows)
        if self._range_width > n:  # ghost columns beyond the header
            return start + 1, map(itemgetter(slice(0, n)), rows)
        return start + 1, rows

    def _blocks(self, first_row: int | None = None) -> Iterator[Block]:
        """(row numbers, normalized cells) of the non-blank data rows from ``first_row``
        (default: the one after the header), BLOCK rows read at a time. The common case,
        plain xlsx from column A, costs a few C-level passes per block: a block without an
        empty cell ("", which an error cell also looks like) is passed on as calamine gave
        it."""
        width = len(self.header)
        n = width - self._col0  # calamine columns that fall under the header
        at = max(first_row or 0, self.header_row + 1)  # Excel row of the block's first row
        at, rows = self._data_rows(n, at)
        general = self._ints_to_float or self._col0 > 0
        has_no_empty = frozenset(("",)).isdisjoint
        while raws := list(islice(rows, BLOCK)):
            first, at = at, at + len(raws)
            known = self._overrides
            if known is not None and not general:
                self._fix_block(raws, first, n, known)
            if not general and has_no_empty(chain.from_iterable(raws)):
                yield list(range(first, at)), cast(list[Sequence[object]], raws)
                continue
            if general:
                numbers: list[int] = []
                cells: list[Sequence[object]] = []
                for number, raw in zip(count(first), raws):
                    values = self._normalize(raw, number, n)
                    if values is not None:
                        numbers.append(number)
                        cells.append(values)
                if numbers:
                    yield numbers, cells
                continue
            if known is None:
                # An empty cell may be an error cell calamine shows as "": the special cells
                # are loaded now (once), and this block gets them as later ones do.
                self._fix_block(raws, first, n, self._special_cells())
            # "" -> None in C-level passes (every cell is hashable), then blank rows left out.
            converted = [list(map(_NONE_FOR_EMPTY, raw, raw)) for raw in raws]
            kept = list(map(n.__ne__, map(_NONES, converted)))
            if all(kept):
                yield list(range(first, at)), cast(list[Sequence[object]], converted)
            elif any(kept):
                numbers = list(compress(range(first, at), kept))
                yield numbers, list(compress(converted, kept))

    def _fix_block(
        self, raws: list[list[Any]], first: int, n: int, known: dict[int, list[tuple[int, object]]]
    ) -> None:
        """Set in place the cells the scan knows better (errors, zero-padded numbers) in a
        block of calamine's rows from Excel row ``first``, before the block is looked at."""
        if known:
            fixes_of = known.get
            for number, raw in zip(count(first), raws):
                fixes = fixes_of(number)
                if fixes:
                    for col, value in fixes:
                        if col < n:
                            raw[col] = value
        if self._padded:
            self._padded.pad(raws, range(first, first + len(raws)))

    def count_rows(self) -> int:
        if self._count is None:
            self._count = self._count_from(self.header_row + 1)
        return self._count

    def count_rows_after(self, row: int) -> int:
        return self._count_from(max(row, self.header_row) + 1)

    def _count_from(self, first: int) -> int:
        """Non-blank rows from Excel row ``first`` on, as rows() would yield them."""
        n = len(self.header) - self._col0
        blank = [""] * n
        # One C-level comparison per row: a row is blank when all its cells are "".
        first, rows = self._data_rows(n, first)
        is_blank = list(map(blank.__eq__, rows))
        count = is_blank.count(False)
        if count < len(is_blank) and self._special_cells():
            special = self._special_cells()
            for offset in compress(range(len(is_blank)), is_blank):
                fixes = special.get(first + offset, ())
                if any(0 <= col - self._col0 < n for col, _ in fixes):
                    count += 1  # a row of error cells only
        return count

    def close(self) -> None:
        workbook, self._workbook = self._workbook, None
        self._sheet = None
        if workbook is not None:
            with contextlib.suppress(pc.CalamineError):
                workbook.close()
