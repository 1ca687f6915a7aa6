"""The log lines of `importer worker` and `importer timers`: their events as records of the
standard logging module, one line each, as text or JSON.

Text: ``2026-05-01 14:03:07.412+02:00 INFO    job 12: orders.xlsx (attempt 1)``.
JSON: one object per line with ``ts`` and ``level`` always, then ``event``, ``job_id``,
``timer_id``, ``owner``, ``rows``, ``error`` (and ``status``, ``kind``, ``target``) where
they apply, and ``message``. A handler writes each record whole under its lock, so lines
from the worker's threads never interleave. The handler is attached for the command's run
only, to a logger of its own that does not propagate to the root's handlers.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import IO, TYPE_CHECKING, Any

from importer.errors import UsageError
from importer.states import JobStatus, RunOutcome

if TYPE_CHECKING:
    from importer.daemons.scheduler import SchedulerEvent
    from importer.daemons.worker import WorkerEvent

LOG_FORMATS = ("text", "json")
# The structured fields a record may carry, in the order JSON lines show them.
FIELDS = ("event", "job_id", "timer_id", "owner", "rows", "error", "status", "kind", "target")


def _timestamp(record: logging.LogRecord, sep: str) -> str:
    moment = datetime.fromtimestamp(record.created).astimezone()  # this machine's zone
    return moment.isoformat(sep=sep, timespec="milliseconds")


class TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return f"{_timestamp(record, ' ')} {record.levelname:<7} {record.getMessage()}"


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {"ts": _timestamp(record, "T"), "level": record.levelname.lower()}
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        line["message"] = record.getMessage()
        return json.dumps(line, ensure_ascii=False, default=str)


@contextmanager
def event_log(
    name: str, log_format: str, *, owner: str, stream: IO[str] | None = None
) -> Iterator[EventLog]:
    """An EventLog of process ``owner`` writing to ``stream`` (default: stdout) until the
    block ends."""
    if log_format not in LOG_FORMATS:
        raise UsageError(f"--log-format {log_format!r}: use one of {', '.join(LOG_FORMATS)}")
    logger = logging.getLogger(f"importer.{name}")
    handler = logging.StreamHandler(stream or sys.stdout)
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    previous = (logger.level, logger.propagate)
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False  # the root's handlers (an application's, pytest's) stay quiet
    try:
        yield EventLog(logger, owner)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous[0])
        logger.propagate = previous[1]
        handler.close()


class EventLog:
    """Turns worker and scheduler events into log records."""

    def __init__(self, logger: logging.Logger, owner: str) -> None:
        self.logger = logger
        self.owner = owner

    def record(self, level: int, message: str, **fields: Any) -> None:
        extra = {name: fields.get(name) for name in FIELDS}
        extra["owner"] = self.owner
        self.logger.log(level, "%s", message, extra=extra)

    # --- the worker ----------------------------------------------------------------------

    def worker_event(self, event: WorkerEvent) -> None:
        from importer.daemons.worker import WorkerEventKind

        kind = event.kind
        outcome = event.outcome
        level = logging.INFO
        if kind is WorkerEventKind.CRASHED:
            level = logging.ERROR
        elif kind in (WorkerEventKind.DATABASE_LOST, WorkerEventKind.WARNING):
            level = logging.WARNING
        elif outcome is not None and (
            outcome.result is RunOutcome.ERROR or outcome.status is JobStatus.FAILED
        ):
            level = logging.ERROR  # the job could not even record it, or has no attempts left
        elif outcome is not None and outcome.result in (
            RunOutcome.ATTEMPT_FAILED,
            RunOutcome.LEASE_LOST,
        ):
            level = logging.WARNING
        self.record(
            level,
            event.message,
            event=str(kind),
            job_id=event.job_id,
            rows=outcome.run_rows if outcome is not None else None,
            error=event.error or (outcome.error if outcome is not None else None),
            status=str(outcome.status) if outcome is not None and outcome.status else None,
        )

    # --- the timer scheduler -------------------------------------------------------------

    def scheduler_event(self, event: SchedulerEvent) -> None:
        from importer.daemons.scheduler import SchedulerEventKind

        report = event.report
        if event.kind is SchedulerEventKind.FIRED and report is not None:
            self._fired(event)
            return
        message = event.message
        if event.kind is SchedulerEventKind.STOPPED and report is not None:
            message = (
                f"{event.message}: {len(report.completed)} completed, "
                f"{len(report.cancelled)} cancelled, {len(report.retried)} to retry, "
                f"{len(report.failed)} failed"
            )
        level = logging.WARNING if event.kind is SchedulerEventKind.DATABASE_LOST else logging.INFO
        error = event.message if event.kind is SchedulerEventKind.DATABASE_LOST else None
        self.record(level, message, event=str(event.kind), error=error)

    def _fired(self, event: SchedulerEvent) -> None:
        """One record per timer the batch handled."""
        report = event.report
        assert report is not None
        timers = {timer.id: timer for timer in event.timers}
        outcomes = (
            ("completed", report.completed, logging.INFO),
            ("cancelled", report.cancelled, logging.INFO),
            ("retry", report.retried, logging.WARNING),
            ("failed", report.failed, logging.ERROR),
            ("lost", report.lost, logging.WARNING),
            ("released", report.released, logging.INFO),
        )
        for outcome, ids, level in outcomes:
            for timer_id in ids:
                timer = timers.get(timer_id)
                what = f" ({timer.kind} {timer.target})" if timer is not None else ""
                error = report.errors.get(timer_id)
                reason = report.reasons.get(timer_id)
                text = {
                    "completed": "completed",
                    "cancelled": f"cancelled: {reason}" if reason else "cancelled",
                    "retry": f"failed, retried later: {error}",
                    "failed": f"failed, no attempts left: {error}",
                    "lost": "lost to another scheduler (its lease expired)",
                    "released": "released unfired (stopping)",
                }[outcome]
                self.record(
                    level,
                    f"timer {timer_id}{what} {text}",
                    event=f"timer_{outcome}",
                    timer_id=timer_id,
                    kind=timer.kind if timer is not None else None,
                    target=timer.target if timer is not None else None,
                    error=error or reason,
                )
