"""What a newcomer sees at 80 and 50 columns: the live line, Ctrl-C, `errors`, `watch`,
`jobs` and the summary, drawn as a terminal draws them (its cursor moves, its wrap at the
edge), from the real rendering code or the real command in a pseudo-terminal."""

from __future__ import annotations

import io
import os
import re
import select
import struct
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console, RenderableType

from importer.cli.jobs_cmd import jobs_table
from importer.cli.layout import Column, fitted_table
from importer.cli.progress import BAR_LEAST, ECHO_ROOM, LiveView, progress_line
from importer.cli.summary import SummaryRow, summary
from importer.cli.watch_view import WatchView
from importer.config import ImportSettings
from importer.daemons.watching import FleetWatch
from importer.database import Connection
from importer.intake.submission import Asked, submit_workbook
from importer.repositories import fleet, jobs
from importer.repositories.rejected_rows import top_reasons
from importer.running.job_run import JobProgress, run_job
from importer.states import JobStatus, ProgressPhase
from tests.support.jobs import KEYED_FORM, add_form, orders_book

WIDTHS = (80, 50)
LONG_NAME = "quarterly_orders_export_2024_final_v2.xlsx"
OWNER = "build-server-eu-west-1.internal:123456:0a1b2c3d"
_CSI = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])")


