"""Stopping and continuing, typed as a person types it in a real terminal: what the screen says
after one Ctrl-C and after two, that the live line is what is committed, what a resume says
while it passes over the committed rows, and its summary's times."""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

import pytest

from importer.database import Connection, connect
from importer.repositories import jobs
from tests.cli.test_narrow_terminals import Screen, assert_fits
from tests.cli.test_waits import Terminal, wait_for_pause, write_rows
from tests.conftest import IMPORTER_CMD, Cli
from tests.support.jobs import add_form, killed_submit, orders_book

ROWS = 20_000
SUBMIT = [*IMPORTER_CMD, "submit", "orders.xlsx", "--form", "orders"]


def terminal_env(cli_env: dict[str, str], pause_at: str, batch: int = 500) -> dict[str, str]:
    return {
        **{k: v for k, v in cli_env.items() if k != "NO_COLOR"},
        "TERM": "xterm-256color",
        "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": str(batch),
        "IMPORTER_TEST_PAUSE_AT": pause_at,
    }


def screen(terminal: Terminal, width: int = 80) -> list[str]:
    """The terminal's lines as a person reads them once the command has ended."""
    return Screen(width).feed(terminal.output).text()


def stored(conn: Connection, job_id: int) -> tuple[int, int]:
    """(rows in the form's table, rows rejected) for the job: what its cursor must count."""
    row = conn.execute(
        "SELECT (SELECT count(DISTINCT row_number) FROM forms.orders WHERE import_job_id = %(id)s)"
        " AS rows, (SELECT count(*) FROM import_rejected_rows WHERE import_job_id = %(id)s)"
        " AS rejected",
        {"id": job_id},
    ).fetchone()
    assert row is not None
    return int(row["rows"]), int(row["rejected"])


