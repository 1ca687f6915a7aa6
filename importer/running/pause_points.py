"""A test hook for the crash tests: stop this process at an exact point of a run.

IMPORTER_TEST_PAUSE_AT names the point: "claimed"; "batch:N", batch N's last moment before
it commits, on the path production takes (a pause never switches statements): inside the
batch's explicit transaction, for every form, after the fence and cursor advance, the rows
(COPY, and for a form with a key the upsert) and the rejected rows; "committed:N" (after it);
"rows:N", after the first commit whose cursor reaches N rows (batches differ in size where
a path cuts them at its pieces' ends); "finish" (inside the final transaction). The process
stops itself (SIGSTOP) there, so a test can kill -9 it at that point or let its lease expire.
Unset (always, outside tests) it costs one string comparison per point.
"""

from __future__ import annotations

import os
import signal
import threading

PAUSE_ENV = "IMPORTER_TEST_PAUSE_AT"


class PausePoints:
    """The armed point (if any), read from the environment once per run."""

    def __init__(self) -> None:
        self.wanted = os.environ.get(PAUSE_ENV, "").strip()

    def armed(self, point: str) -> bool:
        return bool(self.wanted) and point == self.wanted

    def rows(self, cursor: int) -> None:
        """A commit brought the cursor to ``cursor``: "rows:N" stops here the first time."""
        if self.wanted.startswith("rows:") and cursor >= int(self.wanted[5:]):
            self.wanted = ""
            signal.pthread_kill(threading.get_ident(), signal.SIGSTOP)

    def __call__(self, point: str) -> None:
        if self.armed(point):
            # Sent to this thread, so it stops before running another line (the whole
            # process stops with it); sent to the process, this thread could run on a bit.
            signal.pthread_kill(threading.get_ident(), signal.SIGSTOP)


def pause_point() -> PausePoints:
    return PausePoints()
