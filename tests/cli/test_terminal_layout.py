"""What a person sees at 80 and 120 columns: the live view, the summary, `watch`, `timers
list` and `jobs`, rendered by a fixed-width terminal console. Every line fits, no header is
cut, the job id shows, and the least important columns give way first."""

from __future__ import annotations

import io
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console, RenderableType

from importer.cli.jobs_cmd import jobs_table
from importer.cli.layout import Column, fit_widths, fitted_table, local_time, shorten
from importer.cli.progress import ECHO_ROOM, LiveView, progress_line
from importer.cli.summary import SummaryRow, summary
from importer.cli.timers_cmd import timers_table
from importer.cli.watch_view import WatchView
from importer.config import ImportSettings
from importer.daemons.watching import FleetWatch
from importer.database import Connection
from importer.intake.submission import Asked, submit_workbook
from importer.repositories import fleet, jobs, timers
from importer.repositories.rejected_rows import top_reasons
from importer.running.job_run import JobProgress, run_job
from importer.states import JobStatus, ProcessKind, ProgressPhase
from tests.support.jobs import KEYED_FORM, add_form, orders_book

LONG_NAME = "quarterly_orders_export_2024_final_v2.xlsx"
OWNER = "build-server-eu-west-1.internal:123456:0a1b2c3d"
WIDTHS = (80, 120)
HIDE_CURSOR, SHOW_CURSOR = "\x1b[?25l", "\x1b[?25h"


def console(width: int) -> Console:
    return Console(width=width, record=True, force_terminal=True, color_system="truecolor")


def render(renderable: RenderableType, width: int) -> list[str]:
    screen = console(width)
    screen.print(renderable)
    return screen.export_text().splitlines()


def assert_fits(lines: list[str], width: int) -> None:
    too_long = [line for line in lines if cell_len(line) > width]
    assert not too_long, too_long


def header_line(lines: list[str], first: str) -> str:
    return next(line for line in lines if line.lstrip().startswith(first + " "))


def assert_headers(line: str, names: list[str]) -> None:
    """Each header whole (never cut with an ellipsis), in this order."""
    assert "…" not in line, line
    positions = [line.index(name) for name in names]
    assert positions == sorted(positions), line


def event(phase: ProgressPhase, name: str = "big50k.xlsx", **kw: object) -> JobProgress:
    fields: dict[str, object] = {
        "job_id": 12345,
        "file_name": name,
        "phase": phase,
        "status": JobStatus.RUNNING,
        "total_rows": 50_000,
        "success_rows": 4_950,
        "failed_rows": 50,
        "run_rows": 5_000,
        "run_seconds": 0.22,
        "message": None,
    }
    return JobProgress(**{**fields, **kw})  # type: ignore[arg-type]


# --- the live view ------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", ["big50k.xlsx", LONG_NAME])
def test_a_live_line_keeps_the_bar_counts_rate_and_eta(width: int, name: str) -> None:
    line = progress_line(event(ProgressPhase.IMPORTING, name), width - ECHO_ROOM).plain
    assert cell_len(line) <= width - ECHO_ROOM
    assert line.startswith("job 12345 ") and "━" in line
    for part in ("5,000/50,000", "ETA 0:02", "50 rejected"):
        assert part in line, line
    if width >= 120:  # at 80 the rate gives way to the bar, the counts and the ETA
        assert "/s" in line, line
    if name == "big50k.xlsx":
        assert " big50k.xlsx " in line  # a short name is never cut
    if width >= 120:
        assert "22,727 rows/s" in line and " 10%" in line
        assert "4,950 good" in line or name == LONG_NAME  # the least needed part


@pytest.mark.parametrize("width", WIDTHS)
def test_a_wait_says_what_it_waits_for_and_for_how_long(width: int) -> None:
    # The rows passed over are the committed ones, however the run passes over them.
    skipping = event(
        ProgressPhase.SKIPPING,
        success_rows=25_740,
        failed_rows=260,
        run_rows=0,
        message="reading the rows after row 26,001 only",
    )
    line = progress_line(skipping, width - ECHO_ROOM, phase_seconds=3.4).plain
    assert "skipping 26,000 committed rows 3s" in line and "ETA" not in line
    assert "rows/s" not in line and cell_len(line) <= width - ECHO_ROOM
    done = progress_line(event(ProgressPhase.DONE), width - ECHO_ROOM, phase_seconds=3).plain
    assert "done" in done and "3s" not in done  # only waits are timed


