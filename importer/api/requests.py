"""What callers hand the facade and what it gives back: requests with many options as one
frozen object, results as plain data."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from importer.forms.operations import RejectLimit, Submitter
from importer.states import RunMode as RunMode  # where it was defined first

if TYPE_CHECKING:
    from importer.intake.submission import ReadingProgress, Submission
    from importer.repositories.corrections import RowFate
    from importer.repositories.jobs import Job
    from importer.repositories.rejected_rows import RowProblem
    from importer.running.foreground import ForegroundReport, Quit
    from importer.running.job_run import JobProgress


@dataclass(frozen=True)
class SubmitRequest:
    """One workbook to check, store and import. ``source``: its path, or its bytes with
    ``file_name``. ``due_at``: schedule it (a ``timedelta`` counts on the database's clock);
    otherwise ``run_here`` imports it in this process (False: queue it for workers)."""

    source: Path | bytes
    file_name: str | None = None
    form: str | None = None
    sheet: str | None = None
    engine: str | None = None  # None: the settings' reader.engine
    column_map: Mapping[str, str] = field(default_factory=dict)
    header_row: int | None = None  # --header-row: the header's Excel row (None: found)
    force: bool = False  # import it again even if this file was imported
    run_here: bool = True
    due_at: datetime | timedelta | None = None
    max_rejected: RejectLimit | None = None  # --max-rejected (None: the form's max_rejected)
    # An error workbook sent back is a correction of its job, unless imported as new rows.
    as_new: bool = False
    latest_form: bool = False  # a correction validated by the form's current version
    submitter: Submitter | None = None  # who submits it (None: this process's OS user)

    @property
    def mode(self) -> RunMode:
        if self.due_at is not None:
            return RunMode.SCHEDULED
        return RunMode.HERE if self.run_here else RunMode.QUEUED


@dataclass(frozen=True)
class SheetsRequest:
    """Several sheets of one workbook, one job each, in one group: ``sheets`` the (sheet,
    form or None) pairs, or None for every visible sheet."""

    source: Path | bytes
    sheets: Sequence[tuple[str, str | None]] | None = None
    file_name: str | None = None
    skip_unmatched: bool = False
    engine: str | None = None
    column_map: Mapping[str, str] = field(default_factory=dict)
    header_row: int | None = None
    force: bool = False
    run_here: bool = True
    max_rejected: RejectLimit | None = None
    as_new: bool = False  # an error workbook's sheets imported as new jobs, not corrections
    submitter: Submitter | None = None  # who submits it (None: this process's OS user)

    @classmethod
    def like(
        cls,
        request: SubmitRequest,
        sheets: Sequence[tuple[str, str | None]] | None,
        *,
        skip_unmatched: bool = False,
    ) -> SheetsRequest:
        """The sheets of ``request``'s workbook, each with that request's options."""
        return cls(
            request.source,
            sheets=sheets,
            file_name=request.file_name,
            skip_unmatched=skip_unmatched,
            engine=request.engine,
            column_map=request.column_map,
            header_row=request.header_row,
            force=request.force,
            run_here=request.run_here,
            max_rejected=request.max_rejected,
            as_new=request.as_new,
            submitter=request.submitter,
        )


@dataclass(frozen=True)
class CheckRequest:
    """One workbook validated as an import would, storing nothing; ``errors_to``: also write
    the rows to fix there (.xlsx or .csv), the name checked before the sheet is read."""

    path: Path
    form: str | None = None
    sheet: str | None = None
    engine: str | None = None
    column_map: Mapping[str, str] = field(default_factory=dict)
    errors_to: Path | None = None
    header_row: int | None = None
    max_rejected: RejectLimit | None = None  # --max-rejected (None: the form's)


def _ignore(event: Any) -> None:
    del event


@dataclass(frozen=True)
class RunEvents:
    """What a foreground run tells its caller while it works (nothing, by default)."""

    on_reading: Callable[[ReadingProgress], None] = _ignore  # before the job exists
    on_submitted: Callable[[Submission], None] = _ignore  # the job exists (or was found)
    on_progress: Callable[[JobProgress], None] = _ignore  # from the run's threads
    on_note: Callable[[str], None] = _ignore
    # What only the operator can fix, found while a job runs ("job 12: lookup of field ...")
    on_warning: Callable[[str], None] = _ignore
    on_signal: Callable[[int], None] | None = None  # SIGINT/SIGTERM received (main thread)
    # A second one: the job given back, just before the process exits (main thread)
    on_quit: Callable[[Quit], None] | None = None


@dataclass(frozen=True)
class SubmitOutcome:
    """A submit: what was stored (or found), and the run here when there was one."""

    submission: Submission
    report: ForegroundReport | None = None

    @property
    def job(self) -> Job:
        """The job as it is now: as its run here ended, else as submitted."""
        if self.report is not None and self.report.results:
            return self.report.results[-1].job
        return self.submission.job


@dataclass(frozen=True)
class ResumePlan:
    job_ids: list[int]  # to drive here, in order
    busy: list[Job]  # running under a live lease elsewhere: left to their owner
    finished: list[Job]  # named, but already finished: nothing to do
    now: datetime | None = None  # the database's clock, to tell how long a busy lease has


@dataclass(frozen=True)
class RejectedRow:
    """A row a job rejected: its Excel row number, its cells as the sheet had them, and each
    reason ("column: message")."""

    row_number: int
    values: list[Any]
    reasons: list[str]


@dataclass(frozen=True)
class RejectedPreview:
    """`importer errors JOB`: the job, the errors of its first rows still open (or of every
    rejected row), how many such rows there are, and (``every``) what became of each row."""

    job: Job
    problems: list[RowProblem]
    rows: int  # rows still open (every: rejected)
    fates: dict[int, RowFate] | None = None


@dataclass(frozen=True)
class CorrectResult:
    """``Importer.correct``: the correction as it ended, its import as it now stands, the
    rows corrected, and each of them that still fails with its reasons ("column: message")."""

    job: Job
    origin: Job
    rows: list[int]
    failing: dict[int, list[str]]

    @property
    def imported(self) -> list[int]:
        """The rows the correction imported."""
        return [row for row in self.rows if row not in self.failing]


@dataclass(frozen=True)
class RetryResult:
    """One job of a bulk retry: the job as it is now, and why it was not retried (None: it
    was, and is pending again)."""

    job_id: int
    job: Job | None  # None: no such job
    refused: str | None = None

    @property
    def retried(self) -> bool:
        return self.refused is None
