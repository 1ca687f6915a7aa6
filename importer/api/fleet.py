"""The facade's part for the fleet: timers, figures and metrics, the daemons, `watch`, and
the database's own housekeeping (`db migrate | url | stop`)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

from importer.api.base import ImporterBase
from importer.database import Database, SchemaPeek
from importer.repositories import fleet, schema
from importer.repositories import timers as timers_repo
from importer.repositories.jobs import Job
from importer.states import TimerStatus

if TYPE_CHECKING:
    from importer.daemons.metrics import MetricsServer
    from importer.daemons.scheduler import SchedulerEvent
    from importer.daemons.watching import FleetWatch
    from importer.daemons.worker import WorkerEvent, WorkerSummary
    from importer.database.embedded import EmbeddedInfo
    from importer.database.migrations import Migration


class FleetMethods(ImporterBase):
    # --- timers and the fleet ------------------------------------------------------------

    def timers(
        self, *, statuses: Sequence[TimerStatus] | None = None, limit: int = 100
    ) -> list[timers_repo.Timer]:
        with self.connection() as conn:
            return timers_repo.list_timers(conn, statuses=statuses, limit=limit)

    def cancel_timer(self, timer_id: int) -> tuple[timers_repo.Timer, Job | None]:
        """Cancel a live timer, and the import job that waits on it (returned)."""
        from importer.timers.cancelling import cancel_timer

        with self.connection() as conn:
            return cancel_timer(conn, timer_id)

    def stats(self) -> fleet.QueueStats:
        with self.connection() as conn:
            return fleet.queue_stats(conn)

    def figures(self) -> tuple[fleet.QueueStats, fleet.JobTotals]:
        """The queue's figures and every job's totals (a full pass over the jobs): what
        `stats --json` and the metrics report."""
        with self.connection() as conn:
            return fleet.queue_stats(conn), fleet.job_totals(conn)

    def openmetrics(self) -> str:
        """`stats --format openmetrics`: the same figures as Prometheus text exposition."""
        from importer.daemons.metrics import openmetrics_text

        return openmetrics_text(*self.figures())

    def serve_metrics(self, port: int, host: str = "127.0.0.1") -> MetricsServer:
        """The fleet's figures at http://HOST:PORT/metrics until the server is closed."""
        from importer.daemons.metrics import serve_metrics

        return serve_metrics(self.figures, port=port, host=host)

    def fleet_watch(self, only: Collection[int] = ()) -> FleetWatch:
        """What `importer watch` shows, a snapshot per refresh on one kept connection;
        ``only``: the running and failed jobs shown are these (a group's)."""
        from importer.daemons.watching import FleetWatch

        return FleetWatch(self.database.url, only=only)

    def run_worker(
        self,
        *,
        concurrency: int | None = None,
        once: bool = False,
        owner: str | None = None,
        on_event: Callable[[WorkerEvent], None] | None = None,
        on_waiting: Callable[[str], None] | None = None,
        stop: threading.Event | None = None,
    ) -> WorkerSummary | None:
        """`importer worker`: run queued jobs until SIGTERM/SIGINT (``once``: what is available
        now). Started while the database is away, it waits for it (``on_waiting`` hears each
        wait); None when a signal stopped it before the database answered. ``stop``: set it
        to stop the worker (a worker on a thread of another program, `importer serve`'s)."""
        from importer.daemons.worker import Worker

        database = self._daemon_database(once, on_waiting, stop)
        if database is None:
            return None
        worker = Worker(
            database.url,
            self.settings.import_,
            concurrency=concurrency,
            once=once,
            owner=owner,
            on_event=on_event,
            stop=stop,
        )
        return worker.run()

    def run_scheduler(
        self,
        *,
        once: bool = False,
        owner: str | None = None,
        on_event: Callable[[SchedulerEvent], None] | None = None,
        on_waiting: Callable[[str], None] | None = None,
    ) -> bool:
        """`importer timers`: fire due timers until SIGTERM/SIGINT (``once``: what is due now),
        waiting for the database as run_worker does; False when stopped before it answered."""
        from importer.daemons.scheduler import TimerScheduler

        database = self._daemon_database(once, on_waiting)
        if database is None:
            return False
        settings = self.settings
        TimerScheduler(
            database.url,
            settings.timer,
            once=once,
            owner=owner,
            on_event=on_event,
            retention_seconds=settings.retention.older_than_days * 86400,
            history_retention_seconds=settings.retention.history_older_than_days * 86400,
        ).run()
        return True

    def _daemon_database(
        self,
        once: bool,
        on_waiting: Callable[[str], None] | None,
        stop: threading.Event | None = None,
    ) -> Database | None:
        if once:
            return self.database
        from importer.daemons.daemon import until_reachable
        from importer.running.process import graceful_signals

        stop = stop or threading.Event()
        with graceful_signals(stop):
            return until_reachable(
                lambda: self.database, on_waiting or (lambda message: None), stop=stop
            )

    # --- the database itself -------------------------------------------------------------

    def migrate(self) -> tuple[list[Migration], int, str]:
        """Apply pending migrations: (what was applied, the schema's version now, the URL
        with its password masked)."""
        from importer.database import available_migrations, mask_url

        database = Database(self.settings)
        done = schema.ensure_schema(database)
        self._database = database
        return done, available_migrations()[-1].version, mask_url(database.url)

    def schema_peek(self) -> SchemaPeek:
        """The schema version of the database this process would use, read without
        migrating it and without starting an embedded server that is not running."""
        from importer.database import peek_schema

        return peek_schema(self.settings)

    def database_url(self) -> str:
        """The connection URL in use, its password masked (starts the embedded server)."""
        from importer.database import mask_url

        return mask_url(Database(self.settings).url)

    def embedded_server_info(self) -> EmbeddedInfo | None:
        """Where the embedded server's data lives, its size, whether it runs (it is not
        started for this); None when an external server is configured."""
        from importer.database.embedded import EmbeddedServer

        if self.settings.database_url:
            return None
        return EmbeddedServer(self.settings.home).info()

    def remove_embedded_server(self) -> EmbeddedInfo | None:
        """Stop the embedded server and delete its data, log and socket: what was removed;
        None when an external server is configured (nothing of it is ever removed)."""
        from importer.database.embedded import EmbeddedServer

        if self.settings.database_url:
            return None
        server = EmbeddedServer(self.settings.home)
        removed = server.info()
        server.remove()
        self._database = None
        return removed

    def stop_embedded_server(self) -> bool | None:
        """Stop the embedded server: True if it was running, False if not, None when an
        external server is configured (nothing to stop)."""
        from importer.database.embedded import EmbeddedServer

        if self.settings.database_url:
            return None
        return EmbeddedServer(self.settings.home).stop()
