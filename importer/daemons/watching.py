"""What `importer watch` reads of the fleet: a snapshot per refresh on one kept connection
(reopened after a failure, which is reported, never raised: the dashboard keeps trying), and
each running job's rows/s between refreshes."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Collection
from dataclasses import dataclass, field, replace

from importer.database import Connection, connect, describe_target
from importer.repositories.fleet import FleetSnapshot, fleet_snapshot


@dataclass(frozen=True)
class WatchFrame:
    """One refresh: the snapshot, or why there is none; rows/s per running job id."""

    snapshot: FleetSnapshot | None
    error: str | None = None
    rates: dict[int, float] = field(default_factory=dict)


class FleetWatch:
    def __init__(self, url: str, *, only: Collection[int] = ()) -> None:
        self.url = url
        self.only = frozenset(only)  # `watch g12`: the running jobs shown are the group's
        self.target = describe_target(url)  # host:port/db, never a password
        self._conn: Connection | None = None
        # job id -> (rows done, monotonic time): rows/s between refreshes
        self._last_done: dict[int, tuple[int, float]] = {}
        self._rates: dict[int, float] = {}

    def refresh(self) -> WatchFrame:
        try:
            if self._conn is None or self._conn.broken:
                self._conn = connect(self.url, autocommit=True)
            snapshot = fleet_snapshot(self._conn)
            if self.only:
                running = [job for job in snapshot.running if job["id"] in self.only]
                failed = [job for job in snapshot.failed if job["id"] in self.only]
                snapshot = replace(snapshot, running=running, failed=failed)
        except Exception as exc:  # shown on screen; watch keeps trying
            self.close()
            return WatchFrame(None, str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        self._update_rates(snapshot)
        return WatchFrame(snapshot, None, dict(self._rates))

    def _update_rates(self, snapshot: FleetSnapshot) -> None:
        now = time.monotonic()
        seen: dict[int, tuple[int, float]] = {}
        for job in snapshot.running:
            done = int(job["success_rows"]) + int(job["failed_rows"])
            seen[job["id"]] = (done, now)
            before = self._last_done.get(job["id"])
            if before is not None and now > before[1]:
                rate = (done - before[0]) / (now - before[1])
                old = self._rates.get(job["id"])
                self._rates[job["id"]] = rate if old is None else 0.5 * old + 0.5 * rate
        self._last_done = seen
        self._rates = {k: v for k, v in self._rates.items() if k in seen}

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
        self._conn = None

    def __enter__(self) -> FleetWatch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
