"""A large fleet: many `importer worker` processes on many test hosts against one PostgreSQL,
many small jobs; what it costs in connections, and whether a pooler can stand in between.

The fleet runs on the chaos campaign's machinery (tests/chaos): test hosts are network
namespaces on a bridge (hosts.py), the server is a dedicated embedded PostgreSQL (server.py),
the jobs are queued by ``tests.chaos.bulk_submit`` (a submitter per slice, each with workbooks
of its own) and checked row by row (invariants.py) and from inside the database (audit.py).
Figures:

- jobs/s: from the fleet's start to the last job's end (start-up included), and between the
  first claim and the last end, on the database's clock;
- claim p50/p99/max: the server's own durations of the claim statement (parse + bind +
  execute), from its log with log_min_duration_statement = 0 while the fleet runs (every
  statement is logged then; the log's size is printed);
- connections: every 0.5 s, the server's client backends (pg_stat_activity, by client
  address = test host) and, for each worker process, its TCP connections to the server
  (/proc/PID/fd and /proc/PID/net/tcp of its namespace): the peak in use, per host and per
  worker, against ``connections_per_worker``;
- jobs claimed twice (a change of owner while nothing was killed), rows lost or stored twice.

When the fleet did not fit (workers refused with "too many clients"), max_connections is
raised to what ``max_connections_for`` gives and the fleet runs again; both are reported.

``--pgbouncer``: PgBouncer (Debian's, transaction pooling) on loopback in front of the same
server; `db migrate`, `submit --detach` and workers through it: NOTIFY wake-ups (pickup
latency against a direct worker), advisory locks, session settings, prepared statements.

    python -m bench.scale_fleet                  # 32 workers x 4 on 8 hosts, 20,000 jobs
    python -m bench.scale_fleet --quick          # 4 workers x 2 on 2 hosts, 200 jobs
    python -m bench.scale_fleet --workers 2 --concurrency 2 --hosts 2 --jobs 50 --pgbouncer

Needs root (network namespaces). Everything it makes (namespaces, bridge, servers, PgBouncer)
is removed at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from psycopg.conninfo import make_conninfo

from importer.database import queries
from importer.database.embedded import SERVER_ROOT
from tests.chaos.campaign import Campaign, Stage
from tests.chaos.fleet_load import _claims_per_job, _distinct_owners
from tests.chaos.hosts import BRIDGE, NS_PREFIX, SERVER_ADDRESS, SUBNET, Host, Network
from tests.chaos.invariants import TERMINAL, Conn
from tests.chaos.kills import _stop_gracefully, _totals
from tests.chaos.limits import REFUSED, ROLE
from tests.chaos.procs import Child
from tests.chaos.workbooks import FORM_NAME, Expected

REPO = Path(__file__).resolve().parents[1]
ROWS = 20  # rows per job: small jobs
BOOKS_PER_SUBMITTER = 10  # a submitter's own workbooks (two forced submits of one file race)
SAMPLE_SECONDS = 0.5
HEADROOM = 10  # connections beyond the fleet's: `psql`, monitoring, this bench's own
DEFAULT_MAX_CONNECTIONS = 200  # the embedded server's (importer/database/embedded.py)
LOG_PREFIX = "%m [%p] "
_ENTRY = re.compile(r"^\S+ \S+ \S+ \[(\d+)\] LOG:  duration: ([0-9.]+) ms  (parse|bind|execute) ")
_PROBLEM = re.compile(r" (WARNING|ERROR|CRITICAL) ")


@dataclass(frozen=True)
class Size:
    workers: int
    concurrency: int
    hosts: int
    jobs: int
    rows: int = ROWS


FULL = Size(workers=32, concurrency=4, hosts=8, jobs=20_000)
QUICK = Size(workers=4, concurrency=2, hosts=2, jobs=200)


def connections_per_worker(concurrency: int, *, lookups: bool = False) -> int:
    """The most connections one `importer worker --concurrency N` holds at once: its working
    connection (claims, heartbeats) and its LISTEN connection, then per running job the
    job's own connection and its lease renewer's (opened at the first renewal, a third of
    the lease after the claim); a form with lookups adds one more per job."""
    return 2 + (3 if lookups else 2) * concurrency


def max_connections_for(workers: int, concurrency: int, reserved: int, schedulers: int = 1) -> int:
    """max_connections for a fleet of ``workers`` (and its `importer timers` schedulers, two
    connections each), the superuser's reserved slots and HEADROOM for the rest."""
    fleet = workers * connections_per_worker(concurrency) + 2 * schedulers
    return fleet + reserved + HEADROOM


