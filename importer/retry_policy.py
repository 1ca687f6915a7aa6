"""How failed work is tried again: the one place that decides whether and when.

- A failed attempt of an import job or of a timer waits ``delays_seconds[n - 1]`` after its
  n-th attempt (the last delay for every later one), give or take ``jitter`` (a fraction), so
  that work that failed together (the database restarting) does not all come back in the same
  second. Settings: ``jobs.retry_delays_seconds`` (default 2 s, 10 s, then 30 s), and each
  kind's ``max_attempts``.
- A ``PermanentFailure`` (the stored workbook damaged, the form version gone, the header no
  longer matching) is not retried: another attempt would fail the same way.
- A ``TransientConflict`` (deadlock, serialization failure) rolled one transaction back and
  nothing else: the transaction is run again a few times, a moment apart, before it counts.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from importer.errors import PermanentFailure, TransientConflict

DEFAULT_DELAYS_SECONDS: tuple[float, ...] = (2.0, 10.0, 30.0)
DEFAULT_JITTER = 0.2
DEFAULT_TIMER_MAX_ATTEMPTS = 5

# A transaction that lost a deadlock or a serialization check: run again after these delays
# (jittered the same way); the first retry is almost at once, the whole ladder under 1 s.
CONFLICT_DELAYS_SECONDS: tuple[float, ...] = (0.01, 0.05, 0.1, 0.2, 0.4)

T = TypeVar("T")


def jittered(seconds: float, jitter: float, rand: Callable[[], float] = random.random) -> float:
    """``seconds`` moved by up to ``jitter`` of itself either way."""
    return seconds * (1.0 + jitter * (2.0 * rand() - 1.0))


def check_delays(delays: Sequence[float]) -> tuple[float, ...]:
    """The schedule as a tuple; ValueError unless it holds at least one positive number."""
    schedule = tuple(float(d) for d in delays)
    if not schedule:
        raise ValueError("needs at least one delay")
    if any(not d > 0 or d == float("inf") for d in schedule):  # NaN, <= 0, inf
        raise ValueError("every delay must be a positive number of seconds")
    return schedule


@dataclass(frozen=True)
class RetryPolicy:
    delays_seconds: tuple[float, ...] = DEFAULT_DELAYS_SECONDS
    jitter: float = DEFAULT_JITTER
    # The attempts of the import_retry timer a failed import attempt waits on
    # (jobs.timer.max_attempts): how often the scheduler may fail to bring the job back.
    timer_max_attempts: int = DEFAULT_TIMER_MAX_ATTEMPTS

    def __post_init__(self) -> None:
        object.__setattr__(self, "delays_seconds", check_delays(self.delays_seconds))
        if not 0 <= self.jitter < 1:
            raise ValueError("jitter must be a fraction in [0, 1)")
        if self.timer_max_attempts <= 0:
            raise ValueError("timer_max_attempts must be positive")

    def delay(self, attempt: int, rand: Callable[[], float] = random.random) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1 is the first)."""
        step = min(max(attempt, 1), len(self.delays_seconds)) - 1
        return jittered(self.delays_seconds[step], self.jitter, rand)


def is_permanent(exc: BaseException) -> bool:
    """True when no later attempt can succeed where this one failed."""
    return isinstance(exc, PermanentFailure)


def retry_conflicts(
    transaction: Callable[[], T],
    *,
    delays: Sequence[float] = CONFLICT_DELAYS_SECONDS,
    sleep: Callable[[float], None] = time.sleep,
    on_retry: Callable[[TransientConflict], None] | None = None,
) -> T:
    """Run ``transaction`` (which must roll itself back when it raises), again after each
    TransientConflict, up to ``len(delays)`` more times; the last conflict is raised."""
    for wait in (*delays, None):
        try:
            return transaction()
        except TransientConflict as conflict:
            if wait is None:
                raise
            if on_retry is not None:
                on_retry(conflict)
            sleep(jittered(wait, DEFAULT_JITTER))
    raise AssertionError("unreachable")  # pragma: no cover
