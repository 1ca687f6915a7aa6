"""No silent waits: a submit says what it reads before its job exists, a resume says it skips
the committed rows and rates only the rows it imports itself, and in a real terminal the view
appears at once and ends cleanly on Ctrl-C."""

from __future__ import annotations

import contextlib
import fcntl
import io
import os
import pty
import re
import select
import signal
import struct
import termios
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import xlsxwriter
from rich.cells import cell_len
from rich.console import Console

import importer.columnar.sheet as columnar_sheet
from bench.workbooks import FORM, _write
from importer.api import Importer, RunEvents, SubmitRequest
from importer.cli.progress import PlainView
from importer.columnar import SWITCH
from importer.config import ImportSettings
from importer.database import Connection
from importer.intake.submission import Asked, ReadingProgress, submit_workbook
from importer.repositories import jobs
from importer.running.job_run import JobProgress, run_job
from importer.states import ProgressPhase
from tests.conftest import IMPORTER_CMD
from tests.support.jobs import add_form, orders_book

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _recorded(
    conn: Connection,
) -> tuple[list[tuple[ReadingProgress, int]], Callable[[ReadingProgress], None]]:
    """Each reading event, with how many jobs existed when it came."""
    seen: list[tuple[ReadingProgress, int]] = []

    def on_progress(event: ReadingProgress) -> None:
        jobs_now = conn.execute("SELECT count(*) AS n FROM import_jobs").fetchone()
        assert jobs_now is not None
        seen.append((event, jobs_now["n"]))

    return seen, on_progress


def test_a_submit_says_what_it_reads_before_its_job_exists(
    database_url: str, conn: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SWITCH, "0")  # the row path's events (the columnar path's: below)
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 40)
    seen, on_progress = _recorded(conn)
    outcome = Importer(database_url).submit_workbook(
        SubmitRequest(book.path, form="orders"), RunEvents(on_reading=on_progress)
    )
    assert outcome.submission.created
    size = book.path.stat().st_size
    assert [(e.phase, e.size_bytes, e.sheet, n) for e, n in seen] == [
        (ProgressPhase.OPENING, size, None, 0),
        (ProgressPhase.COUNTING, size, "Orders", 0),
    ]