# --- measuring --------------------------------------------------------------------------


def _hex_address(address: str, port: int) -> str:
    """An IPv4 endpoint as /proc/net/tcp writes it (little-endian address, hex port)."""
    return "".join(f"{int(part):02X}" for part in reversed(address.split("."))) + f":{port:04X}"


def sockets_to(pid: int, endpoint: str) -> int:
    """ESTABLISHED TCP connections of process ``pid`` to ``endpoint`` (``_hex_address``),
    read in the process's own network namespace."""
    inodes: set[str] = set()
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        with open(f"/proc/{pid}/net/tcp", encoding="ascii") as table:
            next(table, None)
            # By inode: a table read while sockets come and go may list one twice.
            return len(
                {
                    parts[9]
                    for parts in (line.split() for line in table)
                    if parts[2] == endpoint and parts[3] == "01" and parts[9] in inodes
                }
            )
    except OSError:
        return 0


@dataclass
class Peaks:
    fleet: int = 0  # the fleet's backends (importer, from the test hosts)
    clients: int = 0  # every client backend of the server
    by_host: dict[str, int] = field(default_factory=dict)
    by_worker: dict[int, int] = field(default_factory=dict)  # pid -> peak
    samples: int = 0
    last_fleet: int = 0


class ConnectionSampler:
    """Samples the server's client backends and each worker's own sockets until stopped."""

    def __init__(self, url: str, workers: list[Child], port: int) -> None:
        self.url = url
        self.workers = workers
        self.endpoint = _hex_address(SERVER_ADDRESS, port)
        self.peaks = Peaks()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sampler", daemon=True)
        self.errors: list[str] = []

    def __enter__(self) -> ConnectionSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(10)

    def _run(self) -> None:
        try:
            with psycopg.connect(self.url, autocommit=True, application_name="chaos") as conn:
                while not self._stop.wait(SAMPLE_SECONDS):
                    self._sample(conn)
        except psycopg.Error as exc:
            self.errors.append(f"sampler: {exc}")

    def _sample(self, conn: psycopg.Connection[tuple[Any, ...]]) -> None:
        rows = conn.execute(
            "SELECT coalesce(host(client_addr), 'local'), application_name, count(*)::int"
            " FROM pg_stat_activity WHERE backend_type = 'client backend' GROUP BY 1, 2"
        ).fetchall()
        by_host: Counter[str] = Counter()
        for addr, app, n in rows:
            if app == "importer" and addr.startswith(f"{SUBNET}."):
                by_host[addr] += n
        p = self.peaks
        p.last_fleet = sum(by_host.values())
        p.fleet = max(p.fleet, p.last_fleet)
        p.clients = max(p.clients, sum(n for _, _, n in rows))
        for addr, n in by_host.items():
            p.by_host[addr] = max(p.by_host.get(addr, 0), n)
        for w in self.workers:
            if w.alive():
                held = sockets_to(w.pid, self.endpoint)
                p.by_worker[w.pid] = max(p.by_worker.get(w.pid, 0), held)
        p.samples += 1


