"""What every scenario shares: its own database on the campaign's server, audited, with the
chaos form registered, short leases, and a fleet of real `importer` processes."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from psycopg.conninfo import make_conninfo

from importer.columnar import SWITCH as COLUMNAR_SWITCH
from tests.chaos import audit
from tests.chaos.hosts import HBA_LINE, SERVER_ADDRESS, Host, Network
from tests.chaos.invariants import Conn, JobCheck, check_job, connect
from tests.chaos.procs import IMPORTER_CMD, Child, Fleet
from tests.chaos.server import ChaosServer
from tests.chaos.workbooks import FORM_NAME, Expected, write_form, write_workbook

# Short leases and small transactions, so that a campaign sees many takeovers and batch
# boundaries in little time. Attempts are unbounded: a job killed ten times must still finish.
TUNING = {
    "IMPORTER_JOBS_IMPORT_LEASE_SECONDS": "2",
    "IMPORTER_JOBS_IMPORT_STARTUP_DELAY_SECONDS": "0.1",
    "IMPORTER_JOBS_IMPORT_POLL_INTERVAL_SECONDS": "0.2",
    "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "100",
    "IMPORTER_JOBS_IMPORT_MAX_ATTEMPTS": "1000",
    "IMPORTER_JOBS_TIMER_LEASE_SECONDS": "2",
    "IMPORTER_JOBS_TIMER_STARTUP_DELAY_SECONDS": "0.1",
    "IMPORTER_JOBS_TIMER_POLL_INTERVAL_SECONDS": "0.2",
    "IMPORTER_JOBS_RETRY_DELAYS_SECONDS": "0.5",
    "IMPORTER_JOBS_TIMER_MAX_ATTEMPTS": "1000",
}


# Test hosts the campaign builds (network namespaces); scenarios use the first few.
HOSTS = 3


class ScenarioFailed(Exception):
    """Set-up went wrong in a way that makes the scenario's figures meaningless."""


@dataclass
class Outcome:
    name: str
    line: str
    problems: list[str]
    seconds: float
    # The faults it aimed at and those it really injected: a scenario passes only with all.
    injected: int = 0
    target: int = 0
    figures: dict[str, object] = field(default_factory=dict)  # for docs/RELIABILITY.md

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def full_line(self) -> str:
        return f"{self.line}; faults {self.injected}/{self.target}"


def outcome(
    stage: Stage,
    name: str,
    line: str,
    began: float,
    injected: int,
    target: int,
    what: str,
    **figures: object,
) -> Outcome:
    """The scenario's verdict: its problems, plus one if it injected fewer faults than it
    aimed at (a run that proved half of its target proved nothing about the rest)."""
    if injected < target:
        stage.problems.append(f"injected {injected} of {target} {what}")
    return Outcome(
        name, line, stage.problems, time.monotonic() - began, injected, target, dict(figures)
    )


