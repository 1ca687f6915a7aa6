"""Scenarios 1-3: processes killed or frozen at random moments."""

from __future__ import annotations

import signal
import time

import psutil

from importer.identity import parse_owner
from importer.running.pause_points import PAUSE_ENV
from tests.chaos.campaign import Outcome, ScenarioFailed, Stage, outcome
from tests.chaos.invariants import TERMINAL, JobCheck, jobs_since, max_job_id
from tests.chaos.procs import Child
from tests.chaos.workbooks import FORM_NAME, Expected


def _owner_pid(owner: object) -> int | None:
    parsed = parse_owner(str(owner)) if owner else None
    return parsed.pid if parsed is not None else None


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

    # Calibrate: when the job appears (file checked and stored) and when the import ends.
    started = time.monotonic()
    child = stage.fleet.start("calibrate", ["submit", str(books[0].path), "--form", FORM_NAME])
    appear = _wait_new_job(stage, child, 0)
    created_after = time.monotonic() - started
    if child.wait(120) != 3 or appear is None:
        raise ScenarioFailed(f"calibration import failed: {child.tail()}")
    import_seconds = time.monotonic() - started - created_after
    checks = stage.check_jobs({appear: books[0]})

    kills = early = resume_kills = already_done = resumed = runs = 0
    job_id: int | None
    while kills < target_kills and runs < target_kills * 3:
        runs += 1
        book = books[runs % len(books)]
        with stage.conn() as conn:
            floor = max_job_id(conn)
        child = stage.fleet.start(
            "submit", ["submit", str(book.path), "--form", FORM_NAME, "--force"]
        )
        if stage.rng.random() < 0.1:
            # Before the job exists: checking the header, storing the file.
            code = child.wait(stage.rng.uniform(0.05, created_after))
            if code is None:
                child.kill9()
                stage.killed_pids.add(child.pid)
                with stage.conn() as conn:
                    if not jobs_since(conn, floor):
                        early += 1
                        continue
                    job_id = jobs_since(conn, floor)[-1]
            else:
                job_id = _only_job(stage, floor)
        else:
            # Anywhere in the import: before the first commit, mid-file, the final one.
            job_id = _wait_new_job(stage, child, floor)
            code = child.wait(stage.rng.uniform(0.0, import_seconds * 1.05))
            if code is None:
                child.kill9()
                stage.killed_pids.add(child.pid)
        if job_id is None:
            stage.problems.append(f"submit created no job: {child.tail()}")
            continue
        if code is not None:
            already_done += 1
            if code != 3:
                stage.problems.append(f"job {job_id}: submit ended {code}: {child.tail()}")
        else:
            kills += 1
            if stage.rng.random() < 0.25:  # sometimes the resume dies too
                again = stage.fleet.start("resume", ["resume", str(job_id)])
                if again.wait(stage.rng.uniform(0.3, 0.3 + import_seconds)) is None:
                    again.kill9()
                    resume_kills += 1
                    stage.killed_pids.add(again.pid)
            if _job_row(stage, job_id)["status"] not in TERMINAL:
                code, resume = stage.fleet.run("resume", ["resume", str(job_id)], timeout=120)
                if code != 3:
                    stage.problems.append(
                        f"job {job_id}: resume exited {code} (expected 3): {resume.tail()}"
                    )
        check = stage.check_jobs({job_id: book})
        checks += check
        if child.signalled and all(c.ok for c in check):
            resumed += 1

    report = stage.audit()
    dups, lost, stuck = _totals(checks)
    line = (
        f"kill -9 during import: {kills} kills, {resumed} resumed exactly, {dups} duplicates, "
        f"{lost} lost, {stuck} stuck (+{early} kills before the job existed, +{resume_kills} "
        f"kills of a resume; {already_done} runs ended before their kill; "
        f"{report.early_takeovers} dead owners' leases taken over at once); "
        f"{report.write_transactions} write transactions audited"
    )
    return outcome(
        stage,
        "kill-submit",
        line,
        began,
        kills,
        target_kills,
        "kills of a running import",
        jobs=len(checks),
        lost=lost,
        twice=dups,
    )