def claim_durations(log: Path, offset: int) -> tuple[list[float], int]:
    """The claim statement's durations (ms, parse + bind + execute of one claim) logged
    after ``offset``, and how many statement durations the log held in all."""
    first_line = queries().claim_import_jobs.splitlines()[0]
    pending: dict[str, float] = {}
    durations: list[float] = []
    logged = 0
    with open(log, encoding="utf-8", errors="replace") as text:
        text.seek(offset)
        for line in text:
            match = _ENTRY.match(line)
            if match is None:
                continue
            logged += 1
            if first_line not in line[match.end() :]:
                continue
            pid, ms, phase = match.group(1), float(match.group(2)), match.group(3)
            pending[pid] = pending.get(pid, 0.0) + ms
            if phase == "execute":
                durations.append(pending.pop(pid))
    return durations, logged


def _percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


# --- the fleet --------------------------------------------------------------------------


@dataclass
class FleetRun:
    size: Size
    max_connections: int
    lease_seconds: float
    reserved: int = 3  # superuser_reserved_connections: not the fleet's
    submit_seconds: float = 0.0
    terminal: int = 0
    wall_seconds: float = 0.0
    jobs_per_s: float = 0.0
    steady_jobs_per_s: float = 0.0
    claims_ms: list[float] = field(default_factory=list)
    statements_logged: int = 0
    log_mb: float = 0.0
    peaks: Peaks = field(default_factory=Peaks)
    refusals: int = 0
    refused_workers: int = 0
    warnings: Counter[str] = field(default_factory=Counter)
    twice: int = 0
    duplicates: int = 0
    lost: int = 0
    stuck: int = 0
    takeovers: int = 0
    owners: int = 0
    exits: str = ""
    problems: list[str] = field(default_factory=list)

    @property
    def per_worker_peak(self) -> int:
        return max(self.peaks.by_worker.values(), default=0)

    @property
    def fits(self) -> bool:
        return self.refusals == 0

    def ok(self) -> bool:
        formula = connections_per_worker(self.size.concurrency)
        return (
            not self.problems
            and self.twice == 0
            and self.duplicates == 0
            and self.lost == 0
            and self.stuck == 0
            and self.terminal == self.size.jobs
            and self.per_worker_peak <= formula
        )


def _tuning(lease_seconds: float) -> dict[str, str]:
    """The tool's defaults where the campaign shortens them for its faults (lease, poll,
    transaction size), so the fleet runs as one would; quick start-up and retries stay."""
    return {
        "IMPORTER_JOBS_IMPORT_LEASE_SECONDS": f"{lease_seconds:g}",
        "IMPORTER_JOBS_IMPORT_POLL_INTERVAL_SECONDS": "5",
        "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "1000",
        "IMPORTER_JOBS_TIMER_LEASE_SECONDS": "300",
        "IMPORTER_JOBS_TIMER_POLL_INTERVAL_SECONDS": "5",
    }


def _queue(stage: Stage, size: Size, submitters: int) -> tuple[dict[int, Expected], float]:
    """Queue size.jobs jobs through `importer submit --detach --force` (bulk_submit), in
    parallel slices, each slice with workbooks of its own."""
    started = time.monotonic()
    books: list[list[Expected]] = [
        [
            stage.workbook(f"fleet-{s}-{i}", size.rows, seed=9000 + s * 100 + i)
            for i in range(BOOKS_PER_SUBMITTER)
        ]
        for s in range(submitters)
    ]
    children = []
    for s in range(submitters):
        count = size.jobs // submitters + (1 if s < size.jobs % submitters else 0)
        order = [books[s][i % BOOKS_PER_SUBMITTER] for i in range(count)]
        children.append(
            stage.fleet.start(
                "bulk-submit",
                [FORM_NAME, *(str(b.path) for b in order)],
                extra_env={"PYTHONPATH": str(REPO)},
                command=[sys.executable, "-m", "tests.chaos.bulk_submit"],
            )
        )
    for child in children:
        if child.wait(max(600.0, size.jobs / 5)) != 0:
            raise RuntimeError(f"bulk submit failed: {child.tail()}")
    by_name = {b.path.name: b for slice_ in books for b in slice_}
    with stage.conn() as conn:
        listed = conn.execute("SELECT id, file_name FROM import_jobs ORDER BY id").fetchall()
    expected = {int(r["id"]): by_name[str(r["file_name"])] for r in listed}
    if len(expected) != size.jobs:
        raise RuntimeError(f"{len(expected)} jobs queued, expected {size.jobs}")
    return expected, time.monotonic() - started


