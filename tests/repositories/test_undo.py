"""`importer undo`: the table afterwards equals the table before the job, row for row (every
column, the tool's own included), for append and keyed forms, after a stop and resume, after
a kill -9 in mid-import, and through a chain of keyed re-imports (--cascade)."""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from importer.config import ImportSettings
from importer.database import Connection
from importer.errors import StateError
from importer.intake.submission import Asked, submit_workbook
from importer.repositories import jobs
from importer.repositories.forms import get_form
from importer.repositories.undo import LaterJobsChanged, undo_job
from importer.running.job_run import JobProgress, run_job
from importer.states import JobStatus
from tests.conftest import IMPORTER_CMD, Cli
from tests.support.jobs import (
    KEYED_FORM,
    ORDERS_FORM,
    add_form,
    kill_9,
    wait_until_stopped,
    write_book,
)

SETTINGS = ImportSettings(rows_per_transaction=10, lease_seconds=30, max_attempts=3)
OWNER = "me:1:a"


def dump(conn: Connection, form: str) -> list[dict[str, Any]]:
    """Every row of the form's table, every column, in a stable order."""
    rows = conn.execute(f'SELECT * FROM forms."{form}" ORDER BY order_id, row_number').fetchall()
    return [dict(r) for r in rows]


def history_rows(conn: Connection, form: str) -> int:
    found = conn.execute(f'SELECT count(*) AS n FROM form_history."{form}"').fetchone()
    assert found is not None
    return int(found["n"])


def run(database_url: str, conn: Connection, path: Path, form: str) -> jobs.Job:
    job = submit_workbook(
        conn, path, Asked(form_name=form, claim_owner=OWNER, force=True), settings=SETTINGS
    ).job
    outcome = run_job(database_url, job, OWNER, SETTINGS)
    assert outcome.result == "finished", outcome.error
    return jobs.get_job(conn, job.id)


def undo(conn: Connection, job_id: int, *, cascade: bool = False, dry_run: bool = False) -> Any:
    form, _ = get_form(conn, jobs.get_job(conn, job_id).form)
    return undo_job(conn, job_id, form, cascade=cascade, dry_run=dry_run)


def test_undo_of_an_append_job_removes_its_rows_and_releases_the_file(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn, ORDERS_FORM)
    write_book(tmp_path / "a.xlsx", [[i, f"c{i}", i] for i in range(1, 16)])
    write_book(tmp_path / "b.xlsx", [[i, f"d{i}", i] for i in range(100, 123)])
    run(database_url, conn, tmp_path / "a.xlsx", "orders")
    before = dump(conn, "orders")
    second = run(database_url, conn, tmp_path / "b.xlsx", "orders")

    planned = undo(conn, second.id, dry_run=True)
    assert (planned.removed, planned.restored, planned.dry_run) == (23, 0, True)
    assert len(dump(conn, "orders")) == 15 + 23  # a dry run changes nothing
    assert jobs.get_job(conn, second.id).status is JobStatus.SUCCEEDED

    report = undo(conn, second.id)
    assert (report.removed, report.restored) == (23, 0)
    assert dump(conn, "orders") == before
    undone = jobs.get_job(conn, second.id)
    assert undone.status is JobStatus.REVERTED and undone.reverted_at is not None
    with pytest.raises(StateError, match="already undone"):
        undo(conn, second.id)
    # The same workbook imports again: the reverted job no longer holds its key.
    again = submit_workbook(conn, tmp_path / "b.xlsx", Asked(form_name="orders"), settings=SETTINGS)
    assert again.created and again.job.id != second.id


def test_undo_of_a_keyed_reimport_gives_back_every_row_as_it_was(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn, KEYED_FORM)
    write_book(tmp_path / "v1.xlsx", [[i, f"c{i}", i] for i in range(1, 31)])
    run(database_url, conn, tmp_path / "v1.xlsx", "ledger")
    before = dump(conn, "ledger")
    # 10 unchanged (their job and row move), 10 updated, 10 untouched, 12 new keys, and a
    # row at another Excel row number than before.
    rows = [[i, f"c{i}", i] for i in range(1, 11)] + [[i, "changed", i * 2] for i in range(11, 21)]
    rows += [[i, "new", 1] for i in range(200, 212)]
    write_book(tmp_path / "v2.xlsx", rows)
    second = run(database_url, conn, tmp_path / "v2.xlsx", "ledger")
    assert second.keyed_counts == (12, 10, 10)
    assert history_rows(conn, "ledger") == 20  # updated and unchanged rows both kept

    report = undo(conn, second.id)
    assert (report.removed, report.restored) == (12, 20)
    assert dump(conn, "ledger") == before
    assert history_rows(conn, "ledger") == 0


