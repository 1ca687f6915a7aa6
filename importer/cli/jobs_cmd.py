"""`importer status | jobs | errors | cancel | retry`: one job, the list, the rejected rows,
and the two user actions on a job.

Exit codes (cli/exit_codes.py): 0 succeeded; 3 finished with rejected rows; 4 finished with
every row rejected (nothing imported); 1 the job failed (or was cancelled) or a runtime error;
2 bad usage or an input refused before any job.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.text import Text

from importer.cli.corrections_view import correction_of, fixed_counts
from importer.cli.help import help_for
from importer.cli.layout import Column, fitted_table, local_time
from importer.cli.output import is_terminal, said_lines, stdout_console
from importer.cli.progress import format_count
from importer.cli.state import state
from importer.errors import UsageError
from importer.excel.row_filter import describe_not_read
from importer.states import JobStatus, Liveness, TimerStatus

if TYPE_CHECKING:
    from importer.api.requests import RejectedPreview
    from importer.repositories.jobs import Job
    from importer.repositories.notices import Notice

    pass

from importer.cli.args import job_ids_of, parse_job_id, parse_job_ref


def print_job_json(console: Console, job: Job, **extra: object) -> None:
    console.out(json.dumps({**job.to_json(), **extra}), highlight=False)


def liveness_line(job: Job, liveness: Liveness, now: datetime) -> str | None:
    """Why a job that says `running` may not be: its owner is gone, silent or out of lease."""
    if liveness is Liveness.GONE:
        why = f"its process ({job.lease_owner}) no longer runs on this host"
    elif liveness is Liveness.EXPIRED:
        why = "its lease has expired: nobody is writing it"
    elif liveness is Liveness.SILENT:
        beat = job.heartbeat_at or job.started_at
        quiet = describe_quiet((now - beat).total_seconds()) if beat is not None else "a while"
        why = f"no heartbeat for {quiet}: its process may be gone"
    else:
        return None
    return f"  note:      {why}; continue it with: importer resume {job.id}"


def describe_quiet(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}m {secs:02d}s" if minutes else f"{secs}s"


def status_lines(job: Job, liveness: Liveness = Liveness.LIVE, now: datetime | None = None) -> str:
    when = local_time
    # A queued job's rows are counted by the run that reads them.
    total = "not counted yet" if job.total_rows is None else f"{job.total_rows:,} total"
    keyed = job.keyed_counts
    lines = [
        f"job {job.id}: {job.file_name} -> form {job.form} (version {job.form_version}),"
        f" sheet {job.sheet or '-'}, engine {job.engine}",
        f"  status:    {job.status}" + (" (cancel requested)" if job.cancel_requested else ""),
        f"  rows:      {total}, {job.kept_rows:,} imported, {job.failed_rows:,} rejected"
        + (f" ({job.success_rows:,} good rows taken back)" if job.taken_back else ""),
    ]
    if (fixed := fixed_counts(job)) is not None:  # corrections imported some of them since
        lines.append(f"  fixes:     {fixed}")
    if (corrects := correction_of(job)) is not None:
        lines.append(f"  corrects:  {corrects}")
    # A form with a key: what the imported rows did to the stored ones.
    if keyed is not None and not job.taken_back:
        lines.append("  imported:  {:,} inserted, {:,} updated, {:,} unchanged".format(*keyed))
    for index, entry in enumerate(job.rows_not_read or ()):
        lines.append(("  not read:  " if index == 0 else " " * 13) + describe_not_read(entry))
    lines += [
        f"  attempts:  {job.attempts} of {job.max_attempts}",
        f"  created:   {when(job.created_at)}" + submitted_by(job),
        f"  started:   {when(job.started_at)}",
        f"  finished:  {when(job.finished_at)}",
    ]
    if job.taken_back:
        lines.append(
            f"  kept:      none of its rows (taken back {when(job.reverted_at)}, over its"
            " reject limit)"
        )
    elif job.reverted_at is not None:
        lines.append(
            f"  reverted:  {when(job.reverted_at)} by importer undo: none of its rows is kept"
        )
    elif job.history_purged_at is not None:
        lines.append(
            f"  undo:      no longer possible: retention removed the values it overwrote"
            f" ({when(job.history_purged_at)})"
        )
    if job.max_rejected is not None:
        lines.append(f"  limit:     at most {job.max_rejected} rejected rows (--max-rejected)")
    if job.status is JobStatus.RUNNING:
        lines.append(f"  lease:     {job.lease_owner} until {when(job.lease_expires_at)}")
        note = liveness_line(job, liveness, now) if now is not None else None
        if note is not None:
            lines.append(note)
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
    elif job.origin_job_id is not None and job.failed_rows:  # the import's, with the others
        lines.append(f"  rejected rows: importer errors {job.origin_job_id} -o rejected.xlsx")
    elif job.still_open:
        lines.append(f"  rejected rows: importer errors {job.id} -o rejected.xlsx")
    return "\n".join(lines)


def submitted_by(job: Job) -> str:
    """Who submitted the job, and how: an account of the web page or the API, or the
    operating system's user of a command line (jobs from before say nothing)."""
    if job.submitted_by is None:
        return ""
    how = "account" if job.submitted_by_user is not None else "command line, OS user"
    return f" by {job.submitted_by} ({how})"