class Screen:
    """The little of a terminal that rich uses: text, its wrap at the right edge, carriage
    return, line feed, cursor up and erase line (other escapes are ignored)."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.lines: list[list[str]] = [[]]
        self.row = self.col = 0
        self._wrap_next = False  # a terminal wraps when a character comes past the edge

    def feed(self, data: str) -> Screen:
        at = 0
        while at < len(data):
            escape = _CSI.match(data, at)
            if escape:
                self._control(escape.group(1), escape.group(2))
                at = escape.end()
                continue
            self._char(data[at])
            at += 1
        return self

    def _control(self, params: str, final: str) -> None:
        if final == "A":
            self.row = max(0, self.row - int(params or 1))
            self._wrap_next = False
        elif final == "K":
            self.lines[self.row] = [] if params in ("2", "") else self.lines[self.row]

    def _char(self, char: str) -> None:
        if char == "\r":
            self.col, self._wrap_next = 0, False
        elif char == "\n":
            self._down()
            self.col = 0
        elif char >= " ":
            if self._wrap_next:
                self._down()
                self.col = 0
            line = self.lines[self.row]
            line.extend(" " * (self.col - len(line)))
            if self.col < len(line):
                line[self.col] = char
            else:
                line.append(char)
            self.col += 1
            self._wrap_next = self.col >= self.width
            self.col = min(self.col, self.width - 1) if self._wrap_next else self.col

    def _down(self) -> None:
        self.row += 1
        self._wrap_next = False
        while len(self.lines) <= self.row:
            self.lines.append([])

    def text(self) -> list[str]:
        shown = ["".join(line).rstrip() for line in self.lines]
        while shown and not shown[-1]:
            shown.pop()
        return shown


def terminal_console(width: int) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=width, force_terminal=True, color_system=None), out


def on_screen(renderable: RenderableType, width: int) -> list[str]:
    """Printed as the CLI prints (soft wrap: the terminal breaks what is too long)."""
    console, out = terminal_console(width)
    console.print(renderable, soft_wrap=True)
    return Screen(width).feed(out.getvalue()).text()


def on_terminal(args: list[str], width: int, env: dict[str, str]) -> list[str]:
    """The screen after the real command ran in a pseudo-terminal ``width`` columns wide."""
    import fcntl
    import termios

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, width, 0, 0))
    child = subprocess.Popen(
        [sys.executable, "-m", "importer", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env={**env, "TERM": "xterm"},
        close_fds=True,
    )
    os.close(slave)
    chunks = []
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 60)
            if not ready:
                break
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(master)
        child.wait(timeout=60)
    # The terminal turns each line feed into a carriage return and a line feed.
    return Screen(width).feed(b"".join(chunks).decode()).text()


def assert_fits(lines: list[str], width: int) -> None:
    too_long = [line for line in lines if cell_len(line) > width]
    assert not too_long, too_long


def words_whole(lines: list[str], text: str) -> None:
    """Every word on the screen is a word of ``text``: none was broken at the edge."""
    wanted = set(text.split())
    broken = [word for line in lines for word in line.split() if word not in wanted]
    assert not broken, (broken, lines)


def event(done: int, failed: int, seconds: float, **kw: object) -> JobProgress:
    fields: dict[str, object] = {
        "job_id": 2,
        "file_name": LONG_NAME,
        "phase": ProgressPhase.IMPORTING,
        "status": JobStatus.RUNNING,
        "total_rows": 400_000,
        "success_rows": done - failed,
        "failed_rows": failed,
        "run_rows": done,
        "run_seconds": seconds,
        "message": None,
    }
    return JobProgress(**{**fields, **kw})  # type: ignore[arg-type]


# --- 1. the live line ---------------------------------------------------------------------


def _head(line: str) -> str:
    """The line up to its counts: the job, the name and the bar."""
    return line[: re.search(r"\d[\d,]*/", line[len("job 2 ") :]).start() + len("job 2 ")]  # type: ignore[union-attr]


@pytest.mark.parametrize("width", WIDTHS)
def test_a_live_lines_name_and_bar_keep_one_width_for_the_whole_run(width: int) -> None:
    # Counts from 0 to 400,000, rejected from 0 to 40,000, a rate that rises and falls.
    run = [event(0, 0, 0.0)] + [
        event(done, done // 10, done / rate)
        for done, rate in ((4_000, 17_000), (111_000, 27_000), (250_000, 9_000), (399_000, 24_000))
    ]
    lines = [progress_line(e, width - ECHO_ROOM).plain for e in run]
    assert_fits(lines, width - ECHO_ROOM)
    heads = {_head(line) for line in lines}
    assert len(heads) == 1, lines  # the name and the bar never move
    for line, e in zip(lines, run, strict=True):
        assert line.startswith("job 2") and f"{e.done_rows:,}/400,000" in line, line
        assert line.endswith(f"{e.failed_rows:,} rejected"), line
    if width == 80:
        assert heads == {"job 2 quarterly_o…  " + "━" * BAR_LEAST + "  "}, lines
        assert all("ETA" in line for line in lines[1:]), lines
    else:  # no room for a bar worth the name: none rather than a sliver
        assert heads == {"job 2  "}, lines


@pytest.mark.parametrize("width", WIDTHS)
def test_the_last_line_says_why_it_stopped_before_the_bar_and_name(width: int) -> None:
    stopped = event(
        53_000,
        5_300,
        2.0,
        phase=ProgressPhase.STOPPED,
        message="stopped; committed progress kept",
    )
    line = progress_line(stopped, width - ECHO_ROOM).plain
    assert cell_len(line) <= width - ECHO_ROOM
    assert line.startswith("job 2") and "53,000/400,000" in line and "5,300 rejected" in line
    if width == 80:
        assert "stopped; committed progress kept" in line, line
    else:
        assert "stopp" in line, line


# --- 2. Ctrl-C ----------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_after_ctrl_c_the_last_line_replaces_the_live_one(width: int) -> None:
    console, out = terminal_console(width)
    view = LiveView(console)
    view.update(event(100_000, 10_000, 4.0))
    view.update(event(132_000, 13_200, 5.0))  # the 33% a user saw
    view._live.refresh()  # type: ignore[union-attr]  # as its refresh thread would
    screen = Screen(width).feed(out.getvalue()).text()
    assert any("132,000/400,000" in line for line in screen), screen
    view.interrupt()
    view.update(event(134_000, 13_400, 5.1))
    view.update(
        event(
            134_000,
            13_400,
            5.1,
            phase=ProgressPhase.STOPPED,
            message="stopped; committed progress kept",
        )
    )
    view.close()
    screen = Screen(width).feed(out.getvalue()).text()
    job_lines = [line for line in screen if line.startswith("job 2")]
    assert len(job_lines) == 1 and "134,000/400,000" in job_lines[0], screen
    assert not any("132,000" in line for line in screen), screen  # no stale line left
    assert screen[-1] == job_lines[0]
    stopping = [line for line in screen if not line.startswith("job 2")]
    assert " ".join(stopping) == "stopping at the next batch boundary; Ctrl-C again quits at once"
    words_whole(stopping, "stopping at the next batch boundary; Ctrl-C again quits at once")
    assert_fits(screen, width)


# --- real jobs ----------------------------------------------------------------------------


@pytest.fixture
def finished(database_url: str, conn: Connection, tmp_path: Path) -> jobs.Job:
    """A finished job with a long name and 400 of its 4,000 rows rejected."""
    add_form(conn)
    settings = ImportSettings(rows_per_transaction=1000, lease_seconds=30, max_attempts=3)
    book = orders_book(tmp_path / LONG_NAME, 4_000, bad_every=10)
    job = submit_workbook(
        conn, book.path, Asked(form_name="orders", claim_owner=OWNER, force=True), settings=settings
    ).job
    run_job(database_url, job, OWNER, settings)
    return jobs.get_job(conn, job.id)


# --- 3. the `errors` footer ---------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_the_errors_footer_wraps_at_words(
    width: int, finished: jobs.Job, cli_env: dict[str, str]
) -> None:
    screen = on_terminal(["errors", str(finished.id), "--limit", "3"], width, cli_env)
    assert_fits(screen, width)
    at = next(i for i, line in enumerate(screen) if line.startswith("the first 3 of 400"))
    said = "the first 3 of 400 rejected rows; all of them, with every value, to fix and resubmit:"
    footer = screen[at:]
    assert " ".join(footer[:-1]) == said, screen
    words_whole(footer[:-1], said)
    assert footer[-1] == f"  importer errors {finished.id} -o rejected.xlsx"
    assert any(line.startswith("Row") and "Problem" in line for line in screen)


def test_in_a_pipe_the_errors_footer_keeps_its_lines_whole(finished: jobs.Job, cli: object) -> None:
    result = cli("errors", str(finished.id), "--limit", "3")  # type: ignore[operator]
    assert result.stdout.splitlines()[-2:] == [
        "the first 3 of 400 rejected rows; all of them, with every value, to fix and resubmit:",
        f"  importer errors {finished.id} -o rejected.xlsx",
    ]


# --- 4. the `watch` title -----------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_watch_keeps_its_clock_and_shortens_the_database(
    width: int, database_url: str, conn: Connection, finished: jobs.Job
) -> None:
    view = WatchView(FleetWatch(database_url))
    snapshot = fleet.fleet_snapshot(conn)
    screen = on_screen(view._render(snapshot, width - 2), width)
    title = screen[0]
    assert cell_len(title) <= width - 2
    clock = re.search(r"  (\d\d:\d\d:\d\d \S+)$", title)
    assert clock is not None, title  # whole, with its zone
    assert title.startswith("importer watch  ")
    target = view.target
    room = width - 2 - len("importer watch  ") - len(clock.group(0))
    if cell_len(target) <= room:  # the machine's server at 80 columns: whole
        assert target in title
    else:  # its host's start and its database's end (an embedded server's socket path)
        shown = title[len("importer watch  ") : clock.start()]
        assert "…" in shown and target.startswith(shown.split("…")[0]), title
        assert target.endswith(shown.split("…")[1]), title


# --- 5. `jobs` ----------------------------------------------------------------------------


def _header(lines: list[str]) -> list[str]:
    head = next(line for line in lines if line.lstrip().startswith("Job "))
    assert "…" not in head, head
    return head.split()


@pytest.mark.parametrize("width", WIDTHS)
def test_jobs_drops_empty_columns_first_and_brings_back_what_fits(
    width: int, conn: Connection, finished: jobs.Job, tmp_path: Path
) -> None:
    # A second job left queued: its rows are not counted yet ("?").
    queued_book = orders_book(tmp_path / "queued.xlsx", 10)
    submit_workbook(conn, queued_book.path, Asked(form_name="orders"), settings=ImportSettings())
    listed = jobs.list_jobs(conn)
    lines = on_screen(jobs_table(listed, width), width)
    assert_fits(lines, width)
    head = _header(lines)
    assert head[:3] == ["Job", "Status", "Form"] or head[:2] == ["Job", "Status"]
    if width == 80:
        # The file name gives way, and the columns that then fit come back: Rows first.
        assert head == ["Job", "Status", "File", "Rows", "Imported", "Rejected", "Attempts"]
        assert lines[2].lstrip().startswith(f"{finished.id}  partially_succeeded  quarterly_")
        assert "4,000" in lines[2] and "3,600" in lines[2] and "1/3" in lines[2]
    else:  # the rightmost goes whole rather than every header cut
        assert head == ["Job", "Status", "File", "Imported"], lines
    # Every row queued and uncounted: an empty Rows column is the first to go.
    queued = [job for job in listed if job.total_rows is None]
    assert len(queued) == 1
    lines = on_screen(jobs_table(queued, width), width)
    assert_fits(lines, width)
    assert "Rows" not in _header(lines), lines


@pytest.mark.parametrize("width", WIDTHS)
def test_a_column_empty_in_every_row_goes_before_any_other(width: int) -> None:
    columns = [
        Column("Job", right=True),
        Column("Status"),
        Column("Owner", soft=12),
        Column("File", soft=16, least=8),
        Column("Rows", right=True, drop=2),
        Column("Created", drop=1),
    ]
    created = datetime(2026, 1, 15, 12, 0, tzinfo=UTC).strftime("%Y-%m-%d %H:%M UTC")
    rows = [[str(n), "succeeded", "", LONG_NAME, "24,000", created] for n in (7, 8)]
    lines = on_screen(fitted_table(columns, rows, width), width)
    head = _header(lines)
    assert "Owner" not in head, lines
    assert_fits(lines, width)
    if width == 80:
        assert head == ["Job", "Status", "File", "Rows", "Created"], lines


# --- 6. the summary -----------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_the_summary_drops_whole_columns_never_cuts_a_header(
    width: int, conn: Connection, finished: jobs.Job
) -> None:
    lines = on_screen(summary([SummaryRow(finished, 2.5, finished.cursor)], width), width)
    assert_fits(lines, width)
    head = _header(lines)
    known = {"Job", "File", "Status", "Rows", "Imported", "Rejected", "Time", "Rows/s"}
    assert set(head) <= known and head[0] == "Job", lines
    # The name is shortened first; it goes (the job's id says which) only where even 8 cells
    # of it leave no room for the status.
    assert head[1] == "File" or width == 50, lines
    row = lines[lines.index(next(line for line in lines if line.startswith("Job "))) + 2]
    assert not row.endswith("…"), lines  # no cell cut at the end
    assert "Imported" in head and "Rejected" in head  # what the job did stays
    assert "Status" in head, lines  # how it ended stays too
    if width == 80:
        assert head == ["Job", "File", "Status", "Rows", "Imported", "Rejected", "Time"], lines


@pytest.mark.parametrize("width", WIDTHS)
def test_a_submit_keeps_its_status_and_breaks_no_word(
    width: int, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn, KEYED_FORM)
    book = orders_book(tmp_path / LONG_NAME, 30, bad_every=7)
    screen = on_terminal(["submit", str(book.path)], width, cli_env)
    assert_fits(screen, width)
    head = _header(screen)
    assert "Status" in head and "Imported" in head and "Rejected" in head, screen
    row = screen[screen.index(next(line for line in screen if line.startswith("Job "))) + 2]
    assert "partially_succeeded" in row.split(), screen
    if "File" in head:  # the name is shortened first
        assert "quarterly" in row, screen
    # After the table, every line wrapped at words (the keyed counts, the reasons, next).
    job = jobs.get_job(conn, 1)
    reasons = top_reasons(conn, 1)
    whole = on_screen(summary([SummaryRow(job, 1.0, job.cursor, reasons)], None), 1000)
    after = screen[screen.index(next(line for line in screen if line.startswith("job 1:"))) :]
    words_whole(after, " ".join(whole))
    said = " ".join(after)
    assert "job 1: 26 imported: 26 inserted, 0 updated, 0 unchanged" in said, screen


def test_a_long_process_id_is_wrapped_at_words(
    conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 10)
    job = submit_workbook(conn, book.path, Asked(form_name="orders"), settings=ImportSettings()).job
    jobs.claim_jobs(conn, owner=OWNER, limit=1, lease_seconds=600, job_ids=[job.id])
    screen = on_terminal(["resume"], 80, cli_env)
    assert_fits(screen, 80)
    words = [word for line in screen for word in line.split()]
    # "job 1 is being run by <OWNER> (lease expires in 9m 59s); left to it"
    assert OWNER in words and "expires" in words, screen
    assert "nothing to resume" in screen, screen


@pytest.mark.parametrize("width", [80, 50])
def test_an_error_at_a_terminal_wraps_at_words(
    width: int, cli_env: dict[str, str], tmp_path: Path
) -> None:
    missing = "no such folder/orders of the whole year, as sent by the branch office.xlsx"
    screen = on_terminal(["submit", missing], width, cli_env)  # in tmp_path (cli_env)
    said = [line for line in screen if line.strip()]
    assert said and said[0].startswith("error: ")
    assert_fits(said, width)
    text = " ".join(said)
    words_whole(said, text.replace("\n", " "))
    assert "branch office.xlsx: file not found" in text  # the words, none cut at the edge


@pytest.mark.parametrize("width", [80, 50])
def test_status_wraps_each_line_at_words_under_its_value(
    width: int, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / LONG_NAME, 30, bad_every=7)
    submitted = subprocess.run(
        [sys.executable, "-m", "importer", "submit", str(book.path), "-q"], env=cli_env
    )
    assert submitted.returncode == 3
    screen = [line for line in on_terminal(["status", "1"], width, cli_env) if line.strip()]
    assert_fits(screen, width)
    piped = subprocess.run(
        [sys.executable, "-m", "importer", "status", "1"],
        env=cli_env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()  # in a pipe: a line each, whole
    assert piped[0].startswith("job 1: ") and len(piped[0]) > 50
    words_whole(screen, " ".join(piped))
    # A value's next line starts under the value, not under the label.
    created = next(i for i, line in enumerate(screen) if line.startswith("  created:   "))
    if width == 50:  # "  created:   2026-12-05 18:06:01 UTC by root (command line, OS user)"
        assert screen[created + 1].startswith(" " * 13) and screen[created + 1][13] != " "


@pytest.mark.parametrize("command", ["check", "stats"])
def test_check_and_stats_wrap_at_words_at_50_columns(
    command: str, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / LONG_NAME, 30, bad_every=7)
    del book  # in tmp_path, the commands' folder: its name, not a path longer than a line
    args = ["check", LONG_NAME] if command == "check" else ["stats"]
    screen = [line for line in on_terminal(args, 50, cli_env) if line.strip()]
    assert_fits(screen, 50)
    piped = subprocess.run(
        [sys.executable, "-m", "importer", *args], env=cli_env, capture_output=True, text=True
    )
    assert max(len(line) for line in piped.stdout.splitlines()) > 50, piped.stdout
    words_whole(screen, piped.stdout + piped.stderr)
