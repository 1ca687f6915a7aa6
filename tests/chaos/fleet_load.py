"""Scenario 6: many workers on many small jobs, nothing killed: throughput and single owners."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import psycopg
from psycopg.rows import dict_row

from tests.chaos.campaign import Outcome, ScenarioFailed, Stage, outcome
from tests.chaos.invariants import TERMINAL
from tests.chaos.kills import _stop_gracefully, _totals
from tests.chaos.workbooks import FORM_NAME, Expected

REPO = Path(__file__).resolve().parents[2]


def many_small_jobs(stage: Stage, *, workers: int, jobs: int, rows: int, variants: int) -> Outcome:
    began = time.monotonic()
    books = [stage.workbook(f"small-{i}", rows, seed=700 + i) for i in range(variants)]
    order = [books[i % variants] for i in range(jobs)]
    submit = stage.fleet.start(
        "bulk-submit",
        [FORM_NAME, *(str(b.path) for b in order)],
        extra_env={"PYTHONPATH": str(REPO)},
        command=[sys.executable, "-m", "tests.chaos.bulk_submit"],
    )
    if submit.wait(300) != 0:
        raise ScenarioFailed(f"bulk submit failed: {submit.tail()}")
    by_name = {b.path.name: b for b in books}
    with stage.conn() as conn:
        rows_ = conn.execute("SELECT id, file_name FROM import_jobs ORDER BY id").fetchall()
    expected: dict[int, Expected] = {int(r["id"]): by_name[str(r["file_name"])] for r in rows_}
    if len(expected) != jobs:
        raise ScenarioFailed(f"{len(expected)} jobs queued, expected {jobs}")
    ids = list(expected)

    started = time.monotonic()
    fleet = [stage.fleet.start("worker", ["worker", "--concurrency", "2"]) for _ in range(workers)]
    done = stage.wait_until(lambda: stage.all_terminal(ids), 600, step=0.1)
    elapsed = time.monotonic() - started
    if not done:
        stage.problems.append("not every job finished within 600 s")

    checks = stage.check_jobs(expected)
    report = stage.audit()
    claims = _claims_per_job(stage.url)
    reclaimed = {job: n for job, n in claims.items() if n > 1}
    if reclaimed:
        shown = ", ".join(f"{j}x{n}" for j, n in list(reclaimed.items())[:8])
        stage.problems.append(
            f"jobs claimed more than once with nothing killed (lease lost under load): {shown}"
        )
    owners = _distinct_owners(stage.url)
    exits = _stop_gracefully(stage, fleet)
    dups, lost, stuck = _totals(checks)
    terminal = sum(1 for c in checks if c.status in TERMINAL)
    total_rows = sum(b.rows for b in expected.values())
    line = (
        f"many workers, many jobs: {workers} workers x 2, {jobs} jobs x {rows} rows, "
        f"{terminal} terminal in {elapsed:.1f} s ({jobs / elapsed:.1f} jobs/s, "
        f"{total_rows / elapsed:.0f} rows/s incl. start-up), {len(reclaimed)} claimed twice, "
        f"{report.takeovers} takeovers, {owners} owners shared the work, {dups} duplicates, "
        f"{lost} lost, {stuck} stuck; {exits}"
    )
    return outcome(
        stage,
        "many-jobs",
        line,
        began,
        0,
        0,
        "faults",
        jobs=len(checks),
        lost=lost,
        twice=dups,
        jobs_per_s=jobs / elapsed,
    )


def _claims_per_job(url: str) -> dict[int, int]:
    with psycopg.connect(url, row_factory=dict_row) as conn:
        rows = conn.execute(
            "SELECT job, count(*) AS n FROM chaos_jobs"
            " WHERE new_status = 'running' AND new_owner IS DISTINCT FROM old_owner"
            " GROUP BY job"
        ).fetchall()
    return {int(r["job"]): int(r["n"]) for r in rows}


def _distinct_owners(url: str) -> int:
    with psycopg.connect(url, row_factory=dict_row) as conn:
        row = conn.execute(
            "SELECT count(DISTINCT new_owner) AS n FROM chaos_jobs WHERE new_status = 'running'"
        ).fetchone()
    return int(row["n"]) if row else 0
