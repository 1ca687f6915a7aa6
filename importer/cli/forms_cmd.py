"""`importer forms ...`: add, list, show, infer and remove form definitions."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import typer

from importer.cli.args import INFER_HEADER_ROW_OPTION
from importer.cli.help import help_for
from importer.cli.layout import local_time
from importer.cli.output import stderr_console, stdout_console
from importer.cli.state import state
from importer.errors import InputError, UsageError
from importer.forms.definition import form_to_toml
from importer.forms.inference import inferred_heading

forms_app = typer.Typer(
    help="Form definitions: the fields a workbook must provide.", no_args_is_help=True
)


@forms_app.command("add", **help_for("forms add"))
def add_command(
    ctx: typer.Context,
    file: Path = typer.Argument(..., help="Form definition (TOML).", show_default=False),
    yes: bool = typer.Option(
        False,
        "--yes",
        "-y",
        help="Replace a form even if the new version loses its key, a field or a rule.",
    ),
) -> None:
    """Create a form, or add a new version when the definition changed.

    A new version that drops the key, a field, a requirement or a rule, or moves the table,
    is refused unless --yes (nothing is stored)."""
    form, before, version, notes = state(ctx).importer().add_form_file(file, confirmed=yes)
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
    show_all: bool = typer.Option(False, "--all", help="Retired forms too (forms remove)."),
) -> None:
    """List the forms with their current version."""
    forms = state(ctx).importer().forms(retired=show_all)
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
        retired = f"  retired {local_time(s.retired_at, seconds=False)}" if s.retired_at else ""
        console.print(
            f"{s.name:<{width}}  v{s.version:<3} {s.fields:>3} fields  "
            f"updated {local_time(s.updated_at, seconds=False)}{key}{retired}",
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
    name: str | None = typer.Option(
        None, "--name", help="Form name (default: the sheet's name with --sheet, else the file's)."
    ),
    force: bool = typer.Option(False, "--force", help="Overwrite the output file."),
    header_row: int | None = INFER_HEADER_ROW_OPTION,
) -> None:
    """Write a starting form definition from a sheet's header and cell types."""
    if output is not None and output.exists() and not force:
        raise InputError(f"{output} already exists (use --force to overwrite)")
    inferred = (
        state(ctx).importer().infer_form(workbook, sheet=sheet, name=name, header_row=header_row)
    )
    origin = inferred_heading(inferred)
    text = origin + form_to_toml(inferred.form, comments=inferred.notes)
    if output is None:
        stdout_console().print(text, markup=False, end="")
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{output}: cannot write ({exc.strerror or exc})") from None
    stderr_console().print(f"wrote {output} ({len(inferred.form.fields)} fields)", markup=False)


@forms_app.command("remove", **help_for("forms remove"))
def remove_command(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="Form name.", show_default=False),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
) -> None:
    """Retire a form: no longer listed, chosen for a workbook nor submitted to.

    Its table, every imported row and its finished jobs' errors stay; `importer forms add`
    of the same name brings it back. Refused while a pending or running job needs it."""
    if not yes:
        if not sys.stdin.isatty():
            raise UsageError(f"retiring form {name!r} needs --yes (no terminal)")
        typer.confirm(
            f"retire form {name!r}? (its table and rows stay; forms add brings it back)",
            abort=True,
        )
    retired = state(ctx).importer().retire_form(name)
    when = local_time(retired.retired_at, seconds=False)
    what = "was already retired" if retired.already else "retired"
    stdout_console().print(
        f"form {name!r} {what} ({when}); its table and rows are kept; bring it back with:"
        f" importer forms add FILE.toml (importer forms show {name} --version"
        f" {retired.version} gives its last definition)",
        markup=False,
    )


def register(app: typer.Typer) -> None:
    app.add_typer(forms_app, name="forms", **help_for("forms"))