def _value(stage: Stage, query: str, params: tuple[Any, ...] = ()) -> Any:
    """The first column of the first row of ``query`` on the stage's database."""
    with stage.conn() as conn:
        row = conn.execute(query, params).fetchone()
    return next(iter(row.values())) if row else None


def _terminal(conn: Conn) -> int:
    row = conn.execute(
        "SELECT count(*) AS n FROM import_jobs WHERE status = ANY(%s)", (list(TERMINAL),)
    ).fetchone()
    return int(row["n"]) if row else 0


@contextlib.contextmanager
def _statement_log(stage: Stage) -> Iterator[None]:
    """Every statement's duration in the server's log while the block runs."""
    with stage.conn() as conn:
        conn.execute("ALTER SYSTEM SET log_min_duration_statement = 0")
        conn.execute("ALTER SYSTEM SET log_parameter_max_length = 0")
        conn.execute(f"ALTER SYSTEM SET log_line_prefix = '{LOG_PREFIX}'")
        conn.execute("SELECT pg_reload_conf()")
    try:
        yield
    finally:
        with stage.conn() as conn:
            conn.execute("ALTER SYSTEM RESET log_min_duration_statement")
            conn.execute("ALTER SYSTEM RESET log_parameter_max_length")
            conn.execute("SELECT pg_reload_conf()")


def run_fleet(
    campaign: Campaign,
    size: Size,
    *,
    max_connections: int,
    lease_seconds: float,
    submitters: int,
    reserved: int,
    say: Callable[[str], None],
) -> FleetRun:
    result = FleetRun(size, max_connections, lease_seconds, reserved)
    stage = campaign.stage(f"fleet_{max_connections}", _tuning(lease_seconds))
    try:
        _fleet(campaign, stage, size, submitters, result, say)
    finally:
        stage.fleet.close()
    result.problems.extend(stage.problems)
    return result


