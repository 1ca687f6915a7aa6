"""Commit batches on a second thread while the caller reads and validates the next one.

PostgreSQL works on batch N (COPY, indexes, commit) while Python parses and checks batch
N+1: the two overlap instead of taking turns. Order and the contract are unchanged: one
thread commits every batch, in order, each in its own fenced transaction, and at most
WAITING_BATCHES wait in the queue. After an error, a stop or a cancel, waiting batches are
dropped, never written.
"""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from importer.repositories.batches import Committed
from importer.thread_names import os_named

# The writer thread wakes for every reply from PostgreSQL; with Python's default 5 ms
# switch interval it would wait that long for the interpreter each time the reading thread
# is busy. 0.5 ms measured best (0.2 ms loses to switching overhead).
SWITCH_INTERVAL_SECONDS = 0.0005

# The columnar path hands over a piece's batches at once (~3 of 10,000 rows): with one
# waiting, its reader stalled behind the writer (200,000 rows: 2.94-2.95 s, with two
# 2.74-2.84 s, with three 2.79-2.98 s and ~15 MB more than two: each waiting batch keeps
# its piece). The row path makes one batch at a time and measured the same either way.
WAITING_BATCHES = 2


@dataclass(frozen=True)
class Done:
    committed: Committed
    rows: int  # rows in the batch


Write = Callable[[Any, int], Committed]  # (prepared batch, batch number)


class CommitThread:
    def __init__(self, write: Write, *, name: str = "batch-writer") -> None:
        self._write = write
        self._queue: queue.Queue[tuple[Any, int, int] | None] = queue.Queue(maxsize=WAITING_BATCHES)
        self._done: list[Done] = []
        self._lock = threading.Lock()
        self._error: BaseException | None = None
        self._dropping = False
        self.cancelled = False
        self._thread = threading.Thread(
            target=os_named(_fast_switching(self._run)), name=name, daemon=True
        )
        self._thread.start()

    def submit(self, batch: Any, number: int, rows: int) -> None:
        """Queue a batch (blocks while WAITING_BATCHES are waiting). Raises a writer error."""
        self._raise()
        self._queue.put((batch, number, rows))

    def collect(self) -> list[Done]:
        """Batches committed since the last call, in order; raises the writer's error."""
        with self._lock:
            done, self._done = self._done, []
        self._raise()
        return done

    def drain(self, *, drop_queued: bool = False) -> list[Done]:
        """Wait until every queued batch is committed, then collect. ``drop_queued``: only
        the batch in flight is finished; one still waiting is dropped (stopping)."""
        if drop_queued:
            with self._lock:
                self._dropping = True
        self._queue.join()
        return self.collect()

    def close(self) -> None:
        """Let the batch in flight finish, drop the rest, stop the thread."""
        with self._lock:
            self._dropping = True
        self._queue.put(None)
        self._thread.join()

    def __enter__(self) -> CommitThread:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _raise(self) -> None:
        with self._lock:
            error = self._error
        if error is not None:
            raise error

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            try:
                if item is None:
                    return
                with self._lock:
                    skip = self._error is not None or self.cancelled or self._dropping
                if skip:
                    continue
                batch, number, rows = item
                try:
                    committed = self._write(batch, number)
                except BaseException as exc:  # handed to the caller's thread
                    with self._lock:
                        self._error = exc
                    continue
                with self._lock:
                    self._done.append(Done(committed, rows))
                    if committed.cancelled:
                        self.cancelled = True
            finally:
                self._queue.task_done()


class _FastSwitching:
    """The short interval is process-wide: it is held while at least one writer thread runs,
    and the interval from before is restored when the last of them stops."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._threads = 0
        self._previous = 0.0

    def __enter__(self) -> None:
        with self._lock:
            if self._threads == 0:
                self._previous = sys.getswitchinterval()
                sys.setswitchinterval(min(self._previous, SWITCH_INTERVAL_SECONDS))
            self._threads += 1

    def __exit__(self, *exc_info: object) -> None:
        with self._lock:
            self._threads -= 1
            if self._threads == 0:
                sys.setswitchinterval(self._previous)

    def __call__(self, run: Callable[[], None]) -> Callable[[], None]:
        """`run` as the target of a thread about to start: the short interval is taken now, so
        it is in force once the writer exists, and given back when `run` returns."""
        self.__enter__()

        def run_then_give_back() -> None:
            try:
                run()
            finally:
                self.__exit__()

        return run_then_give_back


_fast_switching = _FastSwitching()
