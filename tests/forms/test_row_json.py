"""Rows in batches (what an import reads) and valid rows encoded from their columns (what an
import writes) give exactly what the row-by-row path gives."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
import xlsxwriter

from importer.excel import CellError, NumberText, open_sheet
from importer.excel.calamine_engine import BLOCK
from importer.excel.values import Row, RowBatch
from importer.forms.definition import parse_form_text
from importer.forms.row_json import RowTemplate, encode_column
from importer.forms.validation import Validator

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
ALL_SAMPLES = sorted(
    p.name for p in SAMPLES.iterdir() if p.suffix in (".xlsx", ".xls", ".ods", ".csv")
)

ROWS = 2 * BLOCK + 517  # crosses block boundaries at odd places
BLANK = {BLOCK - 1, BLOCK, BLOCK + 1, 1500, ROWS}  # data rows (1-based after the header)
ERROR_ONLY = 1700  # a row whose only cells are errors: a row, not a blank one
ERROR_CELL = 1200  # one error cell among values


def _tricky_workbook(path: Path, *, ghost_column: bool = False, padded: bool = False) -> Path:
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Data")
    zip_format = book.add_format({"num_format": "00000"})
    sheet.write_row(0, 0, ["ID", "Name", "Qty"])
    for r in range(1, ROWS + 1):
        if r in BLANK:
            continue
        if r == ERROR_ONLY:
            for c in range(3):
                sheet.write_formula(r, c, "=1/0", None, "#DIV/0!")
            continue
        sheet.write_number(r, 0, r)
        sheet.write_string(r, 1, f"name {r}")
        if r == ERROR_CELL:
            sheet.write_formula(r, 2, "=NA()", None, "#N/A")
        elif padded and r % 100 == 0:
            sheet.write_number(r, 2, r, zip_format)
        elif r % 7:  # some rows leave Qty empty
            sheet.write_number(r, 2, r % 50)
    if ghost_column:
        sheet.write_string(ROWS + 5, 6, "far right, below the data, under no header")
    book.close()
    return path


def _flatten(batches: Any) -> list[Row]:
    return [row for batch in batches for row in batch]


@pytest.mark.parametrize("variant", ["plain", "ghost_column", "padded"])
@pytest.mark.parametrize("size", [1, 7, BLOCK, BLOCK + 1, 5000])
def test_calamine_batches_equal_rows(tmp_path: Path, variant: str, size: int) -> None:
    path = _tricky_workbook(
        tmp_path / "tricky.xlsx", ghost_column=variant == "ghost_column", padded=variant == "padded"
    )
    with open_sheet(path, engine="calamine", checked=True) as reader:
        rows = list(reader.rows())
        count = reader.count_rows()
        batches = list(reader.batches(size))
    numbers = [row.number for row in rows]
    # (the ghost column's cell lies under no header: its row counts as blank)
    assert len(rows) == count == ROWS - len(BLANK)
    assert not set(numbers) & {n + 1 for n in BLANK if n != ROWS}  # blank rows skipped
    assert _flatten(batches) == rows
    assert all(len(b) == size for b in batches[:-1]) and 0 < len(batches[-1]) <= size
    by_number = {row.number: row for row in rows}
    assert [v.code for v in by_number[ERROR_ONLY + 1].values] == ["#DIV/0!"] * 3  # type: ignore[attr-defined]
    error = by_number[ERROR_CELL + 1].values[2]
    assert isinstance(error, CellError) and error.code == "#N/A"
    assert by_number[8].values[2] is None  # an empty cell among values
    if variant == "padded":
        assert by_number[101].values[2] == NumberText(100.0, "00100")


@pytest.mark.parametrize("skip", [0, 1, BLOCK - 3, BLOCK, 2 * BLOCK - 2, ROWS])
def test_calamine_batches_skip_committed_rows(tmp_path: Path, skip: int) -> None:
    path = _tricky_workbook(tmp_path / "tricky.xlsx")
    with open_sheet(path, engine="calamine", checked=True) as reader:
        rows = list(reader.rows())
        resumed = _flatten(reader.batches(BLOCK, skip=skip))
        after = _flatten(reader.batches(BLOCK, after_row=skip + 1))
        counted = reader.count_rows_after(skip + 1)
    assert resumed == rows[skip:]
    assert after == [row for row in rows if row.number > skip + 1] and counted == len(after)


@pytest.mark.parametrize("name", ALL_SAMPLES)
@pytest.mark.parametrize("size", [1, 3, 1000])
def test_every_engine_batches_like_rows(name: str, size: int) -> None:
    with open_sheet(SAMPLES / name) as reader:
        rows = list(reader.rows())
        assert _flatten(reader.batches(size)) == rows
        assert _flatten(reader.batches(size, skip=2)) == rows[2:]


def test_row_batch_is_a_sequence_of_rows() -> None:
    batch = RowBatch([2, 5], [["a", 1.0], ["b", None]])
    assert len(batch) == 2
    assert batch[1] == Row(5, ("b", None)) and isinstance(batch[1].values, tuple)
    assert batch[0:1] == [Row(2, ("a", 1.0))]
    assert list(batch) == [Row(2, ("a", 1.0)), Row(5, ("b", None))]


# --- valid rows encoded from their columns ------------------------------------------------

_reference = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode

COLUMNS: list[list[Any]] = [
    ["plain", 'quote " and \\ backslash', "tab\tnew\nline", "\x01\x1f control", "é ü 中文 😀"],
    ["", "\u2028 line separator", "</script>", "%s %d %%", "{}[]"],
    [0, -1, 2**70, 12, 7],
    [True, False, True, True, False],
    [0.1 + 0.2, 12.0, -0.0, 1e-7, 1e300],
    [None, None, None, None, None],
    ["text", None, 3, True, 1.5],  # mixed: each value on its own
    [1, True, 0, False, None],  # bool is an int subclass: must stay true/false
]


@pytest.mark.parametrize("column", COLUMNS)
def test_encode_column_matches_the_json_encoder(column: list[Any]) -> None:
    assert encode_column(column) == [_reference(v) for v in column]


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_encode_column_refuses_what_json_refuses(bad: float) -> None:
    for column in ([1.0, bad], [None, bad]):
        with pytest.raises(ValueError):
            encode_column(column)
        with pytest.raises(ValueError):
            _reference(column)


def test_row_template_document_is_the_rows_as_json() -> None:
    template = RowTemplate(["a", "b_2"], ["absent"])
    numbers = [2, 3, 9]
    columns: list[list[object]] = [["x", 'y"', None], [1, 2.5, True]]
    text = template.document(numbers, columns)
    assert json.loads(text) == [
        [2, {"a": "x", "b_2": 1, "absent": None}],
        [3, {"a": 'y"', "b_2": 2.5, "absent": None}],
        [9, {"a": None, "b_2": True, "absent": None}],
    ]
    assert template.document([], [[], []]) == "[]"


FORM = """
name = "mix"
[[fields]]
name = "id"
header = "ID"
type = "integer"
required = true
[[fields]]
name = "name"
header = "Name"
type = "string"
[[fields]]
name = "qty"
header = "Qty"
type = "decimal"
[[fields]]
name = "missing"
header = "Not In The Sheet"
type = "boolean"
"""


def test_validated_batch_json_equals_the_rows_dicts(tmp_path: Path) -> None:
    path = _tricky_workbook(tmp_path / "tricky.xlsx", padded=True)
    validator = None
    with open_sheet(path, engine="calamine", checked=True) as reader:
        validator = Validator(parse_form_text(FORM), reader.header)
        seen_valid = seen_rejected = 0
        for batch in reader.batches(BLOCK):
            result = validator.validate(batch)
            expected = [[row.number, row.data] for row in result.valid]
            assert json.loads(result.valid.json_document()) == expected
            assert result.valid == validator.validate(list(batch)).valid  # plain rows alike
            seen_valid += len(result.valid)
            seen_rejected += len(result.rejected)
    # The error-only row and the row with #N/A in Qty are rejected, the rest are valid.
    assert (seen_valid, seen_rejected) == (ROWS - len(BLANK) - 2, 2)