def _fleet(
    campaign: Campaign,
    stage: Stage,
    size: Size,
    submitters: int,
    result: FleetRun,
    say: Callable[[str], None],
) -> None:
    hosts = stage.hosts[: size.hosts]
    if len(hosts) < size.hosts:
        raise RuntimeError(f"{size.hosts} test hosts wanted, {len(hosts)} made")
    expected, result.submit_seconds = _queue(stage, size, submitters)
    say(f"    {size.jobs:,} jobs queued in {result.submit_seconds:.0f} s ({submitters} submitters)")
    port = int(_value(stage, "SELECT current_setting('port')"))
    with stage.conn() as conn:
        # As limits.py does: the fleet's role has the owner's privileges but not the
        # superuser's reserved connections, which stay free for this bench's own.
        conn.execute(f"CREATE ROLE {ROLE} LOGIN")
        conn.execute(f"GRANT postgres TO {ROLE}")

    def start(host: Host, name: str, args: list[str]) -> Child:
        return stage.start_on(
            host,
            name,
            args,
            {"IMPORTER_DATABASE_URL": make_conninfo(stage.host_url(host), user=ROLE)},
        )

    log = campaign.server.server.log_file
    offset = log.stat().st_size
    with _statement_log(stage), stage.conn() as watch:
        began_db = _value(stage, "SELECT clock_timestamp()")
        began = time.monotonic()
        workers = [
            start(
                hosts[i % len(hosts)], "worker", ["worker", "--concurrency", f"{size.concurrency}"]
            )
            for i in range(size.workers)
        ]
        schedulers = [start(hosts[0], "timers", ["timers"])]
        timeout = max(600.0, size.jobs / 4)
        with ConnectionSampler(stage.url, workers, port) as sampler:
            next_line = began + 30
            while (done := _terminal(watch)) < size.jobs:
                if time.monotonic() - began > timeout:
                    stage.problems.append(
                        f"{size.jobs - done} jobs not terminal after {timeout:.0f} s"
                    )
                    break
                if time.monotonic() >= next_line:
                    next_line += 30
                    say(
                        f"    ... {done:,}/{size.jobs:,} terminal after"
                        f" {time.monotonic() - began:.0f} s,"
                        f" fleet connections now {sampler.peaks.last_fleet}"
                        f" (peak {sampler.peaks.fleet})"
                    )
                time.sleep(1.0)
            result.wall_seconds = time.monotonic() - began
        result.peaks = sampler.peaks
        result.problems.extend(sampler.errors)
    result.log_mb = (log.stat().st_size - offset) / 2**20
    result.claims_ms, result.statements_logged = claim_durations(log, offset)

    with stage.conn() as conn:
        span = conn.execute(
            "SELECT count(*) FILTER (WHERE status = ANY(%s)) AS n,"
            " extract(epoch FROM max(finished_at) - %s::timestamptz)::float8 AS wall,"
            " extract(epoch FROM max(finished_at) - min(started_at))::float8 AS steady"
            " FROM import_jobs",
            (list(TERMINAL), began_db),
        ).fetchone()
    assert span is not None
    result.terminal = int(span["n"])
    result.jobs_per_s = result.terminal / float(span["wall"] or 1)
    result.steady_jobs_per_s = result.terminal / float(span["steady"] or 1)

    for w in workers + schedulers:
        out, err = w.output()
        seen = len(REFUSED.findall(out + err))
        result.refusals += seen
        result.refused_workers += seen > 0
        for line in (out + err).splitlines():
            if _PROBLEM.search(line):
                result.warnings[_shape(line)] += 1
        if "Traceback" in out + err:
            stage.problems.append(f"{w.name}: printed a traceback")
        if not w.alive():
            stage.problems.append(f"{w.name} exited {w.proc.returncode}: {w.tail()}")

    say("    checking every job row by row and the audit log ...")
    checks = stage.check_jobs(expected)
    result.duplicates, result.lost, result.stuck = _totals(checks)
    result.takeovers = stage.audit().takeovers
    claims = _claims_per_job(stage.url)
    reclaimed = {job: n for job, n in claims.items() if n > 1}
    result.twice = len(reclaimed)
    if reclaimed:
        shown = ", ".join(f"{j}x{n}" for j, n in list(reclaimed.items())[:8])
        stage.problems.append(f"jobs claimed more than once with nothing killed: {shown}")
    result.owners = _distinct_owners(stage.url)
    result.exits = _stop_gracefully(stage, workers + schedulers)


def _shape(line: str) -> str:
    """A worker's warning without its time stamp and numbers: lines alike count as one."""
    text = line.split(" ", 2)[-1]
    return re.sub(r"\d+", "N", text)[:160]


