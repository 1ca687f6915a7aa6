"""Timer kinds: what a timer does when it fires.

Kinds are open: ``register_kind("my_kind")`` adds an effect ``(conn, timer) -> str | None``.
The effect runs inside the firing transaction and must not commit; it returns None when
applied, or the reason the target can no longer proceed (it must then have written nothing:
the timer is cancelled). ``register_kind("my_kind", batch=f)`` adds an optional
``f(conn, timers) -> list[str | None]`` doing the same for a run of timers in one statement,
which is what lets one scheduler fire thousands of timers a second.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from importer.database import Connection
from importer.repositories import jobs
from importer.repositories.retention import RETENTION_KIND, purge
from importer.repositories.timers import Timer

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
    seconds = timer.payload.get("older_than_seconds")
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds <= 0:
        return f"retention timer without a positive older_than_seconds: {seconds!r}"
    purge(conn, float(seconds))
    return None


register_kind(RETENTION_KIND)(_purge_daily)
