"""`importer serve`: the web page and the JSON API (importer/web), with a worker."""

from __future__ import annotations

import logging

import typer

from importer.cli.help import help_for
from importer.cli.logs import event_log
from importer.cli.state import state
from importer.cli.worker_cmd import log_format_option
from importer.identity import new_owner

# Connections the page and the API share (a request borrows one for its statements); the
# worker and the progress streams keep their own.
SHARED_CONNECTIONS = 10


def serve_command(
    ctx: typer.Context,
    host: str = typer.Option("127.0.0.1", "--host", help="The address to listen on."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="The port to listen on."),
    no_worker: bool = typer.Option(
        False, "--no-worker", help="Serve only: leave the imports to `importer worker`."
    ),
    log_format: str = log_format_option(),
) -> None:
    """Serve the sender's page and the JSON API until SIGTERM/Ctrl-C; unless --no-worker, a
    worker in the same process runs the uploaded imports."""
    from importer.web.server import serve

    importer = state(ctx).importer()
    with (
        importer.sharing_connections(SHARED_CONNECTIONS),
        event_log("serve", log_format, owner=new_owner()) as log,
    ):
        serve(
            importer,
            host=host,
            port=port,
            worker=not no_worker,
            owner=log.owner,
            on_worker_event=log.worker_event,
            on_line=lambda line: log.record(logging.INFO, line, event="serving"),
            threads=SHARED_CONNECTIONS,
        )


def register(app: typer.Typer) -> None:
    app.command("serve", **help_for("serve"))(serve_command)
