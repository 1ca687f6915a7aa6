"""Sheets that hold no table whatever row is taken for its header, as a person sees them.

- cells holding their own addresses (``B3`` in B3): a sheet made to test a reader;
- a list of labelled values: two columns, a distinct label in the first, and in the second
  values (few texts) of several kinds, a date among numbers: a column of a table holds one
  kind (a table of names and values, some of them texts, is one: ``name | value``);
- labelled paragraphs: a table two columns wide under two ``Label:`` pairs or more in its
  columns (a cover page's definition, citation and glossary);
- a page of prose: no row reads as a header and the first line is a sentence (a form's
  instructions, a cover page);
- columns of samples: every named column under the header holds values of several kinds,
  none of them in nine cells of ten (a sheet showing fonts, colours and number formats,
  each row another format of the same value): a table's column holds one kind, as a
  field's type fits nine of its values in ten (forms/inferred_types.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from importer.excel.layout import Leading
from importer.excel.table_header import HeaderGuess, cell_kind

_PROSE_CHARS = 80
_PROSE_WORDS = 10
_MIN_LABELS = 5  # the labelled values a list needs to read as one
_MIN_MIXED = 4  # the values a named column needs to be judged of several kinds
_KIND_NAMES = {"text": "text", "number": "number", "date": "date", "bool": "yes/no"}


def column_letters(index: int) -> str:
    """The letters of the 0-based column ``index``: 0 -> 'A', 27 -> 'AB'."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _own_addresses(number: int, values: Sequence[object]) -> bool:
    """Whether the row's cells, two at least, each hold its own address."""
    filled = [(i, v) for i, v in enumerate(values) if cell_kind(v) is not None]
    return len(filled) >= 2 and all(
        type(v) is str and v.strip().upper() == f"{column_letters(i)}{number}" for i, v in filled
    )


def _labelled_values(rows: Sequence[Sequence[object]]) -> bool:
    """Whether ``rows`` read as a list of labelled values (see the module docstring)."""
    pairs = [row for row in rows if len(_filled(row)) == 2]
    if len(pairs) < _MIN_LABELS or any(len(_filled(row)) > 2 for row in rows):
        return False
    labels = [row[0] for row in pairs]
    if any(cell_kind(label) != "text" for label in labels):
        return False
    texts = [str(label).strip().casefold() for label in labels]
    if len(set(texts)) != len(texts):
        return False
    values = [k for k in (cell_kind(row[1]) for row in pairs) if k is not None]
    others = [k for k in values if k != "text"]
    return len(set(others)) >= 2 and len(others) * 4 >= len(values) * 3


def _labelled_paragraphs(leading: Leading, at: int) -> bool:
    """Whether the header at ``leading[at]``, two columns wide, sits under two ``Label:``
    pairs or more written in its columns."""
    columns = [i for i, v in enumerate(leading[at][1]) if cell_kind(v) is not None]
    if len(columns) != 2:
        return False
    pairs = 0
    for _, values in leading[:at]:
        filled = [i for i, v in enumerate(values) if cell_kind(v) is not None]
        label = values[columns[0]] if filled == columns else None
        pairs += type(label) is str and label.strip().endswith(":")
    return pairs >= 2


def _filled(values: Sequence[object]) -> list[object]:
    return [v for v in values if cell_kind(v) is not None]


def _prose(values: Sequence[object]) -> bool:
    filled = _filled(values)
    if len(filled) != 1 or cell_kind(filled[0]) != "text":
        return False
    text = str(filled[0]).strip()
    return len(text) > _PROSE_CHARS or len(text.split()) > _PROSE_WORDS


def why_no_table(leading: Leading, guess: HeaderGuess | None) -> str | None:
    """Why the sheet whose first rows are ``leading`` holds no table, with the header a
    person would pick ``guess`` (None: it holds one, as far as these rules tell)."""
    if not leading:
        return None
    row = guess.row + guess.rows - 1 if guess is not None else leading[0][0]
    at = next((i for i, (number, _) in enumerate(leading) if number == row), 0)
    number, values = leading[at]
    if _own_addresses(number, values):
        return f"the cells of row {number} hold their own addresses"
    under = [cells for _, cells in leading[at + 1 :]]
    if _labelled_values(under):
        return f"the rows under row {number} are labels with a value each, not a table's rows"
    if _labelled_paragraphs(leading, at):
        return f"the rows above row {number} are labelled paragraphs in its two columns"
    if guess is None and _prose(values):
        return f"no row reads as a header, and row {number} is a line of prose"
    return None


def why_mixed_columns(
    header: Sequence[str], columns: Sequence[Sequence[object]], row: int
) -> str | None:
    """Why the columns under the header at ``row`` (its texts ``header``, over each
    column's filled cells ``columns``) are no table's, None when they may be: two named
    columns or more, each of several kinds of values, none in nine cells of ten."""
    named = [(text.strip(), cells) for text, cells in zip(header, columns, strict=False)]
    named = [(text, cells) for text, cells in named if text and cells]
    if len(named) < 2:
        return None
    mixes: list[str] = []
    for text, cells in named:
        kinds = Counter(kind for kind in map(cell_kind, cells) if kind is not None)
        if kinds.total() < _MIN_MIXED or kinds.most_common(1)[0][1] * 10 >= kinds.total() * 9:
            return None
        counts = ", ".join(
            f"{n} {_KIND_NAMES[kind]}" + "s" * (n > 1 and kind != "bool")
            for kind, n in kinds.most_common()
        )
        mixes.append(f"{text}: {counts}")
    shown = "; ".join(mixes[:3]) + ("; ..." if len(mixes) > 3 else "")
    return (
        f"every column under row {row} mixes kinds of values, none in 9 cells of 10 ({shown}):"
        " samples of values, not a table's columns"
    )
