"""`importer timers [--once]`, `importer timers list`, `importer timers cancel TIMER_ID`."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import typer
from rich.text import Text

from importer.cli.args import parse_timer_id
from importer.cli.help import help_for
from importer.cli.layout import Column, fitted_table, local_time
from importer.cli.output import is_terminal, stdout_console
from importer.cli.state import state
from importer.cli.worker_cmd import (
    daemon_log,
    log_format_option,
    metrics_host_option,
    metrics_port_option,
    stopped_before_database,
    waiting_log,
)
from importer.states import TimerStatus

if TYPE_CHECKING:
    from importer.repositories.timers import Timer

STATUSES = [status.value for status in TimerStatus]

timers_app = typer.Typer(
    help="Run the timer scheduler (scheduled imports, retries), or list and cancel timers.",
    invoke_without_command=True,
)


@timers_app.callback()
def timers_command(
    ctx: typer.Context,
    once: bool = typer.Option(False, "--once", help="Fire what is due now, then exit."),
    log_format: str = log_format_option(),
    metrics_port: int | None = metrics_port_option(),
    metrics_host: str = metrics_host_option(),
) -> None:
    """Run the timer scheduler until SIGTERM/Ctrl-C (a second one exits at once)."""
    if ctx.invoked_subcommand is not None:
        return
    app_state = state(ctx)
    with daemon_log(app_state, "timers", log_format, metrics_port, metrics_host) as log:
        ran = app_state.importer().run_scheduler(
            once=once,
            owner=log.owner,
            on_event=log.scheduler_event,
            on_waiting=waiting_log(log),
        )
        if not ran:
            stopped_before_database(log)


@timers_app.command("list", **help_for("timers list"))
def list_command(
    ctx: typer.Context,
    status: list[str] = typer.Option(
        [], "--status", help=f"Only these statuses ({', '.join(STATUSES)}); repeatable."
    ),
    limit: int = typer.Option(100, "--limit", min=1, help="At most this many timers."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per timer."),
) -> None:
    """List timers: live ones first, by due time."""
    unknown = [s for s in status if s not in STATUSES]
    if unknown:
        raise typer.BadParameter(
            f"unknown status {unknown[0]!r} (one of {', '.join(STATUSES)})", param_hint="--status"
        )
    statuses = [TimerStatus(s) for s in status] or None
    timers = state(ctx).importer().timers(statuses=statuses, limit=limit)
    console = stdout_console()
    if as_json:
        for timer in timers:
            console.out(json.dumps(timer.to_json(), ensure_ascii=False), highlight=False)
        return
    if not timers:
        console.print("no timers")
        return
    terminal = is_terminal()
    console.print(timers_table(timers, console.width if terminal else None), markup=False)


def timers_table(timers: list[Timer], width: int | None) -> Text:
    """The timers as a table for ``width`` cells (None: a pipe; every column, no rule)."""
    rows = [
        [
            str(timer.id),
            timer.kind,
            timer.target,
            timer.status,
            local_time(timer.due_at),
            f"{timer.attempts}/{timer.max_attempts}",
            (timer.lease_owner if timer.status is TimerStatus.PROCESSING else timer.last_error)
            or "",
        ]
        for timer in timers
    ]
    return fitted_table(TIMER_COLUMNS, rows, width, rule=width is not None)


# The owner of a processing timer, or why the last attempt failed; cut first, then dropped.
TIMER_COLUMNS = (
    Column("Timer", right=True),
    Column("Kind"),
    Column("Target", right=True),
    Column("Status"),
    Column("Due"),
    Column("Attempts", right=True, drop=1),
    Column("Owner / error", soft=20, least=12, drop=2),
)


@timers_app.command("cancel", **help_for("timers cancel"))
def cancel_command(
    ctx: typer.Context,
    timer_id: int = typer.Argument(..., help="The timer to cancel.", parser=parse_timer_id),
) -> None:
    """Cancel a pending timer so it never takes effect."""
    timer, job = state(ctx).importer().cancel_timer(timer_id)
    also = f"; import job {job.id}, which waited on it, is cancelled too" if job else ""
    stdout_console().print(f"timer {timer.id} ({timer.kind} {timer.target}) cancelled{also}")


def register(app: typer.Typer) -> None:
    app.add_typer(timers_app, name="timers", **help_for("timers"))
