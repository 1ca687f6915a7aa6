"""`importer serve`: the application served by uvicorn and, unless told otherwise, a worker
on a thread of the same process, so that one command serves a small team; larger set-ups run
several `serve --no-worker` behind a proxy and `importer worker` elsewhere."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from importer.api import Importer
from importer.web.app import create_app

if TYPE_CHECKING:
    from importer.daemons.worker import WorkerEvent

# How long a stopping serve waits for its worker to give its jobs back (a batch's time).
WORKER_STOP_SECONDS = 60.0


def serve(
    importer: Importer,
    *,
    host: str,
    port: int,
    worker: bool,
    owner: str | None = None,
    on_worker_event: Callable[[WorkerEvent], None] | None = None,
    on_line: Callable[[str], None] = lambda line: None,
) -> None:
    """Serve until SIGINT/SIGTERM; then stop the worker (its running jobs go back to pending
    at their batch boundary, as `importer worker` does)."""
    import uvicorn

    importer.database  # noqa: B018 - the schema current (and the embedded server up) first
    stop = threading.Event()
    thread = None
    if worker:
        thread = threading.Thread(
            target=importer.run_worker,
            kwargs={"stop": stop, "owner": owner, "on_event": on_worker_event},
            name="importer-worker",
            daemon=True,
        )
        thread.start()
    config = uvicorn.Config(
        create_app(importer),
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        proxy_headers=True,  # X-Forwarded-Proto from a proxy on this host: Secure cookies
        server_header=False,
    )
    on_line(
        f"serving the page at http://{host}:{port}/ and the API at /api"
        + (" (with a worker)" if worker else " (no worker: run importer worker)")
    )
    try:
        uvicorn.Server(config).run()
    finally:
        stop.set()
        if thread is not None:
            thread.join(WORKER_STOP_SECONDS)
