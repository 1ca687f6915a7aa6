"""`importer db ...`: schema and embedded-server housekeeping."""

from __future__ import annotations

import typer

from importer.cli.help import help_for
from importer.cli.output import stdout_console
from importer.cli.state import state

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


def register(app: typer.Typer) -> None:
    app.add_typer(db_app, name="db", **help_for("db"))
