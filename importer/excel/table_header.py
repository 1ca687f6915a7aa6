"""The header a person would pick among a sheet's first rows: the row of column names that
sits on columns of consistently typed values, as wide as the table below it.

Each leading row with texts is scored as a header over the rows under it (up to a blank
row after them): a name over a column of numbers or dates counts most, over a column of
texts less, over a column of mixed kinds against it (the row is not right above the data);
a column of values without a name, or a header cell that reads like the values under it,
counts against it. Rows that are no header whatever lies below are left out: a title or a
note (one text over a wider table), prose, ``Label: value`` pairs, a pivot table's page
filter (``Country | (All)``), a row of column letters (``A | B | C``). Of the tables a
sheet holds, the wider and longer wins (a small query description above the real table).

The header may be written over two or three rows: a group row over the names (merged or
repeated titles over their columns), names over their units (``(in grams)``), or names
completing the columns the row on the data leaves without one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, time, timedelta
from functools import lru_cache
from typing import Literal

from importer.excel.layout import Leading, Merge
from importer.excel.values import CellError, NumberText

Kind = Literal["text", "number", "date", "bool"]

BLOCK_ROWS = 12  # the rows under a candidate that judge it
MAX_HEADER_ROWS = 3
MAX_COLUMNS = 1024  # the columns that judge a row: a wider sheet's first ones
# A later row is the header only when it reads as one this much better than the first row
# that does: a table's own rows below its header may read as a header of the rows after
# them (a column of texts over more texts).
FIRST_MARGIN = 1.5
# Below this a row reads as a header no better than a row of data does: two named columns
# over a column of texts and one of anything score 1.1 to 2.
MIN_SCORE = 1.0
_PROSE_WORDS = 10
_PROSE_CHARS = 80
_PAGE_FILTERS = frozenset({"(all)", "(multiple items)", "(alle)", "(tous)", "(todos)"})
_NUMBER = re.compile(r"[+-]?(?:\d[\d,. \u00a0']*)?\d(?:[eE][+-]?\d+)?\s*%?")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+)?")
_UNIT = re.compile(r"[(\[].*[)\]]|(?:in|per|en|pro) \S.*|[%‰$€£¥]", re.IGNORECASE)


@dataclass(frozen=True)
class HeaderGuess:
    """Where a sheet's table has its header: Excel rows ``row`` to ``row + rows - 1``."""

    row: int
    rows: int
    score: float


def cell_kind(value: object) -> Kind | None:
    """What a cell holds, as a table's column is judged: None for an empty cell (blank
    text and error cells too)."""
    kind = type(value)
    if value is None or kind is CellError:
        return None
    if kind is bool:
        return "bool"
    if kind is float or kind is int or kind is NumberText:
        return "number"
    if isinstance(value, date | time | timedelta):
        return "date"
    return _text_kind(str(value))


@lru_cache(maxsize=4096)
def _text_kind(value: str) -> Kind | None:
    text = value.strip()
    if not text:
        return None
    if _NUMBER.fullmatch(text):
        return "number"
    if _ISO_DATE.fullmatch(text):
        return "date"
    return "text"


def _text(value: object) -> str:
    return str(value).strip() if type(value) is str else ""


def _shape(text: str) -> str:
    """Letters as 'a', digits as '9': 'B3' -> 'a9', 'Q1-2024' -> 'a9-9999'."""
    return "".join("9" if c.isdigit() else "a" if c.isalpha() else c for c in text)


def _is_letters(texts: Sequence[str]) -> bool:
    """Column letters written above the names: A, B, C, ..."""
    letters = [t.upper() for t in texts if t]
    return len(letters) >= 3 and all(
        len(t) == 1 and ord(t) == ord(letters[0]) + i for i, t in enumerate(letters)
    )


def _not_a_name(text: str) -> bool:
    """Prose, or a label of a ``Label: value`` pair: never a column's name."""
    return len(text) > _PROSE_CHARS or len(text.split()) > _PROSE_WORDS or text.endswith(":")


