"""`importer check FILE`: validate a workbook as an import would, and write nothing."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.text import Text

from importer.api.requests import CheckRequest
from importer.cli import exit_codes
from importer.cli.args import (
    CHECK_HEADER_ROW_OPTION,
    ENGINE_OPTION,
    FORM_OPTION,
    IGNORE_OPTION,
    MAP_OPTION,
    SHEET_OPTION,
    column_map,
)
from importer.cli.help import help_for
from importer.cli.output import said_lines, stderr_console, stdout_console
from importer.cli.state import state
from importer.config import check_engine
from importer.excel.row_filter import describe_not_read
from importer.forms.operations import parse_reject_limit

if TYPE_CHECKING:
    from importer.intake.checking import CheckReport


def check_command(
    ctx: typer.Context,
    file: Path = typer.Argument(..., help="The workbook (.xlsx, .xlsm, .xls, .xlsb, .ods, .csv)."),
    form: str | None = FORM_OPTION,
    sheet: str | None = SHEET_OPTION,
    map_: list[str] = MAP_OPTION,
    ignore: list[str] = IGNORE_OPTION,
    engine: str | None = ENGINE_OPTION,
    header_row: int | None = CHECK_HEADER_ROW_OPTION,
    output: Path | None = typer.Option(
        None, "--output", "-o", help="Write the rows it would reject to rejected.xlsx or .csv."
    ),
    max_rejected: str | None = typer.Option(
        None, "--max-rejected", help="Say whether an import with this reject threshold would fail."
    ),
    as_json: bool = typer.Option(False, "--json", help="One JSON object with the figures."),
) -> None:
    """Read and validate every row as an import would; store nothing. Exit 0 when every row
    is good, 3 when some would be rejected, 4 when all would be, 1 when an import would fail
    on its reject threshold, 2 when the file or its header is refused."""
    limit = parse_reject_limit(max_rejected, "--max-rejected") if max_rejected else None
    if engine is not None:
        check_engine(engine, named="--engine")
    request = CheckRequest(
        file,
        form=form,
        sheet=sheet,
        engine=engine,
        column_map=column_map(map_, ignore),
        errors_to=output,
        header_row=header_row,
        max_rejected=limit,
    )
    report, written = state(ctx).importer().check(request)
    for warning in report.warnings:  # with --json too: stdout is the JSON's
        stderr_console().print(Text.assemble(("warning:", "yellow"), " ", warning))
    if as_json:
        stdout_console().out(json.dumps(report.to_json(), ensure_ascii=False), highlight=False)
    else:
        out = stdout_console()
        out.print(said_lines(out, summary_text(report, file, form, map_, ignore)), markup=False)
        for note in report.notes:
            stderr_console().print(f"note: {note}", markup=False)
        if report.extra_columns:
            stderr_console().print(
                f"note: ignoring columns {', '.join(report.extra_columns)}", markup=False
            )
    if written is not None:
        stderr_console().print(
            f"wrote {written.rows:,} rows to fix to {written.path}", markup=False
        )
    if report.over_limit is not None:
        if not as_json:
            stdout_console().print(f"an import would fail: {report.over_limit}", markup=False)
        raise typer.Exit(exit_codes.ExitCode.FAILED)
    code = exit_codes.for_rejected(len(report.rejected), report.good)
    if code:
        raise typer.Exit(code)


def summary_text(
    report: CheckReport, file: Path, form: str | None, map_: list[str], ignore: list[str]
) -> str:
    rejected = len(report.rejected)
    lines = [
        f"{report.file_name}, sheet {report.sheet!r} -> form {report.form}"
        f" (version {report.form_version}): {report.total_rows:,} rows,"
        f" {report.good:,} good, {rejected:,} would be rejected",
    ]
    if report.keyed:
        lines.append(
            f"an import would insert {report.inserted:,}, update {report.updated:,} and leave"
            f" {report.unchanged:,} unchanged"
        )
    lines += [f"not read: {describe_not_read(entry)}" for entry in report.rows_not_read]
    if rejected:
        lines.append("most common problems:")
        for column, reason, count in report.top_reasons():
            where = f"{column}: " if column else ""  # None: the row as a whole (a hook's)
            lines.append(f"  {where}{reason} ({count:,} row{'s' if count != 1 else ''})")
        shown = ", ".join(str(row.number) for row in report.rejected[:10])
        more = f" and {rejected - 10:,} more" if rejected > 10 else ""
        lines.append(f"rows to fix (Excel row numbers): {shown}{more}")
    words = ["importer", "submit", str(file)]
    if form:
        words += ["--form", form]
    for pair in map_:
        words += ["--map", pair]
    for text in ignore:
        words += ["--ignore", text]
    lines.append(f"nothing was stored; to import it: {shlex.join(words)}")
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    app.command("check", **help_for("check"))(check_command)
