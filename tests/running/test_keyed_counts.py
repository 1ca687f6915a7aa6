"""Forms with a key: each job counts the rows it inserted, updated and left unchanged, in the
batch transaction that moves the cursor (so exactly once, across stops and crashes); and the
most common reasons rows were rejected, for the summary."""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from importer.config import ImportSettings
from importer.database import Connection
from importer.intake.submission import Asked, submit_workbook
from importer.repositories import jobs
from importer.repositories.rejected_rows import top_reasons
from importer.running.job_run import JobProgress, run_job
from tests.conftest import IMPORTER_CMD, Cli
from tests.support.jobs import (
    KEYED_FORM,
    add_form,
    form_rows,
    kill_9,
    orders_book,
    wait_until_stopped,
    write_book,
)

SETTINGS = ImportSettings(rows_per_transaction=10, lease_seconds=30, max_attempts=3)
OWNER = "me:1:a"


def submit_and_run(database_url: str, conn: Connection, path: Path) -> jobs.Job:
    job = submit_workbook(
        conn, path, Asked(form_name="ledger", claim_owner=OWNER, force=True), settings=SETTINGS
    ).job
    outcome = run_job(database_url, job, OWNER, SETTINGS)
    assert outcome.result == "finished", outcome.error
    return jobs.get_job(conn, job.id)


def stored(conn: Connection) -> dict[int, dict[str, Any]]:
    """order_id -> its row of forms.ledger (its fields, job, row number and written_at)."""
    return {r["order_id"]: r for r in form_rows(conn, "ledger")}


def test_a_keyed_job_counts_inserted_updated_and_unchanged_rows(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn, KEYED_FORM)
    first = [[i, f"c{i}", i] for i in range(1, 13)]
    write_book(tmp_path / "v1.xlsx", first)
    job = submit_and_run(database_url, conn, tmp_path / "v1.xlsx")
    assert job.keyed_counts == (12, 0, 0)
    before = stored(conn)

    # Keys 1-5 as they are, 6-8 changed (an amount, a name, both), two new keys, a key
    # repeated in the file (rejected, so not counted) and a row with a bad amount.
    second = [*first[:5], [6, "c6", 60], [7, "renamed", 7], [8, "x", 80], [20, "n", 1]]
    second += [[21, "n", 2], [20, "twice", 3], [9, "bad", -1]]
    write_book(tmp_path / "v2.xlsx", second)
    job = submit_and_run(database_url, conn, tmp_path / "v2.xlsx")
    assert (job.success_rows, job.failed_rows) == (10, 2)
    assert job.keyed_counts == (2, 3, 5)
    assert sum(job.keyed_counts) == job.success_rows
    after = stored(conn)
    # An unchanged row keeps its updated_at (only its job moves); an updated one does not.
    assert after[3]["written_at"] == before[3]["written_at"]
    assert after[3]["import_job_id"] == job.id
    assert after[7]["written_at"] > before[7]["written_at"]
    assert after[7]["customer"] == "renamed"

    data = job.to_json()
    assert (data["inserted"], data["updated"], data["unchanged"]) == (2, 3, 5)


def test_equal_values_are_unchanged_whatever_their_scale(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn, KEYED_FORM)
    write_book(tmp_path / "v1.xlsx", [[1, "a", 1.5], [2, "b", 2]])
    submit_and_run(database_url, conn, tmp_path / "v1.xlsx")
    # The same numbers stored at another scale are still equal (numeric =).
    conn.execute("UPDATE forms.ledger SET amount = round(amount, 3)")
    write_book(tmp_path / "v2.xlsx", [[1, "a", 1.5], [2, "b", 2.0]])
    job = submit_and_run(database_url, conn, tmp_path / "v2.xlsx")
    assert job.keyed_counts == (0, 0, 2)


def test_a_form_without_a_key_has_no_keyed_counts(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 15)
    job = submit_workbook(
        conn, book.path, Asked(form_name="orders", claim_owner=OWNER), settings=SETTINGS
    )
    run_job(database_url, job.job, OWNER, SETTINGS)
    done = jobs.get_job(conn, job.job.id)
    assert done.keyed_counts is None and done.success_rows == 14
    assert not {"inserted", "updated", "unchanged"} & set(done.to_json())


def test_a_stopped_and_resumed_run_counts_every_row_once(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn, KEYED_FORM)
    write_book(tmp_path / "v1.xlsx", [[i, f"c{i}", i] for i in range(1, 41)])
    submit_and_run(database_url, conn, tmp_path / "v1.xlsx")
    # 20 unchanged, 20 updated, 25 new: 65 rows in batches of 10.
    rows = [[i, f"c{i}", i if i <= 20 else i + 1] for i in range(1, 41)]
    rows += [[i, "new", 1] for i in range(100, 125)]
    write_book(tmp_path / "v2.xlsx", rows)
    job = submit_workbook(
        conn, tmp_path / "v2.xlsx", Asked(form_name="ledger", claim_owner=OWNER), settings=SETTINGS
    ).job
    stop = threading.Event()

    def stop_after_three_batches(event: JobProgress) -> None:
        if event.done_rows >= 30:
            stop.set()

    first = run_job(
        database_url, job, OWNER, SETTINGS, on_progress=stop_after_three_batches, stop=stop
    )
    assert first.result == "stopped"
    paused = jobs.get_job(conn, job.id)
    assert paused.keyed_counts is not None and sum(paused.keyed_counts) == paused.cursor
    claimed = jobs.claim_jobs(conn, owner="other:2:b", limit=1, lease_seconds=30)
    assert run_job(database_url, claimed[0], "other:2:b", SETTINGS).result == "finished"
    assert jobs.get_job(conn, job.id).keyed_counts == (25, 20, 20)


