"""Scenarios 4-5: the database goes away under live workers and schedulers."""

from __future__ import annotations

import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

from tests.chaos import audit
from tests.chaos.campaign import Outcome, ScenarioFailed, Stage, outcome
from tests.chaos.invariants import TERMINAL, JobCheck, jobs_since, max_job_id
from tests.chaos.kills import _stop_gracefully, _totals
from tests.chaos.procs import Child
from tests.chaos.server import ChaosServer
from tests.chaos.workbooks import FORM_NAME, Expected

REPO = Path(__file__).resolve().parents[2]


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


def _submit_at(
    stage: Stage, label: str, count: int, rows: int, seed: int, due: datetime
) -> dict[int, Expected]:
    """``count`` jobs waiting on timers due at ``due``, submitted by one process."""
    books = {
        f"{label}-{i}.xlsx": stage.workbook(f"{label}-{i}", rows, seed=seed + i)
        for i in range(count)
    }
    with stage.conn() as conn:
        floor = max_job_id(conn)
    submit = stage.fleet.start(
        "bulk-submit",
        [FORM_NAME, "--at", due.isoformat(), *(str(b.path) for b in books.values())],
        extra_env={"PYTHONPATH": str(REPO)},
        command=[sys.executable, "-m", "tests.chaos.bulk_submit"],
    )
    if submit.wait(300) != 0:
        raise ScenarioFailed(f"bulk submit of {label} jobs failed: {submit.tail()}")
    with stage.conn() as conn:
        rows_ = conn.execute(
            "SELECT id, file_name FROM import_jobs WHERE id > %s ORDER BY id", (floor,)
        ).fetchall()
    return {int(r["id"]): books[str(r["file_name"])] for r in rows_}


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


# --- 4. PostgreSQL restarted (or its postmaster killed) during imports and timer firing ---


def _top_up(stage: Stage, expected: dict[int, Expected], label: str, rows: int) -> list[int]:
    """The jobs ended before every fault landed: one more job for the next fault to hit
    (a scenario passes only at its full fault target)."""
    more = _submit_many(stage, label, 1, rows, seed=900 + len(expected))
    expected.update(more)
    return list(more)


def _db_now(stage: Stage) -> datetime | None:
    with stage.conn() as conn:
        row = conn.execute("SELECT now() AS now").fetchone()
    return row["now"] if row else None


def _first_write_after(stage: Stage, moment: datetime) -> float | None:
    """Seconds from ``moment`` (the server back) to the first batch committed after it."""
    with stage.conn() as conn:
        row = conn.execute(
            "SELECT extract(epoch FROM min(coalesce(pg_xact_commit_timestamp(xmin), at)) - %s)"
            " AS s FROM chaos_jobs WHERE d_success > 0"
            " AND coalesce(pg_xact_commit_timestamp(xmin), at) > %s",
            (moment, moment),
        ).fetchone()
    return float(row["s"]) if row and row["s"] is not None else None


