"""docs/RELIABILITY.md: the published figures of a full campaign run (written by make chaos)."""

from __future__ import annotations

import os
import platform
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from tests.chaos.campaign import Outcome

REPORT = Path(__file__).resolve().parents[2] / "docs" / "RELIABILITY.md"

# Every scenario's jobs are checked against their workbooks, row by row (JOB_CHECK), and its
# committed history by the audit triggers (AUDIT); what each adds:
JOB_CHECK = (
    "rows exact: every valid row stored once with its data, every invalid row rejected once "
    "with one error, counters and total_rows as the workbook says, the job terminal and "
    "unleased (`invariants.check_job`)"
)
AUDIT = (
    "audit triggers (the inside view): every transaction that stored or rejected rows moved "
    "the cursor by exactly as many, while the job was running and owned by the writer; no live "
    "lease was taken or cut short except from a process the campaign killed; no row of the "
    "form's table updated or deleted; a timer completed at most once, its effect in the same "
    "transaction"
)
CHECKED: dict[str, tuple[str, ...]] = {
    "kill-submit": (
        "kill -9 of a foreground `submit` at random moments (before the job exists, mid-file, "
        "at the last commit), sometimes of its `resume` too; `resume` must finish exactly",
        "a killed owner's lease may be taken at once (its pid is proven gone), no other",
    ),
    "kill-workers": (
        "kill -9 of workers holding jobs while others run; replacements take over",
        "every worker left stops cleanly on SIGTERM",
    ),
    "pause-worker": (
        "SIGSTOP of a worker past its lease (anywhere, inside a transaction, mid-COPY); "
        "another takes over; after SIGCONT the frozen writer commits nothing "
        "(commit timestamps of its server processes)",
    ),
    "restart-server": (
        "pg_ctl stop -m fast / immediate under running imports and as timers fall due; "
        "workers and scheduler reconnect by themselves, none dies",
        "every timer completes exactly once",
    ),
    "kill-postmaster": (
        "kill -9 of the postmaster (its backends die with it) during imports run by workers "
        "on two hosts and as timers fall due; crash recovery, the fleet reconnects by itself",
        "every timer completes exactly once; no process dies",
    ),
    "network-partition": (
        "packets between one worker host and PostgreSQL dropped both ways mid-import (its "
        "veth down on the bridge: no reset); the other host takes over after the lease",
        "the partitioned worker's job threads end within its lease (it stays alive); after "
        "the partition heals, no write of the old owner lands (cursor moves by it, commits "
        "of its server processes)",
    ),
    "clock-skew": (
        "hosts 10 minutes ahead and behind (libfaketime in their processes): their workers "
        "take no live lease; `--in` from the host behind and `--at` from the host ahead are "
        "due exactly when meant on the database's clock; the scheduler ahead fires none early",
    ),
    "disk-full": (
        "the form tables' tablespace (a size-limited tmpfs) fills mid-import: the batch "
        "rolls back, the attempt fails with one line (no traceback), rows stored = cursor; "
        "after the space is freed `resume` finishes exactly",
    ),
    "connection-limits": (
        "more workers than max_connections allows: the refused ones log one line ('too "
        "many clients; retrying in Ns') and retry; none crashes; a claimed job with no "
        "connection is given back at once",
    ),
    "cut-connections": (
        "pg_terminate_backend of the fleet's sessions, mostly inside transactions",
        "no worker dies",
    ),
    "many-jobs": (
        "nothing killed: no job claimed twice (no lease lost under load), all workers share",
    ),
    "load": (
        "nothing killed: imports queued and behind timers across 2 hosts, all exactly once; "
        "pickup latency and timer lateness on the database's clock",
    ),
}


@dataclass(frozen=True)
class Machine:
    cores: int
    system: str
    postgres: str
    hosts: str

    @classmethod
    def here(cls, postgres: str, hosts: str) -> Machine:
        return cls(os.cpu_count() or 0, platform.platform(terse=True), postgres, hosts)


def _figure(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    if isinstance(value, list):
        return ", ".join(_figure(v) for v in value) or "none"
    return str(value)


def render(outcomes: list[Outcome], *, seed: int, seconds: float, machine: Machine) -> str:
    passed = sum(o.ok for o in outcomes)
    lines = [
        "# Reliability: what the crash and fault campaign proved",
        "",
        "Written by `make chaos` (`python -m tests.chaos`, the full campaign) from its last run;",
        "run it again to refresh this page, do not edit it. Each scenario runs real `importer`",
        "processes against a real PostgreSQL of the campaign's own, injects its faults, then",
        "checks every job row by row against its workbook and the committed history through",
        "audit triggers inside the database. A scenario passes only when it injected every",
        "fault it aimed at.",
        "",
        f"- Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        f"- Seed: {seed} (repeat with `python -m tests.chaos --seed {seed}`)",
        f"- Machine: {machine.cores} cores, {machine.system}, {machine.postgres}",
        f"- Hosts: {machine.hosts}",
        f"- Result: {passed} of {len(outcomes)} scenarios passed in {seconds:.0f} s",
        "",
        "| scenario | faults injected / target | jobs | lost | twice | seconds | verdict |",
        "|---|---|---|---|---|---|---|",
    ]
    for o in outcomes:
        f = o.figures
        lines.append(
            f"| {o.name} | {o.injected} / {o.target} | {f.get('jobs', '?')} | "
            f"{f.get('lost', '?')} | {f.get('twice', '?')} | {o.seconds:.0f} | "
            f"{'passed' if o.ok else 'FAILED'} |"
        )
    lines += ["", "Every scenario also checked:", "", f"- {JOB_CHECK};", f"- {AUDIT}.", ""]
    for o in outcomes:
        lines += [f"## {o.name}", "", "```", o.full_line, "```", ""]
        lines += [f"- {c}" for c in CHECKED.get(o.name, ())]
        extra = {k: v for k, v in o.figures.items() if k not in ("jobs", "lost", "twice")}
        if extra:
            lines.append("- figures: " + "; ".join(f"{k} {_figure(v)}" for k, v in extra.items()))
        for problem in o.problems[:10]:
            lines.append(f"- PROBLEM: {problem}")
        lines.append("")
    return "\n".join(lines)


def write(outcomes: list[Outcome], *, seed: int, seconds: float, machine: Machine) -> Path:
    REPORT.write_text(render(outcomes, seed=seed, seconds=seconds, machine=machine))
    return REPORT