def _wait_new_job(stage: Stage, child: Child, floor: int) -> int | None:
    """The id of the job this submit creates, as soon as it exists (None if it exits first)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with stage.conn() as conn:
            new = jobs_since(conn, floor)
        if new:
            return new[-1]
        if not child.alive():
            return _only_job(stage, floor)
        time.sleep(0.01)
    return None


def _only_job(stage: Stage, floor: int) -> int | None:
    with stage.conn() as conn:
        new = jobs_since(conn, floor)
    if len(new) > 1:
        stage.problems.append(f"one submit created {len(new)} jobs: {new}")
    return new[-1] if new else None


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
    scheduler = stage.fleet.start("timers", ["timers"])  # failed attempts retry on its timers

    kills = 0
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if stage.all_terminal(ids):
            if kills >= target_kills:
                break
            # Every job ended before every kill landed: one more job for the next kills.
            book = stage.workbook(f"fleet-more-{kills}", rows, seed=250 + kills)
            stage.submit_detached(book)
            with stage.conn() as conn:
                job_id = jobs_since(conn, 0)[-1]
            expected[job_id] = book
            ids.append(job_id)
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
    exits = _stop_gracefully(stage, [*fleet, scheduler])
    dups, lost, stuck = _totals(checks)
    terminal = sum(1 for c in checks if c.status in TERMINAL)
    line = (
        f"kill -9 of workers: {kills} kills among {workers} workers, {len(ids)} jobs, "
        f"{terminal} terminal, {dups} duplicates, {lost} lost, {stuck} stuck, "
        f"{report.takeovers} takeovers; {exits}"
    )
    return outcome(
        stage,
        "kill-workers",
        line,
        began,
        kills,
        target_kills,
        "worker kills",
        jobs=len(checks),
        lost=lost,
        twice=dups,
    )


def _busy_owner_pids(stage: Stage, ids: list[int]) -> set[int]:
    with stage.conn() as conn:
        rows = conn.execute(
            "SELECT lease_owner FROM import_jobs WHERE id = ANY(%s) AND status = 'running'",
            (ids,),
        ).fetchall()
    return {p for r in rows if (p := _owner_pid(r["lease_owner"])) is not None}


def _wait_until_started(children: list, timeout: float = 30.0) -> None:  # type: ignore[type-arg]
    """Wait for each child's first line ("worker ... started"), printed once its signal
    handlers are in place: a process signalled while still importing dies of the signal's
    default action, which says nothing about how it stops."""
    deadline = time.monotonic() + timeout
    for c in children:
        while c.alive() and not c.output()[0].strip() and time.monotonic() < deadline:
            time.sleep(0.05)


def _stop_gracefully(stage: Stage, children: list) -> str:  # type: ignore[type-arg]
    """SIGTERM every live worker: each must exit 0 within 15 s."""
    _wait_until_started([c for c in children if c.alive()])
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


PAUSE_KINDS = ("anywhere", "inside a transaction", "mid-statement")


def _where(backends: list[dict[str, object]]) -> str:
    states = {
        str(b["state"]) + ("/ClientRead" if b["wait_event"] == "ClientRead" else "")
        for b in backends
        if b["xact_start"] is not None
    }
    if "active/ClientRead" in states:
        return "mid-statement"
    return "inside a transaction" if states else "between transactions"


def _pause(stage: Stage, child: Child, kind: str) -> tuple[str, list[dict[str, object]]]:
    """SIGSTOP `child` at a moment of the given kind; returns where it really stopped and
    its server processes. Targeted pauses poll tightly on one connection and retry until
    the moment is confirmed after the stop."""
    with stage.conn() as conn:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if kind != "anywhere":
                busy = [b for b in stage.importer_backends(conn) if b["xact_start"] is not None]
                if kind == "mid-statement":
                    # The dangerous moment: the server is inside a statement, waiting for
                    # this client (the rows of a COPY), while the transaction holds the job.
                    busy = [
                        b
                        for b in busy
                        if b["state"] == "active" and b["wait_event"] == "ClientRead"
                    ]
                if not busy:
                    continue
            child.signal(signal.SIGSTOP)
            time.sleep(0.05)  # let the server's view settle
            backends = stage.importer_backends(conn)
            where = _where(backends)
            if kind == "anywhere" or where == kind:
                return where, backends
            child.signal(signal.SIGCONT)
        child.signal(signal.SIGSTOP)
        return f"anywhere (no moment {kind} found)", stage.importer_backends(conn)


def pause_past_lease(stage: Stage, *, rounds: int, rows: int, lease: float) -> Outcome:
    began = time.monotonic()
    taken = stuck_paused = 0
    where_counts: dict[str, int] = {}
    checks: list[JobCheck] = []
    stale: dict[int, object] = {}
    for round_no in range(rounds):
        book = stage.workbook(f"pause-{round_no}", rows, seed=300 + round_no)
        stage.submit_detached(book)
        with stage.conn() as conn:
            job_id = jobs_since(conn, 0)[-1]
        # The worker stops itself once its first batch has committed: a 10,000-row job
        # takes a tenth of a second, too short for polling to catch it running.
        first = stage.fleet.start(
            "worker-a", ["worker", "--concurrency", "1"], {PAUSE_ENV: "committed:1"}
        )

        def progressing(job: int = job_id, child: Child = first) -> bool:
            row = _job_row(stage, job)
            running = row["status"] == "running" and int(row["success_rows"]) > 0  # type: ignore[call-overload]
            return running and psutil.Process(child.pid).status() == psutil.STATUS_STOPPED

        if not stage.wait_until(progressing, 60, step=0.02):
            raise ScenarioFailed(f"job {job_id} never started: {first.tail()}")
        first.signal(signal.SIGCONT)
        time.sleep(stage.rng.uniform(0.0, 0.02))
        where, backends = _pause(stage, first, PAUSE_KINDS[round_no % len(PAUSE_KINDS)])
        where_counts[where] = where_counts.get(where, 0) + 1
        time.sleep(lease + 0.5)
        second = stage.fleet.start("worker-b", ["worker", "--concurrency", "1"])

        def taken_over(job: int = job_id, pid: int = second.pid) -> bool:
            row = _job_row(stage, job)
            return _owner_pid(row["lease_owner"]) == pid or row["status"] in TERMINAL

        wait = lease * 4 + 10
        if stage.wait_until(taken_over, wait):
            taken += 1
            with stage.conn() as conn:
                moment = conn.execute("SELECT now() AS now").fetchone()
            for b in backends:
                stale[int(b["pid"])] = moment["now"] if moment else None  # type: ignore[call-overload]
        else:
            stuck_paused += 1
            held = [
                f"{b['pid']} {b['state']} ({b['wait_event']}: {b['query']})"
                for b in stage.importer_backends()
                if b["xact_start"] is not None
            ]
            stage.problems.append(
                f"job {job_id}: no takeover within {wait + lease + 0.5:.0f} s while its owner was "
                f"paused {where} (server processes: {', '.join(held)})"
            )
        first.signal(signal.SIGCONT)
        if not stage.wait_until(lambda job=job_id: stage.all_terminal([job]), 120):  # type: ignore[misc]
            stage.problems.append(f"job {job_id}: not finished 120 s after SIGCONT")
        time.sleep(lease)  # give the resumed first worker time to try (and fail) to write
        _stop_gracefully(stage, [first, second])
        checks += stage.check_jobs({job_id: book})

    report = stage.audit(stale_backends=stale)
    stale_writes = sum(1 for p in report.problems if "paused writer" in p)
    dups, lost, stuck = _totals(checks)
    places = ", ".join(f"{n} {w}" for w, n in sorted(where_counts.items()))
    line = (
        f"SIGSTOP past the lease: {rounds} pauses ({places}), {taken} taken over, "
        f"{stale_writes} stale writes, {dups} duplicates, {lost} lost, "
        f"{stuck + stuck_paused} stuck"
    )
    return outcome(
        stage,
        "pause-worker",
        line,
        began,
        taken,
        rounds,
        "pauses past the lease taken over",
        jobs=len(checks),
        lost=lost,
        twice=dups,
    )
