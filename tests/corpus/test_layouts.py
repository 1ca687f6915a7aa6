"""The layout corpus (tests/corpus/layouts/manifest.json): real-world sheets with a title
above the header, headers over several rows, totals and notes, and the same layouts made
for the tests and saved by LibreOffice as .xlsx, .xls and .ods. Each reads the header a
person reads and exactly the rows a person counts, at their Excel row numbers: with the
layout named, and with the header row found from a form of those columns."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from importer.excel import open_sheet
from importer.excel.layout import HeaderLayout
from importer.fields.field import Field, normalize_header
from importer.forms.definition import Form
from importer.forms.inference import field_name
from importer.forms.layout import SheetLayout, choose_layout

ROOT = Path(__file__).resolve().parent
ENTRIES: list[dict[str, Any]] = json.loads((ROOT / "layouts" / "manifest.json").read_text())


def _id(entry: dict[str, Any]) -> str:
    return f"{entry['path']}:{entry['sheet']}" if entry["sheet"] else entry["path"]


def _layout(entry: dict[str, Any], row: int | None) -> HeaderLayout:
    skip = entry["skip_rows_where"] or {}
    return HeaderLayout(
        row=row,
        rows=entry["header_rows"],
        stop_at_blank_row=entry["stop_at_blank_row"],
        skip_column=skip.get("column"),
        skip_matches=skip.get("matches"),
    )


def _first_header_row(entry: dict[str, Any]) -> int:
    """The header's first row: it is written over ``header_rows`` rows to ``header_row``."""
    return int(entry["header_row"]) - int(entry["header_rows"]) + 1


@pytest.mark.parametrize("entry", ENTRIES, ids=_id)
def test_the_layout_named_reads_what_a_person_counts(entry: dict[str, Any]) -> None:
    path = ROOT / entry["path"]
    first = _first_header_row(entry)
    with open_sheet(path, sheet=entry["sheet"], layout=_layout(entry, first)) as reader:
        assert reader.header_row == entry["header_row"]
        assert [normalize_header(t) for t in reader.header if t] == [
            normalize_header(t) for t in entry["header"] if t
        ]
        assert [row.number for row in reader.rows()] == entry["data_rows"]
        assert reader.count_rows() == len(entry["data_rows"])


@pytest.mark.parametrize(
    "entry", [e for e in ENTRIES if e["data_rows"] and len(e["header"]) > 1], ids=_id
)
def test_a_form_of_its_columns_finds_the_header_row(entry: dict[str, Any]) -> None:
    texts = [t for t in entry["header"] if normalize_header(t)]
    fields = tuple(
        Field(name=field_name(t, i), header=t, type="string", required=True)
        for i, t in enumerate(dict.fromkeys(texts))
    )
    skip = entry["skip_rows_where"] or {}
    form = Form(
        name="found",
        fields=fields,
        layout=SheetLayout(
            header_rows=entry["header_rows"],
            stop_at_blank_row=entry["stop_at_blank_row"],
            skip_column=skip.get("column"),
            skip_matches=skip.get("matches"),
        ),
    )
    layout = choose_layout([form], {}, row=None, where=entry["path"])
    with open_sheet(ROOT / entry["path"], sheet=entry["sheet"], layout=layout) as reader:
        assert reader.header_row == entry["header_row"]
        assert [row.number for row in reader.rows()] == entry["data_rows"]
