"""What the split learns from one piece of a sheet's XML, by itself.

A piece (whole rows, xlsx_pieces' cut) tells its own row numbers and how many rows hold a
value (the survey's checks), the safety pass's measures of its cells, where its rows after
a given row begin, and its special cells. Nothing here depends on another piece, so pieces
can be looked at in any order and on any process (piece_workers): the split puts the
answers together in the sheet's order (the order of rows across pieces, the measures'
largest values).
"""

from __future__ import annotations

from dataclasses import dataclass

from importer.excel.xlsx_pieces import CannotCut, RowPatterns, rows_in
from importer.excel.xlsx_scan import RowsScanner, SheetScan, Xml


@dataclass(frozen=True)
class FactsAsked:
    """What is asked of every piece of one split."""

    prefix: bytes  # the sheet's namespace prefix ("x:", or b"")
    zero_styles: dict[int, int]  # styles of zero-padded numbers -> their width
    after_row: int  # rows up to this one are not kept (the header's, or the last committed)
    measure: bool  # take the safety pass's measures


@dataclass(frozen=True)
class PieceFacts:
    first_row: int  # 0: the piece holds no rows
    last_row: int
    valued: int  # rows holding a value
    kept_from: int  # where its first row after ``after_row`` begins; -1: none is
    first_kept: int  # that row's number
    measures: SheetScan | None  # the safety pass's, of every row of the piece
    special: SheetScan | None  # the special cells of the kept rows
    refusal: str | None = None  # why the sheet cannot be cut (CannotCut)


_EMPTY = PieceFacts(0, 0, 0, -1, 0, None, None)


class FactFinder:
    def __init__(self, asked: FactsAsked) -> None:
        self.asked = asked
        self.rows = RowPatterns.for_prefix(asked.prefix)
        self.scanner = RowsScanner(asked.prefix, asked.zero_styles)

    def facts(self, xml: Xml, first_piece: bool) -> PieceFacts:
        """The facts of whole rows of XML (the sheet's first piece also holds the XML
        before its rows, which is not kept)."""
        try:
            numbers, valued = rows_in(xml, self.rows)
        except CannotCut as exc:
            return PieceFacts(0, 0, 0, -1, 0, None, None, str(exc))
        if not numbers:
            return _EMPTY
        measures = None
        if self.asked.measure:
            measures = SheetScan()
            self.scanner.measure(xml, measures)
        after = self.asked.after_row
        kept_from, first_kept = 0, numbers[0]
        if first_piece or first_kept <= after:
            later = next((m for m in self.rows.number.finditer(xml) if int(m[1]) > after), None)
            kept_from, first_kept = (-1, 0) if later is None else (later.start(), int(later[1]))
        special = None
        if kept_from >= 0:
            special = self.scanner.scan(xml[kept_from:] if kept_from else xml)
        return PieceFacts(numbers[0], numbers[-1], valued, kept_from, first_kept, measures, special)


def take_measures(into: SheetScan, piece: SheetScan) -> None:
    """A piece's measures added to the sheet's so far (scan_sheet's, had it read both)."""
    into.xml_bytes += piece.xml_bytes
    into.max_row = max(into.max_row, piece.max_row)
    into.max_col = max(into.max_col, piece.max_col)
    into.max_string_index = max(into.max_string_index, piece.max_string_index)
    into.positional = into.positional or piece.positional
    into.bad_string_index = into.bad_string_index or piece.bad_string_index
    if into.bad_ref is None:
        into.bad_ref = piece.bad_ref