def test_a_job_whose_rows_a_later_job_changed_is_undone_only_with_it(
    database_url: str, conn: Connection, tmp_path: Path, cli: Cli
) -> None:
    add_form(conn, KEYED_FORM)
    write_book(tmp_path / "v1.xlsx", [[i, f"c{i}", i] for i in range(1, 21)])
    write_book(tmp_path / "v2.xlsx", [[i, "second", i + 1] for i in range(1, 11)])
    write_book(tmp_path / "v3.xlsx", [[i, "third", i + 2] for i in range(5, 16)])
    first = run(database_url, conn, tmp_path / "v1.xlsx", "ledger")
    after_first = dump(conn, "ledger")
    second = run(database_url, conn, tmp_path / "v2.xlsx", "ledger")
    after_second = dump(conn, "ledger")
    third = run(database_url, conn, tmp_path / "v3.xlsx", "ledger")

    with pytest.raises(LaterJobsChanged, match=rf"later jobs changed .*: {third.id}") as refused:
        undo(conn, second.id)
    assert refused.value.later == [third.id]
    result = cli("undo", str(first.id))
    assert result.exit_code == 2
    assert f"{second.id}, {third.id}" in result.stderr and "--cascade" in result.stderr

    # Undoing the newest alone is allowed and restores the second's values.
    undo(conn, third.id)
    assert dump(conn, "ledger") == after_second
    # Then both others at once, newest first.
    report = undo(conn, first.id, cascade=True)
    assert [j.job_id for j in report.jobs] == [second.id, first.id]
    assert dump(conn, "ledger") == []
    assert after_first  # the first import had rows to remove


def test_cascade_through_a_chain_restores_the_version_before_the_set(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn, KEYED_FORM)
    write_book(tmp_path / "v1.xlsx", [[i, f"c{i}", i] for i in range(1, 21)])
    write_book(tmp_path / "v2.xlsx", [[i, "second", i + 1] for i in range(1, 11)])
    write_book(tmp_path / "v3.xlsx", [[i, "third", i + 2] for i in range(5, 16)])
    run(database_url, conn, tmp_path / "v1.xlsx", "ledger")
    after_first = dump(conn, "ledger")
    second = run(database_url, conn, tmp_path / "v2.xlsx", "ledger")
    third = run(database_url, conn, tmp_path / "v3.xlsx", "ledger")
    report = undo(conn, second.id, cascade=True)
    assert [j.job_id for j in report.jobs] == [third.id, second.id]
    assert dump(conn, "ledger") == after_first
    assert {jobs.get_job(conn, j).status for j in (second.id, third.id)} == {JobStatus.REVERTED}


def test_undo_after_a_stop_and_a_resume_by_another_owner(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn, KEYED_FORM)
    write_book(tmp_path / "v1.xlsx", [[i, f"c{i}", i] for i in range(1, 41)])
    run(database_url, conn, tmp_path / "v1.xlsx", "ledger")
    before = dump(conn, "ledger")
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

    stopped = run_job(
        database_url, job, OWNER, SETTINGS, on_progress=stop_after_three_batches, stop=stop
    )
    assert stopped.result == "stopped"
    with pytest.raises(StateError, match="is pending: cancel it"):
        undo(conn, job.id)
    claimed = jobs.claim_jobs(conn, owner="other:2:b", limit=1, lease_seconds=30)
    assert run_job(database_url, claimed[0], "other:2:b", SETTINGS).result == "finished"
    undo(conn, job.id)
    assert dump(conn, "ledger") == before


