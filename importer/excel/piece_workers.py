"""The split's per-piece work (xlsx_piece_facts) on worker processes beside the one that
inflates the sheet.

The split of a big sheet is a series of C-level searches over its XML; they hold the
interpreter, so threads cannot share them, and the process uses one core of the machine's
while the job waits for the split. Here the reading process inflates the sheet and cuts it;
each piece's bytes go to a worker (round robin), and the answers come back in the order the
pieces were given. A worker has at most one piece at a time: the reader sends the next only
once it has taken the last answer, so neither side can block on a full channel.

A worker is a fresh interpreter (not a fork: the reader holds threads and native pools)
that imports only the scan. It reads pieces from a socket until the socket closes, which
is also what happens when the reader dies, however: a worker never outlives it by more than
a piece. A worker that fails or cannot start costs nothing but time: every piece it had
is looked at again in the reading process, whose answer (or error) is the one that counts.
"""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import sys
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Generic, TypeVar

from importer.excel.xlsx_piece_facts import FactFinder, FactsAsked, PieceFacts

T = TypeVar("T")
_PROCESS_NAME = b"importer-split"


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class _Worker:
    def __init__(self, asked: FactsAsked) -> None:
        ours, theirs = socket.socketpair()
        try:
            self.process = subprocess.Popen(
                # -P: the reader's own package, never a folder of that name where it runs.
                [sys.executable, "-P", "-m", __name__, str(theirs.fileno())],
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self.channel = Connection(ours.detach())
        self.channel.send(asked)

    def send(self, parts: list[bytes], first_piece: bool) -> None:
        self.channel.send((first_piece, [len(part) for part in parts]))
        for part in parts:  # as they are: joining them here would copy the piece once more
            self.channel.send_bytes(part)

    def answer(self) -> PieceFacts | None:
        facts: PieceFacts | None = self.channel.recv()
        return facts

    def close(self) -> None:
        self.channel.close()  # the worker's read ends: it leaves
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@dataclass
class _Pending(Generic[T]):
    tag: T
    parts: list[bytes]
    first_piece: bool
    worker: _Worker


class PieceWork(Generic[T]):
    """Pieces' facts, found on ``workers`` processes (0: here), handed back with each
    piece's ``tag`` and bytes (the parts of its XML) in the order the pieces were put."""

    def __init__(self, asked: FactsAsked, workers: int) -> None:
        self._finder = FactFinder(asked)
        self._workers: list[_Worker] = []
        try:
            for _ in range(workers):
                self._workers.append(_Worker(asked))
        except OSError:
            self._stop_workers()  # no processes to be had: all here
        self._pending: deque[_Pending[T]] = deque()
        self._turn = 0

    @property
    def workers(self) -> int:
        return len(self._workers)

    def put(
        self, tag: T, parts: list[bytes], first_piece: bool
    ) -> Iterator[tuple[T, list[bytes], PieceFacts]]:
        """The facts of the piece ``parts`` hold (its XML, cut anywhere) asked for; yields
        the pieces whose facts are in by then."""
        while self._workers and len(self._pending) >= len(self._workers):
            yield self._settle()
        if not self._workers:
            yield from self.drain()
            yield tag, parts, self._finder.facts(b"".join(parts), first_piece)
            return
        worker = self._workers[self._turn % len(self._workers)]
        self._turn += 1
        self._pending.append(_Pending(tag, parts, first_piece, worker))
        try:
            worker.send(parts, first_piece)
        except OSError:
            self._stop_workers()

    def drain(self) -> Iterator[tuple[T, list[bytes], PieceFacts]]:
        """Every piece put and not yet handed back."""
        while self._pending:
            yield self._settle()

    def _settle(self) -> tuple[T, list[bytes], PieceFacts]:
        pending = self._pending.popleft()
        facts: PieceFacts | None = None
        if self._workers:
            try:
                facts = pending.worker.answer()
            except (OSError, EOFError):
                self._stop_workers()
        if facts is None:  # the worker failed on it, or is gone: here, where errors count
            facts = self._finder.facts(b"".join(pending.parts), pending.first_piece)
        return pending.tag, pending.parts, facts

    def _stop_workers(self) -> None:
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.close()

    def close(self) -> None:
        self._pending.clear()
        self._stop_workers()


def _libc() -> ctypes.CDLL | None:
    """glibc, for prctl and malloc_trim (None elsewhere)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.prctl, libc.malloc_trim  # noqa: B018 (both there, or neither is used)
    except (OSError, AttributeError):
        return None
    return libc


def serve(fd: int) -> None:
    """A worker: pieces in, their facts out, until the socket closes. A piece's parts are
    received into one buffer, kept from piece to piece: one piece's bytes in memory, not
    its parts and their join besides (a worker held 54 MB, its own start 17)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # ^C is the reader's to handle
    libc = _libc()
    if libc is not None:
        libc.prctl(15, _PROCESS_NAME, 0, 0, 0)  # PR_SET_NAME: what ps and top show
    channel = Connection(fd)
    asked: FactsAsked = channel.recv()
    finder = FactFinder(asked)
    xml = bytearray()
    while True:
        try:
            first_piece, sizes = channel.recv()
            total = sum(sizes)
            if len(xml) > total:
                del xml[total:]
            elif len(xml) < total:
                xml += bytes(total - len(xml))
            at = 0
            for size in sizes:
                channel.recv_bytes_into(xml, at)
                at += size
        except (EOFError, OSError):
            return
        try:
            facts: PieceFacts | None = finder.facts(xml, first_piece)
        except Exception:  # the reader looks at it again and raises it there
            facts = None
        try:
            channel.send(facts)
        except OSError:
            return
        if libc is not None:
            libc.malloc_trim(0)  # what the piece's searches freed, handed back


if __name__ == "__main__":
    serve(int(sys.argv[1]))
