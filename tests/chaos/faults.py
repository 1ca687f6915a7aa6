"""Scenarios 4-5: the database goes away under live workers and schedulers."""

from __future__ import annotations

import time
from datetime import timedelta

from tests.chaos import audit
from tests.chaos.campaign import Outcome, ScenarioFailed, Stage
from tests.chaos.invariants import TERMINAL, JobCheck, jobs_since
from tests.chaos.kills import _stop_gracefully, _totals
from tests.chaos.procs import Child
from tests.chaos.server import ChaosServer
from tests.chaos.workbooks import Expected


def _submit_many(
    stage: Stage, label: str, count: int, rows: int, seed: int, *extra: str
) -> dict[int, Expected]:
    expected: dict[int, Expected] = {}
    for i in range(count):
        book = stage.workbook(f"{label}-{i}", rows, seed=seed + i)
        stage.submit_detached(book, *extra)
        with stage.conn() as conn:
            expected[jobs_since(conn, 0)[-1]] = book
    return expected


def _some_progress(stage: Stage, ids: list[int]) -> bool:
    with stage.conn() as conn:
        row = conn.execute(
            "SELECT count(*) AS n FROM import_jobs WHERE id = ANY(%s) AND status = 'running'"
            " AND success_rows > 0",
            (ids,),
        ).fetchone()
    return bool(row and row["n"])


