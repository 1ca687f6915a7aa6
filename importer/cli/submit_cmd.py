"""`importer submit | resume`: a workbook imported in the foreground (or queued, or
scheduled), and interrupted jobs continued, with the live view and the summary.

Exit codes: 0 succeeded; 3 finished with rejected rows; 4 finished with nothing imported (all
rows rejected); 1 the job failed (or was cancelled) or a runtime error; 2 bad usage or an
input refused before any job; 128+N stopped by signal N (the job is back to pending and
`importer resume` continues it).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from importer.api.requests import ResumePlan, RunMode, SheetsRequest, SubmitRequest
from importer.cli import exit_codes
from importer.cli.args import (
    ENGINE_OPTION,
    FORM_OPTION,
    IGNORE_OPTION,
    MAP_OPTION,
    SUBMIT_HEADER_ROW_OPTION,
    column_map,
    job_ids_of,
    parse_at,
    parse_delay,
    parse_job_ref,
)
from importer.cli.corrections_view import correction_of
from importer.cli.foreground import Foreground
from importer.cli.help import help_for
from importer.cli.jobs_cmd import print_job_json, status_lines
from importer.cli.layout import local_time
from importer.cli.output import said, said_lines, stderr_console, stdout_console
from importer.config import check_engine
from importer.errors import UsageError
from importer.forms.operations import parse_reject_limit

if TYPE_CHECKING:
    from importer.intake.submission import Submission
    from importer.repositories.jobs import Job


def submit_command(
    ctx: typer.Context,
    file: Path = typer.Argument(..., help="The workbook (.xlsx, .xlsm, .xls, .xlsb, .ods, .csv)."),
    form: str | None = FORM_OPTION,
    sheets: list[str] = typer.Option(
        [],
        "--sheet",
        help='Sheet name (default: the first); repeat as "Sheet=form" for several sheets.',
    ),
    all_sheets: bool = typer.Option(
        False, "--all-sheets", help="Every visible sheet, each matched to its form: one group."
    ),
    skip_unmatched: bool = typer.Option(
        False, "--skip-unmatched", help="With several sheets: leave out those no form fits."
    ),
    map_: list[str] = MAP_OPTION,
    ignore: list[str] = IGNORE_OPTION,
    engine: str | None = ENGINE_OPTION,
    header_row: int | None = SUBMIT_HEADER_ROW_OPTION,
    detach: bool = typer.Option(False, "--detach", help="Queue the job for workers and return."),
    at: str | None = typer.Option(None, "--at", help="Start at this time (ISO 8601)."),
    in_: str | None = typer.Option(None, "--in", help="Start after this delay (10m, 2h)."),
    force: bool = typer.Option(False, "--force", help="Import again even if already imported."),
    as_new: bool = typer.Option(
        False, "--as-new", help="An error workbook sent back: import its rows as a new job."
    ),
    form_version: str | None = typer.Option(
        None,
        "--form-version",
        metavar="latest",
        help="A correction: validate by the form's current version (default: its job's).",
    ),
    max_rejected: str | None = typer.Option(
        None,
        "--max-rejected",
        help="Fail the job and keep nothing past this many rejected rows (50) or share (2%).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the job as JSON."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress output."),
) -> None:
    """Check a workbook against a form, store it and import it (in the foreground by default).
    An error workbook sent back fixed is a correction of the job it came from."""
    limit = parse_reject_limit(max_rejected, "--max-rejected") if max_rejected is not None else None
    if form_version is not None and form_version != "latest":
        raise UsageError(f"--form-version {form_version!r}: only 'latest' can be given")
    if engine is not None:
        check_engine(engine, named="--engine")
    due_at = _start_time(at, in_)
    several = all_sheets or len(sheets) > 1 or any("=" in s for s in sheets)
    pairs = _several_sheets(sheets, all_sheets, form, due_at) if several else None
    request = SubmitRequest(
        file,
        form=form,
        sheet=sheets[0] if sheets else None,
        engine=engine,
        column_map=column_map(map_, ignore),
        header_row=header_row,
        force=force,
        run_here=not detach,
        due_at=due_at,
        max_rejected=limit,
        as_new=as_new,
        latest_form=form_version == "latest",
    )
    if several:
        sheets_request = SheetsRequest.like(request, pairs, skip_unmatched=skip_unmatched)
        _submit_sheets(ctx, sheets_request, as_json=as_json, quiet=quiet)
    else:
        _submit_one(ctx, file, request, as_json=as_json, quiet=quiet)


def _start_time(at: str | None, in_: str | None) -> datetime | timedelta | None:
    """--at or --in (--in stays a delay: the database adds it to its own clock, as this
    host's may be off)."""
    if at is not None and in_ is not None:
        raise UsageError("use either --at or --in, not both")
    return parse_at(at) if at else (parse_delay(in_) if in_ else None)


def _several_sheets(
    sheets: list[str], all_sheets: bool, form: str | None, due_at: datetime | timedelta | None
) -> list[tuple[str, str | None]] | None:
    """The (sheet, form) pairs of several --sheet (None: --all-sheets, every one)."""
    if due_at is not None:
        raise UsageError("several sheets are submitted to run now: --at and --in are for one")
    if form is not None:
        raise UsageError('with several sheets, name each one\'s form: --sheet "Sheet=form"')
    return None if all_sheets else [_sheet_and_form(text) for text in sheets]


def _submit_one(
    ctx: typer.Context, file: Path, request: SubmitRequest, *, as_json: bool, quiet: bool
) -> None:
    """One sheet: its job run here with the live view and the summary (or queued, or
    scheduled, or the job found for this file)."""
    run = Foreground(ctx, as_json=as_json, quiet=quiet)
    try:
        outcome = run.importer.submit_workbook(
            request, run.events(lambda s: _submitted(run, file, request, s))
        )
    except KeyboardInterrupt:
        run.interrupted()
        raise
    finally:
        run.view.close()
    if outcome.report is not None:
        run.finish(outcome.report)
        return
    _report_queued(outcome.submission, request, as_json)


def _sheet_and_form(text: str) -> tuple[str, str | None]:
    """--sheet "Orders=orders": the sheet and its form ("Orders" alone: the form it fits)."""
    sheet, _, form = text.rpartition("=") if "=" in text else (text, "", "")
    if not sheet.strip():
        raise UsageError(f'--sheet {text!r}: name the sheet, as --sheet "Orders=orders"')
    return sheet, form.strip() or None


def _submit_sheets(
    ctx: typer.Context, request: SheetsRequest, *, as_json: bool, quiet: bool
) -> None:
    """Several sheets, one group: each sheet's job run here in turn (or queued), then a
    line per sheet and the group's total."""
    run = Foreground(ctx, as_json=as_json, quiet=quiet)
    try:
        group, report = run.importer.submit_sheets(request, run.events())
    except KeyboardInterrupt:
        run.interrupted()
        raise
    finally:
        run.view.close()
    jobs_of = [s.job for s in group.submissions]
    if report is None:
        out = stdout_console()
        for job in jobs_of:
            if as_json:
                print_job_json(out, job)
            else:
                out.print(f"job {job.id} (sheet {job.sheet!r}, form {job.form}): {job.status}")
        if not as_json:
            out.print(
                f"group g{group.group_id}: {len(jobs_of)} sheet{'' if len(jobs_of) == 1 else 's'}"
                " queued; workers will run them"
                f" (follow it with: importer status g{group.group_id})",
                markup=False,
            )
        exit_codes.end_with(jobs_of)
        return
    run.finish(report, group=(group.group_id, [job.id for job in jobs_of]))


def _submitted(run: Foreground, file: Path, request: SubmitRequest, s: Submission) -> None:
    """The job exists (or was found): what the user should know before it runs."""
    run.view.reading_done()
    run.submitted = True
    err = stderr_console()
    for note in s.notes if not run.quiet else ():
        err.print(f"note: {note}", markup=False)
    if s.extra_columns and not run.quiet:
        err.print(f"note: ignoring columns {', '.join(s.extra_columns)}", markup=False)
    if s.job.origin_job_id is not None and s.created and not run.quiet:
        err.print(correction_of(s.job) or "", markup=False)
    if not s.created and s.job.origin_job_id is not None:
        job = s.job
        err.print(
            f"{file.name} was already sent back as job {job.id}, a correction of job"
            f" {job.origin_job_id} ({job.status}): its rows are imported once",
            markup=False,
        )
    elif not s.created:
        job = s.job
        err.print(
            f"{file.name} was already submitted for form {job.form} as job {job.id}"
            f" ({job.status}); use --force to import it again",
            markup=False,
        )
        if not job.terminal and request.mode is RunMode.HERE:
            run.note(f"continuing job {job.id}")


def _report_queued(submission: Submission, request: SubmitRequest, as_json: bool) -> None:
    """A submit that did not run here: a job found for this file, or queued, or scheduled."""
    job = submission.job
    out = stdout_console()
    if not submission.created:
        if as_json:
            print_job_json(out, job, already_submitted=True)
        else:
            out.print(said_lines(out, status_lines(job)), markup=False)
        exit_codes.end_with([job])
        return
    if as_json:
        print_job_json(out, job, scheduled_timer=submission.scheduled_timer)
    elif request.due_at is not None:
        when = submission.scheduled_for or request.due_at
        shown = local_time(when) if isinstance(when, datetime) else str(when)
        out.print(
            f"job {job.id} scheduled for {shown}{_rows_note(job)}; `importer timers` makes it"
            " available then and a worker runs it",
            markup=False,
        )
    else:
        out.print(
            f"job {job.id} queued{_rows_note(job)}; workers will run it"
            f" (follow it with: importer status {job.id})",
            markup=False,
        )


def _rows_note(job: Job) -> str:
    # A job queued for others is counted by the run that reads its rows.
    return "" if job.total_rows is None else f" ({job.total_rows:,} rows)"


def resume_command(
    ctx: typer.Context,
    job_refs: list[str] | None = typer.Argument(
        None,
        metavar="JOB_ID...",
        parser=parse_job_ref,
        help="Jobs to continue, or groups (g3) (default: every pending or abandoned job).",
    ),
    all_jobs: bool = typer.Option(
        False, "--all", help="Every pending or abandoned job, besides the named ones."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print each job as JSON at the end."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress output."),
) -> None:
    """Continue jobs from their committed row (taking over jobs whose process is gone).

    Without job ids: every job that can be continued."""
    run = Foreground(ctx, as_json=as_json, quiet=quiet)
    job_ids = job_ids_of(run.importer, job_refs or [])
    try:
        plan, report = run.importer.resume_jobs(
            job_ids or [],
            every=all_jobs or not job_ids,
            events=run.events(),
            on_plan=lambda plan: _tell_plan(plan, named=bool(job_ids), quiet=quiet),
        )
    finally:
        run.view.close()
    if report is not None:
        run.finish(report)
    elif not quiet and not plan.finished:
        stdout_console().print("nothing to resume")


def _tell_plan(plan: ResumePlan, *, named: bool, quiet: bool) -> None:
    if quiet:
        return
    err = stderr_console()
    for job in plan.finished:
        err.print(
            f"job {job.id} has already finished ({job.status}, {job.success_rows:,} rows"
            f" imported, {job.failed_rows:,} rejected); nothing to resume",
            markup=False,
        )
    for job in plan.busy:
        left = _time_left(job.lease_expires_at, plan.now)
        # A process id is long: wrapped at words, never inside it.
        busy = f"job {job.id} is being run by {job.lease_owner} (lease expires in {left})"
        err.print(said(err, f"{busy}; left to it"))
    if plan.job_ids and not named:
        several = "jobs" if len(plan.job_ids) > 1 else "job"
        err.print(said(err, f"resuming {several} {', '.join(map(str, plan.job_ids))}"))


def _time_left(moment: datetime | None, now: datetime | None) -> str:
    from importer.running.foreground import describe_wait

    # The database's clock when known: the lease was set by it, this host's may be off.
    now = now or datetime.now(UTC)
    seconds = 0.0 if moment is None else (moment - now).total_seconds()
    return describe_wait(seconds)


def register(app: typer.Typer) -> None:
    app.command("submit", **help_for("submit"))(submit_command)
    app.command("resume", **help_for("resume"))(resume_command)
