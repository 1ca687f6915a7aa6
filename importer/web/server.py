"""`importer serve`: the application served by uvicorn and, unless told otherwise, a worker
on a thread of the same process, so that one command serves a small team; larger set-ups run
several `serve --no-worker` behind a proxy and `importer worker` elsewhere."""

from __future__ import annotations

import contextlib
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import TYPE_CHECKING

import uvicorn

from importer.api import Importer
from importer.web.app import create_app

if TYPE_CHECKING:
    from importer.daemons.worker import WorkerEvent

# How long a stopping serve waits for its worker to give its jobs back (a batch's time).
WORKER_STOP_SECONDS = 60.0


class _Server(uvicorn.Server):
    """uvicorn's server, stopped by SIGTERM or SIGINT as `importer worker` is: the stop is
    logged and the command then ends normally (exit 0, its worker's jobs given back), where
    uvicorn would raise the signal again once stopped and die of it before that."""

    def __init__(
        self, config: uvicorn.Config, on_line: Callable[[str], None], worker: bool
    ) -> None:
        super().__init__(config)
        self.on_line = on_line
        self.worker = worker
        self.stopped_by: str | None = None

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return

        def stop(number: int, frame: FrameType | None) -> None:
            if self.should_exit and number == signal.SIGINT:
                self.force_exit = True  # a second Ctrl-C: open requests are not waited for
            self.stopped_by = self.stopped_by or signal.Signals(number).name
            self.should_exit = True

        previous = {number: signal.signal(number, stop) for number in _STOP_SIGNALS}
        try:
            yield
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        # Logged here, on the server's loop, rather than in the signal handler.
        if self.stopped_by is not None:
            jobs = "; the worker's running jobs go back to pending at their batch boundary"
            self.on_line(
                f"stopping on {self.stopped_by}: no new requests, open ones are finished"
                + (jobs if self.worker else "")
            )
        await super().shutdown(sockets=sockets)


_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def serve(
    importer: Importer,
    *,
    host: str,
    port: int,
    worker: bool,
    owner: str | None = None,
    on_worker_event: Callable[[WorkerEvent], None] | None = None,
    on_line: Callable[[str], None] = lambda line: None,
    threads: int | None = None,
) -> None:
    """Serve until SIGINT/SIGTERM; then stop the worker (its running jobs go back to pending
    at their batch boundary, as `importer worker` does). ``threads``: the facade calls run
    at once (as many as the connections they share: more would only wait for one)."""
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
    server: _Server | None = None

    def stopping() -> bool:
        return server is not None and server.should_exit

    config = uvicorn.Config(
        create_app(importer, stopping=stopping, threads=threads),
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
    server = _Server(config, on_line, worker)
    try:
        server.run()
    finally:
        stop.set()
        if thread is not None:
            thread.join(WORKER_STOP_SECONDS)
    if server.stopped_by is not None:
        on_line(f"stopped on {server.stopped_by}")
