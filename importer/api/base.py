"""What every part of the facade stands on: the settings and the database handle."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime

from importer.config import Settings, load_settings
from importer.database import Connection, Database
from importer.forms.operations import JobOptions, NotifyTarget, RejectLimit, Submitter
from importer.identity import os_user
from importer.repositories import jobs, notices, schema
from importer.repositories.jobs import Job
from importer.repositories.notices import Notice
from importer.states import Liveness


class ImporterBase:
    """The settings (loaded once) and the database (resolved, its schema made current, on
    first use)."""

    def __init__(self, url: str | None = None, *, settings: Settings | None = None) -> None:
        base = settings if settings is not None else load_settings()
        # A job's run sees the hooks this host allows (settings built in code, too).
        runs = replace(base.import_, hooks_allowed=base.forms.hooks_allowed)
        base = replace(base, import_=runs)
        self.settings = replace(base, database_url=url) if url else base
        self._database: Database | None = None

    @property
    def database(self) -> Database:
        """The resolved server (the embedded one started if needed), schema current."""
        if self._database is None:
            database = Database(self.settings)
            schema.ensure_schema(database)
            self._database = database
        return self._database

    @contextmanager
    def connection(self) -> Iterator[Connection]:
        with self.database.autocommit() as conn:
            yield conn

    @contextmanager
    def sharing_connections(self, size: int) -> Iterator[None]:
        """Within the block, the facade's calls borrow one of up to ``size`` connections kept
        open (`importer serve`: each request would otherwise pay for a connection of its own,
        several times what its statements take)."""
        with self.database.sharing_connections(size):
            yield

    def job_options(
        self, max_rejected: RejectLimit | None, submitter: Submitter | None = None
    ) -> JobOptions:
        """What a new job is given beyond its rows: the submit's reject threshold, where its
        end is announced (the settings' [notify]; the form may override it) and who submits
        it (by default the operating system's user of this process)."""
        return JobOptions(
            max_rejected=max_rejected,
            notify=self.notify_defaults(),
            submitter=submitter or Submitter(name=os_user()),
        )

    def notify_defaults(self) -> NotifyTarget | None:
        """The settings' [notify] (its url None: no notices unless a form names one), with
        what only the settings give: the notify timer's attempts and a delivery's timeout."""
        notify = self.settings.notify
        return NotifyTarget(
            url=notify.url or None,
            secret_env=notify.secret_env or None,
            events=notify.events,
            max_attempts=self.settings.timer.max_attempts,
            timeout_seconds=notify.timeout_seconds,
        )

    def job_with_notices(self, job_id: int) -> tuple[Job, Liveness, datetime, list[Notice]]:
        """`importer status`: the job, how its owner is doing, the database's clock it was
        judged by, and the job's completion notices (each one's delivery), oldest first."""
        with self.connection() as conn:
            job = jobs.get_job(conn, job_id)
            now = jobs.db_now(conn)
            found = notices.job_notices(conn, job_id)
        return job, jobs.liveness(job, now), now, found
