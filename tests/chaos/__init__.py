"""The crash and fault campaign: real `importer` processes against a dedicated PostgreSQL.

    python -m tests.chaos            # the full campaign (make chaos)
    python -m tests.chaos --quick    # a bounded slice (CI, and tests/chaos/test_quick_slice.py)

Each scenario prints one line of figures; a failing one also prints what it found (which
job, which rows). The exit code is non-zero when any scenario failed.
"""

from __future__ import annotations

import shutil
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from tests.chaos.campaign import Campaign, Outcome, Stage


@dataclass(frozen=True)
class Plan:
    """How much of everything: the full run and the quick slice differ only in numbers."""

    submit_kills: int
    submit_rows: int
    worker_kills: int
    worker_jobs: int
    worker_rows: int
    pause_rounds: int
    pause_rows: int
    restart_rounds: int
    restart_jobs: int
    restart_rows: int
    timers: int
    cuts: int
    cut_jobs: int
    cut_rows: int
    fleet_workers: int
    fleet_jobs: int
    fleet_rows: int
    partitions: int
    partition_rows: int
    skew_jobs: int
    skew_rows: int
    skew_timers: int
    crashes: int
    disk_rounds: int
    disk_rows: int
    limit_workers: int
    limit_jobs: int
    load_workers: int
    load_jobs: int
    load_timers: int
    load_spread: float


FULL = Plan(
    submit_kills=40,
    submit_rows=20000,
    worker_kills=30,
    worker_jobs=8,
    worker_rows=60000,
    pause_rounds=9,
    pause_rows=20000,
    restart_rounds=4,
    restart_jobs=4,
    restart_rows=30000,
    timers=30,
    cuts=30,
    cut_jobs=4,
    cut_rows=60000,
    fleet_workers=4,
    fleet_jobs=200,
    fleet_rows=20,
    partitions=3,
    partition_rows=30000,
    skew_jobs=3,
    skew_rows=60000,
    skew_timers=10,
    crashes=4,
    disk_rounds=2,
    disk_rows=40000,
    limit_workers=8,
    limit_jobs=24,
    load_workers=4,
    load_jobs=2000,
    load_timers=1000,
    load_spread=60.0,
)
QUICK = Plan(
    submit_kills=3,
    submit_rows=12000,
    worker_kills=4,
    worker_jobs=3,
    worker_rows=15000,
    pause_rounds=1,
    pause_rows=10000,
    restart_rounds=1,
    restart_jobs=2,
    restart_rows=10000,
    timers=3,
    cuts=6,
    cut_jobs=2,
    cut_rows=30000,
    fleet_workers=4,
    fleet_jobs=40,
    fleet_rows=20,
    partitions=1,
    partition_rows=20000,
    skew_jobs=2,
    skew_rows=20000,
    skew_timers=2,
    crashes=1,
    disk_rounds=1,
    disk_rows=30000,
    limit_workers=5,
    limit_jobs=8,
    load_workers=2,
    load_jobs=60,
    load_timers=30,
    load_spread=6.0,
)
LEASE_SECONDS = 2.0
# Left out of the quick slice (its 3-minute budget): the load scenario covers many small jobs
# on many workers there.
NOT_QUICK = frozenset({"many_jobs"})