def wait_for_a_blocked_batch(conn: Connection, timeout: float = 30) -> None:
    """Until a session of the tool waits on a lock (its batch, inside its transaction)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        row = conn.execute(
            "SELECT count(*) AS n FROM pg_stat_activity"
            " WHERE application_name = 'importer' AND wait_event_type = 'Lock'"
        ).fetchone()
        if row is not None and row["n"]:
            return
        time.sleep(0.05)
    raise AssertionError("no batch ever waited on the lock")


@pytest.mark.slow
def test_the_live_line_shows_each_batch_as_it_commits_and_the_stop_line_agrees(
    cli_env: dict[str, str], conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    write_rows(tmp_path / "orders.xlsx", ROWS)
    terminal = Terminal(SUBMIT, terminal_env(cli_env, "batch:5"))
    try:
        wait_for_pause(terminal.pid)  # batch 4 has committed (2,000 rows), batch 5 is writing
        # The line already says so: the reading thread, which used to tell it, may be busy
        # with a batch to come or wait for the writer.
        terminal.read(until="2,000/20,000", timeout=5)
        os.write(terminal.fd, b"\x03")
        os.kill(terminal.pid, signal.SIGCONT)
        terminal.read()
        code = terminal.wait()
    finally:
        terminal.close()
    assert code == 130
    job = jobs.get_job(conn, 1)
    assert job.status == "pending" and job.cursor >= 2_000
    lines = screen(terminal)
    assert_fits(lines, 80)
    last = [line for line in lines if line.startswith("job 1 ") and "stopped" in line]
    assert len(last) == 1 and f"{job.cursor:,}/20,000" in last[0], lines
    assert f"stopped: job 1 has {job.cursor:,} of 20,000 rows committed and is pending" in lines
    assert "continue with: importer resume 1" in lines


@pytest.mark.slow
def test_a_second_ctrl_c_quits_at_once_and_gives_the_job_back(
    cli_env: dict[str, str], conn: Connection, database_url: str, tmp_path: Path
) -> None:
    add_form(conn)
    write_rows(tmp_path / "orders.xlsx", ROWS)
    terminal = Terminal(SUBMIT, terminal_env(cli_env, "committed:3"))
    holder = connect(database_url)  # its transaction stays open: batch 4 waits for it
    try:
        wait_for_pause(terminal.pid)  # 1,500 rows committed
        holder.execute("LOCK TABLE forms.orders IN EXCLUSIVE MODE")
        os.kill(terminal.pid, signal.SIGCONT)
        wait_for_a_blocked_batch(conn)  # batch 4: fenced, its rows waiting for the table
        os.write(terminal.fd, b"\x03")
        terminal.read(until="Ctrl-C again quits at once")
        os.write(terminal.fd, b"\x03")  # the batch still waits: quit without it
        terminal.read()
        code = terminal.wait(timeout=15)
    finally:
        terminal.close()
        holder.rollback()
        holder.close()
    assert code == 130
    job = jobs.get_job(conn, 1)
    # Back to pending, its lease released; the batch in flight rolled back whole.
    assert (job.status, job.lease_owner, job.cursor) == ("pending", None, 1_500)
    assert sum(stored(conn, 1)) == 1_500
    lines = screen(terminal)
    assert_fits(lines, 80)
    assert lines[-2:] == [
        "stopped: job 1 has 1,500 of 20,000 rows committed and is pending",
        "continue with: importer resume 1",
    ], lines
    assert "^C" in lines[-3], lines  # the echo of the second Ctrl-C keeps its own line

    # The resume continues from there, every row once.
    resumed = Terminal([*IMPORTER_CMD, "resume", "1"], terminal_env(cli_env, ""))
    try:
        resumed.read()
        assert resumed.wait() == 0, resumed.text
    finally:
        resumed.close()
    job = jobs.get_job(conn, 1)
    assert (job.status, job.cursor, sum(stored(conn, 1))) == ("succeeded", ROWS, ROWS)


@pytest.mark.slow
def test_a_resume_says_it_skips_the_committed_rows(
    cli_env: dict[str, str], conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    write_rows(tmp_path / "orders.xlsx", ROWS)
    env = terminal_env(cli_env, "rows:5000", batch=1_000)
    job_id = killed_submit(conn, ["orders.xlsx", "--form", "orders", "--quiet"], env)
    cursor = jobs.get_job(conn, job_id).cursor
    assert 5_000 <= cursor < ROWS
    # Read from the row after the last committed one (not the sheet again), all the same.
    resumed = Terminal([*IMPORTER_CMD, "resume", str(job_id)], terminal_env(cli_env, ""))
    try:
        resumed.read()
        assert resumed.wait() == 0, resumed.text
    finally:
        resumed.close()
    assert f"skipping {cursor:,} committed rows" in resumed.text
    assert "reading the rows after" not in resumed.text  # how, is not the person's concern


def _times(lines: list[str]) -> dict[int, int]:
    """Each job's Time in the summary, in seconds."""
    found = {}
    for line in lines:
        cells = line.split()
        if cells and cells[0].isdigit() and re.fullmatch(r"\d+:\d\d", cells[-2]):
            minutes, seconds = cells[-2].split(":")
            found[int(cells[0])] = int(minutes) * 60 + int(seconds)
    return found


@pytest.mark.slow
def test_resuming_two_jobs_times_each_from_the_end_of_the_one_before(
    cli: Cli,
    cli_env: dict[str, str],
    conn: Connection,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    add_form(conn)
    for name, rows in (("first.xlsx", ROWS), ("second.xlsx", ROWS - 1)):  # not the same file
        write_rows(tmp_path / name, rows)
        assert cli("submit", name, "--form", "orders", "--detach", "--quiet").exit_code == 0
    # Many small commits: each job takes seconds, so a time counted from the command's start
    # stands out from the rounding of the shown times (whole seconds, +-0.5 each).
    monkeypatch.setenv("IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION", "25")
    began = time.monotonic()
    result = cli("resume", "1", "2")
    took = time.monotonic() - began
    assert result.exit_code == 0, result.stderr
    times = _times(result.stdout.splitlines())
    assert set(times) == {1, 2}, result.stdout
    # What the command spent on each: together, the command's time (each rounded); the second
    # counted from the command's start would make them a whole first job more.
    assert sum(times.values()) <= took + 1.0, (times, took)
    assert abs(sum(times.values()) - took) <= 1.5, (times, took)
    page = Path(__file__).resolve().parents[2] / "docs" / "reference" / "terminal.md"
    said = page.read_text(encoding="utf-8")
    assert "`Time` is what the command spent on the job: the first job's counts from the" in said


def test_resuming_one_job_says_job(
    cli: Cli, cli_env: dict[str, str], conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 12)
    assert cli("submit", str(book.path), "--detach", "--quiet").exit_code == 0
    result = cli("resume")
    assert result.exit_code == 3, result.stderr
    assert "resuming job 1\n" in result.stderr and "resuming jobs" not in result.stderr