def _refused(values: Sequence[object], width: int, below: Sequence[object]) -> bool:
    """A row that is no header whatever lies below it (see the module docstring);
    ``below``: the row right under it (none: ())."""
    texts = [_text(v) for v in values if cell_kind(v) == "text"]
    if not texts or (len(texts) == 1 and width > 1):
        return True  # a title, a note, a lone label over a wider table
    if any(t.casefold() in _PAGE_FILTERS for t in texts):
        return True
    if _is_letters(texts) and _text_columns(values) <= _text_columns(below):
        return True  # column letters above the names
    return sum(_not_a_name(t) for t in texts) * 2 >= len(texts)


def _block(leading: Leading, after: int) -> list[tuple[object, ...]]:
    """The rows under leading[after] that judge it as a header: from the next row with
    values to the next blank row. A blank row right under a header is common, but the
    rows after it are another table's when the first of them reads as its header."""
    rows: list[tuple[object, ...]] = []
    previous = leading[after][0]
    for number, values in leading[after + 1 : after + 1 + BLOCK_ROWS]:
        if rows and number > previous + 1:
            break
        rows.append(values)
        previous = number
    gap = after + 1 < len(leading) and leading[after + 1][0] > leading[after][0] + 1
    if gap and len(rows) > 1 and not fits(rows[0], shape_of(rows[1:])):
        return []
    return rows


def _column_score(header: object, kinds: list[Kind], rows: int) -> float:
    """What one column says of its header cell (see the module docstring)."""
    kind = cell_kind(header)
    if kind is None:
        return -len(kinds) / rows  # values without a name: a full column costs 1
    if kind != "text":
        dominant = Counter(kinds).most_common(1)[0][0] if kinds else None
        return -1.0 if dominant == kind else -0.5  # a number over numbers: data
    text = _text(header)
    if _not_a_name(text):
        return -0.5
    if not kinds:
        return 0.0
    dominant, count = Counter(kinds).most_common(1)[0]
    share = count / len(kinds)
    if share < 0.75:
        return 0.0  # mixed kinds under it: another header line, or a column of anything
    if dominant != "text":
        if kinds[0] == "text":
            return 0.0  # a line of texts between it and the values: it is not on the data
        return 2.0 if share >= 0.9 and count > 1 else 1.0  # one value tells less
    return 1.0 if share >= 0.9 else 0.5


def _text_column_alike(header: object, column: list[object]) -> bool:
    """A header cell shaped like the texts under it ('B3' over 'B4', 'B5'): data."""
    text = _text(header)
    if not any(c.isdigit() for c in text):
        return False
    texts = [_text(v) for v in column if cell_kind(v) == "text"]
    shape = _shape(text)
    if not texts or _shape(texts[0]) != shape:
        return False
    return Counter(map(_shape, texts)).most_common(1)[0][0] == shape


def score_rows(
    header: Sequence[object], block: list[tuple[object, ...]], below: Sequence[object] = ()
) -> float | None:
    """How much ``header`` reads as the names of the columns of ``block`` (None: not at
    all), the longer block weighing more; ``below``: the row right under it, if any."""
    if not block:
        return None
    width = max(
        [_last_filled(header) + 1] + [_last_filled(values) + 1 for values in block], default=0
    )
    if _refused(header, max(_last_filled(values) + 1 for values in block), below):
        return None
    total = 0.0
    for index in range(width):
        column = [values[index] if index < len(values) else None for values in block]
        kinds = [k for k in map(cell_kind, column) if k is not None]
        cell = header[index] if index < len(header) else None
        total += _column_score(cell, kinds, len(block))
        if _text_column_alike(cell, column):
            total -= 2.0
    if total <= 0:
        return None
    return total * (1 + min(len(block), 10) / 10)


def _last_filled(values: Sequence[object]) -> int:
    for index in range(len(values) - 1, -1, -1):
        if cell_kind(values[index]) is not None:
            return index
    return -1