# Per-scenario settings on top of campaign.TUNING. The pause scenario writes the default
# 1,000 rows per transaction: a realistic, wider window to freeze a writer mid-COPY.
def _stage_tuning() -> dict[str, dict[str, str]]:
    from tests.chaos.partition import PARTITION_TUNING

    return {
        "pause_worker": {"IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "1000"},
        "network_partition": PARTITION_TUNING,
    }


def _scenarios(plan: Plan, campaign: Campaign) -> list[tuple[str, Callable[[Stage], Outcome]]]:
    from tests.chaos import clock, disk, faults, fleet_load, kills, limits, load, partition

    return [
        (
            "kill_submit",
            lambda s: kills.kill_foreground_submit(s, plan.submit_kills, plan.submit_rows),
        ),
        (
            "kill_workers",
            lambda s: kills.kill_workers(
                s,
                workers=3,
                jobs=plan.worker_jobs,
                rows=plan.worker_rows,
                target_kills=plan.worker_kills,
                timeout=300,
            ),
        ),
        (
            "pause_worker",
            lambda s: kills.pause_past_lease(
                s, rounds=plan.pause_rounds, rows=plan.pause_rows, lease=LEASE_SECONDS
            ),
        ),
        (
            "restart_server",
            lambda s: faults.restart_server(
                s,
                campaign.server,
                jobs=plan.restart_jobs,
                rows=plan.restart_rows,
                rounds=plan.restart_rounds,
                timers=plan.timers,
            ),
        ),
        (
            "kill_postmaster",
            lambda s: faults.restart_server(
                s,
                campaign.server,
                jobs=plan.restart_jobs,
                rows=plan.restart_rows,
                rounds=plan.crashes,
                timers=plan.timers,
                crash=True,
            ),
        ),
        (
            "disk_full",
            lambda s: disk.disk_full(s, rounds=plan.disk_rounds, rows=plan.disk_rows),
        ),
        (
            "connection_limits",
            lambda s: limits.connection_limits(
                campaign, s.folder, workers=plan.limit_workers, jobs=plan.limit_jobs, rows=2000
            ),
        ),
        (
            "cut_connections",
            lambda s: faults.cut_connections(
                s, jobs=plan.cut_jobs, rows=plan.cut_rows, target_cuts=plan.cuts
            ),
        ),
        (
            "many_jobs",
            lambda s: fleet_load.many_small_jobs(
                s,
                workers=plan.fleet_workers,
                jobs=plan.fleet_jobs,
                rows=plan.fleet_rows,
                variants=10,
            ),
        ),
        (
            "network_partition",
            lambda s: partition.network_partition(
                s, rounds=plan.partitions, rows=plan.partition_rows
            ),
        ),
        (
            "clock_skew",
            lambda s: clock.clock_skew(
                s, jobs=plan.skew_jobs, rows=plan.skew_rows, timers=plan.skew_timers
            ),
        ),
        (
            "load",
            lambda s: load.load(
                s,
                workers_per_host=plan.load_workers,
                jobs=plan.load_jobs,
                timers=plan.load_timers,
                rows=20,
                spread=plan.load_spread,
            ),
        ),
    ]


def run_campaign(
    *,
    quick: bool,
    seed: int,
    only: list[str] | None = None,
    out: TextIO,
    keep: bool = False,
    root: Path | None = None,
    report: bool = False,
) -> list[Outcome]:
    """Run the scenarios; logs go under `root` (kept), else a temporary folder that is
    removed unless a scenario failed or `keep`. ``report``: write docs/RELIABILITY.md."""
    from tests.chaos import report as published

    plan = QUICK if quick else FULL
    keep = keep or root is not None
    root = root or Path(tempfile.mkdtemp(prefix="importer-chaos-"))
    outcomes: list[Outcome] = []
    began_all = time.monotonic()
    try:
        with Campaign(root, quick=quick, seed=seed) as campaign:
            print(f"hosts: {campaign.hosts_kind}", file=out, flush=True)
            machine = published.Machine.here(campaign.server.version(), campaign.hosts_kind)
            for name, scenario in _scenarios(plan, campaign):
                if only and name not in only:
                    continue
                if quick and not only and name in NOT_QUICK:
                    continue
                began = time.monotonic()
                stage: Stage | None = None
                try:
                    stage = campaign.stage(name, _stage_tuning().get(name))
                    outcome = scenario(stage)
                except Exception as exc:
                    detail = traceback.format_exception_only(exc)[-1].strip()
                    found = stage.problems if stage else []
                    outcome = Outcome(
                        name, f"{name}: crashed", [detail, *found], time.monotonic() - began
                    )
                finally:
                    if stage is not None:
                        stage.fleet.close()
                outcomes.append(outcome)
                mark = "ok  " if outcome.ok else "FAIL"
                print(
                    f"{mark} {outcome.full_line}  [{outcome.seconds:.0f} s]", file=out, flush=True
                )
                for problem in outcome.problems[:25]:
                    print(f"       - {problem}", file=out, flush=True)
                if len(outcome.problems) > 25:
                    print(f"       ... {len(outcome.problems) - 25} more", file=out, flush=True)
        if report:
            seconds = time.monotonic() - began_all
            path = published.write(outcomes, seed=seed, seconds=seconds, machine=machine)
            print(f"figures written to {path.name}", file=out, flush=True)
    finally:
        failed = any(not o.ok for o in outcomes)
        if keep or failed:
            print(f"logs in {root}", file=out)
        else:
            shutil.rmtree(root, ignore_errors=True)
    return outcomes
