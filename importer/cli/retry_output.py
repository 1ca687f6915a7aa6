"""`importer retry`: which jobs, and one line (or JSON object) per job."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

import typer

from importer.cli import exit_codes
from importer.cli.durations import parse_duration
from importer.cli.output import stderr_console, stdout_console
from importer.errors import UsageError

if TYPE_CHECKING:
    from importer.api import Importer, RetryResult


def retry_targets(
    importer: Importer,
    job_ids: Sequence[int],
    all_failed: bool,
    form: str | None,
    since: str | None,
) -> list[int] | None:
    """The ids to retry (None: --all-failed found none)."""
    if job_ids and all_failed:
        raise UsageError("name the jobs to retry or use --all-failed, not both")
    if not job_ids and not all_failed:
        raise UsageError("name the jobs to retry (importer retry 12 13) or use --all-failed")
    if not all_failed and (form is not None or since is not None):
        raise UsageError("--form and --since go with --all-failed")
    if job_ids:
        return list(job_ids)
    within = parse_duration(since, "--since") if since is not None else None
    found = [job.id for job in importer.failed_jobs(form=form, since=within)]
    return found or None


def print_retries(results: Sequence[RetryResult], *, as_json: bool) -> None:
    """Retried jobs on stdout, refusals on stderr; exit 2 when any was refused."""
    out, err = stdout_console(), stderr_console()
    for result in results:
        job = result.job
        if as_json:
            data = job.to_json() if job is not None else {"id": result.job_id}
            out.out(
                json.dumps({**data, "retried": result.retried, "refused": result.refused}),
                highlight=False,
            )
        elif job is not None and result.retried:
            out.print(f"job {job.id} is pending again from row {job.cursor:,}", markup=False)
        else:
            err.print(f"job {result.job_id} not retried: {result.refused}", markup=False)
    retried = [str(r.job_id) for r in results if r.retried]
    if retried and not as_json:
        out.print(
            "a worker picks them up, or run them here: importer resume " + " ".join(retried),
            markup=False,
        )
    if any(not r.retried for r in results):
        raise typer.Exit(exit_codes.ExitCode.USAGE)
