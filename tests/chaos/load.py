"""Scenario: load across hosts: thousands of small imports and timers, nothing killed.

Two test hosts run four workers each (concurrency 2) and a timer scheduler each; two
submitters queue small imports to run at once and others behind scheduled_import timers due
over the next minute or so, while the fleet runs. Every job must end exactly once; the
figures are throughput (jobs/s), pickup latency (queued -> first claimed; for a scheduled
import, due -> first claimed) p50/p99 and timer lateness (due -> completed) p99, all on the
database's clock.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from tests.chaos.campaign import Outcome, ScenarioFailed, Stage, outcome
from tests.chaos.invariants import TERMINAL
from tests.chaos.kills import _stop_gracefully, _totals
from tests.chaos.workbooks import FORM_NAME, Expected

REPO = Path(__file__).resolve().parents[2]
SUBMITTERS = 2


def _percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def load(
    stage: Stage,
    *,
    workers_per_host: int,
    jobs: int,
    timers: int,
    rows: int,
    spread: float,
) -> Outcome:
    began = time.monotonic()
    if len(stage.hosts) < 2:
        raise ScenarioFailed("needs two test hosts (network namespaces), none could be made")
    # Each submitter its own workbooks: two forced submits of one file at once are one job.
    books = [stage.workbook(f"load-{i}", rows, seed=1600 + i) for i in range(10 * SUBMITTERS)]
    hosts = stage.hosts[:2]
    fleet = [
        stage.start_on(h, "worker", ["worker", "--concurrency", "2"])
        for h in hosts
        for _ in range(workers_per_host)
    ]
    fleet += [stage.start_on(h, "timers", ["timers"]) for h in hosts]
    started = time.monotonic()
    submitters = [
        stage.fleet.start(
            "load-submit",
            [
                FORM_NAME,
                str(jobs // SUBMITTERS),
                str(timers // SUBMITTERS),
                f"{spread:g}",
                f"{stage.rng.random()}-{n}",
                *(str(b.path) for b in books[n * 10 : (n + 1) * 10]),
            ],
            extra_env={"PYTHONPATH": str(REPO)},
            command=[sys.executable, "-m", "tests.chaos.load_submit"],
        )
        for n in range(SUBMITTERS)
    ]
    for s in submitters:
        if s.wait(900) != 0:
            raise ScenarioFailed(f"submitter failed: {s.tail()}")
    submitted = time.monotonic() - started
    by_name = {b.path.name: b for b in books}
    with stage.conn() as conn:
        listed = conn.execute("SELECT id, file_name FROM import_jobs ORDER BY id").fetchall()
    expected: dict[int, Expected] = {int(r["id"]): by_name[str(r["file_name"])] for r in listed}
    total = jobs // SUBMITTERS * SUBMITTERS + timers // SUBMITTERS * SUBMITTERS
    if len(expected) != total:
        raise ScenarioFailed(f"{len(expected)} jobs queued, expected {total}")
    ids = list(expected)
    if not stage.wait_until(lambda: stage.all_terminal(ids), 900, step=0.5):
        stage.problems.append("not every job finished within 900 s")
    died = [c for c in fleet if not c.alive()]
    for c in died:
        stage.problems.append(f"{c.name} exited {c.proc.returncode}: {c.tail()}")

    figures = _figures(stage)
    checks = stage.check_jobs(expected)
    report = stage.audit()
    exits = _stop_gracefully(stage, fleet)
    dups, lost, stuck = _totals(checks)
    terminal = sum(1 for c in checks if c.status in TERMINAL)
    fired = int(figures["fired"])
    if fired != timers // SUBMITTERS * SUBMITTERS:
        stage.problems.append(f"{fired} timers completed, expected {timers}")
    line = (
        f"load: {len(hosts)} hosts x {workers_per_host} workers x 2, "
        f"{total - fired} imports queued + {fired} behind timers ({rows} rows each, submitted "
        f"in {submitted:.0f} s while the fleet ran), {terminal} terminal, "
        f"{figures['jobs_per_s']:.1f} jobs/s end to end, pickup p50 "
        f"{figures['pickup_p50']:.2f} s / p99 {figures['pickup_p99']:.2f} s, timer lateness "
        f"p99 {figures['late_p99']:.2f} s "
        f"(max {figures['late_max']:.2f} s), {dups} duplicates, {lost} lost, {stuck} stuck, "
        f"{report.takeovers} takeovers, {len(died)} died; {exits}"
    )
    return outcome(
        stage,
        "load",
        line,
        began,
        0,
        0,
        "faults",
        jobs=len(checks),
        lost=lost,
        twice=dups,
        **figures,
    )


def _figures(stage: Stage) -> dict[str, float]:
    with stage.conn() as conn:
        span = conn.execute(
            "SELECT count(*) AS n, extract(epoch FROM max(finished_at) - min(created_at)) AS s"
            " FROM import_jobs"
        ).fetchone()
        # First claim: the first audited change to running (a takeover would come later).
        picked = conn.execute(
            "SELECT extract(epoch FROM first.at - coalesce(t.due_at, j.created_at)) AS wait"
            " FROM import_jobs j"
            " JOIN LATERAL (SELECT min(c.at) AS at FROM chaos_jobs c WHERE c.job = j.id"
            "      AND c.new_status = 'running' AND c.old_status <> 'running') first ON true"
            " LEFT JOIN timer_jobs t ON t.kind = 'scheduled_import' AND t.target = j.id::text"
        ).fetchall()
        late = conn.execute(
            "SELECT extract(epoch FROM c.at - t.due_at) AS late FROM timer_jobs t"
            " JOIN chaos_timers c ON c.timer = t.id AND c.new_status = 'completed'"
            " WHERE t.kind = 'scheduled_import'"
        ).fetchall()
    waits = [float(r["wait"]) for r in picked if r["wait"] is not None]
    lateness = [float(r["late"]) for r in late if r["late"] is not None]
    seconds = float(span["s"] or 0) if span else 0.0
    return {
        "jobs_per_s": (float(span["n"]) / seconds) if span and seconds else 0.0,
        "pickup_p50": _percentile(waits, 0.5),
        "pickup_p99": _percentile(waits, 0.99),
        "late_p99": _percentile(lateness, 0.99),
        "late_max": max(lateness, default=float("nan")),
        "fired": float(len(lateness)),
    }
