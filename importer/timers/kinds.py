"""Timer kinds: what a timer does when it fires.

Kinds are open: ``register_kind("my_kind")`` adds an effect ``(conn, timer) -> str | None``.
The effect runs inside the firing transaction and must not commit; it returns None when
applied, or the reason the target can no longer proceed (it must then have written nothing:
the timer is cancelled). ``register_kind("my_kind", batch=f)`` adds an optional
``f(conn, timers) -> list[str | None]`` doing the same for a run of timers in one statement,
which is what lets one scheduler fire thousands of timers a second.

A kind whose work lies outside the database (an HTTP call: the ``notify`` kind) cannot run in
a transaction that others wait on: ``register_delivery_kind("k", prepare)`` adds one whose
``prepare(conn, timer)`` reads what it needs and returns a ``Delivery`` (or the reason the
timer can never proceed: it is cancelled); the firer sends it with no transaction open and
records its outcome in a transaction of that timer's own (see importer.timers.firing).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from importer.database import Connection
from importer.repositories import jobs
from importer.repositories.notices import NOTIFY_KIND
from importer.repositories.retention import RETENTION_KIND, purge, purge_all_history
from importer.repositories.timers import Timer
from importer.timers.notices import prepare_notice

SCHEDULED_IMPORT = "scheduled_import"
IMPORT_RETRY = "import_retry"
# Kinds whose target is an import job waiting on the timer.
IMPORT_KINDS = frozenset({SCHEDULED_IMPORT, IMPORT_RETRY})

Effect = Callable[[Connection, Timer], "str | None"]
# Optional: the same effect for many timers of one kind in one statement (one result each,
# in order). Used for runs of due timers of that kind; a failure falls back to one by one.
BatchEffect = Callable[[Connection, Sequence[Timer]], "list[str | None]"]
_EFFECTS: dict[str, Effect] = {}
_BATCH_EFFECTS: dict[str, BatchEffect] = {}


class Delivery(Protocol):
    """Work outside the database, prepared: ``send`` raises when it failed (retried with
    the retry policy's backoff); ``seconds`` is the most it may take (the lease covers it)."""

    @property
    def seconds(self) -> float: ...

    def send(self) -> None: ...


Prepare = Callable[[Connection, Timer], "Delivery | str"]
_DELIVERIES: dict[str, Prepare] = {}


def register_kind(kind: str, *, batch: BatchEffect | None = None) -> Callable[[Effect], Effect]:
    """Decorator: make ``kind`` a timer kind whose effect is the decorated function."""

    def decorate(effect: Effect) -> Effect:
        _EFFECTS[kind] = effect
        _DELIVERIES.pop(kind, None)
        if batch is not None:
            _BATCH_EFFECTS[kind] = batch
        else:
            _BATCH_EFFECTS.pop(kind, None)
        return effect

    return decorate


def register_delivery_kind(kind: str, prepare: Prepare) -> None:
    """Make ``kind`` a timer kind fired outside any transaction (see the module docstring)."""
    _EFFECTS.pop(kind, None)
    _BATCH_EFFECTS.pop(kind, None)
    _DELIVERIES[kind] = prepare


def kinds() -> list[str]:
    return sorted({*_EFFECTS, *_DELIVERIES})


def delivery_of(kind: str) -> Prepare | None:
    return _DELIVERIES.get(kind)


def effect_of(kind: str) -> Effect | None:
    return _EFFECTS.get(kind)


def batch_effect_of(kind: str) -> BatchEffect | None:
    return _BATCH_EFFECTS.get(kind)


# --- built-in kinds ------------------------------------------------------------------------


def _make_import_available(conn: Connection, timer: Timer) -> str | None:
    try:
        job_id = int(timer.target)
    except ValueError:
        return f"target {timer.target!r} is not an import job id"
    if not jobs.make_available_by_timer(conn, job_id):
        return f"import job {job_id} is gone, cancelled or no longer pending"
    return None


def _make_imports_available(conn: Connection, timers: Sequence[Timer]) -> list[str | None]:
    job_ids = {t.target: int(t.target) for t in timers if t.target.isdigit()}
    made = jobs.make_many_available_by_timer(conn, set(job_ids.values()))
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


def _purge_daily(conn: Connection, timer: Timer) -> str | None:
    """The daily retention timer (`[retention] older_than_days`): purge in the firing
    transaction. Schedulers add one per UTC day (repositories.retention)."""
    cuts = {
        name: timer.payload.get(name)
        for name in ("older_than_seconds", "history_older_than_seconds")
        if name in timer.payload
    }
    for name, seconds in cuts.items():
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds <= 0:
            return f"retention timer without a positive {name}: {seconds!r}"
    if not cuts:
        return "retention timer without a positive older_than_seconds: None"
    if "older_than_seconds" in cuts:
        purge(conn, float(cuts["older_than_seconds"]))  # type: ignore[arg-type]
    if "history_older_than_seconds" in cuts:
        purge_all_history(conn, float(cuts["history_older_than_seconds"]))  # type: ignore[arg-type]
    return None


register_kind(RETENTION_KIND)(_purge_daily)
# A job's completion notice (migration 0014 makes the timer; importer/timers/notices.py).
register_delivery_kind(NOTIFY_KIND, prepare_notice)
