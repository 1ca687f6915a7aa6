"""The sample that weighs a sheet's path (importer/columnar/sample.py): of a sheet's first
rows, the ones the columnar path reads again exactly, counted before anything is split."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench import mixed_books, workbooks
from importer.columnar import SWITCH, batches
from importer.columnar.sample import SAMPLE_BYTES, cell_check, sample_sheet
from importer.database import Connection
from importer.excel.values import CellError, NumberText
from importer.fields.field import Field
from importer.forms.definition import parse_form_text
from tests.conftest import Cli
from tests.support.jobs import add_form


def read_again_by_the_columnar_path(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, book: Path, form: str
) -> int:
    """The rows the columnar path read again exactly, importing ``book``."""
    count = [0]
    settle = batches.ColumnarBatches._settle

    def counting(self: Any, loaded: Any, hard: Any, good: Any) -> Any:
        count[0] += len(hard)
        return settle(self, loaded, hard, good)

    monkeypatch.setattr(batches.ColumnarBatches, "_settle", counting)
    monkeypatch.setenv(SWITCH, "1")
    done = cli("submit", str(book), "--form", form, "--quiet")
    assert done.exit_code in (0, 3), done.stderr
    return count[0]


@pytest.mark.parametrize(
    ("form", "write"),
    [
        (mixed_books.FORM, lambda path: mixed_books._write(path, 600, 0.1)),
        (workbooks.FORM, lambda path: workbooks._write(path, 600, 0.05, 0.0)),
    ],
    ids=["mixed", "bench"],
)
def test_the_sample_counts_the_rows_the_columnar_path_reads_again_the_invalid_ones(
    cli: Cli,
    conn: Connection,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    form: str,
    write: Any,
) -> None:
    book = tmp_path / "orders.xlsx"
    write(book)
    assert book.stat().st_size < SAMPLE_BYTES  # the whole sheet is the sample
    parsed = parse_form_text(form)
    taken = sample_sheet(
        book.read_bytes(), file_name=book.name, sheet="Orders", form=parsed, mapping=None
    )
    assert taken is not None and taken.rows == 600
    add_form(conn, form)
    again = read_again_by_the_columnar_path(cli, monkeypatch, book, parsed.name)
    assert taken.read_again == again
    # Types that change from row to row are settled as columns: only the invalid rows are
    # read again.
    rejected = conn.execute("SELECT failed_rows FROM import_jobs").fetchone()
    assert rejected is not None and rejected["failed_rows"] == again > 10


def test_a_sheet_without_a_header_in_its_first_rows_gives_no_sample(tmp_path: Path) -> None:
    import xlsxwriter

    book = tmp_path / "orders.xlsx"
    with xlsxwriter.Workbook(str(book)) as workbook:
        workbook.add_worksheet("Orders").write_row(0, 0, ["Something", "else"])
    parsed = parse_form_text(workbooks.FORM)
    assert (
        sample_sheet(
            book.read_bytes(), file_name=book.name, sheet="Orders", form=parsed, mapping=None
        )
        is None
    )


def field(kind: str, **options: Any) -> Field:
    return Field(name="f", header="F", type=kind, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("f", "cell", "settled"),
    [
        (field("integer"), 12.0, True),
        (field("integer"), "12", True),
        (field("integer"), "1,200", False),  # the coercer reads it: not the checks
        (field("decimal"), "1,200.50", True),
        (field("decimal"), True, False),
        (field("string"), "00501", True),  # not a number's text
        (field("string"), NumberText(501.0, "00501"), True),  # a 00000 format
        (field("string"), "0501.0", True),
        (field("string"), "12.50", True),
        (field("string"), "1e5", True),
        (field("string"), "12", True),  # a number cell would read alike
        (field("string"), True, False),  # a boolean cell's "true"
        (field("email"), NumberText(501.0, "00501"), False),
        (field("enum", choices=("paid", "new")), "paid", True),
        (field("enum", choices=("paid", "new")), "Paid", False),  # another spelling
        (field("date"), "2024-01-31", True),
        (field("date"), "31/01/2024", False),
        (field("date", formats=("%d/%m/%Y",)), "31/01/2024", True),
        (field("date", formats=("%d/%m/%Y",)), "1/1/2024", False),  # one digit: the coercer
        (field("date"), 45000.0, False),  # a serial number without a date format
        (field("boolean"), True, True),
        (field("boolean"), "Yes", True),
        (field("boolean"), "yEs", False),
        (field("boolean"), 1.0, True),
        (field("string"), None, True),
        (field("string", required=True), None, False),
        (field("string"), CellError("#N/A"), False),
    ],
)
def test_which_cells_the_columnar_checks_settle(f: Field, cell: object, settled: bool) -> None:
    assert cell_check(f)(cell) is settled
