"""`importer undo JOB [--cascade] [--dry-run] [--json]`, `importer history FORM KEY...` and
`importer correct JOB --row N --set "Column=value"`.

Exit codes (cli/exit_codes.py): 0 done (or, with --dry-run, what would be done); 2 the job
cannot be undone as it is (not ended, undone already, later jobs changed its rows and
--cascade was not given, its history purged), an unknown job, form or key; 1 a runtime
error. `correct`: 0 the row imported, 4 it still fails (said why), 2 a row not open or a
column the sheet lacks.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import typer

from importer.cli.args import parse_job_id
from importer.cli.help import help_for
from importer.cli.layout import Column, fitted_table, local_time
from importer.cli.output import stdout_console
from importer.cli.state import state

if TYPE_CHECKING:
    from importer.repositories.history import KeyHistory, RowVersion
    from importer.repositories.undo import UndoReport


def _rows(n: int) -> str:
    return f"{n:,} row" + ("" if n == 1 else "s")


def describe_undo(report: UndoReport) -> list[str]:
    """A line per job (newest first), then what it came to."""
    verb = ("would remove", "would restore") if report.dry_run else ("removed", "restored")
    lines = [
        f"job {j.job_id}: {verb[0]} {_rows(j.removed)}, {verb[1]} {_rows(j.restored)} to "
        "their previous values"
        for j in report.jobs
    ]
    jobs = ", ".join(str(j.job_id) for j in report.jobs)
    if report.dry_run:
        lines.append(f"form {report.form} ({report.table}): nothing changed (--dry-run)")
    else:
        which = "job" if len(report.jobs) == 1 else "jobs"
        lines.append(f"{which} {jobs} reverted; {report.table} is as it was before")
    return lines


def undo_command(
    ctx: typer.Context,
    job: str = typer.Argument(..., help="The job to take back."),
    cascade: bool = typer.Option(
        False, "--cascade", help="Also undo the later jobs that changed its rows (newest first)."
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="Say what would change; change nothing."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object."),
) -> None:
    """Take a finished job back in one transaction: the rows it inserted are removed, the
    rows it overwrote get their previous values again, and the job becomes `reverted`."""
    job_id = parse_job_id(job)
    report = state(ctx).importer().undo(job_id, cascade=cascade, dry_run=dry_run)
    out = stdout_console()
    if as_json:
        out.out(json.dumps(report.to_json()), highlight=False)
        return
    for line in describe_undo(report):
        out.print(line, markup=False, highlight=False)


def _shown(value: Any) -> str:
    if value is None:
        return ""
    if hasattr(value, "isoformat") and not isinstance(value, str):
        return str(value.isoformat())
    return str(value)


def history_command(
    ctx: typer.Context,
    form: str = typer.Argument(..., help="The keyed form."),
    key: list[str] = typer.Argument(..., help="The key's value (one per key field)."),
    limit: int = typer.Option(100, "--limit", min=1, help="At most this many earlier versions."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object."),
) -> None:
    """Show a keyed row as it is now and its earlier versions, newest first: the values
    each job wrote, from which Excel row, and the job that replaced them."""
    found = state(ctx).importer().history(form, key, limit=limit)
    out = stdout_console()
    if as_json:
        out.out(json.dumps(found.to_json()), highlight=False)
        return
    render_history(found)


def render_history(found: KeyHistory) -> None:
    out = stdout_console()
    versions: list[tuple[str, RowVersion]] = []
    if found.current is not None:
        versions.append(("now", found.current))
    versions += [(f"-{n}", v) for n, v in enumerate(found.earlier, start=1)]
    names = list((found.current or found.earlier[0]).values)
    # The values matter most: the row and when it was written go first when narrow.
    columns = [
        Column("version"),
        Column("job", right=True),
        Column("row", right=True, drop=2),
        Column("fixes job", right=True, drop=2),  # a correction's: the import it fixed
        Column("written", drop=1),
        Column("replaced by", right=True, drop=3),
        *(Column(n, soft=12, least=4) for n in names if n not in found.key),
    ]
    rows = [
        [
            label,
            _shown(v.job_id),
            _shown(v.row_number),
            _shown(v.corrects),
            local_time(v.written_at) if v.written_at else "",
            _shown(v.replaced_by),
            *(_shown(v.values[n]) for n in names if n not in found.key),
        ]
        for label, v in versions
    ]
    key = ", ".join(f"{k} = {v}" for k, v in found.key.items())
    out.print(f"form {found.form}, {key}:", markup=False, highlight=False)
    if found.current is None:
        out.print("  no row holds this key now (an undo removed it)", markup=False)
    out.print(fitted_table(columns, rows, out.width))


def correct_command(
    ctx: typer.Context,
    job: str = typer.Argument(..., help="The import whose rejected row to correct."),
    row: int = typer.Option(
        ..., "--row", min=1, metavar="ROW", help="The row's Excel row in that import."
    ),
    sets: list[str] = typer.Option(
        ...,
        "--set",
        metavar="COLUMN=VALUE",
        help='A cell\'s new value: "Column=value" (its header or field name).',
    ),
) -> None:
    """Correct one rejected row at the terminal: the row as last sent, with these cells set,
    imported as a correction of its import (checked by the form's rules; once at most)."""
    from importer.cli import exit_codes
    from importer.cli.corrections_view import fixed_counts
    from importer.errors import UsageError

    values: dict[str, object] = {}
    for text in sets:
        name, equals, value = text.partition("=")
        if not equals or not name.strip():
            raise UsageError(f'--set {text!r}: say it as --set "Column=value"')
        values[name.strip()] = value
    result = state(ctx).importer().correct(parse_job_id(job), {row: values})
    out = stdout_console()
    for number in result.rows:
        reasons = result.failing.get(number)
        if reasons is None:
            said = f"imported by job {result.job.id} (a correction of job {result.origin.id})"
        else:
            said = "still fails: " + "; ".join(reasons)
        out.print(f"row {number}: {said}", markup=False, highlight=False)
    counts = fixed_counts(result.origin, always=True)
    if counts is not None:
        out.print(f"job {result.origin.id}: {counts}", markup=False, highlight=False)
    exit_codes.end_with([result.job])


def register(app: typer.Typer) -> None:
    app.command("undo", **help_for("undo"))(undo_command)
    app.command("history", **help_for("history"))(history_command)
    app.command("correct", **help_for("correct"))(correct_command)
