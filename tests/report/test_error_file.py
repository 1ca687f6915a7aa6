"""The rejected-rows export from stored rows: original columns, values (typed when they were
stored texts only), reasons, row numbers last, formula safety, atomic writes."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from openpyxl import load_workbook

from importer.database import Connection
from importer.errors import UsageError
from importer.report.book import looks_like_formula
from importer.report.error_file import csv_safe, export_rejected_rows
from importer.repositories import jobs

HEADER = ["Order ID", "Customer", "Amount"]


def job_with_rejections(conn: Connection) -> int:
    sha = jobs.store_file(conn, b"book")
    job, _ = jobs.create_job(
        conn, jobs.NewJob("orders", 1, sha, "orders.xlsx", "Sheet1", "calamine", HEADER, 5, 3)
    )
    rejected: list[tuple[int, list[str | None], list[tuple[str | None, str | None, str]]]] = [
        (
            3,
            ["A-1", '=HYPERLINK("http://evil")', "12"],
            [("Order ID", "A-1", "not a whole number")],
        ),
        (
            7,
            ["9", "@SUM(A1)", "-4"],
            [("Amount", "-4", "must be at least 0"), ("Customer", "@SUM(A1)", "bad name")],
        ),
        (5, [None, "+cmd|' /C calc'!A0", None], [(None, None, "empty row?")]),
    ]
    for number, values, errors in rejected:
        conn.execute(
            "INSERT INTO import_rejected_rows (import_job_id, row_number, row_values)"
            " VALUES (%s, %s, %s)",
            (job.id, number, json.dumps(values)),
        )
        for column, raw, message in errors:
            conn.execute(
                "INSERT INTO import_row_errors (import_job_id, row_number, column_name,"
                " raw_value, message) VALUES (%s, %s, %s, %s, %s)",
                (job.id, number, column, raw, message),
            )
    return job.id


def test_formula_detection_leaves_plain_numbers_alone() -> None:
    assert looks_like_formula("=1+2") and looks_like_formula("@x") and looks_like_formula("+a")
    assert looks_like_formula("-1+2") and looks_like_formula("\tx")
    assert not looks_like_formula("-12") and not looks_like_formula("+3.5e2")
    assert not looks_like_formula("plain") and not looks_like_formula("")
    assert csv_safe("=1+2") == "'=1+2" and csv_safe("-4") == "-4" and csv_safe(None) == ""


def test_xlsx_export_has_original_columns_reasons_and_row_numbers(
    conn: Connection, tmp_path: Path
) -> None:
    job_id = job_with_rejections(conn)
    target = tmp_path / "errors.xlsx"
    summary = export_rejected_rows(conn, job_id, target)
    assert (summary.rows, summary.path, summary.format) == (3, target, "xlsx")
    assert [p.name for p in tmp_path.iterdir()] == ["errors.xlsx"]  # no temporary file left

    book = load_workbook(target)
    assert book.sheetnames == ["Sheet1", "About"]
    sheet = book["Sheet1"]
    rows = [list(r) for r in sheet.iter_rows(values_only=True)]
    assert rows[0] == [*HEADER, "Problems", "Source row", "Row key"]  # the key hidden
    assert [r[-2] for r in rows[1:]] == [3, 5, 7]  # in sheet order
    # Stored as texts only (before typed cells): a text that shows a number exactly is one.
    assert rows[1][:3] == ["A-1", '=HYPERLINK("http://evil")', 12]
    assert rows[3][:3] == [9, "@SUM(A1)", -4]
    assert rows[1][3] == "Order ID: not a whole number"
    assert rows[3][3] == "Amount: must be at least 0\nCustomer: bad name"
    assert rows[2][:4] == [None, "+cmd|' /C calc'!A0", None, "empty row?"]
    # Text that looks like a formula is stored as text, never as a formula.
    for row in sheet.iter_rows(min_row=2):
        for cell in row:
            assert cell.data_type != "f"
    assert sheet["B2"].quotePrefix
    # The bad cells are marked; a row-level problem is only in Problems.
    assert sheet["A2"].comment is not None and sheet["A2"].fill.fgColor.rgb == "00FFC7CE"
    assert sheet["C4"].comment.text == "must be at least 0"
    assert sheet["B2"].comment is None and sheet["A3"].comment is None


def test_csv_export_neutralizes_formulas(conn: Connection, tmp_path: Path) -> None:
    job_id = job_with_rejections(conn)
    target = tmp_path / "errors.csv"
    assert export_rejected_rows(conn, job_id, target).rows == 3
    with target.open(encoding="utf-8-sig", newline="") as stream:
        rows = list(csv.reader(stream))
    assert rows[0] == [*HEADER, "Problems", "Source row"]
    assert rows[1] == [
        "A-1",
        '\'=HYPERLINK("http://evil")',
        "12",
        "Order ID: not a whole number",
        "3",
    ]
    assert rows[2][1] == "'+cmd|' /C calc'!A0"
    problems = "Amount: must be at least 0; Customer: bad name"
    assert rows[3] == ["9", "'@SUM(A1)", "-4", problems, "7"]


def test_export_replaces_an_existing_file_whole(conn: Connection, tmp_path: Path) -> None:
    job_id = job_with_rejections(conn)
    target = tmp_path / "errors.csv"
    target.write_text("old content that is much longer than nothing\n" * 100)
    export_rejected_rows(conn, job_id, target)
    assert "old content" not in target.read_text(encoding="utf-8-sig")


def test_job_without_rejections_gives_just_the_header(conn: Connection, tmp_path: Path) -> None:
    sha = jobs.store_file(conn, b"clean")
    job, _ = jobs.create_job(
        conn, jobs.NewJob("orders", 1, sha, "ok.xlsx", "Sheet1", "calamine", HEADER, 1, 3)
    )
    target = tmp_path / "none.csv"
    assert export_rejected_rows(conn, job.id, target).rows == 0
    assert target.read_text(encoding="utf-8-sig").splitlines() == [
        "Order ID,Customer,Amount,Problems,Source row"
    ]


def test_bad_targets_are_usage_errors(conn: Connection, tmp_path: Path) -> None:
    job_id = job_with_rejections(conn)
    with pytest.raises(UsageError, match=r"\.xlsx or \.csv"):
        export_rejected_rows(conn, job_id, tmp_path / "errors.txt")
    with pytest.raises(UsageError, match="does not exist"):
        export_rejected_rows(conn, job_id, tmp_path / "missing" / "errors.csv")
    assert list(tmp_path.iterdir()) == []


def test_export_file_gets_ordinary_permissions(conn: Connection, tmp_path: Path) -> None:
    import os

    job_id = job_with_rejections(conn)
    target = tmp_path / "errors.xlsx"
    export_rejected_rows(conn, job_id, target)
    mask = os.umask(0o022)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask


def test_past_the_comment_budget_bad_cells_keep_their_fill(
    conn: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from importer.report import xlsx as report_xlsx

    monkeypatch.setattr(report_xlsx, "MAX_COMMENTS", 2)
    target = tmp_path / "errors.xlsx"
    export_rejected_rows(conn, job_with_rejections(conn), target)
    sheet = load_workbook(target)["Sheet1"]
    bad = ["A2", "C4", "B4"]  # row 3's Order ID, then row 7's Amount and Customer
    assert [sheet[c].comment is not None for c in bad] == [True, True, False]
    assert all(sheet[c].fill.fgColor.rgb == "00FFC7CE" for c in bad)
    assert sheet["D4"].value == "Amount: must be at least 0\nCustomer: bad name"
