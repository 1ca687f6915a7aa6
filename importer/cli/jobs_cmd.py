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
from rich.text import Text

from importer.cli.help import help_for
from importer.cli.output import is_terminal, stderr_console, stdout_console
from importer.cli.state import state
from importer.config import ENGINES
from importer.errors import JobFailed, UsageError
from importer.identity import new_owner
from importer.layout import Column, fitted_table, local_time
from importer.progress import ProgressView, format_count, make_view
from importer.repositories.jobs import Job
from importer.repositories.rejected_rows import RowProblem
from importer.running.foreground import (
    ForegroundReport,
    describe_wait,
    exit_code_for,
    job_failure,
)
from importer.states import JobStatus
from importer.summary import SummaryRow, summary

if TYPE_CHECKING:
    from importer.excel.base import SheetReader

_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*([smhd])", re.IGNORECASE)
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def column_map(pairs: list[str], ignore: list[str]) -> dict[str, str]:
    """--map "Header=field" and --ignore HEADER as one mapping ("" = skip the column)."""
    from importer.header_match import parse_mapping

    mapping = parse_mapping(pairs)
    mapping.update({text.strip(): "" for text in ignore if text.strip()})
    return mapping


def parse_job_id(text: str) -> int:
    """A job id as typed; anything but a positive whole number is one clear line (exit 2)."""
    return _parse_id(text, "job")


def _parse_id(text: str, what: str) -> int:
    value = text.strip()
    if not value.isascii() or not value.isdigit() or int(value) == 0:
        raise UsageError(f"{what} ids are whole numbers such as 12, not {text!r}")
    return int(value)


def parse_timer_id(text: str) -> int:
    return _parse_id(text, "timer")


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
                _print_json(out, result.job)
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
        _exit(report.exit_code, report.failure)


def _exit(code: int, failure: JobFailed | None) -> None:
    """End the command with the run's exit code (a failure as its one-line error)."""
    if failure is not None:
        raise failure
    if code:
        raise typer.Exit(code)


def submit_command(
    ctx: typer.Context,
    file: Path = typer.Argument(..., help="The workbook (.xlsx, .xlsm, .xls, .xlsb, .ods)."),
    form: str | None = typer.Option(
        None, "--form", "-f", help="The form the rows must fit (default: the one the header fits)."
    ),
    sheet: str | None = typer.Option(None, "--sheet", help="Sheet name (default: the first)."),
    map_: list[str] = typer.Option(
        [], "--map", help='Pair a sheet header with a field: "Qty=quantity" (repeatable).'
    ),
    ignore: list[str] = typer.Option(
        [], "--ignore", help="Skip a column that looks like a field but is not (repeatable)."
    ),
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
    if engine is not None and engine not in ENGINES:
        raise UsageError(f"--engine {engine!r}: use one of {', '.join(ENGINES)}")
    if at is not None and in_ is not None:
        raise UsageError("use either --at or --in, not both")
    due_at = parse_at(at) if at else (datetime.now(UTC) + parse_delay(in_) if in_ else None)
    if at is not None and due_at is not None and due_at <= datetime.now(UTC):
        raise UsageError(f"--at {at!r} is in the past; use a later time or leave --at out")
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
    due_at: datetime | None,
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
            _print_json(stdout_console(), job, scheduled_timer=submission.scheduled_timer)
        elif due_at is not None:
            stdout_console().print(
                f"job {job.id} scheduled for {local_time(due_at)}"
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
        _print_json(stdout_console(), job, already_submitted=True)
    else:
        stdout_console().print(_status_lines(job), markup=False)
    _exit(exit_code_for(job), job_failure(job))


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
            left = _time_left(job.lease_expires_at)
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


def _time_left(moment: datetime | None) -> str:
    seconds = 0.0 if moment is None else (moment - datetime.now(UTC)).total_seconds()
    return describe_wait(seconds)


def _status_lines(job: Job) -> str:
    when = local_time
    # A queued job's rows are counted by the run that reads them.
    total = "not counted yet" if job.total_rows is None else f"{job.total_rows:,} total"
    keyed = job.keyed_counts
    lines = [
        f"job {job.id}: {job.file_name} -> form {job.form} (version {job.form_version}),"
        f" sheet {job.sheet or '-'}, engine {job.engine}",
        f"  status:    {job.status}" + (" (cancel requested)" if job.cancel_requested else ""),
        f"  rows:      {total}, {job.success_rows:,} imported, {job.failed_rows:,} rejected",
    ]
    if keyed is not None:  # a form with a key: what the imported rows did to the stored ones
        lines.append("  imported:  {:,} inserted, {:,} updated, {:,} unchanged".format(*keyed))
    lines += [
        f"  attempts:  {job.attempts} of {job.max_attempts}",
        f"  created:   {when(job.created_at)}",
        f"  started:   {when(job.started_at)}",
        f"  finished:  {when(job.finished_at)}",
    ]
    if job.status is JobStatus.RUNNING:
        lines.append(f"  lease:     {job.lease_owner} until {when(job.lease_expires_at)}")
    if job.status is JobStatus.PENDING:
        lines.append(
            f"  available: {when(job.available_at)}" if job.available_at else "  waits on a timer"
        )
    if job.last_error:
        lines.append(f"  error:     {job.last_error}")
    if job.purged_at:
        lines.append(
            f"  purged:    {when(job.purged_at)} by retention (its rejected rows, errors and"
            " stored workbook): it can no longer be resumed, retried or exported"
        )
    elif job.failed_rows:
        lines.append(f"  rejected rows: importer errors {job.id} -o errors.xlsx")
    return "\n".join(lines)


def status_command(
    ctx: typer.Context,
    job_id: int = typer.Argument(..., help="The job.", parser=parse_job_id),
    as_json: bool = typer.Option(False, "--json", help="One JSON object."),
) -> None:
    """Show one job: status, rows, attempts, lease, last error."""
    job = state(ctx).importer().job(job_id)
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
    names = [status.value for status in JobStatus]
    unknown = [s for s in wanted if s not in names]
    if unknown:
        raise UsageError(f"--status {unknown[0]!r}: use one of {', '.join(names)}")
    statuses = [JobStatus(s) for s in wanted] or None
    found = state(ctx).importer().jobs(statuses=statuses, limit=limit)
    out = stdout_console()
    if as_json:
        for job in found:
            _print_json(out, job)
        return
    if not found:
        out.print("no import jobs" + (f" with status {', '.join(wanted)}" if wanted else ""))
        return
    width = out.width if is_terminal() else None
    out.print(jobs_table(found, width), markup=False)


def jobs_table(found: list[Job], width: int | None) -> Text:
    """The jobs as a table for ``width`` cells (None: a pipe; every column, no rule)."""
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
            local_time(job.created_at, seconds=False),
        ]
        for job in found
    ]
    return fitted_table(JOBS_COLUMNS, cells, width, rule=width is not None)


