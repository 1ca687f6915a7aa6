"""Fleet benchmarks: timers fired per second by one scheduler, and the pickup latency of an
idle worker (from `importer submit --detach` to `running`).

Each runs in a scratch database on the configured server (IMPORTER_DATABASE_URL, else the
embedded one), dropped afterwards. Run alone with ``python -m bench.fleet``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.scratch import scratch_database
from importer.config import TimerSettings, load_settings
from importer.daemons.scheduler import TimerScheduler
from importer.database import connect, resolve_url

TIMERS_TARGET_PER_SECOND = 2000.0
PICKUP_TARGET_MS = 200.0
WORKER_POLL_SECONDS = 5.0
SUBMIT_FLAGS = ("--detach", "--force", "--json")

FORM_TOML = """
name = "bench_pickup"
[[fields]]
name = "n"
header = "N"
type = "integer"
required = true
"""


@dataclass(frozen=True)
class Figure:
    name: str
    value: float
    unit: str
    target: str
    met: bool

    def line(self) -> str:
        verdict = "ok" if self.met else "MISSED"
        return (
            f"  {self.name:<44} {self.value:>10,.1f} {self.unit:<9} target {self.target}  {verdict}"
        )


def timers_per_second(url: str, count: int = 10_000) -> Figure:
    """Due timers on waiting import jobs, fired by one scheduler with default settings."""
    with connect(url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO import_files (sha256, size_bytes, content) VALUES ('bench', 1, '\\x00')"
        )
        conn.execute(
            "INSERT INTO import_jobs (form, form_version, file, file_name, max_attempts,"
            " available_at) SELECT 'bench', 1, 'bench', 'bench.xlsx', 5, NULL"
            " FROM generate_series(1, %s)",
            (count,),
        )
        conn.execute(
            "INSERT INTO timer_jobs (kind, target, due_at, max_attempts)"
            " SELECT 'scheduled_import', id::text, now(), 5 FROM import_jobs"
        )
        conn.execute("VACUUM ANALYZE timer_jobs")
        conn.execute("VACUUM ANALYZE import_jobs")
    settings = TimerSettings(startup_delay_seconds=0.001)  # every other knob at its default
    started = time.perf_counter()
    report = TimerScheduler(url, settings, once=True).run()
    elapsed = time.perf_counter() - started
    with connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) AS n FROM import_jobs WHERE available_at IS NOT NULL"
        ).fetchone()
    assert row is not None and row["n"] == count == len(report.completed), "not every timer fired"
    rate = count / elapsed
    return Figure(
        f"timers fired/s (one scheduler, batch {settings.batch_size})",
        rate,
        "timers/s",
        f">= {TIMERS_TARGET_PER_SECOND:,.0f}",
        rate >= TIMERS_TARGET_PER_SECOND,
    )


def _workbook(path: Path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["N"])
    for n in range(1, 4):
        sheet.append([n])
    book.save(path)


def pickup_latency(url: str, rounds: int = 15) -> Figure:
    """Median time from a detached submit's transaction to the job's claim by an idle worker."""
    from importer.forms.definition import parse_form_text
    from importer.repositories.forms import save_form

    with connect(url, autocommit=True) as conn:
        save_form(conn, parse_form_text(FORM_TOML))
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("IMPORTER_")},
        "IMPORTER_DATABASE_URL": url,
        "NO_COLOR": "1",
        "IMPORTER_JOBS_IMPORT_POLL_INTERVAL_SECONDS": str(WORKER_POLL_SECONDS),
        "IMPORTER_JOBS_IMPORT_STARTUP_DELAY_SECONDS": "0.01",
    }
    command = [sys.executable, "-m", "importer"]
    latencies: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        book = Path(folder) / "pickup.xlsx"
        _workbook(book)
        worker = subprocess.Popen(
            [*command, "worker", "--concurrency", "1"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            with connect(url, autocommit=True) as conn:
                _wait(lambda: conn.execute("SELECT 1 FROM workers").fetchone() is not None)
                for _ in range(rounds):
                    time.sleep(0.2)  # the worker is idle, asleep in its poll wait
                    done = subprocess.run(
                        [*command, "submit", str(book), "--form", "bench_pickup", *SUBMIT_FLAGS],
                        env=env,
                        capture_output=True,
                        text=True,
                        check=True,
                    )
                    job_id = int(json.loads(done.stdout.splitlines()[-1])["id"])

                    def finished(job_id: int = job_id) -> bool:
                        row = conn.execute(
                            "SELECT status FROM import_jobs WHERE id = %s", (job_id,)
                        ).fetchone()
                        return row is not None and row["status"] not in ("pending", "running")

                    _wait(finished)
                    row = conn.execute(
                        "SELECT extract(epoch FROM started_at - created_at)::float8 AS s"
                        " FROM import_jobs WHERE id = %s",
                        (job_id,),
                    ).fetchone()
                    assert row is not None
                    latencies.append(row["s"] * 1000)
        finally:
            worker.terminate()
            worker.wait(30)
    median = statistics.median(latencies)
    return Figure(
        f"pickup latency, median of {rounds} (poll {WORKER_POLL_SECONDS:g} s)",
        median,
        "ms",
        f"< {PICKUP_TARGET_MS:,.0f} ms",
        median < PICKUP_TARGET_MS,
    )


def _wait(probe: object, timeout: float = 60.0) -> None:
    assert callable(probe)
    deadline = time.monotonic() + timeout
    while not probe():
        if time.monotonic() > deadline:
            raise RuntimeError("bench: timed out waiting for the worker")
        time.sleep(0.01)


def run(report: Callable[[str], None] | None = None, *, server_url: str | None = None) -> bool:
    """Print the fleet figures next to their targets; True when every target is met."""
    say = report or (lambda text: print(text, flush=True))
    server = server_url or resolve_url(load_settings())
    say("fleet: timer scheduler and workers")
    figures = []
    with scratch_database(server, "fleet") as url:
        figures.append(timers_per_second(url))
        say(figures[-1].line())
    with scratch_database(server, "fleet") as url:
        figures.append(pickup_latency(url))
        say(figures[-1].line())
    return all(f.met for f in figures)


if __name__ == "__main__":
    sys.exit(0 if run() else 1)
