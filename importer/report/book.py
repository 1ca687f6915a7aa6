"""What an error file holds, whichever writer lays it out: the book, its rows, and the texts
both writers give the same way (a row's reasons; text a spreadsheet would run as a formula)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from importer.excel.cell_json import TypedCell
from importer.repositories.rejected_rows import RowProblem

# A spreadsheet treats a cell starting with one of these as a formula (CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


@dataclass(frozen=True, slots=True)
class ErrorRow:
    number: int  # the row in the submitted file
    cells: list[TypedCell]  # as wide as the book's header
    problems: list[RowProblem]
    key: str | None = None  # its key (report/row_keys.py): sent back, it is a correction


@dataclass(frozen=True)
class ErrorBook:
    """What an error file holds, wherever the rows come from."""

    sheet_name: str
    header: list[str]  # the sheet's own columns, in order
    rows: Iterable[ErrorRow]
    about: list[tuple[str, str]]  # (label, text) lines of the About sheet
    # The sheet's rows above its header (a title, a date line), as texts: written above the
    # header again, so that the sender recognises the file and a fixed copy resubmits as is.
    above: list[list[str]] = field(default_factory=list)
    origin: int | None = None  # the import its rows' keys name (None: rows without keys)


def rows_above(layout: Mapping[str, object] | None) -> list[list[str]]:
    """The rows above the header of a job's (or a check's) sheet layout, as texts."""
    found = (layout or {}).get("above")
    if not isinstance(found, list):
        return []
    by_row = {int(number): [str(t) for t in texts] for number, texts in found}
    header = (layout or {}).get("row")
    last = int(header) - 1 if isinstance(header, int) else max(by_row, default=0)
    # Blank rows too, so that each row above the header stands where the sender had it.
    return [by_row.get(number, []) for number in range(1, last + 1)] if by_row else []


def looks_like_formula(text: str) -> bool:
    """True when a spreadsheet would evaluate the text; plain numbers such as -12 are fine."""
    return text.startswith(_FORMULA_START) and _PLAIN_NUMBER.fullmatch(text) is None


def problem_text(problem: RowProblem) -> str:
    """One reason in words, naming its column: "Zip Code: '1234' is not in the expected format"."""
    return f"{problem.column}: {problem.message}" if problem.column else problem.message
