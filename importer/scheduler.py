"""The timer scheduler loop behind `importer timers`.

Claims due timers in batches (one statement, committed before firing), fires them with
TimerFirer, and sleeps until the next timer is due, a NOTIFY on ``importer_timers`` or the
poll interval, whichever is first. Any number of schedulers may run against one database.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import psycopg

from importer import fleet
from importer.config import TimerSettings
from importer.db import Connection, translate
from importer.errors import DatabaseError
from importer.identity import new_owner
from importer.process_loop import (
    Backoff,
    ProcessConnection,
    Wakeup,
    graceful_signals,
    interruptible_sleep,
)
from importer.timers import NOTIFY_CHANNEL, FireReport, TimerFirer, claim_timers
from importer.timers import seconds_until_next_due as next_due


@dataclass(frozen=True)
class SchedulerEvent:
    """kind: started | fired | database_lost | database_back | stopping | stopped."""

    kind: str
    message: str = ""
    report: FireReport | None = None


class TimerScheduler:
    def __init__(
        self,
        url: str,
        settings: TimerSettings,
        *,
        once: bool = False,
        owner: str | None = None,
        stop: threading.Event | None = None,
        on_event: Callable[[SchedulerEvent], None] | None = None,
    ) -> None:
        self.url = url
        self.settings = settings
        self.once = once
        self.owner = owner or new_owner()
        self.stop = stop or threading.Event()
        self.on_event = on_event or (lambda event: None)
        self.totals = FireReport()
        self._wakeup = Wakeup(url, [NOTIFY_CHANNEL])
        self._db = ProcessConnection(
            url, self.owner, "timers", setup=self._on_connect, on_back=self._on_back
        )
        self._next_heartbeat = 0.0

    def run(self) -> FireReport:
        """Run until stopped (or, with once, until nothing is due); return the totals."""

        def on_signal(signum: int) -> None:
            del signum
            self._wakeup.wake()

        try:
            with graceful_signals(self.stop, on_signal):
                self.on_event(SchedulerEvent("started", f"timer scheduler {self.owner}"))
                interruptible_sleep(self.settings.startup_delay_seconds, self.stop, self._wakeup)
                self._loop()
                if self.stop.is_set():
                    self.on_event(SchedulerEvent("stopping", "stopped claiming timers"))
        finally:
            self._close()
        self.on_event(SchedulerEvent("stopped", "timer scheduler stopped", self.totals))
        return self.totals

    def _loop(self) -> None:
        backoff = Backoff()
        while not self.stop.is_set():
            try:
                more, sleep_for = self._step()
            except (DatabaseError, psycopg.Error) as exc:
                error = exc if isinstance(exc, DatabaseError) else translate(exc, self.url)
                self._db.drop()
                if self.once:
                    raise error from exc
                delay = backoff.next_delay()
                self._db.lost = True
                self.on_event(SchedulerEvent("database_lost", f"{error}; retrying in {delay:g}s"))
                interruptible_sleep(delay, self.stop, self._wakeup)
                continue
            backoff.reset()
            if more:
                continue
            if self.once:
                return
            self._wakeup.wait(sleep_for)

    def _step(self) -> tuple[bool, float]:
        """One claim-and-fire round: (a full batch was claimed, seconds to sleep otherwise)."""
        conn = self._db.get()
        now = time.monotonic()
        if now >= self._next_heartbeat:
            fleet.heartbeat_process(conn, self.owner, "timers")
            self._next_heartbeat = now + fleet.HEARTBEAT_SECONDS
        claimed_at = time.monotonic()
        timers = claim_timers(
            conn,
            owner=self.owner,
            limit=self.settings.batch_size,
            lease_seconds=self.settings.lease_seconds,
        )
        if timers:
            report = TimerFirer(conn, self.owner, self.settings, self.stop).fire(timers, claimed_at)
            self.totals.add(report)
            self.on_event(SchedulerEvent("fired", "", report))
            if len(timers) >= self.settings.batch_size:
                return True, 0.0
        until_due = next_due(conn)
        sleep_for = self.settings.poll_interval_seconds
        if until_due is not None:
            sleep_for = min(sleep_for, until_due + 0.005)
        sleep_for = min(sleep_for, max(0.0, self._next_heartbeat - time.monotonic()))
        return False, sleep_for

    def _on_connect(self, conn: Connection) -> None:
        del conn
        self._next_heartbeat = time.monotonic() + fleet.HEARTBEAT_SECONDS

    def _on_back(self) -> None:
        self.on_event(SchedulerEvent("database_back", "database reachable again"))

    def _close(self) -> None:
        self._db.close()
        self._wakeup.close()
