"""Rows of totals and sums, as a person tells them from rows of data.

A total row is labelled as one wherever the label stands (``Grand Total:``, ``First type
Total``, ``Общий итог``) and holds values beside it, no text of its own: numbers, dates,
dashes, or a report template's placeholders (``{{t_qty}}``, ``${total}``: a value to come).
The label/value lines between two total rows are totals too (``Subtotal | Tax | Total`` under
an invoice's items). A row of sums holds each column's sum since the header or the last such
row.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from datetime import date, datetime
from typing import TypeGuard

from importer.excel.values import Row, display_text

# What labels a total row, by language: English, German, French, Spanish, Italian,
# Portuguese, Dutch, Russian, Ukrainian, Polish, Czech, Swedish, Finnish,
# Chinese and Japanese. A word of the label's first or last place, or the whole label.
TOTAL_WORDS = frozenset(
    (
        *("total", "totals", "subtotal", "subtotals", "sub-total", "grandtotal", "sum", "sums"),
        *("summe", "gesamt", "gesamtsumme", "zwischensumme", "insgesamt"),
        *("sous-total", "suma", "totale", "subtotale", "soma", "totaal", "subtotaal"),
        *("итог", "итого", "всего", "итоги", "підсумок", "разом", "усього"),
        *("razem", "ogółem", "celkem", "součet", "summa", "totalt", "yhteensä"),
        *("合计", "总计", "小计", "合計", "總計", "小計", "総計"),
    )
)
# The label/value lines between two total rows that are totals with them.
LINES_BETWEEN_TOTALS = 5
_DASHES = frozenset("-*\u2013\u2014")  # a cell of dashes: nothing, as an empty one
_WORDS = re.compile(r"[^\W_]+(?:-[^\W_]+)?", re.UNICODE)
# A report template's placeholder: {{name}} (mustache, Jinja, excel-report) or ${name}.
_PLACEHOLDER = re.compile(r"\{\{[^{}]+\}\}|\$\{[^{}]+\}")


def is_total_label(text: str) -> bool:
    """Whether a cell's text labels a total: "Total", "Grand Total:", "GRAND TOTALS",
    "First type Total", "Общий итог", "Total général", "合计"."""
    words = _WORDS.findall(text.casefold())
    if not words or len(words) > 6:
        return False
    return words[0] in TOTAL_WORDS or words[-1] in TOTAL_WORDS


def is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def is_placeholder(text: str) -> bool:
    """Whether a text holds a template's placeholder, a value to come: "{{t_qty}}",
    "c({{t_qty}}*{{price}})", "${total}"."""
    return ("{" in text) and _PLACEHOLDER.search(text) is not None


def _cells(values: Sequence[object]) -> list[tuple[int, str | None]]:
    """The filled cells of a row: (index, None) for a value beside a label (a number, a
    date, a yes/no, a placeholder), (index, text) for a text."""
    cells: list[tuple[int, str | None]] = []
    for index, value in enumerate(values):
        if value is None:
            continue
        if is_number(value) or isinstance(value, date | datetime | bool):
            cells.append((index, None))
            continue
        text = (display_text(value) or "").strip()
        if not text or set(text) <= _DASHES:
            continue  # a cell of dashes: nothing, as an empty one
        cells.append((index, None if is_placeholder(text) else text))
    return cells


def total_label_at(values: Sequence[object]) -> int | None:
    """The column of the label of a row labelled as a total (None: no such row): one of its
    texts is a total's label, its other cells values (a data row holds texts of its own:
    names, codes)."""
    label: int | None = None
    for index, value in enumerate(values):
        kind = type(value)
        if value is None or kind is float or kind is int or kind is bool:
            continue  # the common cells, told apart first: this runs on every row
        if isinstance(value, date | datetime):
            continue
        text = (display_text(value) or "").strip()
        if not text or set(text) <= _DASHES or is_placeholder(text):
            continue
        if label is not None or not is_total_label(text):
            return None  # a text of its own
        label = index
    return label


def is_total_row(values: Sequence[object]) -> bool:
    """A row labelled as a total (see total_label_at)."""
    return total_label_at(values) is not None


def between_totals(total: Sequence[object], values: Sequence[object]) -> bool:
    """Whether ``values``, under the total row ``total``, is a line of its block: one text,
    its label, in the total's label column, and values only where the total has some
    (``Tax | 8`` under ``Subtotal | 100``, ``Price | {{price}}`` under ``Sum | {{t_qty}}``)."""
    label = total_label_at(total)
    cells = _cells(values)
    texts = [index for index, text in cells if text is not None]
    if label is None or texts != [label] or len(cells) < 2:
        return False
    columns = {index for index, text in _cells(total) if text is None}
    return all(index in columns for index, text in cells if text is None)


def under_total(total: Row, between: Sequence[Row], row: Row) -> bool:
    """Whether ``row`` is the next line of the block under the total row ``total`` (right
    under it, the lines ``between`` above it, at most LINES_BETWEEN_TOTALS): totals too when
    a total row follows."""
    above = between[-1] if between else total
    return (
        row.number == above.number + 1
        and len(between) < LINES_BETWEEN_TOTALS
        and between_totals(total.values, row.values)
    )


class ColumnSums:
    """The running sums of each column's numbers since the header or the last sums row."""

    def __init__(self) -> None:
        self.sums: dict[int, float] = {}
        self.rows = 0

    def add(self, values: Sequence[object]) -> None:
        self.rows += 1
        for index, value in enumerate(values):
            if is_number(value):
                self.sums[index] = self.sums.get(index, 0.0) + float(value)

    def is_sums_row(self, values: Sequence[object]) -> bool:
        """Numbers only (and at most a total's label), each the sum of its column above,
        over at least two rows."""
        if self.rows < 2:
            return False
        numbers = 0
        for index, value in enumerate(values):
            if value is None:
                continue
            if is_number(value):
                total = self.sums.get(index)
                if total is None or not math.isclose(
                    float(value), total, rel_tol=1e-9, abs_tol=1e-6
                ):
                    return False
                numbers += 1
            elif not is_total_label((display_text(value) or "").strip()):
                return False
        return numbers > 0

    def reset(self) -> None:
        self.sums.clear()
        self.rows = 0
