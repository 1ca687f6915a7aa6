"""Queue throughput: the same workload through importer's queue and through procrastinate's
(a PostgreSQL task queue, installed by the bench extra), in the same run, as jobs/s of each.

The workload: JOBS jobs queued first, then WORKERS worker processes x concurrency 2 on one
scratch database each; jobs/s = JOBS / (first job started -> last job done, on the
database's clock: worker start-up is left out of both).

- importer: each job is a 20-row workbook (stored in the database by ``submit --detach``):
  a worker claims it (FOR UPDATE SKIP LOCKED, a lease), opens the stored workbook, validates
  the 20 rows against the form and writes them with the cursor and the lease in one fenced
  transaction, then finishes the job (lease renewer, registration and NOTIFY included).
- procrastinate: each job is a task that inserts 20 JSON rows in one transaction on its own
  connection; procrastinate's worker fetches it (SKIP LOCKED) and records its status.

So an importer job does more than a procrastinate one (a workbook read and validated): the
figures say what the queue costs around comparable writes, not which one reads Excel.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench.scratch import scratch_database
from importer.config import load_settings
from importer.database import Connection, connect, resolve_url

JOBS = 500
WORKERS = 4
ROWS = 20
FORM_TOML = """
name = "bench_queue"
[[fields]]
name = "n"
header = "N"
type = "integer"
required = true
[[fields]]
name = "name"
header = "Name"
type = "string"
"""


def _env(url: str) -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith("IMPORTER_")},
        "IMPORTER_DATABASE_URL": url,
        "BENCH_QUEUE_URL": url,
        "NO_COLOR": "1",
        "IMPORTER_JOBS_IMPORT_STARTUP_DELAY_SECONDS": "0.01",
        "PYTHONPATH": str(Path(__file__).resolve().parents[1]),
    }


def _wait_succeeded(conn: Connection, table: str, timeout: float = 600.0) -> None:
    """Until all JOBS rows of the queue's job ``table`` are succeeded."""
    deadline = time.monotonic() + timeout
    while True:
        row = conn.execute(
            f"SELECT count(*) AS n FROM {table} WHERE status = 'succeeded'"
        ).fetchone()
        if row is not None and row["n"] == JOBS:
            return
        if time.monotonic() > deadline:
            raise RuntimeError("bench: the queue did not drain in time")
        time.sleep(0.1)


def _workers(argv: list[str], env: dict[str, str]) -> list[subprocess.Popen[bytes]]:
    return [
        subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(WORKERS)
    ]


def _stop(workers: list[subprocess.Popen[bytes]]) -> None:
    for w in workers:
        w.terminate()
    for w in workers:
        try:
            w.wait(30)
        except subprocess.TimeoutExpired:
            w.kill()


def importer_jobs_per_second(url: str) -> float:
    from openpyxl import Workbook

    from importer.api import Importer, SubmitRequest
    from importer.forms.definition import parse_form_text
    from importer.repositories.forms import save_form

    with connect(url, autocommit=True) as conn:
        save_form(conn, parse_form_text(FORM_TOML))
    with tempfile.TemporaryDirectory() as folder:
        book_path = Path(folder) / "queue.xlsx"
        book = Workbook()
        sheet = book.active
        assert sheet is not None
        sheet.append(["N", "Name"])
        for n in range(1, ROWS + 1):
            sheet.append([n, f"name-{n}"])
        book.save(book_path)
        importer = Importer(url)
        for _ in range(JOBS):
            importer.submit_workbook(
                SubmitRequest(book_path, form="bench_queue", force=True, run_here=False)
            )
    env = _env(url)
    workers = _workers([sys.executable, "-m", "importer", "worker", "--concurrency", "2"], env)
    try:
        with connect(url, autocommit=True) as conn:
            _wait_succeeded(conn, "import_jobs")
            row = conn.execute(
                "SELECT extract(epoch FROM max(finished_at) - min(started_at))::float8 AS s"
                " FROM import_jobs"
            ).fetchone()
    finally:
        _stop(workers)
    assert row is not None
    return JOBS / float(row["s"])


def procrastinate_jobs_per_second(url: str) -> float:
    env = _env(url)
    os.environ["BENCH_QUEUE_URL"] = url  # read by bench.queue_tasks when imported
    from bench import queue_tasks

    with connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE bench_rows (job bigint, data jsonb NOT NULL)")
    with queue_tasks.app.open():
        queue_tasks.app.schema_manager.apply_schema()
        task = queue_tasks.app.tasks["insert_rows"]
        kwargs: dict[str, queue_tasks.JSONValue] = {"rows": ROWS}
        task.batch_defer(*(kwargs for _ in range(JOBS)))
    argv = [sys.executable, "-m", "procrastinate", "--app=bench.queue_tasks.app", "worker"]
    workers = _workers([*argv, "--concurrency", "2"], env)
    try:
        with connect(url, autocommit=True) as conn:
            _wait_succeeded(conn, "procrastinate_jobs")
            row = conn.execute(
                "SELECT extract(epoch FROM max(at) FILTER (WHERE type = 'succeeded')"
                " - min(at) FILTER (WHERE type = 'started'))::float8 AS s"
                " FROM procrastinate_events"
            ).fetchone()
            stored = conn.execute("SELECT count(*) AS n FROM bench_rows").fetchone()
    finally:
        _stop(workers)
    assert row is not None and stored is not None and stored["n"] == JOBS * ROWS
    return JOBS / float(row["s"])


def run(report: Callable[[str], None] | None = None, *, server_url: str | None = None) -> bool:
    """Print jobs/s of both queues on the same workload; no target (a comparison)."""
    say = report or (lambda text: print(text, flush=True))
    server = server_url or resolve_url(load_settings())
    say(f"queue: {JOBS} jobs of {ROWS} rows, {WORKERS} worker processes x concurrency 2")
    with scratch_database(server, "queue") as url:
        ours = importer_jobs_per_second(url)
    say(f"  {'importer (workbook read, validated, fenced write)':<52} {ours:>8,.1f} jobs/s")
    try:
        import procrastinate  # noqa: F401
    except ImportError:
        say("  procrastinate: not installed (pip install -e '.[bench]')")
        return True
    with scratch_database(server, "queue") as url:
        theirs = procrastinate_jobs_per_second(url)
    say(f"  {'procrastinate (20-row insert task)':<52} {theirs:>8,.1f} jobs/s")
    return True


if __name__ == "__main__":
    sys.exit(0 if run() else 1)