def _report_fleet(run: FleetRun, say: Callable[[str], None]) -> None:
    s = run.size
    formula = connections_per_worker(s.concurrency)
    per_worker = sorted(run.peaks.by_worker.values())
    claims = run.claims_ms
    say(
        f"  {s.workers} workers x {s.concurrency} on {s.hosts} hosts, {s.jobs:,} jobs x {s.rows}"
        f" rows, max_connections {run.max_connections}, lease {run.lease_seconds:g} s"
    )
    say(
        f"    jobs/s: {run.jobs_per_s:,.1f} from the fleet's start ({run.wall_seconds:.0f} s,"
        f" start-up included), {run.steady_jobs_per_s:,.1f} first claim to last end;"
        f" {run.terminal:,}/{s.jobs:,} terminal"
    )
    say(
        f"    claim (server: parse+bind+execute of the claim statement, {len(claims):,} claims):"
        f" p50 {_percentile(claims, 0.5):.2f} ms, p99 {_percentile(claims, 0.99):.2f} ms,"
        f" max {max(claims, default=float('nan')):.2f} ms"
        f" (log_min_duration_statement = 0: {run.statements_logged:,} statements,"
        f" {run.log_mb:,.0f} MB of log)"
    )
    hosts = ", ".join(f"{a.rsplit('.', 1)[-1]}:{n}" for a, n in sorted(run.peaks.by_host.items()))
    say(
        f"    connections: fleet peak {run.peaks.fleet} of the"
        f" {run.max_connections - run.reserved} its role may use (max_connections"
        f" {run.max_connections} - {run.reserved} reserved; every client backend: peak"
        f" {run.peaks.clients});"
        f" per host peak [{hosts}]"
    )
    if per_worker:
        say(
            f"    per worker (its own sockets, {run.peaks.samples} samples): peak {per_worker[-1]},"
            f" median of peaks {statistics.median(per_worker):g}, least {per_worker[0]};"
            f" formula 2 + 2 x concurrency = {formula}"
        )
    say(
        f"    refusals ('too many clients; retrying'): {run.refusals} by"
        f" {run.refused_workers}/{s.workers} workers"
    )
    say(
        f"    claimed twice {run.twice}, rows stored twice {run.duplicates}, lost {run.lost},"
        f" stuck {run.stuck}, takeovers {run.takeovers}, {run.owners} owners shared the work;"
        f" {run.exits}"
    )
    for shape, n in run.warnings.most_common(6):
        say(f"    worker log x{n}: {shape}")
    for problem in run.problems[:15]:
        say(f"    PROBLEM: {problem}")


# --- the whole ----------------------------------------------------------------------------


def _preflight() -> str | None:
    """Why the fleet cannot run here (None: it can): namespaces, and nobody else's campaign."""
    why = Network.available()
    if why is not None:
        return why
    listed = subprocess.run(
        ["ip", "netns", "list"], capture_output=True, text=True, check=False
    ).stdout.split()
    links = subprocess.run(
        ["ip", "-o", "link", "show"], capture_output=True, text=True, check=False
    )
    if any(n.startswith(NS_PREFIX) for n in listed) or f" {BRIDGE}:" in links.stdout:
        return "a chaos campaign's namespaces exist (another run?): not touching them"
    return None