def restart_server(
    stage: Stage,
    server: ChaosServer,
    *,
    jobs: int,
    rows: int,
    rounds: int,
    timers: int,
    crash: bool = False,
) -> Outcome:
    """``crash``: kill -9 of the postmaster (then a start) instead of pg_ctl stop, with the
    workers on two test hosts and the scheduler on one of them."""
    began = time.monotonic()
    # (a) during imports
    expected = _submit_many(stage, "restart", jobs, rows, seed=400)
    ids = list(expected)
    args = ["worker", "--concurrency", "2"]
    if crash:
        if len(stage.hosts) < 2:
            raise ScenarioFailed("needs two test hosts (network namespaces), none could be made")
        workers = [stage.start_on(h, "worker", args) for h in stage.hosts[:2]]
        scheduler = stage.start_on(stage.hosts[0], "timers", ["timers"])
    else:
        workers = [stage.fleet.start("worker", args) for _ in range(2)]
        # The scheduler runs beside the workers, as deployed: failed attempts retry on it.
        scheduler = stage.fleet.start("timers", ["timers"])
    modes = ("kill -9",) if crash else ("fast", "immediate")
    restarts: list[str] = []
    back_at: list[datetime] = []

    def go_down(mode: str, down: float) -> None:
        if mode == "kill -9":
            server.crash(down)
        else:
            server.restart(mode, down)
        moment = _db_now(stage)
        if moment is not None:
            back_at.append(moment)

    for i in range(rounds):
        mode = modes[i % len(modes)]
        if not stage.wait_until(lambda: _some_progress(stage, ids), 60, step=0.05):
            if not stage.all_terminal(ids):
                raise ScenarioFailed("no job made progress before the restart")
            ids.extend(_top_up(stage, expected, f"restart-more-{i}", rows))
            if not stage.wait_until(lambda: _some_progress(stage, ids), 60, step=0.05):
                raise ScenarioFailed("the extra job made no progress before the restart")
        time.sleep(stage.rng.uniform(0.0, 0.4))
        go_down(mode, stage.rng.uniform(0.5, 2.5))
        restarts.append(mode)
    finished = _wait_server_down_safe(stage, ids, 180)
    died = _deaths(stage, [*workers, scheduler], "during the restarts")
    checks: list[JobCheck] = stage.check_jobs(expected)
    if not finished:
        stage.problems.append("imports did not all finish within 180 s after the restarts")
    recovery = [s for m in back_at if (s := _first_write_after(stage, m)) is not None]

    # (b) during timer firing: every job waits on a timer due at the same moment.
    now = _db_now(stage)
    assert now is not None
    # One process submits them all (a loaded machine starts a process a second): they must
    # all be queued before the moment they share.
    due = now + timedelta(seconds=timers * 0.3 + 5)
    timed = _submit_at(stage, "timer", timers, 50, 500, due)
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
    first, second = ("kill -9", "kill -9") if crash else ("immediate", "fast")
    go_down(first, stage.rng.uniform(0.8, 2.0))
    stage.wait_until(lambda: _some_progress(stage, timed_ids) or stage.all_terminal(timed_ids), 30)
    go_down(second, stage.rng.uniform(0.5, 2.0))
    restarts += [f"{first} (timers)", f"{second} (timers)"]
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
    back = (
        f"first batch {max(recovery):.1f} s after the server was back (worst)"
        if recovery
        else ("no batch after a restart")
    )
    if crash:
        what = (
            f"postmaster killed: {len(restarts)} kill -9 of the server (2 around timer firing,"
            f" {pending_at_stop} timers due during the outage), workers on 2 hosts"
        )
    else:
        fast = sum(1 for r in restarts if r.startswith("fast"))
        what = (
            f"PostgreSQL restarted: {len(restarts)} restarts ({fast} fast, "
            f"{len(restarts) - fast} immediate; 2 around timer firing, {pending_at_stop} timers "
            "due during the outage)"
        )
    line = (
        f"{what}, {sum(c.ok for c in checks)}/{len(checks)} jobs exact, "
        f"{summary.get('completed', 0)}/{timers} timers completed once, {dups} "
        f"duplicates, {lost} lost, {stuck} stuck, {died} processes died; {back}; "
        f"{report.takeovers} takeovers; {exits}"
    )
    return outcome(
        stage,
        "kill-postmaster" if crash else "restart-server",
        line,
        began,
        len(restarts),
        rounds + 2,
        "server crashes" if crash else "restarts",
        recovery_s=recovery,
        jobs=len(checks),
        lost=lost,
        twice=dups,
    )


# --- 5. connections cut mid-transaction ---------------------------------------------------


def cut_connections(stage: Stage, *, jobs: int, rows: int, target_cuts: int) -> Outcome:
    began = time.monotonic()
    expected = _submit_many(stage, "cut", jobs, rows, seed=600)
    ids = list(expected)
    workers = [stage.fleet.start("worker", ["worker", "--concurrency", "2"]) for _ in range(2)]
    workers.append(stage.fleet.start("timers", ["timers"]))  # failed attempts retry on timers
    cuts = in_tx = 0
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if stage.all_terminal(ids):
            if cuts >= target_cuts:
                break
            ids.extend(_top_up(stage, expected, f"cut-more-{cuts}", rows))
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
    line = (
        f"connection cut mid-transaction: {cuts} cuts ({in_tx} inside a transaction), "
        f"{len(checks)} jobs, {terminal} terminal, {dups} duplicates, {lost} lost, {stuck} stuck, "
        f"{died} workers died; {report.takeovers} takeovers; {exits}"
    )
    return outcome(
        stage,
        "cut-connections",
        line,
        began,
        cuts,
        target_cuts,
        "connection cuts",
        jobs=len(checks),
        lost=lost,
        twice=dups,
    )