@pytest.mark.parametrize("width", WIDTHS)
def test_every_line_of_the_live_view_leaves_room_for_the_echo_of_ctrl_c(width: int) -> None:
    view = LiveView(console(width))
    with view:
        for done in range(0, 50_001, 5_000):
            view.update(event(ProgressPhase.IMPORTING, LONG_NAME, success_rows=done))
            view.update(event(ProgressPhase.IMPORTING, job_id=7, success_rows=done // 2))
            lines = render(view.frame(), width)
            assert [line.split()[:2] for line in lines] == [["job", "12345"], ["job", "7"]]
            assert_fits(lines, width - 2)  # room for the two cells of ^C
        view.update(event(ProgressPhase.DONE, LONG_NAME, success_rows=50_000, failed_rows=0))
        assert "50,000/50,000 100%  done" in render(view.frame(), width)[0]


def test_after_ctrl_c_the_view_is_no_longer_live_and_shows_the_end_once() -> None:
    terminal = io.StringIO()
    screen = Console(file=terminal, width=80, record=True, force_terminal=True)
    view = LiveView(screen)
    view.update(event(ProgressPhase.IMPORTING))
    assert terminal.getvalue().startswith(HIDE_CURSOR)
    view.interrupt()
    # The cursor is back at once: a second Ctrl-C exits without any clean-up.
    assert terminal.getvalue().rindex(SHOW_CURSOR) > terminal.getvalue().rindex(HIDE_CURSOR)
    view.update(event(ProgressPhase.IMPORTING, success_rows=9_950))
    view.update(event(ProgressPhase.STOPPED, success_rows=9_950, message="stopped; kept"))
    view.close()
    view.close()
    lines = screen.export_text().splitlines()
    assert any("stopping at the next batch boundary" in line for line in lines)
    assert [line for line in lines if "10,000/50,000" in line] == [
        next(line for line in lines if "stopped; kept" in line)
    ]


# --- tables -------------------------------------------------------------------------------


def test_columns_are_dropped_in_their_order_and_headers_never_cut() -> None:
    columns = [
        Column("Job", right=True),
        Column("File", soft=8, least=6),
        Column("Status"),
        Column("Rows/s", right=True, drop=1),
        Column("Time", right=True, drop=2),
    ]
    rows = [["7", LONG_NAME, "succeeded", "24,000", "0:02"]]
    assert fit_widths(columns, rows, None) == [3, len(LONG_NAME), 9, 6, 4]
    assert fit_widths(columns, rows, 60) == [3, 30, 9, 6, 4]  # only the name gives way
    assert fit_widths(columns, rows, 36) == [3, 14, 9, None, 4]  # then Rows/s goes
    assert fit_widths(columns, rows, 24) == [3, 8, 9, None, None]  # then Time
    assert fit_widths(columns, rows, 22) == [3, 6, 9, None, None]  # the name to its least
    table = fitted_table(columns, rows, 22).plain.splitlines()
    assert table[0] == "Job  File    Status" and table[2] == "  7  quart…  succeeded"
    assert shorten(OWNER, 16, middle=True) == "build-s…0a1b2c3d"


def test_times_carry_their_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Europe/Paris")
    time.tzset()
    try:
        winter = datetime(2026, 1, 15, 12, 0, 5, tzinfo=UTC)
        assert local_time(winter) == "2026-01-15 13:00:05 CET"
        assert local_time(winter + timedelta(days=180), seconds=False) == "2026-07-14 14:00 CEST"
    finally:
        monkeypatch.undo()
        time.tzset()


@pytest.fixture
def finished_jobs(database_url: str, conn: Connection, tmp_path: Path) -> list[jobs.Job]:
    """Two finished jobs: a keyed one with rejected rows and a long name, a clean one."""
    add_form(conn, KEYED_FORM)
    settings = ImportSettings(rows_per_transaction=10, lease_seconds=30, max_attempts=3)
    done = []
    for name, bad_every in ((LONG_NAME, 7), ("clean.xlsx", 0)):
        book = orders_book(tmp_path / name, 30, bad_every=bad_every)
        job = submit_workbook(
            conn,
            book.path,
            Asked(form_name="ledger", claim_owner=OWNER, force=True),
            settings=settings,
        ).job
        run_job(database_url, job, OWNER, settings)
        done.append(jobs.get_job(conn, job.id))
    return done


@pytest.mark.parametrize("width", WIDTHS)
def test_the_summary_fits_and_says_what_next(
    width: int, conn: Connection, finished_jobs: list[jobs.Job]
) -> None:
    rows = [SummaryRow(job, 2.5, job.cursor, top_reasons(conn, job.id)) for job in finished_jobs]
    lines = render(summary(rows, width), width)
    assert_fits(lines, width)
    head = header_line(lines, "Job")
    essential = ["Job", "File", "Status", "Imported", "Rejected"]
    assert_headers(head, essential if width < 120 else [*essential[:3], "Rows", *essential[3:]])
    if width >= 120:
        assert_headers(head, ["Rejected", "Time", "Rows/s"])
    first, second = finished_jobs
    assert any(line.lstrip().startswith(f"{first.id}  quarterly") for line in lines)
    assert any(line.lstrip().startswith(f"{second.id}  clean.xlsx") for line in lines)
    assert f"job {first.id}: 26 imported: 26 inserted, 0 updated, 0 unchanged" in lines
    assert f"job {first.id}: 4 rows rejected:" in lines
    assert f"next: importer errors {first.id} -o rejected.xlsx" in lines
    assert not any(f"importer errors {second.id}" in line for line in lines)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_jobs_list_fits(width: int, finished_jobs: list[jobs.Job]) -> None:
    lines = render(jobs_table(finished_jobs, width), width)
    assert_fits(lines, width)
    head = header_line(lines, "Job")
    assert_headers(head, ["Job", "Status", "File", "Imported", "Rejected"])
    if width >= 120:
        assert_headers(head, ["Form", "File", "Rows", "Imported", "Rejected", "Attempts"])
        assert "Created" in head and local_time(finished_jobs[0].created_at)[-3:] in lines[2]
    assert lines[2].lstrip().startswith(f"{finished_jobs[0].id}  partially_succeeded")


@pytest.fixture
def fleet_state(conn: Connection, tmp_path: Path) -> None:
    """A running job with a long name and owner, a live process, a pending timer and a failed
    one with a long error."""
    add_form(conn)
    book = orders_book(tmp_path / LONG_NAME, 50_000 // 1000)
    settings = ImportSettings(lease_seconds=300)
    submit_workbook(
        conn, book.path, Asked(form_name="orders", claim_owner=OWNER), settings=settings
    )
    conn.execute("UPDATE import_jobs SET success_rows = 12, failed_rows = 3")
    fleet.register_process(conn, OWNER, ProcessKind.FOREGROUND)
    timers.schedule_timer(
        conn,
        kind="scheduled_import",
        target="7",
        due_at=datetime.now(UTC) + timedelta(hours=2),
        max_attempts=5,
    )
    conn.execute(
        "INSERT INTO timer_jobs (kind, target, due_at, max_attempts, status, attempts,"
        " last_error, finished_at) VALUES ('import_retry', '3', now(), 5, 'failed', 5,"
        " 'import job 3: the database went away in the middle of the batch', now())"
    )


@pytest.mark.parametrize("width", WIDTHS)
def test_watch_fits_and_keeps_the_job_id(
    width: int, database_url: str, conn: Connection, fleet_state: None
) -> None:
    view = WatchView(FleetWatch(database_url))
    snapshot = fleet.fleet_snapshot(conn)
    lines = render(view._render(snapshot, width), width)
    assert_fits(lines, width)
    assert lines[0].startswith("importer watch") and lines[0].split()[-1].isalpha()  # the zone
    assert "foreground 1" in "\n".join(lines[1:5])  # the counts wrap whole, never cut
    head = header_line(lines, "Job")
    assert_headers(head, ["Job", "File", "Progress", "Rows", "Rejected"])
    if width >= 120:
        assert_headers(head, ["Rejected", "Rows/s", "Owner"])
    job_line = lines[lines.index(head) + 2]
    assert job_line.lstrip().startswith("1  quarterly") and "15/50" in job_line
    assert "━" in job_line
    assert_headers(header_line(lines, "Owner"), ["Owner", "Kind", "Up", "Heartbeat"])
    assert_headers(header_line(lines, "Timer"), ["Timer", "Kind", "Target", "Status", "Due"])


@pytest.mark.parametrize("width", WIDTHS)
def test_timers_list_labels_every_column_and_shows_the_zone(
    width: int, conn: Connection, fleet_state: None
) -> None:
    listed = timers.list_timers(conn)
    lines = render(timers_table(listed, width), width)
    assert_fits(lines, width)
    head = header_line(lines, "Timer")
    assert_headers(head, ["Timer", "Kind", "Target", "Status", "Due"])
    if width >= 120:
        assert_headers(head, ["Due", "Attempts", "Owner / error"])
        assert "the database went away" in "\n".join(lines)
    zone = local_time(listed[0].due_at).rsplit(" ", 1)[1]
    assert sum(f" {zone}" in line for line in lines[2:]) == len(listed)


def test_a_column_shown_only_when_filled_is_left_out_in_a_pipe_too() -> None:
    columns = (Column("Job", right=True), Column("Open", right=True, when_filled=True))
    empty = fitted_table(columns, [["1", ""], ["2", ""]], None, rule=False).plain.splitlines()
    assert [line.split() for line in empty] == [["Job"], ["1"], ["2"]]
    filled = fitted_table(columns, [["1", "3"], ["2", ""]], None, rule=False).plain.splitlines()
    assert filled[0].split() == ["Job", "Open"] and filled[1].split() == ["1", "3"]
