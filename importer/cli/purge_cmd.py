"""`importer purge --older-than 30d [--dry-run] [--json]`: retention, by hand."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import typer

from importer.cli.durations import parse_duration
from importer.cli.help import help_for
from importer.cli.output import stdout_console
from importer.cli.state import state

if TYPE_CHECKING:
    from importer.repositories.retention import PurgeReport


def _size(count: int) -> str:
    size = float(count)
    for unit in ("bytes", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:,.0f} {unit}" if unit == "bytes" else f"{size:,.1f} {unit}"
        size /= 1024
    return f"{count:,} bytes"  # not reached


def _count(number: int, what: str) -> str:
    return f"{number:,} {what}" + ("" if number == 1 else "s")


def describe(report: PurgeReport) -> str:
    verb = "would remove" if report.dry_run else "removed"
    history = ""
    if report.history_older_than_seconds is not None:
        history = (
            f"{verb} {_count(report.history_rows, 'earlier version')} of keyed rows, replaced"
            f" by {_count(report.history_jobs, 'job')} (no longer undoable)"
        )
    if not report.older_than_seconds and report.history_older_than_seconds is not None:
        return history + ("; nothing was changed (--dry-run)" if report.dry_run else "")
    return (
        f"{verb}: {_count(report.workbooks, 'stored workbook')}"
        f" ({_size(report.workbook_bytes)}), {_count(report.rejected_rows, 'rejected row')}"
        f" and {_count(report.row_errors, 'row error')} of"
        f" {_count(len(report.jobs), 'finished job')}, {_count(report.timers, 'finished timer')}"
        + (f"; {history}" if history else "")
        + ("; nothing was changed (--dry-run)" if report.dry_run else "")
    )


def purge_command(
    ctx: typer.Context,
    older_than: str | None = typer.Option(
        None, "--older-than", help="What finished longer ago than this (30d, 12h, 0s)."
    ),
    history_older_than: str | None = typer.Option(
        None,
        "--history-older-than",
        help="Also the values keyed jobs this old overwrote (they can no longer be undone).",
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="Report what would go; remove nothing."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object."),
) -> None:
    """Remove what finished jobs no longer need: stored workbooks, rejected rows, row errors,
    finished timers. Never a form's rows (its table), and nothing of a job that can still run."""
    cut = parse_duration(older_than, "--older-than") if older_than is not None else None
    history = (
        parse_duration(history_older_than, "--history-older-than")
        if history_older_than is not None
        else None
    )
    report = state(ctx).importer().purge(cut, dry_run=dry_run, history_older_than=history)
    out = stdout_console()
    if as_json:
        out.out(json.dumps(report.to_json()), highlight=False)
    else:
        out.print(describe(report), markup=False)


def register(app: typer.Typer) -> None:
    app.command("purge", **help_for("purge"))(purge_command)