def test_a_big_sheet_read_as_columns_says_how_far_its_reading_has_come(
    database_url: str, conn: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    add_form(conn, FORM)
    path = tmp_path / "orders.xlsx"
    _write(path, 3_000, 0.0, 0.0)  # ~1 MB of sheet XML
    monkeypatch.setenv(SWITCH, "1")
    monkeypatch.setattr(columnar_sheet, "PIECE_BYTES", 64 << 10)  # ~16 pieces
    seen, on_progress = _recorded(conn)
    outcome = Importer(database_url).submit_workbook(
        SubmitRequest(path, form="bench_orders"), RunEvents(on_reading=on_progress)
    )
    assert outcome.submission.created
    fractions = [e.fraction for e, _ in seen if e.fraction is not None]
    assert len(fractions) >= 10 and fractions == sorted(set(fractions))
    assert 0 < fractions[0] < 0.2 and 0.99 < fractions[-1] <= 1
    assert all(e.phase is ProgressPhase.OPENING and e.sheet == "Orders" for e, _ in seen[1:-1])
    assert {n for _, n in seen} == {0}  # all before the job exists

    # Shown as a percentage; a log hears it at most every ``interval`` seconds, not per piece.
    printed = []
    for interval in (0, 60):
        out = io.StringIO()
        view = PlainView(Console(file=out, width=200, color_system=None), interval=interval)
        for event, _ in seen:
            view.reading(event)
        printed.append(out.getvalue().splitlines())
    every, throttled = printed
    assert len(every) == len(seen) and len(throttled) == 2  # the start and the rows' count
    assert every[1] == f"orders.xlsx: reading sheet Orders: {int(fractions[0] * 100)}%…"


def write_rows(path: Path, count: int) -> None:
    book = xlsxwriter.Workbook(str(path), {"constant_memory": True})
    sheet = book.add_worksheet("Orders")
    sheet.write_row(0, 0, ["Order ID", "Customer", "Amount"])
    for row in range(1, count + 1):
        sheet.write_row(row, 0, [row, f"customer {row}", row % 97])
    book.close()


@pytest.mark.slow
def test_a_resume_says_it_skips_and_rates_only_its_own_rows(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    write_rows(tmp_path / "orders.xlsx", 8000)
    first_settings = ImportSettings(rows_per_transaction=1000, lease_seconds=30)
    job = submit_workbook(
        conn,
        tmp_path / "orders.xlsx",
        Asked(form_name="orders", claim_owner="me:1:a", engine="openpyxl"),
        settings=first_settings,
    ).job
    stop = threading.Event()

    def stop_at_3000(event: JobProgress) -> None:
        if event.done_rows >= 3000:
            stop.set()

    # Batches commit while the next is read, so a batch or two more may commit.
    run_job(database_url, job, "me:1:a", first_settings, on_progress=stop_at_3000, stop=stop)
    cursor = jobs.get_job(conn, job.id).cursor
    assert 3000 <= cursor < 8000

    events: list[tuple[float, JobProgress]] = []
    claimed = jobs.claim_jobs(conn, owner="me:2:b", limit=1, lease_seconds=30)
    settings = ImportSettings(rows_per_transaction=20, lease_seconds=30)
    run_job(
        database_url,
        claimed[0],
        "me:2:b",
        settings,
        on_progress=lambda event: events.append((time.monotonic(), event)),
    )
    phases = [event.phase for _, event in events]
    skipping = phases.index(ProgressPhase.SKIPPING)
    assert events[skipping][1].message == f"skipping {cursor:,} committed rows"
    assert ProgressPhase.IMPORTING not in phases[:skipping]
    skipped_at = events[skipping][0]
    rated_at, rated = next((t, e) for t, e in events if e.rows_per_second is not None)
    # The rate counts from this run's first own row: the time spent passing over the
    # committed ones is left out (it is most of the time before the first commit).
    assert rated.run_rows == 20
    assert rated.run_seconds < 0.5 * (rated_at - skipped_at)


def run_in_terminal(
    args: list[str], env: dict[str, str], columns: int, lines: int
) -> tuple[int, int]:
    """Start the command in a pseudo-terminal of this size: (pid, the terminal's fd)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: its own terminal, as a person's shell would give it
        os.execvpe(args[0], args, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
    return pid, fd


class Terminal:
    """What a command wrote to its terminal, with when (seconds since it started)."""

    def __init__(self, args: list[str], env: dict[str, str], columns: int = 80) -> None:
        self.started = time.monotonic()
        self.pid, self.fd = run_in_terminal(args, env, columns, 24)
        self.chunks: list[tuple[float, bytes]] = []
        self.code: int | None = None

    @property
    def output(self) -> str:
        return b"".join(chunk for _, chunk in self.chunks).decode(errors="replace")

    @property
    def text(self) -> str:
        """The output without its escape sequences (colours, cursor moves)."""
        return ANSI.sub("", self.output)

    def first(self, text: str) -> float:
        """When ``text`` had been written (it may span chunks)."""
        seen = b""
        for at, chunk in self.chunks:
            seen += chunk
            if text in ANSI.sub("", seen.decode(errors="replace")):
                return at
        raise AssertionError(f"{text!r} not written")

    def read(self, until: str | None = None, timeout: float = 60) -> None:
        """Read until ``until`` is written, or (None) until the command closes its terminal."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if until is not None and until in self.text:
                return
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self.fd, 65536)
            except OSError:  # EIO: the command has exited
                data = b""
            if not data:
                if until is None:
                    return
                raise AssertionError(f"{until!r} never written: {self.output!r}")
            self.chunks.append((time.monotonic() - self.started, data))
        raise AssertionError(f"timed out waiting for {until!r}: {self.output!r}")

    def wait(self, timeout: float = 60) -> int:
        """The command's exit code, once it has ended."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.code = os.waitstatus_to_exitcode(status)
                return self.code
            time.sleep(0.02)
        raise AssertionError("the command did not end")

    def close(self) -> None:
        """Release the terminal; a command still running (a failed test) is killed."""
        if self.code is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


def wait_for_pause(pid: int, timeout: float = 60) -> None:
    """Until every thread of the process is stopped (it reached its pause point)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        states = []
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                states.append((task / "stat").read_text().rsplit(")", 1)[1].split()[0])
            except (OSError, IndexError):
                continue
        if states and all(state in ("T", "t") for state in states):
            return
        time.sleep(0.02)
    raise AssertionError("the command never reached its pause point")


def screen_lines(output: str) -> list[str]:
    """Each line as last drawn: its text after its last carriage return, without escapes."""
    return [ANSI.sub("", line.split("\r")[-1]) for line in output.split("\r\n")]


@pytest.mark.slow
def test_in_a_terminal_the_view_shows_at_once_and_ends_cleanly_on_ctrl_c(
    cli_env: dict[str, str], conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    write_rows(tmp_path / "orders.xlsx", 20_000)
    env = {
        **{k: v for k, v in cli_env.items() if k != "NO_COLOR"},
        "TERM": "xterm-256color",
        "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "500",
        "IMPORTER_TEST_PAUSE_AT": "committed:4",
    }
    command = [*IMPORTER_CMD, "submit", "orders.xlsx", "--form", "orders", "--engine", "openpyxl"]
    terminal = Terminal(command, env)
    try:
        terminal.read(until="job 1 ")
        reading_at, job_at = terminal.first("reading workbook"), terminal.first("job 1 ")
        print(f"reading line after {reading_at:.2f} s, the job's line after {job_at:.2f} s")
        # Counting 20,000 rows with openpyxl takes a while: the reading line comes first.
        assert reading_at < job_at and reading_at < 2.0
        assert "orders.xlsx: " in terminal.text

        wait_for_pause(terminal.pid)  # batch 4 just committed
        os.write(terminal.fd, b"\x03")  # Ctrl-C as typed: ^C is echoed and SIGINT queued
        os.kill(terminal.pid, signal.SIGCONT)
        terminal.read()
        code = terminal.wait()
    finally:
        terminal.close()
    assert code == 130
    output = terminal.output
    echoed = output.index("^C")
    # The line ^C was echoed on had room for it (a full line would wrap it onto the next
    # one, and the redraw would leave the old line stale on screen).
    assert cell_len(ANSI.sub("", output[:echoed].split("\r")[-1])) + 2 <= 80
    after = output[echoed:]
    # The live display ends at once: the cursor is shown again before anything else.
    assert after.index("\x1b[?25h") < after.index("stopping at the next batch boundary")
    drawn = screen_lines(output)
    assert all(cell_len(line) <= 80 for line in drawn), [s for s in drawn if cell_len(s) > 80]
    progress = [line for line in drawn if line.startswith("job 1 ") and "rejected" in line]
    assert len(progress) == 2 and "stopped" in progress[1], progress
    assert "Import summary" in output and "continue with: importer resume 1" in output
