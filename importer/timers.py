"""Timer jobs: schedule, claim, fire, retry (SQL in sql/queries/timers.sql).

A timer is a durable "do X to target T at time D". Its effect and the mark that it is done
commit in ONE transaction, fenced by the lease owner, so a timer takes effect exactly once
however many schedulers race for it or die half-way.

Kinds are open: ``register_kind("my_kind")`` adds an effect ``(conn, timer) -> str | None``.
The effect runs inside the firing transaction and must not commit; it returns None when
applied, or the reason the target can no longer proceed (it must then have written nothing:
the timer is cancelled). ``register_kind("my_kind", batch=f)`` adds an optional
``f(conn, timers) -> list[str | None]`` doing the same for a run of timers in one statement,
which is what lets one scheduler fire thousands of timers a second.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from importer.config import TimerSettings
from importer.db import Connection, queries, translate
from importer.errors import DatabaseError, NotFoundError, StateError

STATUSES = ("pending", "processing", "completed", "failed", "cancelled")
LIVE_STATUSES = ("pending", "processing")
MAX_ERROR_CHARS = 2000
NOTIFY_CHANNEL = "importer_timers"

SCHEDULED_IMPORT = "scheduled_import"
IMPORT_RETRY = "import_retry"


@dataclass(frozen=True)
class Timer:
    id: int
    kind: str
    target: str
    payload: dict[str, Any]
    status: str
    due_at: datetime
    lease_owner: str | None
    lease_expires_at: datetime | None
    attempts: int
    max_attempts: int
    last_error: str | None
    created_at: datetime
    finished_at: datetime | None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Timer:
        return cls(**{name: row[name] for name in cls.__dataclass_fields__})

    def to_json(self) -> dict[str, Any]:
        def iso(value: datetime | None) -> str | None:
            return value.isoformat() if value is not None else None

        return {
            "id": self.id,
            "kind": self.kind,
            "target": self.target,
            "payload": self.payload,
            "status": self.status,
            "due_at": iso(self.due_at),
            "lease_owner": self.lease_owner,
            "lease_expires_at": iso(self.lease_expires_at),
            "attempts": self.attempts,
            "max_attempts": self.max_attempts,
            "error": self.last_error,
            "created_at": iso(self.created_at),
            "finished_at": iso(self.finished_at),
        }


Effect = Callable[[Connection, Timer], "str | None"]
# Optional: the same effect for many timers of one kind in one statement (one result each,
# in order). Used for runs of due timers of that kind; a failure falls back to one by one.
BatchEffect = Callable[[Connection, Sequence[Timer]], "list[str | None]"]
_EFFECTS: dict[str, Effect] = {}
_BATCH_EFFECTS: dict[str, BatchEffect] = {}


def register_kind(kind: str, *, batch: BatchEffect | None = None) -> Callable[[Effect], Effect]:
    """Decorator: make ``kind`` a timer kind whose effect is the decorated function."""

    def decorate(effect: Effect) -> Effect:
        _EFFECTS[kind] = effect
        if batch is not None:
            _BATCH_EFFECTS[kind] = batch
        else:
            _BATCH_EFFECTS.pop(kind, None)
        return effect

    return decorate


def kinds() -> list[str]:
    return sorted(_EFFECTS)


def bounded_error(text: str) -> str:
    text = text.strip() or "error"
    return text if len(text) <= MAX_ERROR_CHARS else text[: MAX_ERROR_CHARS - 1] + "…"


def describe_error(exc: BaseException) -> str:
    message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return bounded_error(f"{type(exc).__name__}: {message}" if message else type(exc).__name__)


# --- repository ----------------------------------------------------------------------------


def schedule_timer(
    conn: Connection,
    *,
    kind: str,
    target: str,
    due_at: datetime,
    max_attempts: int,
    payload: dict[str, Any] | None = None,
) -> int:
    """Insert a pending timer in the caller's transaction; return its id.

    One live timer per (kind, target): if one is still pending it is moved to the new due
    time instead (same id). If one is being fired right now, StateError. Schedulers are woken
    (NOTIFY importer_timers) when the caller commits.
    """
    if max_attempts <= 0:
        raise ValueError("max_attempts must be positive")
    row = conn.execute(
        queries().schedule_timer,
        {
            "kind": kind,
            "target": str(target),
            "payload": Jsonb(payload or {}),
            "due_at": due_at,
            "max_attempts": max_attempts,
        },
    ).fetchone()
    if row is None:
        raise StateError(f"the {kind} timer for {target} is being fired right now")
    return int(row["id"])


def claim_timers(conn: Connection, *, owner: str, limit: int, lease_seconds: float) -> list[Timer]:
    """Claim up to ``limit`` due timers (one statement; commit before firing them)."""
    rows = conn.execute(
        queries().claim_timers,
        {
            "owner": owner,
            "limit": limit,
            "lease_seconds": lease_seconds,
            "max_error": MAX_ERROR_CHARS,
        },
    ).fetchall()
    timers = [Timer.from_row(row) for row in rows]
    timers.sort(key=lambda t: (t.due_at, t.id))
    return timers


def renew_timer_leases(
    conn: Connection, ids: Sequence[int], owner: str, lease_seconds: float
) -> set[int]:
    """Extend the leases still held; return the ids still ours."""
    if not ids:
        return set()
    rows = conn.execute(
        queries().renew_timer_leases,
        {"ids": list(ids), "owner": owner, "lease_seconds": lease_seconds},
    ).fetchall()
    return {int(row["id"]) for row in rows}


def release_timers(conn: Connection, ids: Sequence[int], owner: str) -> None:
    """Give back claimed timers that were not fired (graceful stop)."""
    if ids:
        conn.execute(queries().release_timers, {"ids": list(ids), "owner": owner})


def list_timers(
    conn: Connection, *, statuses: Sequence[str] | None = None, limit: int = 1000
) -> list[Timer]:
    rows = conn.execute(
        queries().list_timers,
        {"statuses": list(statuses) if statuses else None, "limit": limit},
    ).fetchall()
    return [Timer.from_row(row) for row in rows]


def get_timer(conn: Connection, timer_id: int) -> Timer:
    row = conn.execute(queries().get_timer, {"id": timer_id}).fetchone()
    if row is None:
        raise NotFoundError(f"no timer with id {timer_id}")
    return Timer.from_row(row)


def cancel_timer(conn: Connection, timer_id: int) -> Timer:
    """Cancel a live timer: it will never take effect. Finished timers are refused."""
    row = conn.execute(queries().cancel_timer, {"id": timer_id}).fetchone()
    if row is None:
        timer = get_timer(conn, timer_id)
        raise StateError(f"timer {timer_id} is already {timer.status}; nothing to cancel")
    return Timer.from_row(row)


def seconds_until_next_due(conn: Connection) -> float | None:
    """Seconds until the earliest live timer is due (or its lease expires); None: none."""
    row = conn.execute(queries().next_timer_due).fetchone()
    if row is None or row["due_at"] is None:
        return None
    delta: float = (row["due_at"] - row["now"]).total_seconds()
    return max(0.0, delta)


# --- firing --------------------------------------------------------------------------------


@dataclass
class FireReport:
    """What became of one claimed batch."""

    completed: list[int] = field(default_factory=list)
    cancelled: list[int] = field(default_factory=list)
    retried: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)  # lease gone: another scheduler owns it
    released: list[int] = field(default_factory=list)  # not fired: stopping

    def add(self, other: FireReport) -> None:
        for name in ("completed", "cancelled", "retried", "failed", "lost", "released"):
            getattr(self, name).extend(getattr(other, name))

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
        if previous and previous[-1].kind == timer.kind and timer.kind in _BATCH_EFFECTS:
            previous.append(timer)
        else:
            groups.append([timer])
    return groups


def _run_effects(conn: Connection, group: list[Timer]) -> list[str | None]:
    """The effect of every timer of the group; _EffectFailed names the group's last timer,
    so the fallback re-fires the whole group one timer at a time."""
    try:
        kind = group[0].kind
        if len(group) > 1:
            reasons = _BATCH_EFFECTS[kind](conn, group)
            if len(reasons) != len(group):
                raise RuntimeError(f"batch effect of {kind!r} returned {len(reasons)} results")
            return reasons
        effect = _EFFECTS.get(kind)
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
        pending = list(timers)
        lease_start = claimed_at if claimed_at is not None else time.monotonic()
        try:
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
            if pending:
                release_timers(self.conn, [t.id for t in pending], self.owner)
                report.released.extend(t.id for t in pending)
        except psycopg.Error as exc:
            raise translate(exc) from exc
        return report

    def _lease_running_out(self, lease_start: float) -> bool:
        return time.monotonic() - lease_start > self.settings.lease_seconds / 3

    def _fire_together(
        self, timers: list[Timer], lease_start: float | None, report: FireReport
    ) -> list[Timer]:
        """One transaction; stops early on stop or when the leases need renewing.

        Returns the timers still held but not fired."""
        q = queries()
        fired: list[tuple[Timer, str | None]] = []
        with self.conn.transaction():
            rows = self.conn.execute(
                q.lock_held_timers, {"ids": [t.id for t in timers], "owner": self.owner}
            ).fetchall()
            held = {int(row["id"]) for row in rows}
            todo = [t for t in timers if t.id in held]
            for group in _groups(todo):
                if self.stop.is_set() or (
                    fired and lease_start is not None and self._lease_running_out(lease_start)
                ):
                    break
                fired.extend(zip(group, _run_effects(self.conn, group), strict=True))
            if fired:
                self.conn.execute(
                    q.finish_timers,
                    {
                        "owner": self.owner,
                        "ids": [t.id for t, _ in fired],
                        "statuses": ["completed" if r is None else "cancelled" for _, r in fired],
                        "reasons": [None if r is None else bounded_error(r) for _, r in fired],
                    },
                )
        report.lost.extend(t.id for t in timers if t.id not in held)
        for timer, reason in fired:
            (report.completed if reason is None else report.cancelled).append(timer.id)
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
        row = self.conn.execute(
            queries().retry_or_fail_timer,
            {
                "id": timer.id,
                "owner": self.owner,
                "error": error,
                "retry_delay_seconds": self.settings.retry_delay_seconds,
            },
        ).fetchone()
        if row is None:
            report.lost.append(timer.id)
        elif row["status"] == "failed":
            report.failed.append(timer.id)
        else:
            report.retried.append(timer.id)


# --- built-in kinds ------------------------------------------------------------------------


def _make_import_available(conn: Connection, timer: Timer) -> str | None:
    try:
        job_id = int(timer.target)
    except ValueError:
        return f"target {timer.target!r} is not an import job id"
    row = conn.execute(queries().make_import_job_available, {"job_id": job_id}).fetchone()
    if row is None:
        return f"import job {job_id} is gone, cancelled or no longer pending"
    return None


def _make_imports_available(conn: Connection, timers: Sequence[Timer]) -> list[str | None]:
    job_ids = {t.target: int(t.target) for t in timers if t.target.isdigit()}
    rows = conn.execute(
        queries().make_import_jobs_available, {"job_ids": sorted(set(job_ids.values()))}
    ).fetchall()
    made = {int(row["id"]) for row in rows}
    reasons: list[str | None] = []
    for timer in timers:
        job_id = job_ids.get(timer.target)
        if job_id is None:
            reasons.append(f"target {timer.target!r} is not an import job id")
        elif job_id in made:
            reasons.append(None)
        else:
            reasons.append(f"import job {job_id} is gone, cancelled or no longer pending")
    return reasons


register_kind(SCHEDULED_IMPORT, batch=_make_imports_available)(_make_import_available)
register_kind(IMPORT_RETRY, batch=_make_imports_available)(_make_import_available)
