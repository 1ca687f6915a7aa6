"""The fleet's figures as Prometheus metrics: what `stats --format openmetrics` prints and
what `worker --metrics-port` / `timers --metrics-port` serve at /metrics.

Every scrape reads the database (the same figures as `stats --json`), so any process serves
the whole fleet's numbers; a scrape while the database is away answers
``importer_database_up 0`` alone. Built with prometheus-client: its collector interface, its
exposition formats (Prometheus text, or OpenMetrics when the scraper asks) and its server.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.openmetrics.exposition import generate_latest
from prometheus_client.registry import Collector

from importer.errors import ImporterError, UsageError
from importer.repositories.fleet import JobTotals, QueueStats
from importer.states import ProcessKind, TimerStatus
from importer.timers.kinds import kinds

Figures = Callable[[], tuple[QueueStats, JobTotals]]


def _gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)


def metric_families(stats: QueueStats, totals: JobTotals) -> list[Metric]:
    return [
        _gauge("importer_database_up", "1 when the database answered this scrape.", 1),
        _jobs(totals),
        *_figures(stats, totals),
        *_timers_by_kind(stats),
        _notices(totals),
        _live(stats),
    ]


def _jobs(totals: JobTotals) -> GaugeMetricFamily:
    jobs = GaugeMetricFamily("importer_jobs", "Import jobs by status.", labels=["status"])
    for status, count in totals.jobs.items():
        jobs.add_metric([str(status)], count)
    return jobs


def _figures(stats: QueueStats, totals: JobTotals) -> list[Metric]:
    """The fleet's single numbers: the queue, the rows, the failed attempts, the timers."""
    return [
        _gauge("importer_jobs_queued", "Pending jobs available to run now.", stats.queued),
        _gauge(
            "importer_jobs_scheduled",
            "Pending jobs waiting on a timer or a retry delay.",
            stats.scheduled,
        ),
        _gauge(
            "importer_oldest_queued_age_seconds",
            "How long the oldest queued job has been available (0: none queued).",
            stats.oldest_queued_seconds or 0.0,
        ),
        CounterMetricFamily(
            "importer_rows_imported", "Rows stored by every job.", value=totals.rows_imported
        ),
        CounterMetricFamily(
            "importer_rows_rejected", "Rows rejected by every job.", value=totals.rows_rejected
        ),
        _gauge(
            "importer_rows_fixed_later",
            "Rows imports rejected that a correction imported since (undone ones given back).",
            totals.rows_fixed,
        ),
        _gauge(
            "importer_rows_still_open",
            "Rows imports rejected that no correction has imported yet.",
            totals.rows_open,
        ),
        _gauge(
            "importer_rows_per_second",
            "Rows per second of the running jobs together, each over its current run.",
            stats.rows_per_second,
        ),
        CounterMetricFamily(
            "importer_import_attempts_failed",
            "Failed attempts of import jobs.",
            value=totals.attempts_failed,
        ),
        _gauge(
            "importer_import_attempts_failed_last_hour",
            "Failed attempts of import jobs in the last hour.",
            stats.attempts_failed_last_hour,
        ),
        _gauge("importer_timers_due", "Live timers that are due.", stats.timers_due),
        _gauge("importer_timers_live", "Pending or processing timers.", stats.timers_live),
        _gauge(
            "importer_timers_failed", "Timers that failed (kept until purged).", stats.timers_failed
        ),
    ]


def _timers_by_kind(stats: QueueStats) -> list[Metric]:
    # Every kind this process knows, zeros included, and any other the database holds.
    known = sorted({*kinds(), *stats.timers_live_by_kind, *stats.timers_failed_by_kind})
    live_by_kind = GaugeMetricFamily(
        "importer_timers_live_by_kind", "Pending or processing timers by kind.", labels=["kind"]
    )
    failed_by_kind = GaugeMetricFamily(
        "importer_timers_failed_by_kind", "Failed timers by kind (until purged).", labels=["kind"]
    )
    for name in known:
        live_by_kind.add_metric([name], stats.timers_live_by_kind.get(name, 0))
        failed_by_kind.add_metric([name], stats.timers_failed_by_kind.get(name, 0))
    return [live_by_kind, failed_by_kind]


def _notices(totals: JobTotals) -> GaugeMetricFamily:
    notices = GaugeMetricFamily(
        "importer_notices",
        "Completion notices (webhooks) by status: completed ones were delivered.",
        labels=["status"],
    )
    for timer_status in TimerStatus:
        notices.add_metric([str(timer_status)], totals.notices.get(timer_status, 0))
    return notices


def _live(stats: QueueStats) -> GaugeMetricFamily:
    live = GaugeMetricFamily(
        "importer_live_processes",
        "Processes with a recent heartbeat: worker, timers (schedulers), submit (foreground).",
        labels=["kind"],
    )
    for kind, count in (
        (ProcessKind.WORKER, stats.live_workers),
        (ProcessKind.TIMERS, stats.live_schedulers),
        (ProcessKind.FOREGROUND, stats.live_foreground),
    ):
        live.add_metric([str(kind)], count)
    return live


class FleetCollector(Collector):
    """Reads the figures at every scrape."""

    def __init__(self, figures: Figures) -> None:
        self.figures = figures

    def describe(self) -> list[Metric]:
        return []  # registering must not read the database

    def collect(self) -> Iterator[Metric]:
        try:
            stats, totals = self.figures()
        except ImporterError:
            yield _gauge("importer_database_up", "1 when the database answered this scrape.", 0)
            return
        yield from metric_families(stats, totals)


def registry_for(figures: Figures) -> CollectorRegistry:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(FleetCollector(figures))
    return registry


def openmetrics_text(stats: QueueStats, totals: JobTotals) -> str:
    """The figures in the OpenMetrics text format (ends with ``# EOF``)."""
    text: bytes = generate_latest(registry_for(lambda: (stats, totals)))  # type: ignore[no-untyped-call]
    return text.decode("utf-8")


@dataclass
class MetricsServer:
    """/metrics served from a daemon thread until close()."""

    server: WSGIServer
    thread: threading.Thread
    host: str

    @property
    def address(self) -> str:
        return f"{self.host}:{self.server.server_port}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5.0)


def serve_metrics(figures: Figures, *, port: int, host: str = "127.0.0.1") -> MetricsServer:
    """Serve the figures at http://host:port/metrics (any path answers the same)."""
    try:
        server, thread = start_http_server(port, addr=host, registry=registry_for(figures))
    except OSError as exc:
        raise UsageError(
            f"--metrics-port {port}: cannot listen on {host}:{port} ({exc.strerror or exc})"
        ) from None
    return MetricsServer(server, thread, host)
