"""A worker the server has no connection left for gives a claimed job back at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from importer.config import ImportSettings
from importer.daemons import worker as worker_module
from importer.daemons.worker import Worker, WorkerEvent, WorkerEventKind
from importer.database import Connection
from importer.errors import DatabaseUnavailable
from importer.intake.submission import Asked, submit_workbook
from importer.repositories import jobs
from importer.states import JobStatus
from tests.support.jobs import add_form, orders_book


def test_a_job_with_no_connection_is_given_back_and_claiming_pauses(
    conn: Connection, database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 10)
    job_id = submit_workbook(
        conn, book.path, Asked(form_name="orders"), settings=ImportSettings()
    ).job.id
    events: list[WorkerEvent] = []
    worker = Worker(database_url, ImportSettings(), concurrency=1, on_event=events.append)

    def full(*args: object, **kwargs: object) -> Connection:
        raise DatabaseUnavailable("database refused a connection (db): too many clients")

    monkeypatch.setattr(worker_module, "connect", full)
    try:
        more, sleep_for = worker.step()
        job = jobs.get_job(conn, job_id)
        assert (job.status, job.lease_owner, job.attempts) == (JobStatus.PENDING, None, 0)
        assert not more and 0 < sleep_for <= 0.5
        lost = [e for e in events if e.kind is WorkerEventKind.DATABASE_LOST]
        assert [e.message for e in lost] == [
            "database refused a connection (db): too many clients; retrying in 0.5s"
        ]
        worker.step()  # within the pause: nothing claimed
        assert jobs.get_job(conn, job_id).attempts == 0
    finally:
        worker._db.close()
        worker._wakeup.close()
