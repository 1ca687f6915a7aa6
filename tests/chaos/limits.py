"""Scenario: more workers than the server's max_connections allows.

A dedicated server with a small max_connections (the campaign's own keeps its 200); the
workers log in as a role that may not use the superuser's reserved slots, so the campaign
itself can always look. The workers that find the server full must say so on one line
("database refused a connection ...: too many clients; retrying in Ns") and retry on the
daemon's backoff; none may crash, and every job must end exactly.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from psycopg.conninfo import make_conninfo

from tests.chaos.campaign import Campaign, Outcome, Stage, outcome
from tests.chaos.kills import _stop_gracefully, _totals
from tests.chaos.server import ChaosServer
from tests.chaos.workbooks import Expected

MAX_CONNECTIONS = 12
RESERVED = 4  # superuser_reserved_connections: the campaign's own connections
ROLE = "fleet"
REFUSED = re.compile(r"database refused a connection \([^)]*\): too many clients; retrying in")


def connection_limits(
    campaign: Campaign, root: Path, *, workers: int, jobs: int, rows: int
) -> Outcome:
    began = time.monotonic()
    server = ChaosServer(root / "pg-small")
    stage: Stage | None = None
    try:
        server.start()
        with server.admin() as conn:
            conn.execute(f"ALTER SYSTEM SET max_connections = {MAX_CONNECTIONS}")
            conn.execute(f"ALTER SYSTEM SET superuser_reserved_connections = {RESERVED}")
            conn.execute("ALTER SYSTEM SET track_commit_timestamp = on")  # for the audit
        server.restart("fast", 0)
        stage = campaign.stage("connection_limits_small", server=server)
        return _run(stage, workers=workers, jobs=jobs, rows=rows, began=began)
    finally:
        if stage is not None:
            stage.fleet.close()
        server.close()


def _run(stage: Stage, *, workers: int, jobs: int, rows: int, began: float) -> Outcome:
    with stage.conn() as conn:
        # Member of the owner: the schema's privileges, none of the superuser's slots.
        conn.execute(f"CREATE ROLE {ROLE} LOGIN")
        conn.execute(f"GRANT postgres TO {ROLE}")
    fleet_url = make_conninfo(stage.url, user=ROLE)
    expected: dict[int, Expected] = {}
    for i in range(jobs):
        book = stage.workbook(f"limits-{i}", rows, seed=1500 + i)
        stage.submit_detached(book)
        with stage.conn() as conn:
            row = conn.execute("SELECT max(id) AS id FROM import_jobs").fetchone()
        expected[int(row["id"]) if row else 0] = book
    ids = list(expected)
    env = {"IMPORTER_DATABASE_URL": fleet_url}
    fleet = [
        stage.fleet.start("worker", ["worker", "--concurrency", "2"], env) for _ in range(workers)
    ]
    done = stage.wait_until(lambda: stage.all_terminal(ids), 300, step=0.25)
    if not done:
        stage.problems.append("not every job finished within 300 s")
    crashed = [w for w in fleet if not w.alive()]
    for w in crashed:
        stage.problems.append(f"{w.name} exited {w.proc.returncode}: {w.tail()}")
    refusals = 0
    refused_workers = 0
    for w in fleet:
        out, err = w.output()
        seen = len(REFUSED.findall(out + err))
        refusals += seen
        refused_workers += seen > 0
        if "Traceback" in out + err:
            stage.problems.append(f"{w.name}: printed a traceback")
    checks = stage.check_jobs(expected)
    report = stage.audit()
    exits = _stop_gracefully(stage, fleet)
    dups, lost, stuck = _totals(checks)
    # The fault is the full server: it happened when workers were refused and said so.
    line = (
        f"connection limits: {workers} workers x 2 on a server of max_connections "
        f"{MAX_CONNECTIONS} ({MAX_CONNECTIONS - RESERVED} for the fleet), {refusals} refusals "
        f"logged as 'too many clients; retrying' by {refused_workers}/{workers} workers, "
        f"{len(crashed)} crashed, {sum(c.ok for c in checks)}/{len(checks)} jobs exact, "
        f"{dups} duplicates, {lost} lost, {stuck} stuck; {report.takeovers} takeovers; {exits}"
    )
    return outcome(
        stage,
        "connection-limits",
        line,
        began,
        1 if refusals else 0,
        1,
        "full-server refusals",
        refusals=refusals,
        jobs=len(checks),
        lost=lost,
        twice=dups,
    )
