"""`importer export FORM [--job N] [--since 2d] -o FILE.parquet|.csv|.xlsx [--json]`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.cells import cell_len

from importer.cli.args import parse_job_id
from importer.cli.durations import parse_duration
from importer.cli.help import help_for
from importer.cli.layout import shorten
from importer.cli.output import is_terminal, stdout_console
from importer.cli.state import state

if TYPE_CHECKING:
    from importer.exporting.files import ExportedFile

_LEAST_PATH = 16  # cells a shortened path keeps: its start and its file name's end


def _size(count: int) -> str:
    size = float(count)
    for unit in ("bytes", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{count:,} bytes" if unit == "bytes" else f"{size:,.1f} {unit}"
        size /= 1024
    return f"{count:,} bytes"  # not reached


def describe(result: ExportedFile, width: int | None) -> str:
    """One line: how many rows of which form went where. At a terminal (``width``) the
    path, then the form's name, give way (cut in the middle) so that the line fits."""
    rows = f"{result.rows:,} row" + ("" if result.rows == 1 else "s")
    tail = f" ({_size(result.bytes)}, {result.seconds:.1f} s)"
    form, path = result.form, str(result.path)

    def line() -> str:
        return f"exported {rows} of form {form} to {path}{tail}"

    if width is None or cell_len(line()) <= width:
        return line()
    path = shorten(path, max(cell_len(path) - (cell_len(line()) - width), _LEAST_PATH), middle=True)
    if cell_len(line()) > width:
        form = shorten(form, max(cell_len(form) - (cell_len(line()) - width), 8), middle=True)
    return line()


def export_command(
    ctx: typer.Context,
    form: str = typer.Argument(..., help="The form whose rows to export."),
    output: Path = typer.Option(
        ..., "--output", "-o", help="out.parquet, out.csv or out.xlsx (by its suffix)."
    ),
    job: int | None = typer.Option(
        None, "--job", parser=parse_job_id, help="Only the rows this import job wrote."
    ),
    since: str | None = typer.Option(
        None, "--since", help="Only the rows written within this long (2d, 12h)."
    ),
    as_json: bool = typer.Option(False, "--json", help="One JSON object."),
) -> None:
    """Write a form's rows, typed as in its table, to Parquet, CSV or Excel: whole, or not at
    all. Streams: any number of rows (an .xlsx holds at most 1,048,575)."""
    recent = parse_duration(since, "--since") if since is not None else None
    result = state(ctx).importer().export_rows(form, output, job=job, since=recent)
    out = stdout_console()
    if as_json:
        out.out(json.dumps(result.to_json()), highlight=False)
    else:
        out.print(describe(result, out.width if is_terminal() else None), markup=False)


def register(app: typer.Typer) -> None:
    app.command("export", **help_for("export"))(export_command)