def run(
    report: Callable[[str], None] | None = None,
    *,
    size: Size = FULL,
    max_connections: int | None = None,
    lease_seconds: float = 300.0,
    submitters: int = 2,
    raise_when_refused: bool = True,
    fleet: bool = True,
    pgbouncer: bool = False,
    keep: bool = False,
) -> bool:
    """Print the fleet's figures (and PgBouncer's findings); True when every target is met:
    no job claimed twice, no row lost or stored twice, every job terminal, no worker over
    ``connections_per_worker`` and, in the last run, no connection refused. (PgBouncer's
    verdict is printed; it decides the result only when the fleet is left out.)"""
    say = report or (lambda text: print(text, flush=True))
    why = _preflight()
    if why is not None:
        say(f"scale_fleet: cannot run here: {why}")
        return False
    root = Path(tempfile.mkdtemp(prefix="scale-fleet-"))
    server_root_existed = SERVER_ROOT.exists()  # as root the server's data may live there
    ok = True
    try:
        campaign = Campaign(root, quick=False, seed=0)
        campaign.network = Network(size.hosts if fleet else 0)
        with campaign:
            where = campaign.hosts_kind if fleet else "no test hosts (PgBouncer only)"
            say(f"scale_fleet: {where}; {campaign.server.version()}")
            reserved = _setting(campaign, "superuser_reserved_connections")
            limit = _setting(campaign, "max_connections")
            if fleet:
                if max_connections is not None and max_connections != limit:
                    limit = _restart_with(campaign, max_connections)

                def fleet_at(limit: int) -> FleetRun:
                    found = run_fleet(
                        campaign,
                        size,
                        max_connections=limit,
                        lease_seconds=lease_seconds,
                        submitters=submitters,
                        reserved=reserved,
                        say=say,
                    )
                    _report_fleet(found, say)
                    return found

                run_ = fleet_at(limit)
                if not run_.fits and raise_when_refused:
                    needed = max_connections_for(size.workers, size.concurrency, reserved)
                    say(
                        f"  did not fit: raising max_connections to {needed} = {size.workers} x"
                        f" (2 + 2 x {size.concurrency}) + 2 (timers) + {reserved} reserved"
                        f" + {HEADROOM} headroom, and running again"
                    )
                    run_ = fleet_at(_restart_with(campaign, needed))
                ok = run_.ok() and run_.fits  # the targets are the fleet's
                needed = max_connections_for(size.workers, size.concurrency, reserved)
                say(
                    f"  a fleet of N workers x c needs max_connections >= N x (2 + 2c) + 2 per"
                    f" `importer timers` + {reserved} (superuser_reserved_connections)"
                    f" + what else connects; here {needed} (with {HEADROOM} to spare)"
                )
            if pgbouncer:
                from bench.scale_pooler import run_pgbouncer  # it builds on this module

                works = run_pgbouncer(campaign, say)  # findings, not a target of the fleet's
                ok = ok if fleet else works
    finally:
        if keep:
            say(f"logs in {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
        if not server_root_existed:
            with contextlib.suppress(OSError):
                SERVER_ROOT.rmdir()  # only when empty: made by this run, nothing else in it
    return ok


def _setting(campaign: Campaign, name: str) -> int:
    with campaign.server.admin() as conn:
        row = conn.execute("SELECT current_setting(%s)", (name,)).fetchone()
    return int(str(row[0])) if row else 0


def _restart_with(campaign: Campaign, max_connections: int) -> int:
    with campaign.server.admin() as conn:
        conn.execute(f"ALTER SYSTEM SET max_connections = {int(max_connections)}")
    campaign.server.restart("fast", 0)
    return _setting(campaign, "max_connections")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.scale_fleet")
    parser.add_argument("--quick", action="store_true", help="4 workers x 2, 2 hosts, 200 jobs")
    parser.add_argument("--workers", type=int)
    parser.add_argument("--concurrency", type=int)
    parser.add_argument("--hosts", type=int)
    parser.add_argument("--jobs", type=int)
    parser.add_argument("--rows", type=int, default=ROWS, help="rows per job")
    parser.add_argument("--submitters", type=int, default=2, help="processes queueing the jobs")
    parser.add_argument(
        "--max-connections", type=int, help="the dedicated server's (default: its own 200)"
    )
    parser.add_argument(
        "--no-raise", action="store_true", help="do not run again with more connections"
    )
    parser.add_argument(
        "--lease-seconds", type=float, default=300.0, help="jobs.import.lease_seconds (300)"
    )
    parser.add_argument("--pgbouncer", action="store_true", help="also check PgBouncer")
    parser.add_argument("--pgbouncer-only", action="store_true", help="only the PgBouncer check")
    parser.add_argument("--keep", action="store_true", help="keep the logs")
    options = parser.parse_args(argv)
    base = QUICK if options.quick else FULL
    size = Size(
        workers=options.workers or base.workers,
        concurrency=options.concurrency or base.concurrency,
        hosts=options.hosts or base.hosts,
        jobs=options.jobs or base.jobs,
        rows=options.rows,
    )
    met = run(
        size=size,
        max_connections=options.max_connections,
        lease_seconds=options.lease_seconds,
        submitters=options.submitters,
        raise_when_refused=not options.no_raise,
        fleet=not options.pgbouncer_only,
        pgbouncer=options.pgbouncer or options.pgbouncer_only,
        keep=options.keep,
    )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
