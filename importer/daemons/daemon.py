"""What the long-running processes (worker, timer scheduler) share.

- Wakeup: sleep until a NOTIFY on our channels, an in-process wake() (a signal, a finished
  job) or a timeout, whichever comes first. The LISTEN connection is separate from the
  working one and is re-opened with backoff when it drops; polling covers the gap.
- until_reachable: a daemon started while its database is away waits for it.
(The process's registration, working connection, signals and backoff: running/process.py.)
- Daemon: the main loop both share: step, sleep until woken, back off while the database
  is away; signals, the start-up delay and the closing of connections around it.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from importer.database import Connection, connect
from importer.errors import DatabaseError, DatabaseUnavailable
from importer.repositories import sessions
from importer.running.process import (
    Backoff,
    ProcessConnection,
    graceful_signals,
)

T = TypeVar("T")


def until_reachable(
    attempt: Callable[[], T],
    on_retry: Callable[[str], None],
    *,
    stop: threading.Event | None = None,
    sleep: Callable[[float], object] | None = None,
) -> T | None:
    """``attempt()`` again, on the daemons' backoff, while the database is unreachable or
    full (DatabaseUnavailable): a daemon started before its database (or beside a fleet that
    fills max_connections) waits for it instead of exiting. ``on_retry`` hears one line per
    wait ("...; retrying in 2s"). None when ``stop`` is set meanwhile (a graceful stop)."""
    stop = stop or threading.Event()
    pause = sleep or stop.wait
    backoff = Backoff()
    while not stop.is_set():
        try:
            return attempt()
        except DatabaseUnavailable as error:
            delay = backoff.next_delay()
            on_retry(f"{error}; retrying in {delay:g}s")
            pause(delay)
    return None


class Wakeup:
    def __init__(self, url: str, channels: Sequence[str]) -> None:
        self.url = url
        self.channels = tuple(channels)
        self._read_fd, self._write_fd = os.pipe()
        os.set_blocking(self._read_fd, False)
        os.set_blocking(self._write_fd, False)
        self._conn: Connection | None = None
        self._retry_at = 0.0
        self._backoff = Backoff()
        self.notifications = 0

    @property
    def listening(self) -> bool:
        return self._conn is not None

    def wake(self) -> None:
        """Interrupt wait(); safe from signal handlers and other threads."""
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._write_fd, b"!")

    def _ensure_listening(self) -> None:
        if self._conn is not None or not self.channels or time.monotonic() < self._retry_at:
            return
        try:
            conn = connect(self.url, autocommit=True)
            sessions.listen(conn, self.channels)
        except DatabaseError:
            self._retry_at = time.monotonic() + self._backoff.next_delay()
            return
        self._backoff.reset()
        self._conn = conn

    def _drop(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
        self._conn = None
        self._retry_at = time.monotonic() + self._backoff.next_delay()

    def pause(self, seconds: float) -> None:
        """Give the LISTEN connection back for ``seconds`` (a server out of connections);
        polling covers the gap."""
        self._drop()
        self._retry_at = max(self._retry_at, time.monotonic() + seconds)

    def wait(self, timeout: float) -> bool:
        """Sleep up to ``timeout`` seconds; True when woken early (notify or wake())."""
        self._ensure_listening()
        fds = [self._read_fd]
        if self._conn is not None:
            fds.append(self._conn.fileno())
        try:
            readable, _, _ = select.select(fds, [], [], max(0.0, timeout))
        except OSError:  # the LISTEN socket went away under us
            self._drop()
            return False
        woken = False
        if self._read_fd in readable:
            with contextlib.suppress(BlockingIOError):
                while os.read(self._read_fd, 4096):
                    pass
            woken = True
        if self._conn is not None and self._conn.fileno() in readable:
            try:
                received = sum(1 for _ in self._conn.notifies(timeout=0))
            except DatabaseError:
                self._drop()
                return woken
            self.notifications += received
            woken = woken or received > 0
        return woken

    def close(self) -> None:
        self._drop()
        for fd in (self._read_fd, self._write_fd):
            with contextlib.suppress(OSError):
                os.close(fd)


def interruptible_sleep(seconds: float, stop: threading.Event, wakeup: Wakeup) -> None:
    """Sleep, returning early only when stopping (notifications are ignored)."""
    deadline = time.monotonic() + seconds
    while not stop.is_set():
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return
        wakeup.wait(remaining)


class Daemon:
    """The life of a worker or scheduler. Subclasses implement ``step()`` (one round: claim
    and start work; returns (go again at once, else seconds to sleep)) and may override the
    hooks. A lost database is retried with backoff; with ``once`` the loop ends as soon as a
    round finds nothing to do (and the start-up delay is skipped)."""

    def __init__(
        self,
        *,
        stop: threading.Event,
        wakeup: Wakeup,
        db: ProcessConnection,
        once: bool,
        startup_delay_seconds: float,
    ) -> None:
        self.stop = stop
        self._wakeup = wakeup
        self._db = db
        self.once = once
        self.startup_delay_seconds = startup_delay_seconds

    # --- hooks -----------------------------------------------------------------------------

    def step(self) -> tuple[bool, float]:
        raise NotImplementedError

    def before_step(self) -> None:
        """Runs before every round (a worker collects its finished jobs here)."""

    def idle(self) -> bool:
        """Nothing of ours is still running (``once`` may end; an outage may be raised)."""
        return True

    def on_started(self) -> None: ...

    def on_database_lost(self, message: str) -> None: ...

    def shut_down(self) -> None:
        """Runs once the loop ends, before the connections close."""

    # --- the loop --------------------------------------------------------------------------

    def run_loop(self) -> None:
        def on_signal(signum: int) -> None:
            del signum
            self._wakeup.wake()

        try:
            with graceful_signals(self.stop, on_signal):
                self.on_started()
                if not self.once:
                    # Registered in `workers` before the delay, so that `stats`, `watch` and
                    # /metrics count this process as live from its start (best effort: a
                    # database away now is waited for by the loop, as ever).
                    with contextlib.suppress(DatabaseError):
                        self._db.get()
                    interruptible_sleep(self.startup_delay_seconds, self.stop, self._wakeup)
                self._loop()
                self.shut_down()
        finally:
            self._db.close()
            self._wakeup.close()

    def _loop(self) -> None:
        backoff = Backoff()
        while not self.stop.is_set():
            self.before_step()
            try:
                more, sleep_for = self.step()
            except DatabaseError as error:
                self._db.drop()
                if self.once and self.idle():
                    raise
                delay = backoff.next_delay()
                self._db.lost = True
                self.on_database_lost(f"{error}; retrying in {delay:g}s")
                interruptible_sleep(delay, self.stop, self._wakeup)
                continue
            backoff.reset()
            if more:
                continue
            if self.once and self.idle():
                return
            self._wakeup.wait(sleep_for)
