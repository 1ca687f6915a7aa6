"""What an error file holds, whichever writer lays it out: the book, its rows, and the texts
both writers give the same way (a row's reasons; text a spreadsheet would run as a formula)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

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


@dataclass(frozen=True)
class ErrorBook:
    """What an error file holds, wherever the rows come from."""

    sheet_name: str
    header: list[str]  # the sheet's own columns, in order
    rows: Iterable[ErrorRow]
    about: list[tuple[str, str]]  # (label, text) lines of the About sheet


def looks_like_formula(text: str) -> bool:
    """True when a spreadsheet would evaluate the text; plain numbers such as -12 are fine."""
    return text.startswith(_FORMULA_START) and _PLAIN_NUMBER.fullmatch(text) is None


def problem_text(problem: RowProblem) -> str:
    """One reason in words, naming its column: "Zip Code: '1234' is not in the expected format"."""
    return f"{problem.column}: {problem.message}" if problem.column else problem.message