@pytest.mark.slow
def test_undo_after_a_kill_9_in_mid_import_and_its_resume(
    cli: Cli, cli_env: dict[str, str], conn: Connection, tmp_path: Path
) -> None:
    add_form(conn, KEYED_FORM)
    write_book(tmp_path / "v1.xlsx", [[i, f"c{i}", i] for i in range(1, 31)])
    assert cli("submit", str(tmp_path / "v1.xlsx"), "--form", "ledger").exit_code == 0
    before = dump(conn, "ledger")
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
    assert jobs.get_job(conn, job_id).cursor == 20
    assert cli("resume", str(job_id)).exit_code == 0

    planned = cli("undo", str(job_id), "--dry-run", "--json")
    assert planned.exit_code == 0, planned.stderr
    assert json.loads(planned.stdout) == {
        "form": "ledger",
        "table": "forms.ledger",
        "dry_run": True,
        "removed": 30,
        "restored": 30,
        "jobs": [{"id": job_id, "removed": 30, "restored": 30}],
    }
    done = cli("undo", str(job_id))
    assert done.exit_code == 0, done.stderr
    assert f"job {job_id}: removed 30 rows, restored 30 rows" in done.stdout
    assert dump(conn, "ledger") == before
    assert json.loads(cli("status", str(job_id), "--json").stdout)["status"] == "reverted"


def test_history_shows_a_keys_versions_newest_first(
    database_url: str, conn: Connection, tmp_path: Path, cli: Cli
) -> None:
    add_form(conn, KEYED_FORM)
    write_book(tmp_path / "v1.xlsx", [[7, "first", 1]])
    write_book(tmp_path / "v2.xlsx", [[7, "second", 2]])
    write_book(tmp_path / "v3.xlsx", [[7, "third", 3]])
    ids = [run(database_url, conn, tmp_path / f"v{n}.xlsx", "ledger").id for n in (1, 2, 3)]
    shown = cli("history", "ledger", "7", "--json")
    assert shown.exit_code == 0, shown.stderr
    data = json.loads(shown.stdout)
    assert data["current"]["values"]["customer"] == "third"
    assert data["current"]["job"] == ids[2]
    assert [(v["values"]["customer"], v["job"], v["replaced_by"]) for v in data["earlier"]] == [
        ("second", ids[1], ids[2]),
        ("first", ids[0], ids[1]),
    ]
    text = cli("history", "ledger", "7")
    assert text.exit_code == 0 and "third" in text.stdout and "first" in text.stdout
    assert cli("history", "ledger", "8").exit_code == 2  # no such key
    assert cli("history", "ledger", "seven").exit_code == 2  # not an integer
    assert cli("history", "nosuchform", "7").exit_code == 2


def test_history_retention_makes_the_jobs_it_purged_no_longer_undoable(
    database_url: str, conn: Connection, tmp_path: Path, cli: Cli
) -> None:
    add_form(conn, KEYED_FORM)
    write_book(tmp_path / "v1.xlsx", [[i, f"c{i}", i] for i in range(1, 11)])
    write_book(tmp_path / "v2.xlsx", [[i, "second", i + 1] for i in range(1, 6)])
    write_book(tmp_path / "v3.xlsx", [[i, "third", 1] for i in range(50, 53)])
    run(database_url, conn, tmp_path / "v1.xlsx", "ledger")
    second = run(database_url, conn, tmp_path / "v2.xlsx", "ledger")
    planned = cli("purge", "--history-older-than", "0s", "--dry-run", "--json")
    assert planned.exit_code == 0, planned.stderr
    counted = json.loads(planned.stdout)
    assert (counted["history_jobs"], counted["history_rows"]) == (1, 5)
    assert history_rows(conn, "ledger") == 5
    done = cli("purge", "--history-older-than", "0s")
    assert done.exit_code == 0, done.stderr
    assert "removed 5 earlier versions of keyed rows, replaced by 1 job" in done.stdout
    assert history_rows(conn, "ledger") == 0
    with pytest.raises(StateError, match="retention removed the values it overwrote"):
        undo(conn, second.id)
    # A job that only inserted loses nothing by it: it is still undone exactly.
    third = run(database_url, conn, tmp_path / "v3.xlsx", "ledger")
    undo(conn, third.id)
    assert {r["order_id"] for r in dump(conn, "ledger")} == set(range(1, 11))
    assert cli("purge").exit_code == 2  # nothing said to purge


