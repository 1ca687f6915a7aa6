"""Scenario: hosts whose clocks are 10 minutes off (libfaketime in their processes).

One host runs ahead, one behind, one is right. Every time decision must be the database's:
workers on the skewed hosts run beside the healthy owner of live leases and must take none
of them; `submit --in` from the host behind and `submit --at` (a moment by the database's
clock) from the host ahead must schedule exactly that moment; the only timer scheduler runs
on the host ahead and must fire nothing early. A process reading its own clock fails this
by minutes: a stolen lease, a timer fired at once, a valid --at refused as past.
"""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path

from tests.chaos.campaign import Outcome, ScenarioFailed, Stage, outcome
from tests.chaos.hosts import Host
from tests.chaos.invariants import jobs_since
from tests.chaos.kills import _stop_gracefully, _totals
from tests.chaos.workbooks import FORM_NAME, Expected

LIBFAKETIME = Path("/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1")
SKEW_SECONDS = 600.0


def faked(offset_seconds: float) -> dict[str, str]:
    """The environment that runs a process's clock ``offset_seconds`` off (wall clock only:
    a monotonic clock has no epoch to be wrong about)."""
    return {
        "LD_PRELOAD": str(LIBFAKETIME),
        "FAKETIME": f"{offset_seconds:+.0f}s",
        "FAKETIME_DONT_FAKE_MONOTONIC": "1",
        "FAKETIME_NO_CACHE": "1",
    }


def _measured_skew(stage: Stage, host: Host, env: dict[str, str]) -> float:
    """How far this host's processes' clock is from the database's, in seconds."""
    probe = stage.fleet.start(
        f"{host.name}-clock",
        ["-c", "import time; print(time.time())"],
        env,
        command=host.command([__import__("sys").executable]),
    )
    if probe.wait(30) != 0:
        raise ScenarioFailed(f"clock probe on {host.name} failed: {probe.tail()}")
    with stage.conn() as conn:
        row = conn.execute("SELECT extract(epoch FROM clock_timestamp()) AS t").fetchone()
    theirs = float(probe.output()[0].split()[-1])
    return theirs - float(row["t"]) if row else 0.0


def clock_skew(stage: Stage, *, jobs: int, rows: int, timers: int) -> Outcome:
    began = time.monotonic()
    if not LIBFAKETIME.exists():
        raise ScenarioFailed(f"{LIBFAKETIME} missing (Debian package libfaketime)")
    if len(stage.hosts) < 3:
        raise ScenarioFailed("needs three test hosts (network namespaces), none could be made")
    right, ahead, behind = stage.hosts[:3]
    envs = {ahead.name: faked(SKEW_SECONDS), behind.name: faked(-SKEW_SECONDS)}
    skews = {h.name: _measured_skew(stage, h, envs[h.name]) for h in (ahead, behind)}
    skewed = sum(
        1
        for name, want in ((ahead.name, SKEW_SECONDS), (behind.name, -SKEW_SECONDS))
        if abs(skews[name] - want) < 30
    )
    if skewed < 2:
        stage.problems.append(f"clocks not skewed as wanted: {skews}")

    # (a) Live leases held by the right host; the skewed hosts' workers poll beside it.
    expected: dict[int, Expected] = {}
    for i in range(jobs):
        book = stage.workbook(f"clock-{i}", rows, seed=1200 + i)
        stage.submit_detached(book)
        with stage.conn() as conn:
            expected[jobs_since(conn, 0)[-1]] = book
    ids = list(expected)
    owner = stage.start_on(right, "worker", ["worker", "--concurrency", str(jobs)])
    if not stage.wait_until(lambda: _all_claimed_by(stage, ids, right.name), 60, step=0.05):
        raise ScenarioFailed(f"{right.name} did not claim the jobs: {owner.tail()}")
    skewed_workers = [
        stage.start_on(h, "worker", ["worker", "--concurrency", "2"], envs[h.name])
        for h in (ahead, behind)
    ]
    if not stage.wait_until(lambda: stage.all_terminal(ids), 300):
        stage.problems.append("imports did not finish within 300 s")
    held_live = _leased_seconds(stage, ids)
    stolen = _claims_by_others(stage, ids, right.name)
    if stolen:
        stage.problems.append(f"{stolen} claims of live leases by the skewed hosts")

    # (b) Timers: --in from the host behind, --at (the database's clock) from the host ahead.
    scheduler = stage.start_on(ahead, "timers", ["timers"], envs[ahead.name])
    # job id -> when it should fire: (True, seconds after its submit) for --in, (False,
    # the epoch of the --at moment) for --at.
    intended: dict[int, tuple[bool, float]] = {}
    for i in range(timers):
        book = stage.workbook(f"clock-timer-{i}", 50, seed=1300 + i)
        expected_wait = 4.0 + i * 0.5  # the submit on the host ahead starts in ~1 s
        with stage.conn() as conn:
            floor = conn.execute("SELECT coalesce(max(id), 0) AS m FROM import_jobs").fetchone()
            now = conn.execute("SELECT now() AS now").fetchone()
        if i % 2 == 0:
            host, when = behind, ["--in", f"{expected_wait:g}s"]
            want = (True, expected_wait)
        else:
            # A submit under libfaketime on a busy machine has taken over 4 s to reach its
            # check of the moment: the --at moment leaves it room, so a slow start is not
            # mistaken for a clock read from the process.
            at = now["now"] + timedelta(seconds=expected_wait + 8)  # type: ignore[index]
            host, when = ahead, ["--at", at.isoformat()]
            want = (False, at.timestamp())
        submit = stage.start_on(
            host,
            "submit",
            ["submit", str(book.path), "--form", FORM_NAME, "--detach", *when],
            envs[host.name],
        )
        if submit.wait(60) != 0:
            stage.problems.append(f"submit {' '.join(when)} on {host.name}: {submit.tail()}")
            continue
        with stage.conn() as conn:
            new = jobs_since(conn, int(floor["m"]) if floor else 0)
        if new:
            intended[new[-1]] = want
            expected[new[-1]] = book
    timer_ids = list(intended)
    if not stage.wait_until(lambda: stage.all_terminal(timer_ids), 120):
        stage.problems.append("scheduled imports did not finish within 120 s")
    misplaced, early, late_max = _timer_times(stage, intended)
    if misplaced:
        stage.problems.append(f"timers scheduled off their intended moment: {misplaced}")
    if early:
        stage.problems.append(f"{early} timers fired before they were due")

    checks = stage.check_jobs(expected)
    report = stage.audit()
    exits = _stop_gracefully(stage, [owner, *skewed_workers, scheduler])
    dups, lost, stuck = _totals(checks)
    line = (
        f"clock skew: hosts {skews[ahead.name]:+.0f} s and {skews[behind.name]:+.0f} s off "
        f"(libfaketime), {jobs} jobs under live leases for {held_live:.0f} s beside 2 skewed "
        f"workers: {stolen} leases stolen; {len(intended)}/{timers} timers (--in from the host "
        f"behind, --at from the host ahead, fired by a scheduler ahead): {len(misplaced)} "
        f"misplaced, {early} early, latest {late_max:.2f} s late; "
        f"{sum(c.ok for c in checks)}/{len(checks)} jobs exact, {dups} duplicates, {lost} "
        f"lost, {stuck} stuck, {report.early_takeovers} early takeovers; {exits}"
    )
    return outcome(
        stage,
        "clock-skew",
        line,
        began,
        skewed,
        2,
        "skewed hosts",
        stolen=stolen,
        early_timers=early,
        jobs=len(checks),
        lost=lost,
        twice=dups,
    )


