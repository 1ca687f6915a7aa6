"""A test hook for the crash tests: stop this process at an exact point of a run.

IMPORTER_TEST_PAUSE_AT names the point: "claimed", "batch:N" (inside batch N's transaction,
before commit), "committed:N" (after it), "finish" (inside the final transaction). The
process stops itself (SIGSTOP) there, so a test can kill -9 it at that point or let its lease
expire. Unset (always, outside tests) it costs one string comparison per point.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable

PAUSE_ENV = "IMPORTER_TEST_PAUSE_AT"


def pause_point() -> Callable[[str], None]:
    wanted = os.environ.get(PAUSE_ENV, "").strip()

    def pause(point: str) -> None:
        if wanted and point == wanted:
            # Sent to this thread, so it stops before running another line (the whole
            # process stops with it); sent to the process, this thread could run on a bit.
            signal.pthread_kill(threading.get_ident(), signal.SIGSTOP)

    return pause
