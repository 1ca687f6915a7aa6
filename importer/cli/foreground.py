"""A foreground command (`submit`, `resume`) as the user sees it: the live view around the
run, what Ctrl-C leaves on the screen, then the summary and the exit code."""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.text import Text

from importer.api.requests import RunEvents
from importer.cli import exit_codes
from importer.cli.jobs_cmd import print_job_json
from importer.cli.output import is_terminal, stderr_console, stdout_console
from importer.cli.progress import ProgressView, make_view, words
from importer.cli.state import state
from importer.cli.summary import SummaryRow, quit_lines, stopped_lines, summary

if TYPE_CHECKING:
    from importer.intake.submission import Submission
    from importer.running.foreground import ForegroundReport, Quit


def _consoles(as_json: bool) -> tuple[Console, bool]:
    """Where progress goes: stdout normally; stderr when stdout carries JSON."""
    if as_json:
        return stderr_console(), sys.stderr.isatty()
    return stdout_console(), is_terminal()


class Foreground:
    """A foreground command as the user sees it: what is being read before the job exists,
    the live view around the run, then the summary and the exit code."""

    def __init__(self, ctx: typer.Context, *, as_json: bool, quiet: bool) -> None:
        app_state = state(ctx)
        self.importer = app_state.importer()
        self.started = app_state.started
        self.debug = app_state.debug  # --debug: which path read each job's rows, and why
        self.as_json = as_json
        self.quiet = quiet
        self.submitted = False  # a submit's job exists (or was found)
        self._interrupting: threading.Thread | None = None  # the view ending on Ctrl-C
        console, live = _consoles(as_json)
        # With --json on a pipe, stdout is for the JSON and stderr stays for errors.
        silent = quiet or (as_json and not live)
        self.view: ProgressView = make_view(console, quiet=silent, live=live)
        self.live = live and not silent

    def events(self, on_submitted: Callable[[Submission], None] | None = None) -> RunEvents:
        return RunEvents(
            on_reading=self.view.reading,
            on_submitted=on_submitted or (lambda submission: None),
            on_progress=self.view.update,
            on_note=self.note,
            on_warning=self.warn,
            on_signal=self._on_signal,
            on_quit=self._on_quit,
        )

    def interrupted(self) -> None:
        """Ctrl-C before the run took over its signals (while the workbook is read)."""
        self.view.close()
        if not self.quiet and not self.submitted:
            stderr_console().print("interrupted while reading the workbook; nothing was stored")

    def note(self, text: str) -> None:
        if not self.quiet:
            self.view.note(text)

    def warn(self, text: str) -> None:
        """What only the operator can fix: shown even with --quiet, on stderr (above the
        live lines at a terminal, where another stream would break them)."""
        if self.live:
            self.view.note(f"warning: {text}")
        else:
            stderr_console().print(Text.assemble(("warning:", "yellow"), " ", text))

    def _on_signal(self, signum: int) -> None:
        # Called in the signal handler: the view is ended from another thread, never here.
        del signum
        self._interrupting = threading.Thread(
            target=self.view.interrupt, name="view-interrupt", daemon=True
        )
        self._interrupting.start()

    def _on_quit(self, quit: Quit) -> None:
        # In the signal handler, just before the process exits: once the view has ended
        # (on its own thread, since the first Ctrl-C), where the job stands.
        if self._interrupting is not None:
            self._interrupting.join(1.0)
        err = stderr_console()
        if quit.signal == signal.SIGINT and err.is_terminal:
            err.print()  # below the ^C the terminal echoed
        for line in quit_lines(quit):
            err.print(words(line))
        sys.stderr.flush()

    def summary_rows(self, report: ForegroundReport) -> list[SummaryRow]:
        """Each job's time counts from the end of the one before, the first's from the
        command's start: reading the workbook and waits are part of what the user waited."""
        rows = []
        since = self.started
        for result in report.results:
            job = result.job
            reasons = self.importer.top_reasons(job.id) if job.failed_rows else []
            # A correction: its import's rejected rows as they now stand.
            origin = self.importer.job(job.origin_job_id) if job.origin_job_id else None
            rows.append(SummaryRow(job, result.ended - since, result.run_rows, reasons, origin))
            since = result.ended
        return rows

    def finish(
        self, report: ForegroundReport, *, group: tuple[int, list[int]] | None = None
    ) -> None:
        self.view.close()
        out = stdout_console()
        if self.as_json:
            for result in report.results:
                print_job_json(out, result.job)
        elif not self.quiet and report.results:
            width = out.width if is_terminal() else None
            out.print(summary(self.summary_rows(report), width), markup=False)
        if group is not None and not self.as_json and not self.quiet:
            ended = {result.job.id: result.job for result in report.results}
            members = [ended.get(i) or self.importer.job(i) for i in group[1]]
            out.print(
                f"group g{group[0]}: {len(members)} sheet{'' if len(members) == 1 else 's'},"
                f" {sum(j.total_rows or 0 for j in members):,} rows,"
                f" {sum(j.success_rows for j in members):,} imported,"
                f" {sum(j.failed_rows for j in members):,} rejected",
                markup=False,
            )
        err = stderr_console()
        if self.debug:
            for result in report.results:
                if result.read_path is not None:
                    err.print(f"job {result.job.id}: read by the {result.read_path}", markup=False)
        for job in report.interrupted:
            # Wrapped at words on a narrow terminal (the console soft-wraps mid-word).
            for line in stopped_lines(job):
                err.print(words(line))
        exit_codes.end_with(report.jobs, signal=report.signal)