def row_scores(leading: Leading) -> dict[int, float]:
    """Each leading row's score as a one-row header (rows that are none left out, and the
    rows inside a table: see _inside)."""
    scores: dict[int, float] = {}
    for index, (number, values) in enumerate(leading):
        block = _block(leading, index)
        below = _adjacent(leading, index + 1)
        score = score_rows(values, block, below)
        if score is not None and score >= MIN_SCORE and not _inside(leading, index):
            scores[number] = score
    return scores


def _adjacent(leading: Leading, index: int) -> tuple[object, ...]:
    """The cells of leading[index] when it is the row right under leading[index - 1]."""
    if 0 < index < len(leading) and leading[index][0] == leading[index - 1][0] + 1:
        return leading[index][1]
    return ()


def _inside(leading: Leading, index: int) -> bool:
    """Whether the row at ``index`` is a row of the table above it: two rows or more right
    above it, values among them (a number, a date), and it reads as a row of theirs."""
    start = index
    while start > 0 and leading[start - 1][0] == leading[start][0] - 1:
        start -= 1
    above = [values for _, values in leading[start:index]]
    if len(above) < 2 or not any(k not in (None, "text") for v in above for k in map(cell_kind, v)):
        return False
    return fits(leading[index][1], shape_of(above))


def shape_of(rows: Sequence[Sequence[object]]) -> list[Kind | None]:
    """Each column's usual kind of value in ``rows`` (None: empty, or no kind dominates)."""
    width = max((len(values) for values in rows), default=0)
    shape: list[Kind | None] = []
    for index in range(width):
        counted = Counter(
            k for k in (cell_kind(v[index]) for v in rows if index < len(v)) if k is not None
        )
        top = counted.most_common(1)
        shape.append(top[0][0] if top and top[0][1] * 4 >= counted.total() * 3 else None)
    return shape


def fits(values: Sequence[object], shape: Sequence[Kind | None]) -> bool:
    """Whether a row reads as a row of the table whose columns hold ``shape``: two cells
    or more (one in a table of one or two columns), in its columns, of their kinds (a
    number in a column of texts too: codes)."""
    filled = [(i, k) for i, k in enumerate(map(cell_kind, values)) if k is not None]
    columns = sum(k is not None for k in shape)
    if not filled or len(filled) < min(2, columns):
        return False
    agree = sum(
        1
        for i, k in filled
        if i < len(shape) and (shape[i] in (None, k) or (shape[i] == "text" and k == "number"))
    )
    return agree * 4 >= len(filled) * 3


def guess_header(leading: Leading, merges: Sequence[Merge] = ()) -> HeaderGuess | None:
    """The header a person would pick (None: no row reads as one), judged on the first
    MAX_COLUMNS columns."""
    leading = [(number, values[:MAX_COLUMNS]) for number, values in leading]
    scores = row_scores(leading)
    if not scores:
        return None
    best = max(scores, key=lambda number: (scores[number], -number))
    first = min(scores)
    if scores[first] * FIRST_MARGIN >= scores[best] and _together(leading, first, best):
        best = first  # rows under the first header that merely read alike
    index = next(i for i, (number, _) in enumerate(leading) if number == best)
    first, rows = _grown(leading, index, merges)
    return HeaderGuess(leading[first][0], rows, scores[best])


def _together(leading: Leading, first: int, last: int) -> bool:
    """Whether Excel rows ``first`` to ``last`` lie in one run of rows, no blank row
    between them."""
    numbers = [number for number, _ in leading if first <= number <= last]
    return numbers == list(range(first, last + 1))


# --- a header over several rows --------------------------------------------------------------


