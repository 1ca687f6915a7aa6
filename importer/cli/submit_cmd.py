"""`importer submit | resume`: a workbook imported in the foreground (or queued, or
scheduled), and interrupted jobs continued, with the live view and the summary.

Exit codes: 0 succeeded; 3 finished with rejected rows; 1 the job failed (or was cancelled)
or a runtime error; 2 bad usage or an input refused before any job; 128+N stopped by signal N
(the job is back to pending and `importer resume` continues it).
"""

from __future__ import annotations

import sys
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console

from importer.cli.help import help_for
from importer.cli.layout import local_time
from importer.cli.output import is_terminal, stderr_console, stdout_console
from importer.cli.progress import ProgressView, format_count, make_view
from importer.cli.state import state
from importer.cli.summary import SummaryRow, summary
from importer.config import ENGINES
from importer.errors import UsageError
from importer.identity import new_owner
from importer.repositories.jobs import Job
from importer.running.foreground import (
    ForegroundReport,
    describe_wait,
    exit_code_for,
    job_failure,
)
from importer.states import JobStatus

if TYPE_CHECKING:
    from importer.excel.base import SheetReader

from importer.cli.args import (
    ENGINE_OPTION,
    FORM_OPTION,
    IGNORE_OPTION,
    MAP_OPTION,
    SHEET_OPTION,
    column_map,
    parse_at,
    parse_delay,
    parse_job_id,
)
from importer.cli.jobs_cmd import exit_with, print_job_json, status_lines


def _consoles(as_json: bool) -> tuple[Console, bool]:
    """Where progress goes: stdout normally; stderr when stdout carries JSON."""
    if as_json:
        return stderr_console(), sys.stderr.isatty()
    return stdout_console(), is_terminal()


class _Foreground:
    """A foreground command as the user sees it: what is being read before the job exists,
    the live view around the run (see running.foreground.run_in_foreground), then the
    summary and the exit code."""

    def __init__(self, ctx: typer.Context, *, as_json: bool, quiet: bool) -> None:
        app_state = state(ctx)
        self.importer = app_state.importer()
        self.started = app_state.started
        self.as_json = as_json
        self.quiet = quiet
        self.owner = new_owner()
        self.submitted = False  # a submit's job exists (or was found)
        console, live = _consoles(as_json)
        # With --json on a pipe, stdout is for the JSON and stderr stays for errors.
        silent = quiet or (as_json and not live)
        self.view: ProgressView = make_view(console, quiet=silent, live=live)

    def interrupted(self) -> None:
        """Ctrl-C before the run took over its signals (while the workbook is read)."""
        self.view.close()
        if not self.quiet and not self.submitted:
            stderr_console().print("interrupted while reading the workbook; nothing was stored")

    def note(self, text: str) -> None:
        if not self.quiet:
            self.view.note(text)

    def _on_signal(self, signum: int) -> None:
        # Called in the signal handler: the view is ended from another thread, never here.
        del signum
        threading.Thread(target=self.view.interrupt, name="view-interrupt", daemon=True).start()

    def run(
        self,
        job_ids: list[int],
        first_claimed: Job | None = None,
        eager: bool = True,
        reader: SheetReader | None = None,
    ) -> None:
        with self.view:
            report = self.importer.run(
                job_ids,
                owner=self.owner,
                on_progress=self.view.update,
                on_note=self.note,
                first_claimed=first_claimed,
                eager=eager,
                reader=reader,
                on_signal=self._on_signal,
            )
        self.finish(report)

    def summary_rows(self, report: ForegroundReport) -> list[SummaryRow]:
        """Each job's time counts from the end of the one before, the first's from the
        command's start: reading the workbook and waits are part of what the user waited."""
        rows = []
        since = self.started
        for result in report.results:
            job = result.job
            reasons = self.importer.top_reasons(job.id) if job.failed_rows else []
            rows.append(SummaryRow(job, result.ended - since, result.run_rows, reasons))
            since = result.ended
        return rows

    def finish(self, report: ForegroundReport) -> None:
        out = stdout_console()
        if self.as_json:
            for result in report.results:
                print_job_json(out, result.job)
        elif not self.quiet and report.results:
            width = out.width if is_terminal() else None
            out.print(summary(self.summary_rows(report), width), markup=False)
        err = stderr_console()
        for job in report.interrupted:
            err.print(
                f"stopped: job {job.id} has {job.cursor:,} of {format_count(job.total_rows)}"
                f" rows committed and is {job.status}\ncontinue with: importer resume {job.id}",
                markup=False,
            )
        exit_with(report.exit_code, report.failure)


