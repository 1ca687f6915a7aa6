"""`importer forms ...`: add, list, show and infer form definitions."""

from __future__ import annotations

import json
import re
from pathlib import Path

import typer

from importer.cli.help import help_for
from importer.cli.layout import local_time
from importer.cli.output import stderr_console, stdout_console
from importer.cli.state import state
from importer.errors import InputError
from importer.forms.definition import form_to_toml

forms_app = typer.Typer(
    help="Form definitions: the fields a workbook must provide.", no_args_is_help=True
)


@forms_app.command("add", **help_for("forms add"))
def add_command(
    ctx: typer.Context,
    file: Path = typer.Argument(..., help="Form definition (TOML).", show_default=False),
) -> None:
    """Create a form, or add a new version when the definition changed."""
    form, before, version, notes = state(ctx).importer().add_form_file(file)
    if before == 0:
        what = "created"
    elif version == before:
        what = "unchanged"
    else:
        what = "updated"
    view = form.name if re.fullmatch(r"[a-z_][a-z0-9_]*", form.name) else f'"{form.name}"'
    stdout_console().print(
        f"form {form.name!r} {what}: version {version}, {len(form.fields)} fields;"
        f" table {form.table or f'forms.{view}'}",
        markup=False,
    )
    for note in notes:
        stdout_console().print(f"note: {note}", markup=False)


@forms_app.command("list", **help_for("forms list"))
def list_command(
    ctx: typer.Context,
    as_json: bool = typer.Option(False, "--json", help="One JSON object per form."),
) -> None:
    """List the forms with their current version."""
    forms = state(ctx).importer().forms()
    console = stdout_console()
    if as_json:
        for summary in forms:
            console.print(json.dumps(summary.to_json()), markup=False)
        return
    if not forms:
        console.print("no forms yet (add one with: importer forms add FILE.toml)")
        return
    width = max(len(s.name) for s in forms)
    for s in forms:
        key = f"  key: {', '.join(s.key)}" if s.key else ""
        console.print(
            f"{s.name:<{width}}  v{s.version:<3} {s.fields:>3} fields  "
            f"updated {local_time(s.updated_at, seconds=False)}{key}",
            markup=False,
        )


@forms_app.command("show", **help_for("forms show"))
def show_command(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="Form name.", show_default=False),
    version: int | None = typer.Option(None, "--version", help="An older version."),
    as_json: bool = typer.Option(False, "--json", help="The stored JSON definition."),
) -> None:
    """Print a form's definition (as TOML, ready to edit and add again)."""
    form, found = state(ctx).importer().form(name, version)
    console = stdout_console()
    if as_json:
        console.print(json.dumps({"version": found, "definition": form.to_json()}), markup=False)
    else:
        console.print(f"# form {form.name!r}, version {found}", markup=False)
        console.print(form_to_toml(form), markup=False, end="")


@forms_app.command("infer", **help_for("forms infer"))
def infer_command(
    ctx: typer.Context,
    workbook: Path = typer.Argument(..., help="Workbook (or CSV) to look at.", show_default=False),
    sheet: str | None = typer.Option(None, "--sheet", help="Sheet name (default: first visible)."),
    output: Path | None = typer.Option(None, "-o", "--output", help="Write the TOML here."),
    name: str | None = typer.Option(None, "--name", help="Form name (default: file name)."),
    force: bool = typer.Option(False, "--force", help="Overwrite the output file."),
) -> None:
    """Write a starting form definition from a sheet's header and cell types."""
    if output is not None and output.exists() and not force:
        raise InputError(f"{output} already exists (use --force to overwrite)")
    inferred = state(ctx).importer().infer_form(workbook, sheet=sheet, name=name)
    origin = f"# inferred from {inferred.file_name}, sheet {inferred.sheet!r}: check every type\n"
    text = origin + form_to_toml(inferred.form, comments=inferred.notes)
    if output is None:
        stdout_console().print(text, markup=False, end="")
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{output}: cannot write ({exc.strerror or exc})") from None
    stderr_console().print(f"wrote {output} ({len(inferred.form.fields)} fields)", markup=False)


def register(app: typer.Typer) -> None:
    app.add_typer(forms_app, name="forms", **help_for("forms"))
