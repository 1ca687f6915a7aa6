"""Firing claimed timers: each effect and the mark that its timer is done in one fenced
transaction (see importer.timers.kinds for what an effect is).

A delivery kind (``notify``: an HTTP call) is fired apart, after the batch's effects have
committed: prepared on the connection, its lease extended past its slowest request, sent with
no transaction open (the batch's deliveries at once, each on a thread of its own), and its
outcome recorded in a fenced transaction of its own. So a slow or failing receiver holds no
row lock and no other timer, and a neighbour's failure never sends a notice again; a
scheduler lost between the answer and the record leaves the timer to its lease, and another
sends it again with the same key (at least once).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from importer.config import TimerSettings
from importer.database import Connection
from importer.errors import DatabaseError, describe_error
from importer.repositories.timers import (
    Timer,
    finish_timers,
    lock_held_timers,
    release_timers,
    renew_timer_leases,
    retry_or_fail_timer,
)
from importer.states import TimerStatus
from importer.timers.kinds import Delivery, batch_effect_of, delivery_of, effect_of

# Requests of one batch in flight together: a batch's deliveries wait about one timeout in
# all, not one per timer.
MAX_PARALLEL_DELIVERIES = 16
# Beyond a delivery's own bound, how long its lease must still hold when it is recorded.
DELIVERY_LEASE_MARGIN_SECONDS = 5.0


@dataclass
class FireReport:
    """What became of one claimed batch."""

    completed: list[int] = field(default_factory=list)
    cancelled: list[int] = field(default_factory=list)
    retried: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)  # lease gone: another scheduler owns it
    released: list[int] = field(default_factory=list)  # not fired: stopping
    errors: dict[int, str] = field(default_factory=dict)  # retried or failed: why
    reasons: dict[int, str] = field(default_factory=dict)  # cancelled: why

    def add(self, other: FireReport) -> None:
        for name in ("completed", "cancelled", "retried", "failed", "lost", "released"):
            getattr(self, name).extend(getattr(other, name))
        self.errors.update(other.errors)
        self.reasons.update(other.reasons)

    @property
    def handled(self) -> int:
        return len(self.completed) + len(self.cancelled) + len(self.retried) + len(self.failed)


class _EffectFailed(Exception):
    def __init__(self, timer: Timer, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.timer = timer
        self.cause = cause


def _groups(timers: Sequence[Timer]) -> list[list[Timer]]:
    """Runs of consecutive timers of one kind that has a batch effect; others alone."""
    groups: list[list[Timer]] = []
    for timer in timers:
        previous = groups[-1] if groups else None
        if previous and previous[-1].kind == timer.kind and batch_effect_of(timer.kind):
            previous.append(timer)
        else:
            groups.append([timer])
    return groups


def _run_effects(conn: Connection, group: list[Timer]) -> list[str | None]:
    """The effect of every timer of the group; _EffectFailed names the group's last timer,
    so the fallback re-fires the whole group one timer at a time."""
    try:
        kind = group[0].kind
        batch = batch_effect_of(kind)
        if len(group) > 1 and batch is not None:
            reasons = batch(conn, group)
            if len(reasons) != len(group):
                raise RuntimeError(f"batch effect of {kind!r} returned {len(reasons)} results")
            return reasons
        effect = effect_of(kind)
        if effect is None:
            raise LookupError(f"unknown timer kind {kind!r}")
        return [effect(conn, group[0])]
    except Exception as exc:
        raise _EffectFailed(group[-1], exc) from exc


class TimerFirer:
    """Fires claimed timers on one autocommit connection.

    Fast path: a whole batch in one transaction — lock the rows still leased to us (the
    fence), run each effect, mark them all finished, one commit. If any effect fails, that
    transaction rolls back and the timers up to the failing one are fired one transaction
    each, so a failing timer never holds back the others and no effect commits twice.
    """

    def __init__(
        self,
        conn: Connection,
        owner: str,
        settings: TimerSettings,
        stop: threading.Event | None = None,
    ) -> None:
        self.conn = conn
        self.owner = owner
        self.settings = settings
        self.stop = stop or threading.Event()

    def fire(self, timers: Sequence[Timer], claimed_at: float | None = None) -> FireReport:
        """Fire claimed timers; on stop, the ones not yet fired are released."""
        report = FireReport()
        pending = [t for t in timers if delivery_of(t.kind) is None]
        deliveries = [t for t in timers if delivery_of(t.kind) is not None]
        lease_start = claimed_at if claimed_at is not None else time.monotonic()
        while pending and not self.stop.is_set():
            try:
                pending = self._fire_together(pending, lease_start, report)
            except _EffectFailed as failure:
                upto = pending.index(failure.timer) + 1
                pending = self._fire_alone(pending[:upto], report) + pending[upto:]
            if pending and not self.stop.is_set():
                lease_start = time.monotonic()
                held = renew_timer_leases(
                    self.conn, [t.id for t in pending], self.owner, self.settings.lease_seconds
                )
                report.lost.extend(t.id for t in pending if t.id not in held)
                pending = [t for t in pending if t.id in held]
        if deliveries and not self.stop.is_set():
            self._deliver(deliveries, report)
        elif deliveries:
            pending += deliveries
        if pending:
            release_timers(self.conn, [t.id for t in pending], self.owner)
            report.released.extend(t.id for t in pending)
        return report

    def _deliver(self, timers: list[Timer], report: FireReport) -> None:
        """Delivery kinds: prepare each, extend the leases, send them together with no
        transaction open, then record each outcome in its own transaction."""
        prepared: list[tuple[Timer, Delivery]] = []
        for timer in timers:
            prepare = delivery_of(timer.kind)
            assert prepare is not None
            try:
                outcome = prepare(self.conn, timer)
            except Exception as exc:
                if self.conn.broken:
                    raise DatabaseError(describe_error(exc)) from exc
                self._retry_later(timer, describe_error(exc), report)
                continue
            if isinstance(outcome, str):
                self._finish_alone(timer, outcome, report)
            else:
                prepared.append((timer, outcome))
        if not prepared:
            return
        # Were the lease to run out mid-request, another scheduler would send it again.
        longest = max(delivery.seconds for _, delivery in prepared)
        lease = max(self.settings.lease_seconds, longest + DELIVERY_LEASE_MARGIN_SECONDS)
        held = renew_timer_leases(self.conn, [t.id for t, _ in prepared], self.owner, lease)
        report.lost.extend(t.id for t, _ in prepared if t.id not in held)
        prepared = [(t, d) for t, d in prepared if t.id in held]
        if not prepared:
            return
        workers = min(len(prepared), MAX_PARALLEL_DELIVERIES)
        with ThreadPoolExecutor(workers, thread_name_prefix="timer-delivery") as pool:
            sent = [(timer, pool.submit(delivery.send)) for timer, delivery in prepared]
            outcomes = [(timer, future.exception()) for timer, future in sent]
        # Every send has ended: recording the delivered ones together repeats none of them.
        self._finish([timer for timer, failure in outcomes if failure is None], None, report)
        for timer, failure in outcomes:
            if failure is not None:
                self._retry_later(timer, describe_error(failure), report)

    def _finish_alone(self, timer: Timer, reason: str | None, report: FireReport) -> None:
        self._finish([timer], reason, report)

    def _finish(self, timers: list[Timer], reason: str | None, report: FireReport) -> None:
        """Completed (reason None) or cancelled, fenced on their leases, in one transaction."""
        if not timers:
            return
        with self.conn.transaction():
            held = lock_held_timers(self.conn, [t.id for t in timers], self.owner)
            if held:
                finish_timers(
                    self.conn, self.owner, [(t.id, reason) for t in timers if t.id in held]
                )
        for timer in timers:
            if timer.id not in held:
                report.lost.append(timer.id)
            elif reason is None:
                report.completed.append(timer.id)
            else:
                report.cancelled.append(timer.id)
                report.reasons[timer.id] = reason

    def _lease_running_out(self, lease_start: float) -> bool:
        return time.monotonic() - lease_start > self.settings.lease_seconds / 3

    def _fire_together(
        self, timers: list[Timer], lease_start: float | None, report: FireReport
    ) -> list[Timer]:
        """One transaction; stops early on stop or when the leases need renewing.

        Returns the timers still held but not fired."""
        fired: list[tuple[Timer, str | None]] = []
        with self.conn.transaction():
            held = lock_held_timers(self.conn, [t.id for t in timers], self.owner)
            todo = [t for t in timers if t.id in held]
            for group in _groups(todo):
                if self.stop.is_set() or (
                    fired and lease_start is not None and self._lease_running_out(lease_start)
                ):
                    break
                fired.extend(zip(group, _run_effects(self.conn, group), strict=True))
            if fired:
                finish_timers(self.conn, self.owner, [(t.id, r) for t, r in fired])
        report.lost.extend(t.id for t in timers if t.id not in held)
        for timer, reason in fired:
            (report.completed if reason is None else report.cancelled).append(timer.id)
            if reason is not None:
                report.reasons[timer.id] = reason
        return todo[len(fired) :]

    def _fire_alone(self, timers: list[Timer], report: FireReport) -> list[Timer]:
        """Each timer in its own transaction; returns those left when stopping."""
        for position, timer in enumerate(timers):
            if self.stop.is_set():
                return timers[position:]
            try:
                self._fire_together([timer], None, report)
            except _EffectFailed as failure:
                if self.conn.broken:
                    raise DatabaseError(describe_error(failure.cause)) from failure.cause
                self._retry_later(timer, describe_error(failure.cause), report)
        return []

    def _retry_later(self, timer: Timer, error: str, report: FireReport) -> None:
        status = retry_or_fail_timer(
            self.conn, timer.id, self.owner, error, self.settings.retry.delay(timer.attempts)
        )
        if status is None:
            report.lost.append(timer.id)
            return
        report.errors[timer.id] = error
        if status is TimerStatus.FAILED:
            report.failed.append(timer.id)
        else:
            report.retried.append(timer.id)
