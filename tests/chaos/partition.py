"""Scenario: a network partition between one worker host and PostgreSQL, mid-import.

The host's link goes down on the bridge side: its packets are dropped both ways, nothing
sends a reset. Another host must take the job over once the lease expires; the partitioned
worker must notice within its lease (its job's threads end: keepalives, tcp_user_timeout,
statement and idle-in-transaction timeouts, a renewer that gives up) and stay alive; once
the link is back, nothing it writes may land (fencing), and the rows are exact.
"""

from __future__ import annotations

import statistics
import time
from datetime import datetime
from pathlib import Path

from importer.identity import parse_owner
from tests.chaos.campaign import Outcome, ScenarioFailed, Stage, outcome
from tests.chaos.hosts import Host
from tests.chaos.invariants import TERMINAL, JobCheck, jobs_since
from tests.chaos.kills import _stop_gracefully, _totals
from tests.chaos.procs import Child

# The lease of this scenario: long enough for a dead socket to be noticed (a third of it per
# attempt) and a renewal or two to fail before the renewer gives up.
PARTITION_LEASE = 8.0
PARTITION_TUNING = {
    "IMPORTER_JOBS_IMPORT_LEASE_SECONDS": f"{PARTITION_LEASE:g}",
    "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "200",
}


def _run_threads(child: Child, job_id: int) -> int:
    """The worker's threads that serve job ``job_id``'s run beside its own thread: its lease
    renewer and its batch writer (named for the system: importer.thread_names). The job's
    own thread is not counted by name: a native library imported on it (polars) starts a
    thread of its own there, which inherits the name and outlives the run."""
    names = {f"lease-{job_id}", f"job-{job_id}-writer"}
    tasks = Path(f"/proc/{child.pid}/task")
    try:
        listed = list(tasks.iterdir())
    except OSError:  # the process is gone
        return 0
    count = 0
    for task in listed:
        try:
            count += (task / "comm").read_text().strip() in names
        except OSError:  # this thread ended meanwhile
            continue
    return count


def _run_ended(child: Child, job_id: int) -> bool:
    """The worker logged the end of its run of ``job_id``: it does once the run's thread
    is gone (the claim is the one line before it)."""
    said = [line for line in child.output()[0].splitlines() if f" job {job_id}: " in line]
    return any("(attempt " not in line for line in said)


def _owner_host(owner: object) -> str | None:
    parsed = parse_owner(str(owner)) if owner else None
    return parsed.host if parsed is not None else None


def _job(stage: Stage, job_id: int) -> dict[str, object]:
    with stage.conn() as conn:
        row = conn.execute("SELECT * FROM import_jobs WHERE id = %s", (job_id,)).fetchone()
    if row is None:
        raise ScenarioFailed(f"job {job_id} vanished")
    return row


