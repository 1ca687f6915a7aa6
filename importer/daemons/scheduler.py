"""The timer scheduler loop behind `importer timers`.

Claims due timers in batches (one statement, committed before firing), fires them with
TimerFirer, and sleeps until the next timer is due, a NOTIFY on ``importer_timers`` or the
poll interval, whichever is first. Any number of schedulers may run against one database.
A batch's `notify` timers (completion notices: HTTP calls) are sent after its other timers
have committed, outside any transaction, so a slow receiver delays this loop by about one
request timeout at most and holds nothing another scheduler waits for (timers/firing.py).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from importer.config import TimerSettings
from importer.daemons.daemon import Daemon, Wakeup
from importer.database import Connection
from importer.identity import new_owner
from importer.repositories import fleet
from importer.repositories.retention import keep_retention_timer
from importer.repositories.timers import NOTIFY_CHANNEL, Timer, claim_timers
from importer.repositories.timers import seconds_until_next_due as next_due
from importer.running.process import ProcessConnection
from importer.states import ProcessKind
from importer.timers.firing import FireReport, TimerFirer

# How often a scheduler makes sure today's retention timer exists (or, with retention off,
# that none waits).
RETENTION_CHECK_SECONDS = 60.0


class SchedulerEventKind(StrEnum):
    STARTED = "started"
    FIRED = "fired"
    DATABASE_LOST = "database_lost"
    DATABASE_BACK = "database_back"
    STOPPING = "stopping"
    STOPPED = "stopped"


@dataclass(frozen=True)
class SchedulerEvent:
    kind: SchedulerEventKind
    message: str = ""
    report: FireReport | None = None
    timers: tuple[Timer, ...] = ()  # FIRED: the timers the report is about


class TimerScheduler(Daemon):
    def __init__(
        self,
        url: str,
        settings: TimerSettings,
        *,
        once: bool = False,
        owner: str | None = None,
        stop: threading.Event | None = None,
        on_event: Callable[[SchedulerEvent], None] | None = None,
        retention_seconds: float = 0.0,
        history_retention_seconds: float = 0.0,
    ) -> None:
        self.url = url
        self.settings = settings
        # > 0: a retention timer each day purges what finished longer ago than this.
        self.retention_seconds = retention_seconds
        self.history_retention_seconds = history_retention_seconds  # keyed forms' history
        self.owner = owner or new_owner()
        self.on_event = on_event or (lambda event: None)
        self.totals = FireReport()
        super().__init__(
            stop=stop or threading.Event(),
            wakeup=Wakeup(url, [NOTIFY_CHANNEL]),
            db=ProcessConnection(
                url, self.owner, ProcessKind.TIMERS, setup=self._on_connect, on_back=self._on_back
            ),
            once=once,
            startup_delay_seconds=settings.startup_delay_seconds,
        )
        self._next_heartbeat = 0.0
        self._next_retention_check = 0.0

    def run(self) -> FireReport:
        """Run until stopped (or, with once, until nothing is due); return the totals."""
        self.run_loop()
        self.on_event(
            SchedulerEvent(SchedulerEventKind.STOPPED, "timer scheduler stopped", self.totals)
        )
        return self.totals

    def on_started(self) -> None:
        self.on_event(SchedulerEvent(SchedulerEventKind.STARTED, f"timer scheduler {self.owner}"))

    def on_database_lost(self, message: str) -> None:
        self.on_event(SchedulerEvent(SchedulerEventKind.DATABASE_LOST, message))

    def shut_down(self) -> None:
        if self.stop.is_set():
            self.on_event(SchedulerEvent(SchedulerEventKind.STOPPING, "stopped claiming timers"))

    def step(self) -> tuple[bool, float]:
        """One claim-and-fire round: (a full batch was claimed, seconds to sleep otherwise)."""
        conn = self._db.get()
        now = time.monotonic()
        if now >= self._next_heartbeat:
            fleet.heartbeat_process(conn, self.owner, ProcessKind.TIMERS)
            self._next_heartbeat = now + fleet.HEARTBEAT_SECONDS
        if now >= self._next_retention_check:
            keep_retention_timer(
                conn,
                self.retention_seconds,
                self.settings.max_attempts,
                history_older_than_seconds=self.history_retention_seconds,
            )
            self._next_retention_check = now + RETENTION_CHECK_SECONDS
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
            self.on_event(SchedulerEvent(SchedulerEventKind.FIRED, "", report, tuple(timers)))
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
        self.on_event(SchedulerEvent(SchedulerEventKind.DATABASE_BACK, "database reachable again"))
