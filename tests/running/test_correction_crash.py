"""Corrections under crashes and races, with real `importer` processes: a correction killed
-9 mid-batch and resumed, and two corrections of the same rows started at once, each leave
every fixed row stored exactly once, taken by exactly one correction."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from importer.database import Connection
from tests.conftest import IMPORTER_CMD, Cli
from tests.support.corrections import claims, job_row, keyed_book, stored
from tests.support.jobs import Book, add_form, kill_9, orders_book, wait_until_stopped

pytestmark = pytest.mark.slow


@pytest.fixture
def origin(conn: Connection, cli: Cli, tmp_path: Path) -> tuple[int, Book]:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 60, bad_every=2)  # rows 3, 5, ... 61 bad
    assert cli("submit", str(book.path), "--form", "orders", "-q").exit_code == 3
    found = conn.execute("SELECT max(id) AS id FROM import_jobs").fetchone()
    assert found is not None
    return int(found["id"]), book


def fixed_rows(book: Book, amount: float) -> list[tuple[int | None, list[Any]]]:
    return [(n, [*book.rows[n - 2][:2], amount]) for n in sorted(book.invalid)]


def start(env: dict[str, str], *args: str, pause: str | None = None) -> subprocess.Popen[bytes]:
    child_env = {**env, "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "4"}
    child_env.pop("IMPORTER_TEST_PAUSE_AT", None)
    if pause:
        child_env["IMPORTER_TEST_PAUSE_AT"] = pause
    return subprocess.Popen(
        [*IMPORTER_CMD, *args], env=child_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


def newest_job(conn: Connection) -> int:
    found = conn.execute("SELECT max(id) AS id FROM import_jobs").fetchone()
    assert found is not None
    return int(found["id"])


@pytest.mark.parametrize("point", ["batch:3", "committed:2", "finish"])
def test_a_correction_killed_mid_batch_and_resumed_stores_each_row_once(
    conn: Connection, cli_env: dict[str, str], origin: tuple[int, Book], tmp_path: Path, point: str
) -> None:
    origin_id, book = origin
    rows = [*fixed_rows(book, 5.5), (None, [700, "added one", 1]), (None, [701, "added two", 2])]
    path = keyed_book(conn, tmp_path / "fix.xlsx", origin_id, rows)
    child = start(cli_env, "submit", str(path), pause=point)
    wait_until_stopped(child)
    kill_9(child)
    correction = newest_job(conn)
    assert job_row(conn, correction)["origin_job_id"] == origin_id
    held = len(claims(conn, origin_id))
    assert len(stored(conn, correction)) == held  # rows and their claims, or neither

    resumed = start(cli_env, "resume", str(correction))
    _out, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err.decode()
    expected = {n: (book.rows[n - 2][0], book.rows[n - 2][1], 5.5) for n in book.invalid}
    expected |= {62: (700, "added one", 1.0), 63: (701, "added two", 2.0)}
    assert stored(conn, correction) == expected
    assert claims(conn, origin_id) == dict.fromkeys(expected, correction)
    job = job_row(conn, correction)
    assert (job["success_rows"], job["failed_rows"], job["status"]) == (32, 0, "succeeded")
    assert job_row(conn, origin_id)["fixed_rows"] == 30


def test_two_corrections_of_the_same_rows_at_once_store_each_row_once(
    conn: Connection, cli_env: dict[str, str], origin: tuple[int, Book], tmp_path: Path
) -> None:
    origin_id, book = origin
    first = keyed_book(conn, tmp_path / "first.xlsx", origin_id, fixed_rows(book, 1.25))
    second = keyed_book(conn, tmp_path / "second.xlsx", origin_id, fixed_rows(book, 2.5)[::-1])
    # Both running, each with its first batch committed (from either end of the rows), then
    # let go together: they meet in the middle.
    children = [
        start(cli_env, "submit", str(p), "-q", pause="committed:1") for p in (first, second)
    ]
    for child in children:
        wait_until_stopped(child)
    for child in children:
        os.kill(child.pid, signal.SIGCONT)
    ended = [child.communicate(timeout=120) for child in children]
    codes = [child.returncode for child in children]
    assert codes == [3, 3], (codes, ended)  # each rejects the rows the other took

    ids = [int(r["id"]) for r in conn.execute(
        "SELECT id FROM import_jobs WHERE origin_job_id = %s ORDER BY id", (origin_id,)
    )]  # fmt: skip
    assert len(ids) == 2
    rows = {job: stored(conn, job) for job in ids}
    assert not set(rows[ids[0]]) & set(rows[ids[1]]), "a row was stored twice"
    assert set(rows[ids[0]]) | set(rows[ids[1]]) == book.invalid
    taken = claims(conn, origin_id)
    assert {n: job for job in ids for n in rows[job]} == taken
    for job in ids:
        found = job_row(conn, job)
        assert found["success_rows"] == len(rows[job])
        assert found["success_rows"] + found["failed_rows"] == 30
    assert job_row(conn, origin_id)["fixed_rows"] == 30
