"""This process in the fleet: its row in `workers` and its working connection, the signals
that stop it, and the backoff between reconnections. Shared by a foreground run (`submit`,
`resume`) and the daemons (worker, timer scheduler).

- graceful_signals: the first SIGTERM/SIGINT asks for a graceful stop, the second exits at
  once (after ``on_second``, which may give the job back; else its lease expires and another
  process takes over), a third without waiting for that.
- Backoff: capped exponential delays for reconnecting.
- ProcessConnection: the working connection, registered in `workers`, reopened after a loss.
- Registration: a row in `workers` kept alive by a thread of its own, for a process whose
  main thread is busy elsewhere (a foreground import).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType

from importer.database import Connection, connect
from importer.database.connection import DEAD_PEER_SECONDS
from importer.errors import ImporterError
from importer.repositories import fleet
from importer.states import ProcessKind


class Backoff:
    """0.5 s, 1 s, 2 s ... capped; reset() after a success."""

    def __init__(self, first: float = 0.5, cap: float = 30.0) -> None:
        self.first = first
        self.cap = cap
        self._next = first

    def next_delay(self) -> float:
        delay = self._next
        self._next = min(self.cap, self._next * 2)
        return delay

    def reset(self) -> None:
        self._next = self.first


@contextlib.contextmanager
def graceful_signals(
    stop: threading.Event,
    on_first: Callable[[int], None] | None = None,
    on_second: Callable[[int], None] | None = None,
) -> Iterator[None]:
    """SIGTERM/SIGINT: first sets ``stop`` (and calls on_first), second calls on_second
    (which must bound its own time) and exits, a third during on_second exits at once.

    Only possible in the main thread; elsewhere (embedded use) the caller owns ``stop``.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    quitting: list[int] = []

    def handle(signum: int, frame: FrameType | None) -> None:
        del frame
        if quitting:
            os._exit(128 + signum)
        if stop.is_set():
            quitting.append(signum)
            if on_second is not None:
                with contextlib.suppress(Exception):
                    on_second(signum)
            os._exit(128 + signum)
        stop.set()
        if on_first is not None:
            on_first(signum)

    previous = {sig: signal.signal(sig, handle) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


class ProcessConnection:
    """The working connection of a worker or scheduler: opened on demand (``setup`` runs on
    each new connection, then the process is registered in `workers`), dropped when it
    fails, and reopened on the next get(). ``on_back`` runs when a lost database returns."""

    def __init__(
        self,
        url: str,
        owner: str,
        kind: ProcessKind,
        *,
        setup: Callable[[Connection], None] | None = None,
        on_back: Callable[[], None] | None = None,
        dead_after: float = DEAD_PEER_SECONDS,
    ) -> None:
        self.url = url
        self.owner = owner
        self.kind = kind
        self.dead_after = dead_after
        self.setup = setup
        self.on_back = on_back
        self.lost = False  # set by the loop when the database went away
        self._conn: Connection | None = None

    def get(self) -> Connection:
        if self._conn is None or self._conn.closed or self._conn.broken:
            self.drop()
            conn = connect(self.url, autocommit=True, dead_after=self.dead_after)
            try:
                if self.setup is not None:
                    self.setup(conn)
                fleet.register_process(conn, self.owner, self.kind)
            except BaseException:
                conn.close()
                raise
            self._conn = conn
            if self.lost:
                self.lost = False
                if self.on_back is not None:
                    self.on_back()
        return self._conn

    def drop(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
        self._conn = None

    def close(self) -> None:
        """Unregister (when the connection still works) and close."""
        with contextlib.suppress(Exception):
            if self._conn is not None and not self._conn.broken:
                fleet.unregister_process(self._conn, self.owner)
        self.drop()


class Registration:
    """This process's row in `workers`, from start() to stop(): registered by start(), then
    a daemon thread heartbeats every ``interval`` seconds on its own connection (one
    statement, however busy the process is) and deletes the row when stopped. Best effort:
    a lost database only delays the next beat, and a process killed outright leaves a row
    that stops beating, which `watch` and `stats` then ignore like any silent worker's."""

    def __init__(
        self, url: str, owner: str, kind: ProcessKind, *, interval: float = fleet.HEARTBEAT_SECONDS
    ) -> None:
        self.owner = owner
        self.kind = kind
        self.interval = interval
        self._db = ProcessConnection(url, owner, kind)
        self._registered_on: Connection | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"{kind}-registration", daemon=True)

    def __enter__(self) -> Registration:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        self._beat()  # visible before the caller goes on (when the database answers)
        try:
            self._thread.start()
        except BaseException:
            self._db.close()
            raise

    def stop(self, timeout: float = 5.0) -> None:
        """Unregister; waits at most ``timeout`` seconds for a stalled database."""
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def _beat(self) -> None:
        try:
            conn = self._db.get()  # a new connection registers the process
            if conn is self._registered_on:
                fleet.heartbeat_process(conn, self.owner, self.kind)
            self._registered_on = conn
        except ImporterError:
            self._db.drop()  # try again at the next beat

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.interval):
                self._beat()
        finally:
            self._db.close()