def status_command(
    ctx: typer.Context,
    job_ref: str = typer.Argument(
        ..., metavar="JOB_ID", help="The job (or a group: g3).", parser=parse_job_ref
    ),
    as_json: bool = typer.Option(False, "--json", help="One JSON object (a group: one a job)."),
) -> None:
    """Show one job: status, rows, attempts, lease, last error, completion notices."""
    from importer.timers.notices import status_json

    importer = state(ctx).importer()
    ids = job_ids_of(importer, [job_ref])
    for index, job_id in enumerate(ids):
        job, liveness, now, notices = importer.job_with_notices(job_id)
        if as_json:
            shown = {**status_json(job, liveness), "notices": [n.to_json() for n in notices]}
            stdout_console().out(json.dumps(shown), highlight=False)
            continue
        if len(ids) > 1:  # a group: a line for each sheet's job
            heading = f"{'' if index == 0 else chr(10)}sheet {job.sheet!r} of group {job_ref}:"
            stdout_console().print(heading, markup=False)
        lines = [status_lines(job, liveness, now), *(notice_line(n) for n in notices)]
        out = stdout_console()
        out.print(said_lines(out, "\n".join(lines)), markup=False)


def notice_line(notice: Notice) -> str:
    """How one completion notice's delivery stands."""
    tries = f"attempt {notice.attempts} of {notice.max_attempts}"
    error = f": {notice.last_error}" if notice.last_error else ""
    if notice.status is TimerStatus.COMPLETED:
        how = f"delivered {local_time(notice.finished_at)} ({tries})"
    elif notice.status is TimerStatus.PROCESSING:
        how = f"being sent ({tries})"
    elif notice.status is TimerStatus.PENDING and notice.attempts:
        how = f"{tries} failed, sent again {local_time(notice.due_at)}{error}"
    elif notice.status is TimerStatus.PENDING:
        how = f"to be sent {local_time(notice.due_at)}"
    elif notice.status is TimerStatus.FAILED:
        how = f"not delivered, no attempts left ({tries}){error}"
    else:
        how = f"cancelled{error}"
    return f"  notice:    {notice.event} ({notice.key}) {how}"


def jobs_command(
    ctx: typer.Context,
    status: list[str] | None = typer.Option(None, "--status", "-s", help="Only this status."),
    limit: int = typer.Option(100, "--limit", min=1, help="At most this many (newest)."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per line."),
    group: str | None = typer.Option(
        None, "--group", metavar="GROUP", help="Only this group's jobs (g3).", parser=parse_job_ref
    ),
) -> None:
    """List import jobs (newest last)."""
    if group is not None and not group.startswith("g"):
        raise UsageError(f"--group {group!r}: a group is named as g3")
    wanted = [s.strip() for item in status or [] for s in item.split(",") if s.strip()]
    names = [status.value for status in JobStatus]
    unknown = [s for s in wanted if s not in names]
    if unknown:
        raise UsageError(f"--status {unknown[0]!r}: use one of {', '.join(names)}")
    statuses = [JobStatus(s) for s in wanted] or None
    importer = state(ctx).importer()
    if group is not None:
        found = [importer.job(i) for i in job_ids_of(importer, [group])]
        found = [j for j in found if statuses is None or j.status in statuses]
    else:
        found = importer.jobs(statuses=statuses, limit=limit)
    out = stdout_console()
    if as_json:
        for job in found:
            print_job_json(out, job)
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
            format_count(job.kept_rows),
            format_count(job.failed_rows),
            f"{job.attempts}/{job.max_attempts}",
            local_time(job.created_at, seconds=False),
            job.submitted_by or "-",
            format_count(job.fixed_rows) if job.fixed_rows else "",
            format_count(job.still_open) if job.fixed_rows else "",
            str(job.origin_job_id or ""),
        ]
        for job in found
    ]
    return fitted_table(JOBS_COLUMNS, cells, width, rule=width is not None)


