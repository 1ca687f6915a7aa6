"""`importer worker`, `importer watch` and `importer stats`."""

from __future__ import annotations

import json
import signal
import threading
from datetime import datetime
from typing import TYPE_CHECKING

import typer

from importer.cli.help import help_for
from importer.cli.output import is_terminal, stdout_console
from importer.cli.state import state
from importer.cli.watch_view import WatchView, format_age
from importer.database import describe_target
from importer.errors import JobFailed
from importer.layout import local_clock

if TYPE_CHECKING:
    from importer.running.worker import WorkerEvent


def _print_worker_event(event: WorkerEvent) -> None:
    stdout_console().print(f"{local_clock(datetime.now().astimezone())} {event.message}")


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
) -> None:
    """Run import jobs from the queue until SIGTERM/Ctrl-C (a second one exits at once)."""
    from importer.running.worker import Worker  # late: keeps every other command's start-up light

    app_state = state(ctx)
    database = app_state.db()
    worker = Worker(
        database.url,
        app_state.settings().import_,
        concurrency=concurrency,
        once=once,
        on_event=_print_worker_event,
    )
    summary = worker.run()
    if summary.abandoned:
        raise JobFailed(
            f"{summary.abandoned} job(s) did not stop in time; their leases will expire and "
            "another worker resumes them"
        )


def stats_command(
    ctx: typer.Context,
    as_json: bool = typer.Option(False, "--json", help="One JSON object (for monitoring)."),
) -> None:
    """Queue statistics: queued, running, failed, oldest queued age, timers due, live
    processes."""
    stats = state(ctx).importer().stats()
    console = stdout_console()
    if as_json:
        console.out(json.dumps(stats.to_json()), highlight=False)
        return
    oldest = stats.oldest_queued_seconds
    lines = [
        ("queued", str(stats.queued)),
        ("scheduled", str(stats.scheduled)),
        ("running", str(stats.running)),
        ("failed", str(stats.failed)),
        ("oldest queued", format_age(oldest) if oldest is not None else "-"),
        ("timers due", str(stats.timers_due)),
        ("timers live", str(stats.timers_live)),
        ("timers failed", str(stats.timers_failed)),
        ("live workers", str(stats.live_workers)),
        ("live schedulers", str(stats.live_schedulers)),
        ("live foreground", str(stats.live_foreground)),  # submit/resume running their job
    ]
    for name, value in lines:
        console.print(f"{name + ':':<17}{value}")


def watch_command(
    ctx: typer.Context,
    interval: float = typer.Option(1.0, "--interval", min=0.2, help="Seconds between refreshes."),
    once: bool = typer.Option(False, "--once", help="Show one snapshot and exit."),
) -> None:
    """A live dashboard of the queue, the workers and the timers (Ctrl-C to leave)."""
    database = state(ctx).db()
    stop = threading.Event()
    previous = signal.getsignal(signal.SIGTERM)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda signum, frame: stop.set())
    try:
        view = WatchView(database.url, describe_target(database.url))
        view.run(
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
