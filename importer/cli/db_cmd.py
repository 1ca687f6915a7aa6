"""`importer db ...`: schema and embedded-server housekeeping."""

from __future__ import annotations

import sys

import typer

from importer.cli.help import help_for
from importer.cli.output import stdout_console
from importer.cli.progress import format_size
from importer.cli.state import state
from importer.errors import UsageError

db_app = typer.Typer(help="Database schema and the embedded server.", no_args_is_help=True)


@db_app.command("migrate", **help_for("db migrate"))
def migrate_command(ctx: typer.Context) -> None:
    """Apply pending schema migrations (every command also does this first)."""
    done, latest, url = state(ctx).importer().migrate()
    console = stdout_console()
    for migration in done:
        console.print(f"applied {migration.version:04d}_{migration.name}")
    console.print(f"schema at version {latest} on {url}")


@db_app.command("url", **help_for("db url"))
def url_command(ctx: typer.Context) -> None:
    """Print the connection URL in use (password masked); starts the embedded server."""
    stdout_console().print(state(ctx).importer().database_url())


@db_app.command("stop", **help_for("db stop"))
def stop_command(ctx: typer.Context) -> None:
    """Stop the embedded server (it starts again on the next command)."""
    stopped = state(ctx).importer().stop_embedded_server()
    if stopped is None:
        message = "an external server is configured; nothing to stop"
    else:
        message = "embedded server stopped" if stopped else "embedded server not running"
    stdout_console().print(message)


@db_app.command("info", **help_for("db info"))
def info_command(ctx: typer.Context) -> None:
    """Where the embedded server's data lives, how big it is, and whether it runs."""
    info = state(ctx).importer().embedded_server_info()
    out = stdout_console()
    if info is None:
        url = state(ctx).importer().database_url()
        out.print(f"an external server is configured: {url}", markup=False)
        return
    state_text = "running" if info.running else "stopped"
    if not info.exists:
        state_text = "not created yet (the next command creates it)"
    out.print(f"embedded server: {state_text}", markup=False)
    out.print(f"home:  {info.home}", markup=False)
    out.print(f"data:  {info.data} ({format_size(info.size_bytes)})", markup=False)
    if not info.in_home:
        out.print(
            "       outside the home: the server's system user cannot pass through a folder"
            " above it; choose IMPORTER_HOME under a folder others may pass to keep it there",
            markup=False,
        )
    if info.exists:
        out.print("remove it with: importer db remove", markup=False)


@db_app.command("remove", **help_for("db remove"))
def remove_command(
    ctx: typer.Context,
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
) -> None:
    """Stop the embedded server and delete its data: every form, job and imported row."""
    importer = state(ctx).importer()
    info = importer.embedded_server_info()
    if info is None:
        raise UsageError("an external server is configured; importer never removes its data")
    if not info.exists:
        stdout_console().print(f"no embedded server data in {info.home}", markup=False)
        return
    if not yes:
        if not sys.stdin.isatty():
            raise UsageError("removing the embedded server's data needs --yes (no terminal)")
        typer.confirm(
            f"delete {info.data} ({format_size(info.size_bytes)}): every form, job and"
            " imported row?",
            abort=True,
        )
    removed = importer.remove_embedded_server()
    assert removed is not None
    stdout_console().print(
        f"removed the embedded server's data ({format_size(removed.size_bytes)} freed)",
        markup=False,
    )


def register(app: typer.Typer) -> None:
    app.add_typer(db_app, name="db", **help_for("db"))