# Narrow, a column empty in every row goes first, then the form, the attempts, the row count
# and the creation time (`importer status` has them all); one that fits again once the file
# name is cut comes back, the creation time first.
JOBS_COLUMNS = (
    Column("Job", right=True),
    Column("Status"),
    Column("Form", drop=1, soft=12, least=6),
    Column("File", soft=16, least=8),
    Column("Rows", right=True, drop=3),
    Column("Imported", right=True),
    Column("Rejected", right=True),
    Column("Attempts", right=True, drop=2),
    Column("Created", drop=4),
    Column("By", soft=16, least=8, drop=1),  # an account, or a command line's OS user
    # Corrections: of an import's rejected rows, those imported since and those still open;
    # the import a correction corrects. Empty (so left out) where there are none.
    Column("Fixed later", right=True, drop=2, when_filled=True),
    Column("Open", right=True, drop=2, when_filled=True),
    Column("Corrects", right=True, drop=2, when_filled=True),
)


def errors_command(
    ctx: typer.Context,
    job_ref: str = typer.Argument(
        ..., metavar="JOB_ID", help="The job (or a group: g3).", parser=parse_job_ref
    ),
    output: Path | None = typer.Option(
        None, "--output", "-o", help="rejected.xlsx or rejected.csv (default: a table here)."
    ),
    limit: int = typer.Option(
        20, "--limit", min=1, help="Without -o: show the problems of this many rows."
    ),
    every: bool = typer.Option(
        False,
        "--all",
        help="Every rejected row and what became of it (default: the rows still open).",
    ),
) -> None:
    """The job's rejected rows still open: a table of problems here, or with -o a file to fix
    and resend (a correction of the job when it comes back)."""
    importer = state(ctx).importer()
    out = stdout_console()
    ids = job_ids_of(importer, [job_ref])
    if output is not None:
        if job_ref.startswith("g"):
            summary = importer.export_group_rows(int(job_ref[1:]), output, every=every)
        else:
            summary = importer.export_rejected_rows(ids[0], output, every=every)
        out.print(f"wrote {summary.rows:,} rejected rows to {summary.path}", markup=False)
        return
    for job_id in ids:
        preview = importer.rejected_preview(job_id, limit, every=every)
        if len(ids) > 1:
            out.print(f"sheet {preview.job.sheet!r} (job {preview.job.id}):", markup=False)
        _print_problems(out, preview)


def _print_problems(out: Console, preview: RejectedPreview) -> None:
    from importer.cli.errors_view import footer, problems_table, with_fates

    job = preview.job
    if not job.failed_rows:
        out.print(f"job {job.id} has no rejected rows", markup=False)
        return
    if not preview.rows:
        out.print(
            f"job {job.id}: every one of its {job.failed_rows:,} rejected rows was fixed later"
            f" (importer errors {job.id} --all shows them)",
            markup=False,
        )
        return
    problems = with_fates(preview.problems, preview.fates, job.id)
    out.print(problems_table(problems, rich=is_terminal()), markup=False)
    shown = len({p.row for p in preview.problems})
    out.print(footer(job, shown, preview.rows, every=preview.fates is not None), markup=False)


def cancel_command(
    ctx: typer.Context,
    job_ref: str = typer.Argument(
        ..., metavar="JOB_ID", help="The job (or a group: g3).", parser=parse_job_ref
    ),
) -> None:
    """Cancel a job: at once if pending, at its next batch boundary if running."""
    importer = state(ctx).importer()
    group = job_ref.startswith("g")
    for job_id in job_ids_of(importer, [job_ref]):
        if group and importer.job(job_id).terminal:
            continue  # a group's finished sheet stays as it is
        job = importer.cancel(job_id)
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
        ("status", status_command),
        ("jobs", jobs_command),
        ("errors", errors_command),
        ("cancel", cancel_command),
        ("retry", retry_command),
    ):
        app.command(name, **help_for(name))(command)