def submit_command(
    ctx: typer.Context,
    file: Path = typer.Argument(..., help="The workbook (.xlsx, .xlsm, .xls, .xlsb, .ods)."),
    form: str | None = FORM_OPTION,
    sheet: str | None = SHEET_OPTION,
    map_: list[str] = MAP_OPTION,
    ignore: list[str] = IGNORE_OPTION,
    engine: str | None = ENGINE_OPTION,
    detach: bool = typer.Option(False, "--detach", help="Queue the job for workers and return."),
    at: str | None = typer.Option(None, "--at", help="Start at this time (ISO 8601)."),
    in_: str | None = typer.Option(None, "--in", help="Start after this delay (10m, 2h)."),
    force: bool = typer.Option(False, "--force", help="Import again even if already imported."),
    as_json: bool = typer.Option(False, "--json", help="Print the job as JSON."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress output."),
) -> None:
    """Check a workbook against a form, store it and import it (in the foreground by default)."""
    if engine is not None and engine not in ENGINES:
        raise UsageError(f"--engine {engine!r}: use one of {', '.join(ENGINES)}")
    if at is not None and in_ is not None:
        raise UsageError("use either --at or --in, not both")
    # --in stays a delay: the database adds it to its own clock (this host's may be off).
    due_at: datetime | timedelta | None = (
        parse_at(at) if at else (parse_delay(in_) if in_ else None)
    )
    run = _Foreground(ctx, as_json=as_json, quiet=quiet)
    try:
        mapping = column_map(map_, ignore)
        _submit(run, file, form, mapping, sheet, engine, force, due_at, detach, as_json, quiet)
    except KeyboardInterrupt:
        run.interrupted()
        raise
    finally:
        run.view.close()


def _submit(
    run: _Foreground,
    file: Path,
    form: str | None,
    mapping: dict[str, str],
    sheet: str | None,
    engine: str | None,
    force: bool,
    due_at: datetime | timedelta | None,
    detach: bool,
    as_json: bool,
    quiet: bool,
) -> None:
    foreground = not detach and due_at is None
    submission = run.importer.submit_file(
        file,
        form=form,
        column_map=mapping,
        sheet=sheet,
        engine=engine,
        force=force,
        claim_owner=run.owner if foreground else None,
        due_at=due_at,
        keep_reader=foreground,
        on_progress=run.view.reading,
    )
    run.view.reading_done()
    run.submitted = True
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
            print_job_json(stdout_console(), job, scheduled_timer=submission.scheduled_timer)
        elif due_at is not None:
            when = submission.scheduled_for or due_at
            shown = local_time(when) if isinstance(when, datetime) else str(when)
            stdout_console().print(
                f"job {job.id} scheduled for {shown}"
                f"{_rows_note(job)}; `importer timers` makes it available then and a worker"
                " runs it",
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
        first_claimed=job if job.status is JobStatus.RUNNING else None,
        reader=submission.reader,
    )


def _rows_note(job: Job) -> str:
    # A job queued for others is counted by the run that reads its rows.
    return "" if job.total_rows is None else f" ({job.total_rows:,} rows)"


def _report_existing(job: Job, as_json: bool) -> None:
    if as_json:
        print_job_json(stdout_console(), job, already_submitted=True)
    else:
        stdout_console().print(status_lines(job), markup=False)
    exit_with(exit_code_for(job), job_failure(job))


def resume_command(
    ctx: typer.Context,
    job_ids: list[int] | None = typer.Argument(
        None,
        parser=parse_job_id,
        help="Jobs to continue (default: every pending or abandoned job).",
    ),
    all_jobs: bool = typer.Option(
        False, "--all", help="Every pending or abandoned job, besides the named ones."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print each job as JSON at the end."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress output."),
) -> None:
    """Continue jobs from their committed row (taking over jobs whose process is gone).

    Without job ids: every job that can be continued."""
    run = _Foreground(ctx, as_json=as_json, quiet=quiet)
    plan = run.importer.jobs_to_resume(job_ids or [], every=all_jobs or not job_ids)
    if not quiet:
        err = stderr_console()
        for job in plan.finished:
            err.print(
                f"job {job.id} has already finished ({job.status}, {job.success_rows:,} rows"
                f" imported, {job.failed_rows:,} rejected); nothing to resume",
                markup=False,
            )
        for job in plan.busy:
            left = _time_left(job.lease_expires_at, plan.now)
            err.print(
                f"job {job.id} is being run by {job.lease_owner} (lease expires in {left});"
                " left to it",
                markup=False,
            )
        if plan.job_ids and not job_ids:
            err.print(f"resuming jobs {', '.join(map(str, plan.job_ids))}", markup=False)
    if not plan.job_ids:
        if not quiet and not plan.finished:
            stdout_console().print("nothing to resume")
        return
    run.run(plan.job_ids, eager=True)


def _time_left(moment: datetime | None, now: datetime | None) -> str:
    # The database's clock when known: the lease was set by it, this host's may be off.
    now = now or datetime.now(UTC)
    seconds = 0.0 if moment is None else (moment - now).total_seconds()
    return describe_wait(seconds)


def register(app: typer.Typer) -> None:
    app.command("submit", **help_for("submit"))(submit_command)
    app.command("resume", **help_for("resume"))(resume_command)
