"""The typer application: global options and the registration of every command group."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from importer import __version__
from importer.cli import (
    changes_cmd,
    check_cmd,
    db_cmd,
    export_cmd,
    forms_cmd,
    jobs_cmd,
    purge_cmd,
    serve_cmd,
    submit_cmd,
    timers_cmd,
    users_cmd,
    worker_cmd,
)
from importer.cli.help import ReadableGroup
from importer.cli.state import AppState
from importer.errors import ImporterError

if TYPE_CHECKING:
    from importer.database import SchemaPeek

app = typer.Typer(
    name="importer",
    help="Load Excel workbooks into PostgreSQL as validated form data, exactly once.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    cls=ReadableGroup,  # metavars a person reads, for the global options too
)


def _version(ctx: typer.Context, value: bool) -> None:
    """The version, then the schema of the database this would use: read, never migrated,
    and no embedded server started for it."""
    if not value:
        return
    typer.echo(f"importer {__version__}")
    config = ctx.params.get("config")
    try:
        peek = AppState(config_path=config).importer().schema_peek()
    except ImporterError as exc:
        typer.echo(f"database: unknown ({exc})")
        raise typer.Exit() from None
    typer.echo(describe_schema(peek))
    raise typer.Exit()


def describe_schema(peek: SchemaPeek) -> str:
    if peek.unreachable is not None:
        return f"database: {peek.where}, {peek.unreachable}; schema version unknown"
    if peek.version is None:
        return f"database: {peek.where}, no schema yet (the first command creates it)"
    state = "current"
    if peek.version < peek.latest:
        state = f"the next command migrates it to {peek.latest}"
    elif peek.version > peek.latest:
        state = f"newer than this importer, which knows up to {peek.latest}"
    return f"database: {peek.where}, schema version {peek.version} ({state})"


@app.callback()
def root(
    ctx: typer.Context,
    config: Path | None = typer.Option(
        None, "--config", envvar="IMPORTER_CONFIG", help="Settings file (importer.toml)."
    ),
    debug: bool = typer.Option(
        False,
        "--debug",
        help="Show tracebacks for errors, and which path read an import's rows and why.",
    ),
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    started = ctx.obj if isinstance(ctx.obj, float) else time.monotonic()  # see cli.run
    ctx.obj = AppState(config_path=config, debug=debug, started=started)


COMMANDS = (
    db_cmd,
    forms_cmd,
    submit_cmd,
    jobs_cmd,
    check_cmd,
    export_cmd,
    worker_cmd,
    timers_cmd,
    purge_cmd,
    changes_cmd,
    users_cmd,
    serve_cmd,
)
for module in COMMANDS:
    module.register(app)