def _grown(leading: Leading, index: int, merges: Sequence[Merge]) -> tuple[int, int]:
    """(index of the header's first leading row, the rows it is written over): the row at
    ``index`` with the rows right above it that complete it, then those right under it
    (units, or the names under a group's title)."""
    top = index
    while index - top + 1 < MAX_HEADER_ROWS and top > 0:
        number, above = leading[top - 1]
        if number != leading[top][0] - 1:
            break
        named = {c for n, v in leading[top : index + 1] for c in _text_columns(v)}
        spans = [m for m in merges if m[0] == number and m[3] > m[1]]
        if not _completes(above, leading[top][1], named, _block(leading, index), spans):
            break
        top -= 1
    bottom = index
    while bottom - top + 1 < MAX_HEADER_ROWS:
        lower = _adjacent(leading, bottom + 1)
        if not lower or not (_units(lower, every=True) or _under_groups(leading[bottom][1], lower)):
            break
        bottom += 1
    return top, bottom - top + 1


def _under_groups(upper: Sequence[object], lower: Sequence[object]) -> bool:
    """Whether ``lower`` names the columns of the groups of ``upper``: texts only, each
    under a title that spans empty cells right of it (merged or not), one at least under
    such an empty cell."""
    filled = {i: v for i, v in enumerate(lower) if cell_kind(v) is not None}
    if not filled or any(cell_kind(v) != "text" or _not_a_name(_text(v)) for v in filled.values()):
        return False
    titles = sorted(_text_columns(upper))
    spans: list[range] = []
    for title, after in zip(titles, [*titles[1:], max(filled) + 1], strict=True):
        if after - title > 1:
            spans.append(range(title, after))
    within = all(any(i in span for span in spans) for i in filled)
    return within and any(i not in titles for i in filled)


def _text_columns(values: Sequence[object]) -> set[int]:
    return {i for i, v in enumerate(values) if cell_kind(v) == "text"}


def _units(values: Sequence[object], *, every: bool = False) -> bool:
    """Texts that read as units ('(in grams)', '[kg]', 'in EUR', '%'): at least half of a
    row's texts, or every filled cell (``every``)."""
    filled = [v for v in values if cell_kind(v) is not None]
    texts = [_text(v) for v in filled if cell_kind(v) == "text"]
    units = sum(bool(_UNIT.fullmatch(t)) for t in texts)
    if every:
        return bool(filled) and units == len(filled)
    return bool(texts) and units * 2 >= len(texts)


def _completes(
    upper: Sequence[object],
    lower: Sequence[object],
    named: set[int],
    block: list[tuple[object, ...]],
    spans: Sequence[Merge],
) -> bool:
    """Whether ``upper`` is the first line of the header whose lines below it name the
    columns ``named``: a group row, names over units, or names where the lines below have
    none (see the module docstring)."""
    texts = {i: _text(v) for i, v in enumerate(upper) if cell_kind(v) == "text"}
    if not texts or any(_not_a_name(t) or t.casefold() in _PAGE_FILTERS for t in texts.values()):
        return False
    if _is_letters(list(texts.values())):
        return False
    if _groups(texts, named, spans):
        return True
    if _units(lower) and not _units(upper) and named <= set(texts):
        return True  # names over their units
    filled = {i for values in block for i, v in enumerate(values) if cell_kind(v) is not None}
    holes = filled - named
    completed = holes & set(texts)
    return len(texts) > 1 and bool(completed) and len(completed) * 2 >= len(holes)


def _groups(texts: dict[int, str], named: set[int], spans: Sequence[Merge]) -> bool:
    """A group row: titles over several named columns each (merged, written again in each
    column, or over empty cells right of them), any other text over a column the lines
    below leave without a name."""
    covered: set[int] = set()
    for _top, first, _bottom, last in spans:
        if first in texts and len(named & set(range(first, last + 1))) > 1:
            covered.update(range(first, last + 1))
    columns = sorted(texts)
    for index in columns:  # the same title written over each column of its group
        if texts.get(index + 1) == texts[index] and {index, index + 1} <= named:
            covered.update((index, index + 1))
    if not spans:  # no merged ranges known: a title over empty cells right of it
        for index in columns:
            end = index + 1
            while end not in texts and end in named:
                end += 1
            if end - index > 1 and index in named:
                covered.update(range(index, end))
    if not covered or (len(texts) == 1 and named <= covered):
        return False  # one title over every column: the table's title, not a group
    return all(index in covered or index not in named for index in columns)
