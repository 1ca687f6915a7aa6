"""A sample of a sheet's first rows, for the choice of its path (choice.py): how many of
them the columnar path would read again exactly.

The rows are read by the row path's own reader (calamine over the first rows as a small
workbook, with their special cells) and validated by its Validator: an invalid row is read
again. A valid row is read again where a cell of a column the form reads is one the columnar
checks (checks.py) leave to the row path: ``settles`` says which, from the cell's type and
text, as those checks see it. It may be rough (it only weighs a choice); it never loads
polars, which the row path does not need.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable, Mapping
from datetime import date, datetime

from importer.columnar.shapes import (
    CELL_TEXT,
    COMMA_NUMBER,
    NUMBER_SHAPED,
    PLAIN_NUMBER,
    SAME_AS_NUMBER,
    format_shapes,
)
from importer.excel.values import CellError, NumberText
from importer.fields.cells import FALSE_WORDS, TRUE_WORDS
from importer.fields.field import Field
from importer.forms.definition import Form

from .choice import Sample

SAMPLE_BYTES = 256 << 10  # of the sheet's XML: ~700 rows of ten columns
# Where an Excel row and Rust's regex read alike for these shapes.
_PLAIN = re.compile(PLAIN_NUMBER)
_COMMA = re.compile(COMMA_NUMBER)
_NUMBER_SHAPED = re.compile(NUMBER_SHAPED)
_SAME = re.compile(SAME_AS_NUMBER)
_CELL_TEXT = re.compile(CELL_TEXT)
_ISO_DAY = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_WORDS = frozenset(v for w in TRUE_WORDS | FALSE_WORDS for v in (w, w.upper(), w.capitalize()))

Settles = Callable[[object], bool]


def _empty(value: object) -> bool:
    return value is None or value == ""


def _number(f: Field) -> Settles:
    comma = f.type == "decimal"

    def settles(value: object) -> bool:
        kind = type(value)
        if kind is float or kind is int or kind is NumberText:
            return True
        if kind is str:
            text = str(value)
            shaped = _PLAIN.match(text) or (comma and _COMMA.match(text))
            return bool(shaped) and len(text) <= 15
        return False

    return settles


def _text(f: Field) -> Settles:
    choices = frozenset(f.choices) if f.type == "enum" else None

    def settles(value: object) -> bool:
        kind = type(value)
        if kind is NumberText:
            return f.type != "email"
        if kind is float or kind is int:
            return f.type != "email" and len(repr(value)) <= 17
        if kind is not str:
            return False  # a boolean, a date, an error
        text = str(value)
        if _CELL_TEXT.match(text):
            return False
        stripped = text.strip()
        if _NUMBER_SHAPED.match(text) and not (_SAME.match(stripped) and len(stripped) <= 15):
            return False
        return choices is None or stripped in choices

    return settles


def _day(f: Field) -> Settles:
    shapes = []
    for fmt in f.formats:
        found = format_shapes(fmt)
        if found is None:
            break
        shapes.append(re.compile(found[0]))

    def settles(value: object) -> bool:
        kind = type(value)
        if kind is date or kind is datetime:
            return True
        if kind is str:
            text = str(value)
            return bool(_ISO_DAY.match(text)) or any(s.match(text) for s in shapes)
        return False

    return settles


def _boolean(f: Field) -> Settles:
    def settles(value: object) -> bool:
        kind = type(value)
        if kind is bool:
            return True
        if kind is float or kind is int:
            return value in (0, 1)
        return kind is str and value in _WORDS

    return settles


_BY_TYPE: dict[str, Callable[[Field], Settles]] = {
    "integer": _number,
    "decimal": _number,
    "string": _text,
    "email": _text,
    "enum": _text,
    "date": _day,
    "boolean": _boolean,
}


def cell_check(f: Field) -> Settles:
    """Whether the columnar checks settle a cell of this field (as the row path's reader
    gives it; an empty cell of an optional field too)."""
    check = _BY_TYPE[f.type](f)
    required = f.required

    def settles(value: object) -> bool:
        if _empty(value):
            return not required
        return type(value) is not CellError and check(value)

    return settles


def sample_sheet(
    content: bytes,
    *,
    file_name: str,
    sheet: str,
    form: Form,
    mapping: Mapping[str, str] | None,
) -> Sample | None:
    """The sheet's first rows weighed for the columnar path; None when they cannot be read
    so (no header among them, a sheet that cannot be cut)."""
    from importer.errors import InputError
    from importer.excel.base import EmptySheet
    from importer.excel.calamine_pieces import piece_reader
    from importer.excel.sniff import Source, make_source
    from importer.excel.xlsx_parts import read_xlsx_info
    from importer.excel.xlsx_pieces import CannotCut, PieceMaker
    from importer.excel.xlsx_split import first_rows
    from importer.forms.validation import Validator

    source = make_source(content, file_name)
    try:
        with source.open() as handle, zipfile.ZipFile(handle) as archive:
            info = read_xlsx_info(archive, file_name)
        part = next(s.path for s in info.sheets if s.name == sheet and s.path)
        plan, rows_xml = first_rows(source, part, SAMPLE_BYTES)
        maker = PieceMaker(source, plan, [s.path for s in info.sheets if s.path])
        try:
            head = Source(None, maker.workbook(rows_xml), file_name)
        finally:
            maker.close()
        with piece_reader(head, sheet, plan.part, info, None) as reader:
            validator = Validator(form, reader.header, date1904=info.date1904, mapping=mapping)
            checks = [(c.index, cell_check(form.field(c.name))) for c in validator.columns]
            rows = again = last = 0
            for batch in reader.batches(5_000):
                result = validator.validate(batch)
                rejected = {r.number for r in result.rejected}
                for last, cells in batch:
                    rows += 1
                    if last in rejected or not all(ok(cells[i]) for i, ok in checks):
                        again += 1
    except (StopIteration, CannotCut, EmptySheet, InputError, zipfile.BadZipFile, OSError):
        return None
    references = rows_xml.count(b' r="')  # a row's and each of its cells'
    return Sample(rows, len(rows_xml), again, references=references, last_row=last)