def _all_claimed_by(stage: Stage, ids: list[int], host: str) -> bool:
    with stage.conn() as conn:
        row = conn.execute(
            "SELECT count(*) AS n FROM import_jobs WHERE id = ANY(%s) AND status = 'running'"
            " AND split_part(lease_owner, ':', 1) = %s",
            (ids, host),
        ).fetchone()
    return bool(row and row["n"] == len(ids))


def _leased_seconds(stage: Stage, ids: list[int]) -> float:
    """How long the first owner held the jobs (first claim to last finish)."""
    with stage.conn() as conn:
        row = conn.execute(
            "SELECT extract(epoch FROM max(finished_at) - min(started_at)) AS s"
            " FROM import_jobs WHERE id = ANY(%s)",
            (ids,),
        ).fetchone()
    return float(row["s"] or 0) if row else 0.0


def _claims_by_others(stage: Stage, ids: list[int], host: str) -> int:
    with stage.conn() as conn:
        row = conn.execute(
            "SELECT count(*) AS n FROM chaos_jobs WHERE job = ANY(%s) AND new_status = 'running'"
            " AND new_owner IS DISTINCT FROM old_owner AND split_part(new_owner, ':', 1) <> %s",
            (ids, host),
        ).fetchone()
    return int(row["n"]) if row else 0


def _timer_times(
    stage: Stage, intended: dict[int, tuple[bool, float]]
) -> tuple[list[str], int, float]:
    """(timers not due when intended, fired early, max lateness)."""
    misplaced: list[str] = []
    early = 0
    late_max = 0.0
    with stage.conn() as conn:
        for job_id, (relative, want) in intended.items():
            row = conn.execute(
                "SELECT extract(epoch FROM t.due_at - j.created_at) AS scheduled,"
                " extract(epoch FROM t.due_at) AS due,"
                " extract(epoch FROM c.at - t.due_at) AS late"
                " FROM timer_jobs t JOIN import_jobs j ON j.id::text = t.target"
                " LEFT JOIN chaos_timers c ON c.timer = t.id AND c.new_status = 'completed'"
                " WHERE t.kind = 'scheduled_import' AND t.target = %s",
                (str(job_id),),
            ).fetchone()
            if row is None:
                misplaced.append(f"job {job_id}: no timer")
                continue
            # --in: the delay after the submit's own transaction (1 s for a slow submit);
            # --at: exactly the moment given.
            if relative and abs(float(row["scheduled"]) - want) > 1.0:
                shown = f"due {float(row['scheduled']):+.1f} s after its submit, not +{want:g}"
                misplaced.append(f"job {job_id}: {shown}")
            if not relative and abs(float(row["due"]) - want) > 0.01:
                misplaced.append(f"job {job_id}: due {float(row['due']) - want:+.1f} s off --at")
            if row["late"] is None:
                misplaced.append(f"job {job_id}: timer never completed")
            elif float(row["late"]) < 0:
                early += 1
            else:
                late_max = max(late_max, float(row["late"]))
    return misplaced, early, late_max