def _wait_server_down_safe(stage: Stage, predicate_ids: list[int], timeout: float) -> bool:
    """Wait for the jobs to end, tolerating a server that is (briefly) unreachable."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if stage.all_terminal(predicate_ids):
                return True
        except Exception:  # the server is restarting: ask again shortly
            pass
        time.sleep(0.25)
    return False


def _deaths(stage: Stage, children: list[Child], during: str) -> int:
    died = 0
    for c in children:
        if not c.alive():
            died += 1
            stage.problems.append(f"{c.name} exited {c.proc.returncode} {during}: {c.tail()}")
    return died


# --- 4. PostgreSQL restarted during imports and during timer firing ------------------------


def restart_server(
    stage: Stage, server: ChaosServer, *, jobs: int, rows: int, rounds: int, timers: int
) -> Outcome:
    began = time.monotonic()
    # (a) during imports
    expected = _submit_many(stage, "restart", jobs, rows, seed=400)
    ids = list(expected)
    workers = [stage.fleet.start("worker", ["worker", "--concurrency", "2"]) for _ in range(2)]
    # The scheduler runs beside the workers, as deployed: failed attempts retry on its timers.
    scheduler = stage.fleet.start("timers", ["timers"])
    restarts: list[str] = []
    for i in range(rounds):
        mode = ("fast", "immediate")[i % 2]
        if not stage.wait_until(lambda: _some_progress(stage, ids), 60, step=0.05):
            if stage.all_terminal(ids):
                break  # too fast for the remaining restarts; counted below
            raise ScenarioFailed("no job made progress before the restart")
        time.sleep(stage.rng.uniform(0.0, 0.4))
        server.restart(mode, stage.rng.uniform(0.5, 2.5))
        restarts.append(mode)
    finished = _wait_server_down_safe(stage, ids, 180)
    died = _deaths(stage, [*workers, scheduler], "during the restarts")
    checks: list[JobCheck] = stage.check_jobs(expected)
    if not finished:
        stage.problems.append("imports did not all finish within 180 s after the restarts")
    if len(restarts) < max(1, rounds // 2):  # as for kills: the invariants are the verdict
        stage.problems.append(f"only {len(restarts)} of {rounds} restarts hit a running import")

    # (b) during timer firing: every job waits on a timer due at the same moment.
    with stage.conn() as conn:
        now = conn.execute("SELECT now() AS now").fetchone()
    due = now["now"] + timedelta(seconds=timers * 0.8 + 3)  # type: ignore[index]
    timed = _submit_many(stage, "timer", timers, 50, 500, "--at", due.isoformat())
    timed_ids = list(timed)
    with stage.conn() as conn:
        waiting = conn.execute(
            "SELECT count(*) AS n FROM timer_jobs WHERE status = 'pending'"
        ).fetchone()
        wait_s = conn.execute("SELECT extract(epoch FROM %s - now()) AS s", (due,)).fetchone()
    if not waiting or waiting["n"] != timers:
        stage.problems.append(f"expected {timers} pending timers, found {waiting}")
    # Go down just before they fall due (they come due while the server is away), then once
    # more while the first scheduled imports run.
    time.sleep(max(0.0, float(wait_s["s"]) - 0.3 if wait_s else 0.0))
    with stage.conn() as conn:
        pending = conn.execute(
            "SELECT count(*) AS n FROM timer_jobs WHERE status IN ('pending', 'processing')"
        ).fetchone()
    pending_at_stop = int(pending["n"]) if pending else -1
    server.restart("immediate", stage.rng.uniform(0.8, 2.0))
    stage.wait_until(lambda: _some_progress(stage, timed_ids) or stage.all_terminal(timed_ids), 30)
    server.restart("fast", stage.rng.uniform(0.5, 2.0))
    restarts += ["immediate (timers)", "fast (timers)"]
    finished = _wait_server_down_safe(stage, timed_ids, 180)
    if not finished:
        stage.problems.append("scheduled imports did not all finish within 180 s")
    died += _deaths(stage, [*workers, scheduler], "during the timer restarts")
    checks += stage.check_jobs(timed)
    summary = audit.timer_summary(stage.url)
    if summary.get("completed", 0) != timers or len(summary) != 1:
        stage.problems.append(f"timers after the restarts: {summary} (expected {timers} completed)")
    report = stage.audit()
    exits = _stop_gracefully(stage, [*workers, scheduler])

    dups, lost, stuck = _totals(checks)
    fast = sum(1 for r in restarts if r.startswith("fast"))
    line = (
        f"PostgreSQL restarted: {len(restarts)} restarts ({fast} fast, {len(restarts) - fast} "
        f"immediate; 2 around timer firing, {pending_at_stop} timers due during the outage), "
        f"{sum(c.ok for c in checks)}/{len(checks)} jobs exact, "
        f"{summary.get('completed', 0)}/{timers} timers completed once, {dups} "
        f"duplicates, {lost} lost, {stuck} stuck, {died} processes died; "
        f"{report.takeovers} takeovers; {exits}"
    )
    return Outcome("restart-server", line, stage.problems, time.monotonic() - began)


# --- 5. connections cut mid-transaction ---------------------------------------------------


def cut_connections(stage: Stage, *, jobs: int, rows: int, target_cuts: int) -> Outcome:
    began = time.monotonic()
    expected = _submit_many(stage, "cut", jobs, rows, seed=600)
    ids = list(expected)
    workers = [stage.fleet.start("worker", ["worker", "--concurrency", "2"]) for _ in range(2)]
    workers.append(stage.fleet.start("timers", ["timers"]))  # failed attempts retry on timers
    cuts = in_tx = 0
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and not stage.all_terminal(ids):
        time.sleep(stage.rng.uniform(0.05, 0.3))
        if cuts >= target_cuts:
            continue
        backends = stage.importer_backends()
        busy = [b for b in backends if b["xact_start"] is not None]
        pool = busy or backends
        if not pool:
            continue
        victim = stage.rng.choice(pool)
        with stage.conn() as conn:
            gone = conn.execute(
                "SELECT pg_terminate_backend(%s) AS ok", (victim["pid"],)
            ).fetchone()
        if gone and gone["ok"]:
            cuts += 1
            in_tx += victim["xact_start"] is not None
    died = _deaths(stage, workers, "after its connection was cut")
    checks = stage.check_jobs(expected)
    report = stage.audit()
    exits = _stop_gracefully(stage, workers)
    dups, lost, stuck = _totals(checks)
    terminal = sum(1 for c in checks if c.status in TERMINAL)
    if cuts < max(1, target_cuts // 2):  # as for kills: the invariants are the verdict
        stage.problems.append(f"only {cuts} cuts (wanted {target_cuts}): jobs ended first")
    line = (
        f"connection cut mid-transaction: {cuts} cuts ({in_tx} inside a transaction), "
        f"{jobs} jobs, {terminal} terminal, {dups} duplicates, {lost} lost, {stuck} stuck, "
        f"{died} workers died; {report.takeovers} takeovers; {exits}"
    )
    return Outcome("cut-connections", line, stage.problems, time.monotonic() - began)