@dataclass
class Stage:
    name: str
    url: str
    folder: Path
    env: dict[str, str]
    fleet: Fleet
    rng: random.Random
    quick: bool
    hosts: list[Host] = field(default_factory=list)
    killed_pids: set[int] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)

    def conn(self) -> Conn:
        return connect(self.url)

    def host_url(self, host: Host) -> str:
        """This stage's database as a test host reaches it: over its veth, by TCP."""
        with self.conn() as conn:
            row = conn.execute("SELECT current_setting('port') AS port").fetchone()
        port = str(row["port"]) if row else "5432"
        return make_conninfo(self.url, host=SERVER_ADDRESS, port=port)

    def start_on(
        self,
        host: Host,
        name: str,
        args: list[str],
        extra_env: dict[str, str] | None = None,
        wrapper: list[str] | None = None,
    ) -> Child:
        """`importer ARGS` on a test host (``wrapper``: a program it runs under, e.g. env)."""
        env = {"IMPORTER_DATABASE_URL": self.host_url(host), **(extra_env or {})}
        command = host.command([*(wrapper or []), *IMPORTER_CMD])
        return self.fleet.start(f"{host.name}-{name}", args, env, command=command)

    def workbook(self, label: str, rows: int, seed: int) -> Expected:
        return write_workbook(self.folder / f"{label}.xlsx", rows, seed=seed)

    def cli(self, name: str, *args: str, timeout: float = 120.0, ok: tuple[int, ...] = (0,)) -> int:
        """Run one command to its end; a code outside `ok` is a set-up failure."""
        code, child = self.fleet.run(name, list(args), timeout)
        if code not in ok:
            raise ScenarioFailed(f"importer {' '.join(args)} exited {code}: {child.tail()}")
        return code

    def submit_detached(self, book: Expected, *extra: str) -> None:
        self.cli("submit", "submit", str(book.path), "--form", FORM_NAME, "--detach", *extra)

    def check_jobs(self, expected: dict[int, Expected]) -> list[JobCheck]:
        with self.conn() as conn:
            checks = [check_job(conn, job_id, book) for job_id, book in sorted(expected.items())]
        for c in checks:
            self.problems.extend(c.problems)
        return checks

    def audit(self, **kwargs: object) -> audit.AuditReport:
        report = audit.check(self.url, killed_pids=self.killed_pids, **kwargs)  # type: ignore[arg-type]
        self.problems.extend(f"audit: {p}" for p in report.problems)
        return report

    def wait_until(self, predicate: Callable[[], bool], timeout: float, step: float = 0.1) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate():
                return True
            time.sleep(step)
        return predicate()

    def all_terminal(self, job_ids: list[int]) -> bool:
        with self.conn() as conn:
            row = conn.execute(
                "SELECT count(*) AS n FROM import_jobs WHERE id = ANY(%s) AND status IN "
                "('succeeded', 'partially_succeeded', 'failed', 'cancelled')",
                (job_ids,),
            ).fetchone()
        return bool(row and row["n"] == len(job_ids))

    def importer_backends(self, conn: Conn | None = None) -> list[dict[str, object]]:
        """Server processes serving importer clients in this stage's database."""
        if conn is None:
            with self.conn() as own:
                return self.importer_backends(own)
        return conn.execute(
            "SELECT pid, state, xact_start, wait_event, left(query, 70) AS query"
            " FROM pg_stat_activity"
            " WHERE datname = current_database() AND backend_type = 'client backend'"
            " AND application_name <> 'chaos' AND pid <> pg_backend_pid()"
        ).fetchall()


class Campaign:
    def __init__(self, root: Path, *, quick: bool, seed: int) -> None:
        self.root = root
        self.quick = quick
        self.seed = seed
        self.server = ChaosServer(root / "pg")
        self.network = Network(HOSTS)
        self.hosts_kind = ""
        self._stages: list[Stage] = []

    def __enter__(self) -> Campaign:
        try:
            self.network.__enter__()
            self.hosts_kind = self.network.kind
            self.server.start()
            # Commit timestamps let the audit tell when a paused writer's transaction
            # committed; the test hosts reach the server over the bridge.
            with self.server.admin() as conn:
                conn.execute("ALTER SYSTEM SET track_commit_timestamp = on")
                if self.network.hosts:
                    conn.execute(f"ALTER SYSTEM SET listen_addresses = '{SERVER_ADDRESS}'")
            if self.network.hosts:
                self.server.allow(HBA_LINE)
            self.server.restart("fast", 0)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            for stage in self._stages:
                stage.fleet.close()
            self.server.close()
        finally:
            self.network.close()

    def stage(
        self, name: str, tuning: dict[str, str] | None = None, server: ChaosServer | None = None
    ) -> Stage:
        """A database of its own (on the campaign's server, or ``server``), audited."""
        url = (server or self.server).create_database(f"chaos_{name}")
        folder = self.root / name
        folder.mkdir(parents=True, exist_ok=True)
        env = {
            k: v
            for k, v in os.environ.items()
            # IMPORTER_TEST_COLUMNAR=1 runs the campaign on the columnar path.
            if (not k.startswith("IMPORTER_") or k == COLUMNAR_SWITCH) and k != "DATABASE_URL"
        }
        env.update(TUNING)
        env.update(tuning or {})
        env.update(
            IMPORTER_DATABASE_URL=url,
            IMPORTER_HOME=str(folder / "home"),
            NO_COLOR="1",
            COLUMNS="120",
        )
        stage = Stage(
            name=name,
            url=url,
            folder=folder,
            env=env,
            fleet=Fleet(env, folder / "logs"),
            rng=random.Random(f"{self.seed}-{name}"),
            quick=self.quick,
            hosts=list(self.network.hosts),
        )
        self._stages.append(stage)
        stage.cli("migrate", "db", "migrate")
        stage.cli("form", "forms", "add", str(write_form(folder)))
        audit.install(url)  # after the form: its table is where the audit watches rows land
        return stage
