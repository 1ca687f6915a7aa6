"""`importer worker`, `importer watch` and `importer stats`."""

from __future__ import annotations

import json
import logging
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import typer

from importer.cli.args import job_ids_of, parse_job_ref
from importer.cli.help import help_for
from importer.cli.logs import EventLog, event_log
from importer.cli.output import is_terminal, said_lines, stdout_console
from importer.cli.state import AppState, state
from importer.cli.watch_view import WatchView, format_age
from importer.errors import JobFailed, UsageError
from importer.identity import new_owner
from importer.states import TimerStatus

STATS_FORMATS = ("text", "json", "openmetrics")


def log_format_option() -> Any:
    return typer.Option(
        "text", "--log-format", help="text (date, time with zone, level) or json (one per line)."
    )


def metrics_port_option() -> Any:
    return typer.Option(
        None,
        "--metrics-port",
        min=0,
        max=65535,
        help="Serve the fleet's metrics at http://127.0.0.1:PORT/metrics (Prometheus).",
    )


def metrics_host_option() -> Any:
    return typer.Option("127.0.0.1", "--metrics-host", help="Address for --metrics-port.")


def waiting_log(log: EventLog) -> Callable[[str], None]:
    """A daemon started while its database is away logs each wait as a warning."""

    def warn(message: str) -> None:
        log.record(logging.WARNING, message, event="database_lost", error=message)

    return warn


def stopped_before_database(log: EventLog) -> None:
    # SIGTERM/SIGINT while waiting for the database: a graceful stop, exit 0.
    log.record(logging.INFO, "stopped before the database answered", event="stopped")


@contextmanager
def daemon_log(
    app_state: AppState, name: str, log_format: str, metrics_port: int | None, metrics_host: str
) -> Iterator[EventLog]:
    """The log of a long-running process (its owner id is ``log.owner``) and, with a port,
    the metrics server, for the life of the block."""
    with event_log(name, log_format, owner=new_owner()) as log:
        if metrics_port is None:
            yield log
            return
        server = app_state.importer().serve_metrics(metrics_port, metrics_host)
        log.record(
            logging.INFO, f"serving metrics at http://{server.address}/metrics", event="metrics"
        )
        try:
            yield log
        finally:
            server.close()


def worker_command(
    ctx: typer.Context,
    concurrency: int | None = typer.Option(
        None,
        "--concurrency",
        "-c",
        min=1,
        help="Jobs run at once (default jobs.import.concurrency).",
    ),
    once: bool = typer.Option(False, "--once", help="Process what is available now, then exit."),
    log_format: str = log_format_option(),
    metrics_port: int | None = metrics_port_option(),
    metrics_host: str = metrics_host_option(),
) -> None:
    """Run import jobs from the queue until SIGTERM/Ctrl-C (a second one exits at once)."""
    app_state = state(ctx)
    with daemon_log(app_state, "worker", log_format, metrics_port, metrics_host) as log:
        summary = app_state.importer().run_worker(
            concurrency=concurrency,
            once=once,
            owner=log.owner,
            on_event=log.worker_event,
            on_waiting=waiting_log(log),
        )
        if summary is None:
            stopped_before_database(log)
            return
    if summary.abandoned:
        raise JobFailed(
            f"{summary.abandoned} job(s) did not stop in time; their leases will expire and "
            "another worker resumes them"
        )


def stats_command(
    ctx: typer.Context,
    as_json: bool = typer.Option(False, "--json", help="One JSON object (--format json)."),
    output_format: str = typer.Option(
        "text", "--format", help="text | json | openmetrics (Prometheus text exposition)."
    ),
) -> None:
    """Queue statistics: jobs by status, queued, running, failed, oldest queued age, rows/s,
    failed attempts, timers due, live processes."""
    if output_format not in STATS_FORMATS:
        raise UsageError(f"--format {output_format!r}: use one of {', '.join(STATS_FORMATS)}")
    console = stdout_console()
    if output_format == "openmetrics":
        console.out(state(ctx).importer().openmetrics(), highlight=False, end="")
        return
    stats, totals = state(ctx).importer().figures()
    if as_json or output_format == "json":
        console.out(json.dumps({**stats.to_json(), **totals.to_json()}), highlight=False)
        return
    oldest = stats.oldest_queued_seconds

    def by_kind(total: int, kinds: dict[str, int]) -> str:
        shown = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()) if n)
        return f"{total} ({shown})" if shown else str(total)

    notices = totals.notices
    waiting = notices.get(TimerStatus.PENDING, 0) + notices.get(TimerStatus.PROCESSING, 0)
    lines = [
        ("queued", str(stats.queued)),
        ("scheduled", str(stats.scheduled)),
        ("running", str(stats.running)),
        ("failed", str(stats.failed)),
        ("oldest queued", format_age(oldest) if oldest is not None else "-"),
        ("rows/s", f"{stats.rows_per_second:,.0f}"),  # of the running jobs together
        ("failed attempts", f"{stats.attempts_failed_last_hour} in the last hour"),
        ("timers due", str(stats.timers_due)),
        ("timers live", by_kind(stats.timers_live, stats.timers_live_by_kind)),
        ("timers failed", by_kind(stats.timers_failed, stats.timers_failed_by_kind)),
        (
            "notices",
            f"{notices.get(TimerStatus.COMPLETED, 0)} delivered, {waiting} to send,"
            f" {notices.get(TimerStatus.FAILED, 0)} failed",
        ),
        ("live workers", str(stats.live_workers)),
        ("live schedulers", str(stats.live_schedulers)),
        ("live foreground", str(stats.live_foreground)),  # submit/resume running their job
        ("jobs", ", ".join(f"{count} {status}" for status, count in totals.jobs.items())),
        ("rows", f"{totals.rows_imported:,} imported, {totals.rows_rejected:,} rejected"),
        (
            "rejected rows",
            f"fixed later {totals.rows_fixed:,} · still open {totals.rows_open:,}"
            " (of imports; corrections' own are their imports')",
        ),
    ]
    text = "\n".join(f"{name + ':':<17}{value}" for name, value in lines)
    console.print(said_lines(console, text), markup=False)


def watch_command(
    ctx: typer.Context,
    group: str | None = typer.Argument(
        None, metavar="[GROUP]", help="Only this group's jobs (g3).", parser=parse_job_ref
    ),
    interval: float = typer.Option(1.0, "--interval", min=0.2, help="Seconds between refreshes."),
    once: bool = typer.Option(False, "--once", help="Show one snapshot and exit."),
) -> None:
    """A live dashboard of the queue, the workers and the timers (Ctrl-C to leave)."""
    importer = state(ctx).importer()
    only: list[int] = []
    if group is not None:
        if not group.startswith("g"):
            raise UsageError(f"watch {group!r}: name a group as g3 (`importer status` for a job)")
        only = job_ids_of(importer, [group])
    watch = importer.fleet_watch(only)
    stop = threading.Event()
    previous = signal.getsignal(signal.SIGTERM)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda signum, frame: stop.set())
    try:
        WatchView(watch).run(
            stdout_console(),
            live=is_terminal() and not once,
            interval=interval,
            once=once,
            stop=stop,
        )
    except KeyboardInterrupt:
        pass
    finally:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, previous)


def register(app: typer.Typer) -> None:
    app.command("worker", **help_for("worker"))(worker_command)
    app.command("watch", **help_for("watch"))(watch_command)
    app.command("stats", **help_for("stats"))(stats_command)