@pytest.mark.slow
def test_a_batch_killed_before_its_commit_is_counted_once_by_the_resume(
    cli: Cli, cli_env: dict[str, str], conn: Connection, tmp_path: Path
) -> None:
    add_form(conn, KEYED_FORM)
    write_book(tmp_path / "v1.xlsx", [[i, f"c{i}", i] for i in range(1, 31)])
    assert cli("submit", str(tmp_path / "v1.xlsx"), "--form", "ledger").exit_code == 0
    rows = [[i, f"c{i}", i if i % 2 else i + 1] for i in range(1, 31)]
    rows += [[i, "new", 1] for i in range(100, 130)]
    write_book(tmp_path / "v2.xlsx", rows)
    env = {
        **cli_env,
        "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "10",
        "IMPORTER_TEST_PAUSE_AT": "batch:3",  # inside batch 3's transaction, before commit
    }
    child = subprocess.Popen(
        [*IMPORTER_CMD, "submit", str(tmp_path / "v2.xlsx"), "--form", "ledger"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    wait_until_stopped(child)
    kill_9(child)
    job_id = max(r["id"] for r in conn.execute("SELECT id FROM import_jobs").fetchall())
    crashed = jobs.get_job(conn, job_id)
    assert crashed.cursor == 20 and crashed.keyed_counts is not None
    assert sum(crashed.keyed_counts) == 20  # batch 3 rolled back with its counts

    resumed = cli("resume", str(job_id), "--json")
    assert resumed.exit_code == 0, resumed.stderr
    data = json.loads(resumed.stdout.strip().splitlines()[-1])
    # Odd keys unchanged (15), even keys updated (15), 30 new: whatever the crash did.
    assert (data["inserted"], data["updated"], data["unchanged"]) == (30, 15, 15)
    status = json.loads(cli("status", str(job_id), "--json").stdout)
    assert (status["inserted"], status["updated"], status["unchanged"]) == (30, 15, 15)


def test_the_most_common_reasons_group_messages_that_differ_only_in_their_value(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn, KEYED_FORM)
    rows: list[list[object]] = [[i, f"c{i}", -i] for i in range(1, 6)]  # 5 below the minimum
    rows += [["n/a", "x", 1], ["?", "y", 1], ["n/a", "z", 1]]  # 3 not whole numbers
    rows += [[50, None, 1]]  # 1 missing customer
    rows += [[60, "ok", 1], [60, "again", 1]]  # a key repeated in the file
    write_book(tmp_path / "bad.xlsx", rows)
    job = submit_and_run(database_url, conn, tmp_path / "bad.xlsx")
    assert job.failed_rows == 10
    reasons = top_reasons(conn, job.id, limit=3)
    assert [(r.column, r.errors, r.variants) for r in reasons] == [
        ("Amount", 5, 5),
        ("Order ID", 3, 2),
        ("Customer", 1, 1),
    ]
    assert reasons[1].example == "'n/a' is not a whole number"
    assert len(top_reasons(conn, job.id, limit=10)) == 4  # and the repeated key


def test_the_summary_says_what_to_run_next(cli: Cli, conn: Connection, tmp_path: Path) -> None:
    add_form(conn, KEYED_FORM)
    write_book(tmp_path / "v1.xlsx", [[i, f"c{i}", i] for i in range(1, 6)])
    assert cli("submit", str(tmp_path / "v1.xlsx"), "--form", "ledger").exit_code == 0
    write_book(tmp_path / "v2.xlsx", [[1, "c1", 1], [2, "c2", 9], [7, "n", 1], [8, "n", -1]])
    result = cli("submit", str(tmp_path / "v2.xlsx"), "--form", "ledger")
    assert result.exit_code == 3, result.stderr
    job_id = only_job_id_after(conn)
    out = result.stdout
    assert f"job {job_id}: 3 imported: 1 inserted, 1 updated, 1 unchanged" in out
    assert f"job {job_id}: 1 row rejected:\n    1  Amount: '-1' is less than the minimum 0" in out
    assert f"next: importer errors {job_id} -o rejected.xlsx" in out
    clean = cli("submit", str(tmp_path / "v1.xlsx"), "--form", "ledger", "--force")
    assert clean.exit_code == 0 and "next:" not in clean.stdout
    assert "5 imported: 0 inserted, 1 updated, 4 unchanged" in clean.stdout


def only_job_id_after(conn: Connection) -> int:
    return int(max(r["id"] for r in conn.execute("SELECT id FROM import_jobs").fetchall()))
