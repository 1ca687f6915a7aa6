"""Scenarios 1-3: processes killed or frozen at random moments."""

from __future__ import annotations

import signal
import time

from tests.chaos.campaign import Outcome, ScenarioFailed, Stage
from tests.chaos.invariants import TERMINAL, JobCheck, jobs_since, max_job_id
from tests.chaos.workbooks import FORM_NAME, Expected


def _owner_pid(owner: object) -> int | None:
    parts = str(owner or "").split(":")
    return int(parts[-2]) if len(parts) >= 3 and parts[-2].isdigit() else None


def _job_row(stage: Stage, job_id: int) -> dict[str, object]:
    with stage.conn() as conn:
        row = conn.execute("SELECT * FROM import_jobs WHERE id = %s", (job_id,)).fetchone()
    if row is None:
        raise ScenarioFailed(f"job {job_id} vanished")
    return row


def _totals(checks: list[JobCheck]) -> tuple[int, int, int]:
    return (
        sum(c.duplicates for c in checks),
        sum(c.lost for c in checks),
        sum(1 for c in checks if c.stuck),
    )


# --- 1. kill -9 of a foreground submit, then resume ----------------------------------------


def kill_foreground_submit(stage: Stage, target_kills: int, rows: int) -> Outcome:
    began = time.monotonic()
    books = [stage.workbook(f"submit-{i}", rows, seed=100 + i) for i in range(4)]

    started = time.monotonic()
    stage.cli("calibrate", "submit", str(books[0].path), "--form", FORM_NAME, ok=(3,))
    full = time.monotonic() - started
    with stage.conn() as conn:
        first = jobs_since(conn, 0)
    checks = stage.check_jobs({first[-1]: books[0]})

    kills = before_job = already_done = resumed = resume_kills = runs = 0
    while kills - before_job < target_kills and runs < target_kills * 3:
        runs += 1
        book = books[runs % len(books)]
        with stage.conn() as conn:
            floor = max_job_id(conn)
        child = stage.fleet.start(
            "submit", ["submit", str(book.path), "--form", FORM_NAME, "--force"]
        )
        # Anywhere from start-up to the last transaction (and a little past it).
        code = child.wait(stage.rng.uniform(0.05, full * 1.05))
        with stage.conn() as conn:
            if code is None:
                child.kill9()
                kills += 1
                stage.killed_pids.add(child.pid)
            new = jobs_since(conn, floor)
        if code is not None:
            already_done += 1
            if code != 3:
                stage.problems.append(f"submit ended {code} without a kill: {child.tail()}")
        if not new:
            if code is None:
                before_job += 1
            else:
                stage.problems.append("submit ended without creating a job")
            continue
        if len(new) > 1:
            stage.problems.append(f"one submit created {len(new)} jobs: {new}")
        job_id = new[-1]
        if code is None and _job_row(stage, job_id)["status"] not in TERMINAL:
            if stage.rng.random() < 0.25:  # sometimes the resume dies too
                again = stage.fleet.start("resume", ["resume", str(job_id)])
                if again.wait(stage.rng.uniform(0.2, full / 2)) is None:
                    again.kill9()
                    kills += 1
                    resume_kills += 1
                    stage.killed_pids.add(again.pid)
            if _job_row(stage, job_id)["status"] not in TERMINAL:
                code, resume = stage.fleet.run("resume", ["resume", str(job_id)], timeout=120)
                if code == 3:
                    resumed += 1
                else:
                    stage.problems.append(
                        f"job {job_id}: resume exited {code} (expected 3): {resume.tail()}"
                    )
            else:
                resumed += 1
        elif code is None:
            resumed += 1  # killed after its last commit: nothing left to resume
        checks += stage.check_jobs({job_id: book})

    report = stage.audit()
    dups, lost, stuck = _totals(checks)
    line = (
        f"kill -9 during import: {kills} kills ({before_job} before the job existed, "
        f"{resume_kills} of a resume), {resumed} resumed, {dups} duplicates, {lost} lost, "
        f"{stuck} stuck; {already_done} runs finished before their kill; "
        f"{report.write_transactions} write transactions audited"
    )
    if kills - before_job < target_kills:
        stage.problems.append(f"only {kills - before_job} kills hit a job (wanted {target_kills})")
    return Outcome("kill-submit", line, stage.problems, time.monotonic() - began)


# --- 2. kill -9 of workers while others keep running ----------------------------------------


