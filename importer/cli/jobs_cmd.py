"""`importer submit | resume | status | jobs | errors | cancel | retry`.

Exit codes: 0 succeeded; 3 finished with rejected rows; 1 the job failed (or was cancelled)
or a runtime error; 2 bad usage or an input refused before any job; 128+N stopped by signal N
(the job is back to pending and `importer resume` continues it).
"""

from __future__ import annotations

import json
import re
import sys
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.table import Table

from importer import jobs
from importer.cli.output import is_terminal, stderr_console, stdout_console
from importer.cli.state import state
from importer.config import ENGINES
from importer.db import translated
from importer.errors import JobFailed, UsageError
from importer.identity import new_owner
from importer.jobs import Job
from importer.process_loop import graceful_signals
from importer.progress import (
    ProgressView,
    SummaryRow,
    format_count,
    make_view,
    plain_table,
    summary_table,
)
from importer.runner import ForegroundRunner, RunResult

if TYPE_CHECKING:
    from importer.excel.base import SheetReader

_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*([smhd])", re.IGNORECASE)
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def exit_code_for(job: Job) -> int:
    if job.status == "succeeded":
        return 0
    if job.status == "partially_succeeded":
        return 3
    if job.status in ("failed", "cancelled"):
        return 1
    return 0  # pending / running: nothing went wrong (yet)


def parse_delay(text: str) -> timedelta:
    """'10m', '90s', '1h30m', '2d' -> a positive duration."""
    compact = text.strip().replace(" ", "")
    parts = _DURATION.findall(compact)
    if not parts or "".join(f"{n}{u}" for n, u in parts).lower() != compact.lower():
        raise UsageError(f"--in {text!r}: use a duration such as 90s, 10m, 1h30m or 2d")
    seconds = sum(float(n) * _UNIT_SECONDS[u.lower()] for n, u in parts)
    if seconds <= 0:
        raise UsageError(f"--in {text!r}: the delay must be positive")
    return timedelta(seconds=seconds)