# At 80 columns the attempts, the row count and the form go first (`importer status` has them).
JOBS_COLUMNS = (
    Column("Job", right=True),
    Column("Status"),
    Column("Form", drop=3, soft=12, least=6),
    Column("File", soft=16, least=8),
    Column("Rows", right=True, drop=2),
    Column("Imported", right=True),
    Column("Rejected", right=True),
    Column("Attempts", right=True, drop=1),
    Column("Created", drop=4),
)


def errors_command(
    ctx: typer.Context,
    job_id: int = typer.Argument(..., help="The job.", parser=parse_job_id),
    output: Path | None = typer.Option(
        None, "--output", "-o", help="errors.xlsx or errors.csv (default: a table here)."
    ),
    limit: int = typer.Option(
        20, "--limit", min=1, help="Without -o: show the problems of this many rows."
    ),
) -> None:
    """The job's rejected rows: a table of problems here, or with -o a file to fix and resend."""
    importer = state(ctx).importer()
    out = stdout_console()
    if output is not None:
        summary = importer.export_rejected_rows(job_id, output)
        out.print(f"wrote {summary.rows:,} rejected rows to {summary.path}", markup=False)
        return
    _print_problems(out, *importer.rejected_preview(job_id, limit))


def _print_problems(out: Console, job: Job, problems: list[RowProblem]) -> None:
    from importer.cli.errors_view import footer, problems_table

    if not job.failed_rows:
        out.print(f"job {job.id} has no rejected rows", markup=False)
        return
    out.print(problems_table(problems, rich=is_terminal()), markup=False)
    out.print(footer(job, len({p.row for p in problems})), markup=False)


def cancel_command(
    ctx: typer.Context, job_id: int = typer.Argument(..., help="The job.", parser=parse_job_id)
) -> None:
    """Cancel a job: at once if pending, at its next batch boundary if running."""
    job = state(ctx).importer().cancel(job_id)
    if job.status is JobStatus.CANCELLED:
        message = f"job {job.id} cancelled ({job.success_rows:,} rows imported before)"
    else:
        message = (
            f"job {job.id} will stop at its next batch boundary"
            f" (running in {job.lease_owner}); committed rows are kept"
        )
    stdout_console().print(message, markup=False)


def retry_command(
    ctx: typer.Context,
    job_ids: list[int] | None = typer.Argument(
        None, parser=parse_job_id, help="The failed jobs to retry."
    ),
    all_failed: bool = typer.Option(False, "--all-failed", help="Every failed job."),
    form: str | None = typer.Option(None, "--form", "-f", help="--all-failed: of this form only."),
    since: str | None = typer.Option(
        None, "--since", help="--all-failed: only those that failed within this long (2h, 1d)."
    ),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per job."),
) -> None:
    """Put failed jobs back to pending (attempts reset; each continues where it stopped)."""
    from importer.cli.retry_output import print_retries, retry_targets

    importer = state(ctx).importer()
    targets = retry_targets(importer, job_ids or [], all_failed, form, since)
    if targets is None:
        stdout_console().print("no failed jobs to retry", markup=False)
        return
    print_retries(importer.retry_many(targets), as_json=as_json)


def register(app: typer.Typer) -> None:
    for name, command in (
        ("submit", submit_command),
        ("resume", resume_command),
        ("status", status_command),
        ("jobs", jobs_command),
        ("errors", errors_command),
        ("cancel", cancel_command),
        ("retry", retry_command),
    ):
        app.command(name, **help_for(name))(command)
