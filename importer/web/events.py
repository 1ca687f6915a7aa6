"""A job's progress as server-sent events (text/event-stream), for the JSON API and the page.

The job runs on any worker, so its progress is read from the database: one hub per
application polls every stream it holds open in one statement a tick (each (viewer, job)
pair scoped in SQL as every read is), on one kept connection that is closed when no stream
is left, and wakes the streams whose job moved. A stream sends the job as it is at once,
then an event each time its committed rows, rejected rows or status change, and ends after
the event whose status is terminal; it stops when the client goes away (the hub forgets it)
or the server stops (the client's EventSource reconnects, to any instance).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.responses import StreamingResponse

from importer.api import Importer
from importer.repositories.accounts import Account
from importer.repositories.visible_jobs import Progress, not_found
from importer.web.errors import Answer, answer_for
from importer.web.views import progress_json

POLL_SECONDS = 0.25  # between two reads of every open stream's job
KEEP_ALIVE_SECONDS = 15.0  # a comment on a quiet stream, so that no proxy cuts it
RATE_WINDOW_SECONDS = 5.0  # the rows per second of the last few seconds
RETRY_MS = 2000  # how soon an EventSource reconnects after the stream ended or broke
STOPPING = Answer(503, "stopping", "the server is stopping; reconnect")


class RateWindow:
    """Rows per second over the last few seconds of a stream's samples (None until two
    samples differ in time)."""

    def __init__(self, seconds: float = RATE_WINDOW_SECONDS) -> None:
        self.seconds = seconds
        self._samples: deque[tuple[float, int]] = deque()

    def add(self, rows: int, now: float | None = None) -> float | None:
        moment = time.monotonic() if now is None else now
        self._samples.append((moment, rows))
        while len(self._samples) > 2 and moment - self._samples[1][0] >= self.seconds:
            self._samples.popleft()
        first_moment, first_rows = self._samples[0]
        if moment <= first_moment:
            return None
        return round(max(rows - first_rows, 0) / (moment - first_moment), 1)


@dataclass(eq=False)
class _Watcher:
    """One open stream: whose job, its newest progress, and why it must end (if it must)."""

    viewer: int
    job_id: int
    latest: Progress
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    ended: Answer | None = None

    def offer(self, progress: Progress | None) -> None:
        if progress is None:
            self.end(answer_for(not_found(self.job_id)))  # no longer the viewer's
        elif progress != self.latest:
            self.latest = progress
            self.wake.set()

    def end(self, answer: Answer) -> None:
        self.ended = answer
        self.wake.set()


def sse(kind: str, data: dict[str, Any], number: int | None = None) -> str:
    """One server-sent event: its id, its name and its data as one line of JSON."""
    head = f"id: {number}\n" if number is not None else ""
    return f"{head}event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


class ProgressHub:
    """The streams of progress events one application holds open, and their one reader."""

    def __init__(self, importer: Importer, stopping: Callable[[], bool]) -> None:
        self.importer = importer
        self.stopping = stopping
        self._watchers: set[_Watcher] = set()
        self._task: asyncio.Task[None] | None = None

    @property
    def open_streams(self) -> int:
        return len(self._watchers)

    def response(self, viewer: Account, first: Progress) -> StreamingResponse:
        """The stream of ``first``'s job for ``viewer`` (who may see it: checked already)."""
        return StreamingResponse(
            self._stream(viewer, first),
            media_type="text/event-stream",
            headers={"X-Accel-Buffering": "no"},  # a proxy passes each event on at once
        )

    async def _stream(self, viewer: Account, first: Progress) -> AsyncIterator[str]:
        shown = progress_json(first, None)
        yield f"retry: {RETRY_MS}\n\n" + sse("progress", shown, 1)
        if first.terminal:
            return
        watcher = _Watcher(viewer.id, first.job_id, first)
        self._join(watcher)
        rate, number, status = RateWindow(), 1, first.status
        rate.add(first.cursor)
        try:
            while True:
                try:
                    await asyncio.wait_for(watcher.wake.wait(), KEEP_ALIVE_SECONDS)
                except TimeoutError:
                    yield ": waiting\n\n"
                    continue
                watcher.wake.clear()
                if watcher.ended is not None:
                    if watcher.ended is not STOPPING:
                        yield sse("error", watcher.ended.to_json())
                    return
                progress = watcher.latest
                if progress_json(progress, None) == shown:
                    continue  # nothing an event shows has changed
                if progress.status is not status:
                    rate, status = RateWindow(), progress.status  # this run's rate, not the wait's
                shown = progress_json(progress, None)
                number += 1
                yield sse("progress", {**shown, "rate": rate.add(progress.cursor)}, number)
                if progress.terminal:
                    return
        finally:
            self._watchers.discard(watcher)

    def _join(self, watcher: _Watcher) -> None:
        self._watchers.add(watcher)
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done() or self._task.get_loop() is not loop:
            self._task = loop.create_task(self._poll())

    async def _poll(self) -> None:
        """Read every open stream's job each tick until no stream is left."""
        reader = self.importer.progress_reader()
        try:
            while self._watchers:
                await asyncio.sleep(POLL_SECONDS)
                if self.stopping():
                    for watcher in list(self._watchers):
                        watcher.end(STOPPING)
                    continue
                await self._tick(reader.read)
        finally:
            reader.close()

    async def _tick(
        self, read: Callable[[list[tuple[int, int]]], dict[tuple[int, int], Progress]]
    ) -> None:
        watchers = [w for w in self._watchers if w.ended is None]
        asked = sorted({(w.viewer, w.job_id) for w in watchers})
        if not asked:
            return
        try:
            found = await run_in_threadpool(read, asked)
        except Exception as exc:  # the database away: each stream ends with the reason
            answer = answer_for(exc)
            for watcher in watchers:
                watcher.end(answer)
            return
        for watcher in watchers:  # a stream that joined during the read waits a tick
            watcher.offer(found.get((watcher.viewer, watcher.job_id)))