def parse_at(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(f"--at {text!r}: use ISO 8601, e.g. 2030-01-31T22:00 or +01:00") from None
    return moment if moment.tzinfo else moment.astimezone()  # naive: this machine's time zone


def _print_json(console: Console, job: Job, **extra: object) -> None:
    console.out(json.dumps({**job.to_json(), **extra}), highlight=False)


def _consoles(as_json: bool) -> tuple[Console, bool]:
    """Where progress goes: stdout normally; stderr when stdout carries JSON."""
    if as_json:
        return stderr_console(), sys.stderr.isatty()
    return stdout_console(), is_terminal()


class _Foreground:
    """A foreground run: the live view, signals, the final summary and exit code."""

    def __init__(self, ctx: typer.Context, *, as_json: bool, quiet: bool) -> None:
        app_state = state(ctx)
        self.database = app_state.db()
        self.settings = app_state.settings()
        self.as_json = as_json
        self.quiet = quiet
        self.owner = new_owner()
        self.stop = threading.Event()
        self.signal = 0
        console, live = _consoles(as_json)
        self.console = console
        # With --json on a pipe, stdout is for the JSON and stderr stays for errors.
        silent = quiet or (as_json and not live)
        self.view: ProgressView = make_view(console, quiet=silent, live=live)
        self.results: list[RunResult] = []

    def note(self, text: str) -> None:
        if not self.quiet:
            self.view.note(text)

    def runner(self) -> ForegroundRunner:
        return ForegroundRunner(
            self.database.url,
            self.settings.import_,
            self.owner,
            stop=self.stop,
            on_progress=self.view.update,
            on_note=self.note,
        )

    def run(
        self,
        job_ids: list[int],
        first_claimed: Job | None = None,
        eager: bool = True,
        reader: SheetReader | None = None,
    ) -> None:
        def on_signal(signum: int) -> None:
            self.signal = signum

        # One registration in `workers` for all the jobs of this command.
        with graceful_signals(self.stop, on_signal), self.view, self.runner() as runner:
            for job_id in job_ids:
                first = first_claimed is not None and first_claimed.id == job_id
                result = runner.drive(
                    job_id,
                    claimed=first_claimed if first else None,
                    eager=eager,
                    reader=reader if first else None,
                )
                self.results.append(result)
                if self.stop.is_set():
                    break
        self.finish()

    def finish(self) -> None:
        out = stdout_console()
        if self.as_json:
            for result in self.results:
                _print_json(out, result.job)
        elif not self.quiet and self.results:
            rows = [SummaryRow(r.job, r.run_seconds, r.run_rows) for r in self.results]
            out.print(summary_table(rows, rich=is_terminal()), markup=False)
        err = stderr_console()
        for result in self.results:
            job = result.job
            if result.interrupted and not job.terminal:
                err.print(
                    f"stopped: job {job.id} has {job.cursor:,} of {format_count(job.total_rows)}"
                    f" rows committed and is {job.status}; continue with: importer resume {job.id}",
                    markup=False,
                )
        if self.signal:
            raise typer.Exit(128 + self.signal)
        codes = [exit_code_for(r.job) for r in self.results]
        failed = [r.job for r in self.results if r.job.status in ("failed", "cancelled")]
        if failed:
            job = failed[0]
            why = f": {job.last_error}" if job.status == "failed" and job.last_error else ""
            raise JobFailed(f"import job {job.id} {job.status}{why}")
        if 3 in codes:
            raise typer.Exit(3)


def submit_command(
    ctx: typer.Context,
    file: Path = typer.Argument(..., help="The workbook (.xlsx, .xlsm, .xls, .xlsb, .ods)."),
    form: str = typer.Option(..., "--form", "-f", help="The form the rows must fit."),
    sheet: str | None = typer.Option(None, "--sheet", help="Sheet name (default: the first)."),
    engine: str | None = typer.Option(
        None, "--engine", help="auto | calamine (fast) | openpyxl (streaming, constant memory)."
    ),
    detach: bool = typer.Option(False, "--detach", help="Queue the job for workers and return."),
    at: str | None = typer.Option(None, "--at", help="Start at this time (ISO 8601)."),
    in_: str | None = typer.Option(None, "--in", help="Start after this delay (10m, 2h)."),
    force: bool = typer.Option(False, "--force", help="Import again even if already imported."),
    as_json: bool = typer.Option(False, "--json", help="Print the job as JSON."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress output."),
) -> None:
    """Check a workbook against a form, store it and import it (in the foreground by default)."""
    from importer.submission import submit_workbook

    if engine is not None and engine not in ENGINES:
        raise UsageError(f"--engine {engine!r}: use one of {', '.join(ENGINES)}")
    if at is not None and in_ is not None:
        raise UsageError("use either --at or --in, not both")
    due_at = parse_at(at) if at else (datetime.now(UTC) + parse_delay(in_) if in_ else None)
    run = _Foreground(ctx, as_json=as_json, quiet=quiet)
    settings = run.settings
    foreground = not detach and due_at is None
    with run.database.connect(autocommit=True) as conn, translated(run.database.url):
        submission = submit_workbook(
            conn,
            file,
            form_name=form,
            settings=settings.import_,
            sheet=sheet,
            engine=engine or settings.reader.engine,
            memory_budget_mb=settings.reader.memory_budget_mb,
            force=force,
            claim_owner=run.owner if foreground else None,
            due_at=due_at,
            timer_max_attempts=settings.timer.max_attempts,
            keep_reader=foreground,
        )
    job = submission.job
    err = stderr_console()
    if submission.extra_columns and not quiet:
        err.print(f"note: ignoring columns {', '.join(submission.extra_columns)}", markup=False)
    if not submission.created:
        err.print(
            f"{file.name} was already submitted for form {job.form} as job {job.id}"
            f" ({job.status}); use --force to import it again",
            markup=False,
        )
        if job.terminal or not foreground:
            _report_existing(job, as_json)
            return
        run.note(f"continuing job {job.id}")
        run.run([job.id], eager=True)
        return
    if not foreground:
        if as_json:
            _print_json(stdout_console(), job, scheduled_timer=submission.scheduled_timer)
        elif due_at is not None:
            stdout_console().print(
                f"job {job.id} scheduled for {due_at.astimezone():%Y-%m-%d %H:%M:%S %Z}"
                f"{_rows_note(job)}; a running `importer timers` starts it",
                markup=False,
            )
        else:
            stdout_console().print(
                f"job {job.id} queued{_rows_note(job)}; workers will run it"
                f" (follow it with: importer status {job.id})",
                markup=False,
            )
        return
    run.run(
        [job.id],
        first_claimed=job if job.status == "running" else None,
        reader=submission.reader,
    )


def _rows_note(job: Job) -> str:
    # A job queued for others is counted by the run that reads its rows.
    return "" if job.total_rows is None else f" ({job.total_rows:,} rows)"


def _report_existing(job: Job, as_json: bool) -> None:
    if as_json:
        _print_json(stdout_console(), job, already_submitted=True)
    else:
        stdout_console().print(_status_lines(job), markup=False)
    if job.status == "failed":
        raise JobFailed(f"import job {job.id} failed: {job.last_error or 'unknown error'}")
    if job.status == "cancelled":
        raise JobFailed(f"import job {job.id} was cancelled")
    code = exit_code_for(job)
    if code:
        raise typer.Exit(code)


def resume_command(
    ctx: typer.Context,
    job_ids: list[int] | None = typer.Argument(None, help="Jobs to continue."),
    all_jobs: bool = typer.Option(False, "--all", help="Every pending or abandoned job."),
    as_json: bool = typer.Option(False, "--json", help="Print each job as JSON at the end."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress output."),
) -> None:
    """Continue jobs from their committed row (taking over jobs whose process is gone)."""
    if not job_ids and not all_jobs:
        raise UsageError("name the jobs to resume (importer resume 12 13) or use --all")
    run = _Foreground(ctx, as_json=as_json, quiet=quiet)
    with run.database.connect(autocommit=True) as conn, translated(run.database.url):
        if all_jobs:
            ids = [j.id for j in jobs.resumable_jobs(conn)]
            ids += [i for i in job_ids or [] if i not in ids]
        else:
            ids = list(dict.fromkeys(job_ids or []))
            for job_id in ids:
                jobs.get_job(conn, job_id)  # unknown id: exit 2 before anything runs
    if not ids:
        if not quiet:
            stdout_console().print("nothing to resume")
        return
    run.run(ids, eager=True)


def _status_lines(job: Job) -> str:
    def when(moment: datetime | None) -> str:
        return moment.astimezone().strftime("%Y-%m-%d %H:%M:%S") if moment else "-"

    # A queued job's rows are counted by the run that reads them.
    total = "not counted yet" if job.total_rows is None else f"{job.total_rows:,} total"
    lines = [
        f"job {job.id}: {job.file_name} -> form {job.form} (version {job.form_version}),"
        f" sheet {job.sheet or '-'}, engine {job.engine}",
        f"  status:    {job.status}" + (" (cancel requested)" if job.cancel_requested else ""),
        f"  rows:      {total}, {job.success_rows:,} imported, {job.failed_rows:,} rejected",
        f"  attempts:  {job.attempts} of {job.max_attempts}",
        f"  created:   {when(job.created_at)}   started: {when(job.started_at)}"
        f"   finished: {when(job.finished_at)}",
    ]
    if job.status == "running":
        lines.append(f"  lease:     {job.lease_owner} until {when(job.lease_expires_at)}")
    if job.status == "pending":
        lines.append(
            f"  available: {when(job.available_at)}" if job.available_at else "  waits on a timer"
        )
    if job.last_error:
        lines.append(f"  error:     {job.last_error}")
    if job.failed_rows:
        lines.append(f"  rejected rows: importer errors {job.id} -o errors.xlsx")
    return "\n".join(lines)


def status_command(
    ctx: typer.Context,
    job_id: int = typer.Argument(..., help="The job."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object."),
) -> None:
    """Show one job: status, rows, attempts, lease, last error."""
    database = state(ctx).db()
    with database.connect(autocommit=True) as conn, translated(database.url):
        job = jobs.get_job(conn, job_id)
    if as_json:
        _print_json(stdout_console(), job)
    else:
        stdout_console().print(_status_lines(job), markup=False)


def jobs_command(
    ctx: typer.Context,
    status: list[str] | None = typer.Option(None, "--status", "-s", help="Only this status."),
    limit: int = typer.Option(100, "--limit", min=1, help="At most this many (newest)."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per line."),
) -> None:
    """List import jobs (newest last)."""
    wanted = [s.strip() for item in status or [] for s in item.split(",") if s.strip()]
    unknown = [s for s in wanted if s not in jobs.STATUSES]
    if unknown:
        raise UsageError(f"--status {unknown[0]!r}: use one of {', '.join(jobs.STATUSES)}")
    database = state(ctx).db()
    with database.connect(autocommit=True) as conn, translated(database.url):
        found = jobs.list_jobs(conn, statuses=wanted or None, limit=limit)
    out = stdout_console()
    if as_json:
        for job in found:
            _print_json(out, job)
        return
    if not found:
        out.print("no import jobs" + (f" with status {', '.join(wanted)}" if wanted else ""))
        return
    headers = ("Job", "Status", "Form", "File", "Rows", "Imported", "Rejected", "Attempts")
    cells = [
        [
            str(job.id),
            job.status,
            job.form,
            job.file_name,
            format_count(job.total_rows),
            format_count(job.success_rows),
            format_count(job.failed_rows),
            f"{job.attempts}/{job.max_attempts}",
            job.created_at.astimezone().strftime("%Y-%m-%d %H:%M"),
        ]
        for job in found
    ]
    right = {0, 4, 5, 6, 7}
    if not is_terminal():
        out.print(plain_table([*headers, "Created"], cells, right), markup=False)
        return
    table = Table()
    for index, name in enumerate((*headers, "Created")):
        table.add_column(name, justify="right" if index in right else "left", no_wrap=True)
    for row in cells:
        table.add_row(*row)
    out.print(table)


def errors_command(
    ctx: typer.Context,
    job_id: int = typer.Argument(..., help="The job."),
    output: Path = typer.Option(..., "--output", "-o", help="errors.xlsx or errors.csv"),
) -> None:
    """Write the job's rejected rows (original values + reasons) to a file to fix and resend."""
    from importer.report import export_rejected_rows

    database = state(ctx).db()
    with database.connect(autocommit=True) as conn, translated(database.url):
        summary = export_rejected_rows(conn, job_id, output)
    stdout_console().print(f"wrote {summary.rows:,} rejected rows to {summary.path}", markup=False)


def cancel_command(ctx: typer.Context, job_id: int = typer.Argument(..., help="The job.")) -> None:
    """Cancel a job: at once if pending, at its next batch boundary if running."""
    database = state(ctx).db()
    with database.connect(autocommit=True) as conn, translated(database.url):
        job = jobs.cancel(conn, job_id)
    if job.status == "cancelled":
        message = f"job {job.id} cancelled ({job.success_rows:,} rows imported before)"
    else:
        message = (
            f"job {job.id} will stop at its next batch boundary"
            f" (running in {job.lease_owner}); committed rows are kept"
        )
    stdout_console().print(message, markup=False)


def retry_command(ctx: typer.Context, job_id: int = typer.Argument(..., help="The job.")) -> None:
    """Put a failed job back to pending (attempts reset; it continues where it stopped)."""
    database = state(ctx).db()
    with database.connect(autocommit=True) as conn, translated(database.url):
        job = jobs.retry(conn, job_id)
    stdout_console().print(
        f"job {job.id} is pending again from row {job.cursor:,}; a worker picks it up,"
        f" or run it here: importer resume {job.id}",
        markup=False,
    )


def register(app: typer.Typer) -> None:
    app.command("submit")(submit_command)
    app.command("resume")(resume_command)
    app.command("status")(status_command)
    app.command("jobs")(jobs_command)
    app.command("errors")(errors_command)
    app.command("cancel")(cancel_command)
    app.command("retry")(retry_command)
