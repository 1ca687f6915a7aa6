"""`submit --detach` / `--at` / `--in`: the file and its header are checked (peek_sheet) but
the rows are left to the run that imports them, which also counts them.

Real CLI calls against real PostgreSQL; the hostile corpus checks that a detached submit
refuses what a foreground one refuses, before any job exists.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from psycopg import sql

from importer.database import Connection
from tests.conftest import Cli
from tests.hostile.generate import FORM_NAME, Case, generate
from tests.support.jobs import add_form, assert_exactly_once, counts, orders_book, write_book


@pytest.fixture
def orders(conn: Connection, cli_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    add_form(conn)
    monkeypatch.setenv("IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION", "10")
    monkeypatch.setenv("IMPORTER_JOBS_IMPORT_STARTUP_DELAY_SECONDS", "0.01")


def one_json(stdout: str) -> dict[str, Any]:
    lines = [line for line in stdout.splitlines() if line.strip()]
    assert len(lines) == 1, stdout
    data: dict[str, Any] = json.loads(lines[0])
    return data


def test_a_detached_job_is_counted_by_the_worker_that_runs_it(
    cli: Cli, conn: Connection, orders: None, tmp_path: Path
) -> None:
    book = orders_book(tmp_path / "orders.xlsx", 35)
    queued = cli("submit", str(book.path), "--form", "orders", "--detach", "--json")
    assert queued.exit_code == 0, queued.stderr
    job = one_json(queued.stdout)
    assert (job["status"], job["total_rows"]) == ("pending", None)
    assert (job["sheet"], job["engine"]) == ("Orders", "calamine")  # what auto chose

    plain = cli("submit", str(book.path), "--form", "orders", "--detach", "--force")
    assert plain.exit_code == 0, plain.stderr
    assert "queued; workers will run it" in plain.stdout and "?" not in plain.stdout

    status = cli("status", str(job["id"]))
    assert status.exit_code == 0 and "rows:      not counted yet, 0 imported" in status.stdout
    assert one_json(cli("status", str(job["id"]), "--json").stdout)["total_rows"] is None
    listing = cli("jobs", "--json")
    assert [json.loads(line)["total_rows"] for line in listing.stdout.splitlines()] == [None, None]
    assert cli("jobs").exit_code == 0

    # watch shows a running job whose rows are not counted yet (a worker just claimed it).
    conn.execute(
        "UPDATE import_jobs SET status = 'running', lease_owner = 'elsewhere:1:a',"
        " lease_expires_at = now() + interval '1 minute', started_at = now() WHERE id = %s",
        (job["id"],),
    )
    watch = cli("watch", "--once")
    assert watch.exit_code == 0, watch.stderr
    assert "running 1" in watch.stdout and "orders." in watch.stdout and "elsewhere" in watch.stdout
    conn.execute(
        "UPDATE import_jobs SET status = 'pending', lease_owner = NULL,"
        " lease_expires_at = NULL, started_at = NULL WHERE id = %s",
        (job["id"],),
    )

    worked = cli("worker", "--once")
    assert worked.exit_code == 0, worked.stdout + worked.stderr
    assert_exactly_once(conn, int(job["id"]), book)  # includes total_rows == 35
    done = one_json(cli("status", str(job["id"]), "--json").stdout)
    assert (done["status"], done["total_rows"]) == ("partially_succeeded", 35)


def test_a_detached_or_scheduled_submit_still_checks_the_header(
    cli: Cli, conn: Connection, orders: None, tmp_path: Path
) -> None:
    write_book(tmp_path / "wrong.xlsx", [[1, "x"]], header=["Order ID", "Nobody"])
    (tmp_path / "text.xlsx").write_text("this is not a workbook")
    before = counts(conn)
    for name in ("wrong.xlsx", "text.xlsx"):
        for extra in (["--detach"], ["--in", "10m"], ["--at", "2031-01-01T10:00"]):
            result = cli("submit", str(tmp_path / name), "--form", "orders", *extra)
            assert result.exit_code == 2, (name, extra, result.stdout, result.stderr)
            assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    missing = cli("submit", str(tmp_path / "wrong.xlsx"), "--form", "orders", "--detach")
    assert "missing required column" in missing.stderr and "Customer" in missing.stderr
    assert counts(conn) == before

    # A scheduled job is not counted either; the run its timer starts counts it.
    book = orders_book(tmp_path / "later.xlsx", 4)
    later = cli("submit", str(book.path), "--form", "orders", "--in", "10m", "--json")
    assert later.exit_code == 0, later.stderr
    job = one_json(later.stdout)
    assert (job["status"], job["total_rows"], job["available_at"]) == ("pending", None, None)
    assert job["scheduled_timer"] is not None
    resumed = cli("resume", str(job["id"]), "--quiet")
    assert resumed.exit_code == 0, resumed.stderr
    assert_exactly_once(conn, int(job["id"]), book)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Case]]:
    folder = tmp_path_factory.mktemp("hostile")
    return folder, generate(folder)


@pytest.mark.slow
def test_the_hostile_corpus_detached(
    cli: Cli,
    conn: Connection,
    corpus: tuple[Path, list[Case]],
    monkeypatch: pytest.MonkeyPatch,
    cli_env: dict[str, str],
) -> None:
    """Every hostile file with --detach: refused files exit 2 with one line and leave the
    database as it was (whatever a foreground submit refuses, a detached one refuses too);
    the others queue one uncounted job, which a worker then imports exactly as a foreground
    submit would (same good and bad rows)."""
    folder, cases = corpus
    monkeypatch.setenv("IMPORTER_JOBS_IMPORT_MAX_ATTEMPTS", "1")  # a damaged file fails at once
    monkeypatch.setenv("IMPORTER_JOBS_IMPORT_STARTUP_DELAY_SECONDS", "0.01")
    assert cli("forms", "add", str(folder / "hostile.form.toml")).exit_code == 0
    problems: dict[str, str] = {}
    refusals: dict[str, str] = {}
    queued: dict[int, Case] = {}
    for case in cases:
        before = counts(conn)
        args = ["submit", str(folder / case.name), "--form", FORM_NAME, "--json"]
        args += ["--sheet", case.sheet] if case.sheet is not None else []
        result = cli(*args, "--detach")
        after = counts(conn)
        lines = result.stderr.strip().splitlines()
        if case.kind == "refused" or (case.kind == "refused_or_failed" and result.exit_code == 2):
            if result.exit_code != 2 or len(lines) != 1 or after != before:
                problems[case.name] = f"exit {result.exit_code}, {lines}, {before} -> {after}"
            refusals[case.name] = lines[-1] if lines else ""
            continue
        if result.exit_code != 0:
            problems[case.name] = f"exit {result.exit_code}: {lines}"
            continue
        if case.kind == "refused_or_failed":  # queued: the foreground must not refuse it either
            foreground = cli(*args, "--force", "--quiet")
            if foreground.exit_code == 2:
                problems[case.name] = f"queued, but refused in the foreground: {foreground.stderr}"
        job = one_json(result.stdout)
        if (job["status"], job["total_rows"]) != ("pending", None):
            problems[case.name] = f"queued as {job['status']} with {job['total_rows']} rows"
        queued[int(job["id"])] = case

    # Found by the safety scan, not only when a run reads the rows.
    assert "shared string 999" in refusals["sst_index_out_of_range.xlsx"], refusals
    worked = cli("worker", "--once", "--concurrency", "2")
    assert worked.exit_code == 0, worked.stdout + worked.stderr
    for job_id, case in queued.items():
        ran = conn.execute("SELECT * FROM import_jobs WHERE id = %s", (job_id,)).fetchone()
        assert ran is not None
        stored = conn.execute(
            sql.SQL("SELECT count(*) AS n FROM {} WHERE import_job_id = %s").format(
                sql.Identifier("forms", ran["form"])
            ),
            (job_id,),
        ).fetchone()
        assert stored is not None
        if case.kind != "imported":  # damage found only when the rows are read
            if ran["status"] != "failed" or stored["n"] != ran["success_rows"]:
                problems[case.name] = f"{ran['status']}, {stored['n']} rows stored"
            continue
        want = ("partially_succeeded" if case.bad else "succeeded", case.good, case.bad)
        got = (ran["status"], ran["success_rows"], ran["failed_rows"])
        if got != want or stored["n"] != case.good or ran["total_rows"] != case.good + case.bad:
            problems[case.name] = f"{got} ({ran['last_error']}), expected {want}"
    assert not problems, problems