def kill_workers(
    stage: Stage, *, workers: int, jobs: int, rows: int, target_kills: int, timeout: float
) -> Outcome:
    began = time.monotonic()
    expected: dict[int, Expected] = {}
    for i in range(jobs):
        book = stage.workbook(f"fleet-{i}", rows, seed=200 + i)
        stage.submit_detached(book)
        with stage.conn() as conn:
            expected[jobs_since(conn, 0)[-1]] = book
    ids = list(expected)
    fleet = [stage.fleet.start("worker", ["worker", "--concurrency", "2"]) for _ in range(workers)]

    kills = 0
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not stage.all_terminal(ids):
        time.sleep(stage.rng.uniform(0.3, 1.2))
        if kills >= target_kills:
            continue
        busy = _busy_owner_pids(stage, ids)
        # Prefer a worker that holds a job right now: that is the kill that matters.
        candidates = [w for w in fleet if w.alive() and w.pid in busy] or [
            w for w in fleet if w.alive()
        ]
        if not candidates:
            break
        victim = stage.rng.choice(candidates)
        victim.kill9()
        kills += 1
        stage.killed_pids.add(victim.pid)
        fleet.remove(victim)
        fleet.append(stage.fleet.start("worker", ["worker", "--concurrency", "2"]))

    checks = stage.check_jobs(expected)
    report = stage.audit()
    exits = _stop_gracefully(stage, fleet)
    dups, lost, stuck = _totals(checks)
    terminal = sum(1 for c in checks if c.status in TERMINAL)
    line = (
        f"kill -9 of workers: {kills} kills among {workers} workers, {len(ids)} jobs, "
        f"{terminal} terminal, {dups} duplicates, {lost} lost, {stuck} stuck, "
        f"{report.takeovers} takeovers; {exits}"
    )
    if kills < target_kills:
        stage.problems.append(f"only {kills} kills (wanted {target_kills}): jobs ended first")
    return Outcome("kill-workers", line, stage.problems, time.monotonic() - began)


def _busy_owner_pids(stage: Stage, ids: list[int]) -> set[int]:
    with stage.conn() as conn:
        rows = conn.execute(
            "SELECT lease_owner FROM import_jobs WHERE id = ANY(%s) AND status = 'running'",
            (ids,),
        ).fetchall()
    return {p for r in rows if (p := _owner_pid(r["lease_owner"])) is not None}


def _stop_gracefully(stage: Stage, children: list) -> str:  # type: ignore[type-arg]
    """SIGTERM every live worker: each must exit 0 within 15 s."""
    alive = [c for c in children if c.alive()]
    for c in alive:
        c.signal(signal.SIGTERM)
    slow = 0
    for c in alive:
        code = c.wait(15)
        if code is None:
            slow += 1
            c.kill9()
            stage.problems.append(f"{c.name}: still running 15 s after SIGTERM")
        elif code != 0:
            stage.problems.append(f"{c.name}: exited {code} on SIGTERM: {c.tail()}")
    return f"{len(alive) - slow}/{len(alive)} stopped cleanly on SIGTERM"


# --- 3. SIGSTOP a worker past its lease ------------------------------------------------


def pause_past_lease(stage: Stage, *, rounds: int, rows: int, lease: float) -> Outcome:
    began = time.monotonic()
    taken = in_tx = stuck_paused = 0
    checks: list[JobCheck] = []
    stale: dict[int, object] = {}
    for round_no in range(rounds):
        book = stage.workbook(f"pause-{round_no}", rows, seed=300 + round_no)
        stage.submit_detached(book)
        with stage.conn() as conn:
            job_id = jobs_since(conn, 0)[-1]
        first = stage.fleet.start("worker-a", ["worker", "--concurrency", "1"])

        def progressing(job: int = job_id) -> bool:
            row = _job_row(stage, job)
            return row["status"] == "running" and int(row["success_rows"]) > 0  # type: ignore[call-overload]

        if not stage.wait_until(progressing, 60):
            raise ScenarioFailed(f"job {job_id} never started: {first.tail()}")
        time.sleep(stage.rng.uniform(0.0, 0.5))
        backends = stage.importer_backends()
        first.signal(signal.SIGSTOP)
        paused_in_tx = any(b["xact_start"] is not None for b in backends)
        in_tx += paused_in_tx
        time.sleep(lease + 0.5)
        second = stage.fleet.start("worker-b", ["worker", "--concurrency", "1"])

        def taken_over(job: int = job_id, pid: int = second.pid) -> bool:
            row = _job_row(stage, job)
            return _owner_pid(row["lease_owner"]) == pid or row["status"] in TERMINAL

        if stage.wait_until(taken_over, lease * 4 + 10):
            taken += 1
            with stage.conn() as conn:
                moment = conn.execute("SELECT now() AS now").fetchone()
            for b in backends:
                stale[int(b["pid"])] = moment["now"] if moment else None  # type: ignore[call-overload]
        else:
            stuck_paused += 1
            stage.problems.append(
                f"job {job_id}: no takeover while its owner was paused for {lease * 5 + 10:.0f} s"
                f" (paused {'inside' if paused_in_tx else 'outside'} a transaction)"
            )
        first.signal(signal.SIGCONT)
        if not stage.wait_until(lambda job=job_id: stage.all_terminal([job]), 120):
            stage.problems.append(f"job {job_id}: not finished 120 s after SIGCONT")
        time.sleep(lease)  # give the resumed first worker time to try (and fail) to write
        _stop_gracefully(stage, [first, second])
        checks += stage.check_jobs({job_id: book})

    report = stage.audit(stale_backends=stale)
    stale_writes = sum(1 for p in report.problems if "paused writer" in p)
    dups, lost, stuck = _totals(checks)
    line = (
        f"SIGSTOP past the lease: {rounds} pauses ({in_tx} inside a transaction), {taken} taken "
        f"over, {stale_writes} stale writes, {dups} duplicates, {lost} lost, "
        f"{stuck + stuck_paused} stuck"
    )
    return Outcome("pause-worker", line, stage.problems, time.monotonic() - began)
