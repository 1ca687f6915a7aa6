"""Crash and fencing proofs with real `importer` processes.

A child stops itself (SIGSTOP) at an exact point of the import (IMPORTER_TEST_PAUSE_AT), then
the test kills it with SIGKILL, or lets its lease expire and lets another process take over
before waking it. Whatever happens, the final data must be exactly the valid rows, once.

A pause inside a batch ("batch:N") stops it on the path production takes: an append form
(orders) just before the one statement that is the batch's transaction, a keyed form
(ledger) inside its open transaction, after the upsert and the cursor advance.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from importer.database import Connection
from tests.conftest import IMPORTER_CMD
from tests.support.jobs import (
    KEYED_FORM,
    Book,
    add_form,
    assert_exactly_once,
    counts,
    data_rows,
    kill_9,
    only_job_id,
    orders_book,
    wait_until_stopped,
)

# Real processes killed and resumed, leases waited out: the full suite only.
pytestmark = pytest.mark.slow

ROWS_PER_TRANSACTION = "10"


@pytest.fixture
def book(conn: Connection, cli_env: dict[str, str], tmp_path: Path) -> Book:
    add_form(conn)  # orders: append
    add_form(conn, KEYED_FORM)  # ledger: the same fields, keyed on order_id (all distinct)
    return orders_book(tmp_path / "orders.xlsx", 60, bad_every=7)  # 6 batches of 10


def start(env: dict[str, str], *args: str, pause: str | None = None) -> subprocess.Popen[bytes]:
    child_env = {**env, "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": ROWS_PER_TRANSACTION}
    child_env.pop("IMPORTER_TEST_PAUSE_AT", None)
    if pause:
        child_env["IMPORTER_TEST_PAUSE_AT"] = pause
    return subprocess.Popen(
        [*IMPORTER_CMD, *args], env=child_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


def finish(child: subprocess.Popen[bytes], timeout: float = 120) -> tuple[int, str, str]:
    out, err = child.communicate(timeout=timeout)
    return child.returncode, out.decode(), err.decode()


def cursor(conn: Connection, job_id: int) -> int:
    row = conn.execute(
        "SELECT success_rows + failed_rows AS c FROM import_jobs WHERE id = %s", (job_id,)
    ).fetchone()
    assert row is not None
    return int(row["c"])


@pytest.mark.parametrize(
    ("form", "point", "committed"),
    [
        ("orders", "claimed", 0),  # leased, nothing read yet
        ("orders", "batch:1", 0),  # the first batch's statement about to be sent
        ("orders", "batch:3", 20),  # mid-file, just before a batch's statement
        ("ledger", "batch:1", 0),  # the first batch written, its transaction not committed
        ("ledger", "batch:3", 20),  # mid-file, inside a batch's transaction
        ("orders", "committed:3", 30),  # mid-file, between transactions
        ("orders", "batch:6", 50),  # the last batch's statement
        ("ledger", "batch:6", 50),  # the last batch's transaction
        ("orders", "finish", 60),  # the final transaction (status, lease cleared)
    ],
)
def test_kill_9_then_resume_imports_every_row_exactly_once(
    cli_env: dict[str, str], conn: Connection, book: Book, form: str, point: str, committed: int
) -> None:
    child = start(cli_env, "submit", str(book.path), "--form", form, pause=point)
    wait_until_stopped(child)
    kill_9(child)
    job_id = only_job_id(conn)
    assert cursor(conn, job_id) == committed
    assert len(data_rows(conn, job_id)) == len([n for n in book.valid if n < committed + 2])

    # Same host, owner process gone: resume takes over at once (the lease is 300 s).
    code, out, err = finish(start(cli_env, "resume", str(job_id)), timeout=120)
    assert code == 3, err
    assert "is gone; taking over" in out
    assert_exactly_once(conn, job_id, book)


def test_kill_9_at_an_unplanned_moment_and_again_during_the_resume(
    cli_env: dict[str, str], conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    big = orders_book(tmp_path / "big.xlsx", 1200, bad_every=13)
    env = {**cli_env, "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "5"}
    child = subprocess.Popen(
        [*IMPORTER_CMD, "submit", str(big.path), "--form", "orders", "--quiet"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    job_id = None
    while time.monotonic() < deadline and child.poll() is None:
        rows = conn.execute("SELECT id, success_rows + failed_rows AS c FROM import_jobs")
        found = rows.fetchall()
        if found and found[0]["c"] >= 200:
            job_id = int(found[0]["id"])
            break
        time.sleep(0.005)
    assert job_id is not None and child.poll() is None, "the import ended before the kill"
    kill_9(child)
    first_cut = cursor(conn, job_id)
    assert 0 < first_cut < big.total

    again = start(cli_env, "resume", str(job_id), "--quiet", pause="batch:4")
    wait_until_stopped(again)
    kill_9(again)
    assert cursor(conn, job_id) == first_cut + 30  # three committed batches of the resume

    code, _out, err = finish(start(cli_env, "resume", str(job_id), "--quiet"))
    assert code == 3, err
    assert_exactly_once(conn, job_id, big)
    attempts = conn.execute("SELECT attempts FROM import_jobs").fetchone()
    assert attempts == {"attempts": 3}


@pytest.mark.parametrize(
    ("form", "point"),
    [
        ("orders", "committed:2"),  # between transactions
        ("orders", "batch:3"),  # inside its transaction (rows copied), holding the job row
        ("ledger", "batch:3"),  # the same, the rows upserted
    ],
)
def test_a_paused_writer_is_fenced_after_another_process_takes_over(
    cli_env: dict[str, str], conn: Connection, book: Book, form: str, point: str
) -> None:
    """Writer A freezes (between transactions, about to send a batch, or inside a batch's
    transaction holding the job row); its short lease expires; B takes the job over and
    finishes it; A wakes up and must write nothing."""
    env = {**cli_env, "IMPORTER_JOBS_IMPORT_LEASE_SECONDS": "1"}
    writer_a = start(env, "submit", str(book.path), "--form", form, pause=point)
    try:
        wait_until_stopped(writer_a)
        job_id = only_job_id(conn)
        # A's lease runs out (and inside a transaction, its session: idle in transaction
        # longer than a lease, the server ends it and the job row's lock goes with it).
        time.sleep(1.5)

        code_b, _out_b, err_b = finish(start(env, "resume", str(job_id), "--quiet"))
        assert code_b == 3, err_b
        assert_exactly_once(conn, job_id, book)
        owner_b = counts(conn)["rows"]
    finally:
        os.kill(writer_a.pid, signal.SIGCONT)
    code_a, out_a, err_a = finish(writer_a)
    assert code_a == 3, err_a  # A reports the job's outcome, reached by B
    assert "took the job over" in out_a or "lease lost" in out_a
    assert counts(conn)["rows"] == owner_b
    assert_exactly_once(conn, job_id, book)
