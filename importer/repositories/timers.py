"""Timer repository: schedule, claim, lease, fire-fence, finish, list and cancel timers (SQL
in sql/queries/timers.sql).

A timer is a durable "do X to target T at time D". Its effect and the mark that it is done
commit in ONE transaction, fenced by the lease owner (see importer.timers.firing), so a
timer takes effect exactly once however many schedulers race for it or die half-way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from psycopg.types.json import Jsonb

from importer.database import Connection, queries
from importer.errors import MAX_ERROR_CHARS, Missing, NotFoundError, StateError, bounded_error
from importer.states import TimerStatus

NOTIFY_CHANNEL = "importer_timers"


@dataclass(frozen=True)
class Timer:
    id: int
    kind: str
    target: str
    payload: dict[str, Any]
    status: TimerStatus
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
        values = {name: row[name] for name in cls.__dataclass_fields__}
        values["status"] = TimerStatus(values["status"])
        return cls(**values)

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


def schedule_timer(
    conn: Connection,
    *,
    kind: str,
    target: str,
    due_at: datetime | timedelta,
    max_attempts: int,
    payload: dict[str, Any] | None = None,
) -> int:
    """Insert a pending timer in the caller's transaction; return its id (see
    schedule_timer_due)."""
    timer_id, _ = schedule_timer_due(
        conn, kind=kind, target=target, due_at=due_at, max_attempts=max_attempts, payload=payload
    )
    return timer_id


def schedule_timer_due(
    conn: Connection,
    *,
    kind: str,
    target: str,
    due_at: datetime | timedelta,
    max_attempts: int,
    payload: dict[str, Any] | None = None,
) -> tuple[int, datetime]:
    """Insert a pending timer in the caller's transaction; return its id and due time. A
    ``timedelta`` is a delay from the database's clock (a host whose clock is off must not
    move it).

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
            "due_at": due_at if isinstance(due_at, datetime) else None,
            "due_in": due_at if isinstance(due_at, timedelta) else None,
            "max_attempts": max_attempts,
        },
    ).fetchone()
    if row is None:
        raise StateError(f"the {kind} timer for {target} is being fired right now")
    return int(row["id"]), row["due_at"]


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
    conn: Connection, *, statuses: Sequence[TimerStatus] | None = None, limit: int = 1000
) -> list[Timer]:
    rows = conn.execute(
        queries().list_timers,
        {"statuses": list(statuses) if statuses else None, "limit": limit},
    ).fetchall()
    return [Timer.from_row(row) for row in rows]


def get_timer(conn: Connection, timer_id: int) -> Timer:
    row = conn.execute(queries().get_timer, {"id": timer_id}).fetchone()
    if row is None:
        raise NotFoundError(f"no timer with id {timer_id}", what=Missing.TIMER, key=timer_id)
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


# --- the firing transaction's statements (importer.timers.firing) --------------------------


def lock_held_timers(conn: Connection, ids: Sequence[int], owner: str) -> set[int]:
    """The fence: lock the timers still leased to ``owner``; return their ids."""
    rows = conn.execute(queries().lock_held_timers, {"ids": list(ids), "owner": owner}).fetchall()
    return {int(row["id"]) for row in rows}


def finish_timers(conn: Connection, owner: str, fired: Sequence[tuple[int, str | None]]) -> None:
    """Mark fired timers completed (reason None) or cancelled (with the reason)."""
    conn.execute(
        queries().finish_timers,
        {
            "owner": owner,
            "ids": [timer_id for timer_id, _ in fired],
            "statuses": [
                TimerStatus.COMPLETED if r is None else TimerStatus.CANCELLED for _, r in fired
            ],
            "reasons": [None if r is None else bounded_error(r) for _, r in fired],
        },
    )


def retry_or_fail_timer(
    conn: Connection, timer_id: int, owner: str, error: str, retry_delay_seconds: float
) -> TimerStatus | None:
    """Its effect failed: pending again after the delay, or failed when attempts are used up.
    None when the timer is no longer ours."""
    row = conn.execute(
        queries().retry_or_fail_timer,
        {
            "id": timer_id,
            "owner": owner,
            "error": error,
            "retry_delay_seconds": retry_delay_seconds,
        },
    ).fetchone()
    return None if row is None else TimerStatus(row["status"])
