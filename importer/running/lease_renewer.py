"""The one thing that keeps a running job's lease alive.

A thread with its own connection extends the lease every third of its length while the run
reads, validates or writes, so a long batch (or a slow workbook open) never lets it expire.
When the renewal finds the job no longer ours, ``lost`` is set: the run stops at its next
batch boundary (and its batch fence would refuse to write anyway).

``lost`` is also set when the renewals have failed for so long that the next one would come
after the lease ran out (the database unreachable, or a partition: a dead socket): by then
another host may own the job, and a run that stops before its lease ends never races it.
Every attempt is bounded (the connection gives up on a silent server after a third of the
lease), so the renewer never hangs past the lease.
"""

from __future__ import annotations

import contextlib
import threading
import time

from importer.database import Connection, connect
from importer.errors import ImporterError
from importer.repositories import jobs, sessions
from importer.thread_names import os_named


class LeaseRenewer:
    def __init__(self, url: str, job_id: int, owner: str, lease_seconds: float) -> None:
        self.url = url
        self.job_id = job_id
        self.owner = owner
        self.lease_seconds = lease_seconds
        self.interval = max(0.2, lease_seconds / 3)
        self.lost = threading.Event()
        self.gave_up = False  # lost because renewals kept failing, not to another owner
        self._renewed_at = time.monotonic()  # the claim (or last renewal) began the lease
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=os_named(self._run), name=f"lease-{job_id}", daemon=True
        )

    def __enter__(self) -> LeaseRenewer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=self.interval + 5)

    def time_left(self) -> float:
        """Seconds left of the lease by this host's clock: a lower bound, counted from when
        the last renewal (or the claim) began."""
        return self._renewed_at + self.lease_seconds - time.monotonic()

    def renewed(self) -> None:
        """The lease was extended elsewhere (a committed batch's fence does it)."""
        self._renewed_at = time.monotonic()

    def _run(self) -> None:
        conn: Connection | None = None
        try:
            while not self._stop.wait(self.interval):
                try:
                    if conn is None or conn.closed or conn.broken:
                        conn = connect(self.url, autocommit=True, dead_after=self.interval)
                        # A batch transaction holds the job row: don't queue behind it for
                        # long, its own fence extends the lease when it commits.
                        sessions.set_lock_timeout(conn, int(self.interval * 1000))
                    began = time.monotonic()
                    if not jobs.renew_lease(conn, self.job_id, self.owner, self.lease_seconds):
                        self.lost.set()
                        return
                    self._renewed_at = began
                except ImporterError:
                    if conn is not None:
                        with contextlib.suppress(Exception):
                            conn.close()
                    conn = None  # try again next beat; the batch fence decides in the end
                    if time.monotonic() - self._renewed_at + self.interval >= self.lease_seconds:
                        # The next beat would come after the lease ran out: stop first.
                        self.gave_up = True
                        self.lost.set()
                        return
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.close()
