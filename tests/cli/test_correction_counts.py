"""An import keeps count of what became of its rejected rows: status, jobs, --json, the
summary of the correction, watch while one runs, stats and the metrics say
`rejected 5 · fixed later 3 · still open 2`; a correction says what it corrects, and its
completion notice names its origin."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from importer.database import Connection
from tests.conftest import IMPORTER_CMD, Cli
from tests.support.corrections import keyed_book
from tests.support.jobs import Book, add_form, kill_9, orders_book, wait_until_stopped
from tests.support.webhook_server import webhook_server

COUNTS = "rejected 5 · fixed later 3 · still open 2"


@pytest.fixture
def book(conn: Connection, cli: Cli, tmp_path: Path) -> Book:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 30, bad_every=6)  # rows 7, 13, 19, 25, 31
    assert cli("submit", str(book.path), "--form", "orders", "-q").exit_code == 3
    return book


def fixes(book: Book, rows: list[int], amount: Any = 9) -> list[tuple[int | None, list[Any]]]:
    return [(n, [*book.rows[n - 2][:2], amount]) for n in rows]


def test_every_view_of_an_import_says_what_became_of_its_rejected_rows(
    conn: Connection, cli: Cli, book: Book, tmp_path: Path
) -> None:
    rows = [*fixes(book, [7, 13, 19]), *fixes(book, [25], "n/a")]  # 25 still wrong
    done = cli("submit", str(keyed_book(conn, tmp_path / "fix.xlsx", 1, rows)))
    assert done.exit_code == 3, done.stderr
    assert "correction of job 1: 4 rows" in done.stderr
    assert f"job 2: correction of job 1: 4 rows\njob 1: {COUNTS}\n" in done.stdout
    assert "next: importer errors 1 -o rejected.xlsx" in done.stdout  # the import's open rows

    status = cli("status", "1").stdout
    assert f"  fixes:     {COUNTS}\n" in status
    assert "rejected rows: importer errors 1 -o rejected.xlsx" in status
    assert "  corrects:  correction of job 1: 4 rows\n" in cli("status", "2").stdout
    as_json = json.loads(cli("status", "1", "--json").stdout)
    assert (as_json["fixed_later"], as_json["still_open"], as_json["origin"]) == (3, 2, None)
    correction = json.loads(cli("status", "2", "--json").stdout)
    assert correction["origin"] == 1 and "fixed_later" not in correction
    listed = [json.loads(line) for line in cli("jobs", "--json").stdout.splitlines()]
    assert [(j["id"], j["origin"], j.get("still_open")) for j in listed] == [
        (1, None, 2),
        (2, 1, None),
    ]

    header, first, second = cli("jobs").stdout.splitlines()  # a pipe: every column
    assert header.split()[-4:] == ["Fixed", "later", "Open", "Corrects"]
    assert first.split()[-2:] == ["3", "2"] and second.split()[-2:] == ["root", "1"]

    stats = json.loads(cli("stats", "--json").stdout)
    assert (stats["rows_fixed_later"], stats["rows_still_open"]) == (3, 2)
    metrics = cli("stats", "--format", "openmetrics").stdout
    assert "importer_rows_fixed_later 3.0" in metrics and "importer_rows_still_open 2.0" in metrics


def test_a_corrections_completion_notice_names_its_origin(
    conn: Connection, cli: Cli, book: Book, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with webhook_server() as server:
        monkeypatch.setenv("IMPORTER_NOTIFY_URL", server.url)
        path = keyed_book(conn, tmp_path / "fix.xlsx", 1, fixes(book, [7, 13]))
        assert cli("submit", str(path)).exit_code == 0
        assert cli("timers", "--once").exit_code == 0
        received = [r.json for r in server.all()]
    notice = next(r for r in received if r["id"] == 2)
    assert notice["event"] == "succeeded" and notice["origin"] == 1


@pytest.mark.slow
def test_watch_shows_a_running_correction_and_its_imports_counts(
    conn: Connection, cli: Cli, cli_env: dict[str, str], book: Book, tmp_path: Path
) -> None:
    path = keyed_book(conn, tmp_path / "fix.xlsx", 1, fixes(book, [7, 13, 19, 25, 31]))
    env = {**cli_env, "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "2"}
    env["IMPORTER_TEST_PAUSE_AT"] = "committed:1"
    child = subprocess.Popen(
        [*IMPORTER_CMD, "submit", str(path), "-q"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        wait_until_stopped(child)
        shown = cli("watch", "--once").stdout
    finally:
        kill_9(child)
    assert "job 2 corrects job 1: rejected 5 · fixed later 2 · still open 3" in shown