def network_partition(stage: Stage, *, rounds: int, rows: int) -> Outcome:
    began = time.monotonic()
    if len(stage.hosts) < 2:
        raise ScenarioFailed("needs two test hosts (network namespaces), none could be made")
    checks: list[JobCheck] = []
    takeovers: list[float] = []
    noticed: list[float] = []
    late_writes = 0
    partitions = 0
    exits: list[str] = []
    for round_no in range(rounds):
        cut, other = stage.hosts[round_no % 2], stage.hosts[(round_no + 1) % 2]
        args = ["worker", "--concurrency", "1"]
        first = stage.start_on(cut, "worker", args)
        book = stage.workbook(f"partition-{round_no}", rows, seed=1100 + round_no)
        stage.submit_detached(book)
        with stage.conn() as conn:
            job_id = jobs_since(conn, 0)[-1]

        def writing(job: int = job_id, host: Host = cut) -> bool:
            row = _job(stage, job)
            return (
                row["status"] == "running"
                and _owner_host(row["lease_owner"]) == host.name
                and int(row["success_rows"]) > 0  # type: ignore[call-overload]
            )

        if not stage.wait_until(writing, 60, step=0.02):
            raise ScenarioFailed(f"job {job_id}: never written by {cut.name}: {first.tail()}")
        if _run_threads(first, job_id) == 0:  # else "stopped" could not fail
            raise ScenarioFailed(f"job {job_id}: its threads are not to be seen in {cut.name}")
        old_owner = str(_job(stage, job_id)["lease_owner"])
        with stage.conn() as conn:
            backends = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE client_addr = %s::inet",
                (cut.address,),
            ).fetchall()
        cut.partition()
        partitioned_at = time.monotonic()
        partitions += 1
        second = stage.start_on(other, "worker", args)

        stopped_at: float | None = None
        taken_at: float | None = None
        deadline = partitioned_at + PARTITION_LEASE * 3 + 20
        while time.monotonic() < deadline and (stopped_at is None or taken_at is None):
            now = time.monotonic()
            if (
                stopped_at is None
                and _run_ended(first, job_id)
                and _run_threads(first, job_id) == 0
            ):
                stopped_at = now
            if taken_at is None:
                row = _job(stage, job_id)
                if _owner_host(row["lease_owner"]) == other.name or row["status"] in TERMINAL:
                    taken_at = now
            time.sleep(0.05)
        with stage.conn() as conn:
            moment = conn.execute("SELECT now() AS now").fetchone()
        taken_moment: datetime | None = moment["now"] if moment else None
        if stopped_at is None:
            stage.problems.append(
                f"job {job_id}: {cut.name}'s worker still ran it {deadline - partitioned_at:.0f}"
                " s into the partition"
            )
        else:
            noticed.append(stopped_at - partitioned_at)
            if stopped_at - partitioned_at > PARTITION_LEASE:
                stage.problems.append(
                    f"job {job_id}: {cut.name}'s worker stopped {stopped_at - partitioned_at:.1f}"
                    f" s into the partition, after its {PARTITION_LEASE:g} s lease"
                )
        if taken_at is None:
            stage.problems.append(f"job {job_id}: {other.name} never took it over")
        else:
            takeovers.append(taken_at - partitioned_at)
        cut.heal()
        if not stage.wait_until(lambda job=job_id: stage.all_terminal([job]), 120):  # type: ignore[misc]
            stage.problems.append(f"job {job_id}: not finished 120 s after the takeover")
        time.sleep(2.0)  # the healed worker's chance to write late (it must not)
        late_writes += _writes_after(stage, job_id, old_owner, taken_moment)
        if not first.alive():
            stage.problems.append(f"{first.name} died in the partition: {first.tail()}")
        checks += stage.check_jobs({job_id: book})
        if taken_moment is not None:
            stale = {int(b["pid"]): taken_moment for b in backends}
            report = stage.audit(stale_backends=stale)
            late_writes += sum(1 for p in report.problems if "paused writer" in p)
        exits.append(_stop_gracefully(stage, [first, second]))

    report = stage.audit()
    dups, lost, stuck = _totals(checks)
    exact = sum(c.ok for c in checks)
    if late_writes:
        stage.problems.append(f"{late_writes} writes by a partitioned owner after the takeover")
    line = (
        f"network partition: {partitions} partitions (packets dropped, no reset; "
        f"{PARTITION_LEASE:g} s lease), takeover after {_spread(takeovers)}, partitioned "
        f"worker stopped after {_spread(noticed)}, {exact}/{len(checks)} jobs exact, "
        f"{late_writes} writes after takeover by the old owner, {dups} duplicates, {lost} "
        f"lost, {stuck} stuck; {report.takeovers} takeovers; {_stopped(exits)}"
    )
    return outcome(
        stage,
        "network-partition",
        line,
        began,
        partitions,
        rounds,
        "partitions",
        takeover_s=takeovers,
        stopped_s=noticed,
        late_writes=late_writes,
        jobs=len(checks),
        lost=lost,
        twice=dups,
    )


def _spread(values: list[float]) -> str:
    if not values:
        return "n/a"
    if len(values) == 1:
        return f"{values[0]:.1f} s"
    return f"{statistics.median(values):.1f} s median, {max(values):.1f} s max"


def _writes_after(stage: Stage, job_id: int, owner: str, moment: datetime | None) -> int:
    """Cursor moves committed by ``owner`` after ``moment`` (the takeover)."""
    if moment is None:
        return 0
    with stage.conn() as conn:
        row = conn.execute(
            "SELECT count(*) AS n FROM chaos_jobs WHERE job = %s AND old_owner = %s"
            " AND (d_success <> 0 OR d_failed <> 0)"
            " AND coalesce(pg_xact_commit_timestamp(xmin), at) > %s",
            (job_id, owner, moment),
        ).fetchone()
    return int(row["n"]) if row else 0


def _stopped(exits: list[str]) -> str:
    clean = sum(int(e.split("/")[0]) for e in exits)
    total = sum(int(e.split("/")[1].split()[0]) for e in exits)
    return f"{clean}/{total} stopped cleanly on SIGTERM"