def test_a_keyed_job_that_started_before_history_was_kept_is_not_undone(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    """A database upgraded to 0013 after the job ran: what it overwrote was never kept, and
    its undo would delete those rows (tests/test_upgrade.py shows it on an old release's)."""
    add_form(conn, KEYED_FORM)
    write_book(tmp_path / "v1.xlsx", [[i, f"c{i}", i] for i in range(1, 6)])
    job = run(database_url, conn, tmp_path / "v1.xlsx", "ledger")
    conn.execute("UPDATE schema_migrations SET applied_at = now() WHERE version = 13")
    before = dump(conn, "ledger")
    with pytest.raises(StateError, match="before this database was upgraded to keep"):
        undo(conn, job.id, dry_run=True)
    assert dump(conn, "ledger") == before
    assert jobs.get_job(conn, job.id).status is JobStatus.SUCCEEDED


def test_an_undo_announces_the_reverted_job_in_its_own_transaction(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    notified = ORDERS_FORM.replace(
        'name = "orders"',
        'name = "orders"\n[notify]\nurl = "http://127.0.0.1:9/hook"\nevents = ["reverted"]',
        1,
    )
    add_form(conn, notified)
    write_book(tmp_path / "a.xlsx", [[i, f"c{i}", i] for i in range(1, 6)])
    job = run(database_url, conn, tmp_path / "a.xlsx", "orders")

    def notices() -> list[str]:
        found = conn.execute("SELECT target FROM timer_jobs WHERE kind = 'notify' ORDER BY id")
        return [str(r["target"]) for r in found.fetchall()]

    assert notices() == []  # "succeeded" is not among the form's events
    undo(conn, job.id, dry_run=True)
    assert notices() == []  # a dry run rolls back: no phantom notice
    undo(conn, job.id)
    assert notices() == [f"job-{job.id}-reverted"]


USER_TABLE = (
    "CREATE TABLE public.ledger (id bigserial PRIMARY KEY, order_no bigint UNIQUE NOT NULL,"
    " amount numeric(12, 2), customer varchar(40), {job}"
    " created_at timestamptz NOT NULL DEFAULT now())"
)
USER_FORM = """
name = "ledger"
table = "public.ledger"
{top}
key = ["order_id"]
[[fields]]
name = "order_id"
column = "order_no"
type = "integer"
required = true
[[fields]]
name = "amount"
type = "decimal"
[[fields]]
name = "customer"
type = "string"
"""


def users_rows(conn: Connection) -> list[dict[str, Any]]:
    return [dict(r) for r in conn.execute("SELECT * FROM public.ledger ORDER BY id").fetchall()]


def test_undo_in_a_users_table_through_its_job_column(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    conn.execute(USER_TABLE.format(job="import_job_id bigint,"))
    add_form(conn, USER_FORM.format(top='job_column = "import_job_id"'))
    header = ["order_id", "amount", "customer"]
    write_book(tmp_path / "v1.xlsx", [[i, i, f"c{i}"] for i in range(1, 11)], header)
    write_book(tmp_path / "v2.xlsx", [[i, i * 2, "new"] for i in range(6, 16)], header)
    run(database_url, conn, tmp_path / "v1.xlsx", "ledger")
    before = users_rows(conn)
    second = run(database_url, conn, tmp_path / "v2.xlsx", "ledger")
    assert second.keyed_counts == (5, 5, 0)
    report = undo(conn, second.id)
    assert (report.removed, report.restored, report.table) == (5, 5, "public.ledger")
    assert users_rows(conn) == before  # its own columns (id, created_at) untouched


def test_undo_in_a_users_table_without_a_job_column_says_which_to_map(
    database_url: str, conn: Connection, tmp_path: Path, cli: Cli
) -> None:
    conn.execute(USER_TABLE.format(job=""))
    add_form(conn, USER_FORM.format(top=""))
    write_book(tmp_path / "v1.xlsx", [[1, 1, "a"]], ["order_id", "amount", "customer"])
    job = run(database_url, conn, tmp_path / "v1.xlsx", "ledger")
    refused = cli("undo", str(job.id))
    assert refused.exit_code == 2
    assert 'job_column = "..."' in refused.stderr and "public.ledger" in refused.stderr
    assert len(users_rows(conn)) == 1
