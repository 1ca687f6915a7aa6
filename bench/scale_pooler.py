"""PgBouncer (Debian's, transaction pooling) on loopback in front of the fleet bench's
dedicated server (bench/scale_fleet.py ``--pgbouncer``): `db migrate`, `submit --detach` and
workers through it, checking NOTIFY wake-ups (pickup latency against a direct worker),
advisory locks, session settings and prepared statements. Findings, not targets: the verdict
and docs/SCALE.md say what the tool needs from a pooler.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from bench.scale_fleet import _PROBLEM, REPO, _shape, _tuning, _value
from tests.chaos.campaign import Campaign, Stage
from tests.chaos.invariants import TERMINAL
from tests.chaos.kills import _totals
from tests.chaos.procs import Child
from tests.chaos.workbooks import FORM_NAME, Expected


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Bouncer:
    """PgBouncer (transaction pooling) on 127.0.0.1 in front of the campaign's server,
    reached over its Unix socket; ``close()`` stops it and removes its folder."""

    def __init__(self, campaign: Campaign, pool_size: int) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="scale-fleet-pgbouncer-"))
        self.port = _free_port()
        self.log = self.folder / "pgbouncer.log"
        server = campaign.server.server
        url = campaign.server.url
        params = conninfo_to_dict(url)
        self.user = str(params.get("user") or "postgres")
        with campaign.server.admin() as conn:
            row = conn.execute("SELECT current_setting('port')").fetchone()
        server_port = str(row[0]) if row else "5432"
        (self.folder / "userlist.txt").write_text(f'"{self.user}" ""\n')
        (self.folder / "pgbouncer.ini").write_text(
            "[databases]\n"
            f"* = host={server.socket_dir} port={server_port}\n"
            "[pgbouncer]\n"
            f"listen_addr = 127.0.0.1\nlisten_port = {self.port}\nunix_socket_dir =\n"
            f"auth_type = trust\nauth_file = {self.folder / 'userlist.txt'}\n"
            f"pool_mode = transaction\ndefault_pool_size = {pool_size}\nmax_client_conn = 500\n"
            f"admin_users = {self.user}\nlogfile = {self.log}\n"
            "log_connections = 0\nlog_disconnections = 0\n"
        )
        command = [shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"]
        if os.geteuid() == 0:  # it refuses to run as root: as the server's own user
            owner = pwd.getpwuid(server.pgdata.stat().st_uid)
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
            command += ["-u", owner.pw_name]
        with open(self.folder / "stderr", "wb") as stderr:
            self.proc = subprocess.Popen(
                [*command, str(self.folder / "pgbouncer.ini")],
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        deadline = time.monotonic() + 15
        while True:
            try:
                with psycopg.connect(self.url("postgres"), connect_timeout=2) as conn:
                    conn.execute("SELECT 1")
                break
            except psycopg.Error:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.close()
                    raise RuntimeError(f"pgbouncer did not start: {self.tail()}") from None
                time.sleep(0.2)

    def url(self, database: str) -> str:
        return make_conninfo(
            "", host="127.0.0.1", port=str(self.port), user=self.user, dbname=database
        )

    def tail(self) -> str:
        text = ""
        for name in ("stderr", "pgbouncer.log"):
            with contextlib.suppress(OSError):
                text += (self.folder / name).read_text(errors="replace")
        return " | ".join(text.strip().splitlines()[-5:])

    def log_lines(self) -> list[str]:
        with contextlib.suppress(OSError):
            return self.log.read_text(errors="replace").splitlines()
        return []

    def close(self, keep_log: Path | None = None) -> None:
        if keep_log is not None:
            with contextlib.suppress(OSError):
                shutil.copy(self.log, keep_log)
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        shutil.rmtree(self.folder, ignore_errors=True)


def _server_log_since(campaign: Campaign, offset: int) -> list[str]:
    with open(campaign.server.server.log_file, encoding="utf-8", errors="replace") as text:
        text.seek(offset)
        return [line.rstrip("\n") for line in text if re.search(r"\] (ERROR|WARNING|FATAL):", line)]


def _start(stage: Stage, name: str, args: list[str], url: str) -> Child:
    return stage.fleet.start(name, args, {"IMPORTER_DATABASE_URL": url})


def _finish(child: Child, timeout: float = 120.0) -> tuple[int | None, str]:
    code = child.wait(timeout)
    if code is None:
        child.kill9()
    out, err = child.output()
    return code, (err.strip() or out.strip())


def _pickups(
    stage: Stage, url: str, book: Expected, rounds: int, label: str
) -> tuple[list[float], list[float]]:
    """A worker (poll 5 s) on ``url``, then ``rounds`` detached submits through ``url`` with
    the worker idle: seconds from each job's creation to its claim, and from its claim to
    its end."""
    worker = _start(stage, f"{label}-worker", ["worker", "--concurrency", "2"], url)
    waits: list[float] = []
    runs: list[float] = []
    try:
        deadline = time.monotonic() + 60
        with stage.conn() as conn:
            while conn.execute("SELECT 1 FROM workers").fetchone() is None:
                if time.monotonic() > deadline or not worker.alive():
                    raise RuntimeError(f"{label} worker did not register: {worker.tail()}")
                time.sleep(0.1)
        time.sleep(1.0)
        for i in range(rounds):
            time.sleep(1.0 + 0.37 * i)  # idle, asleep in its poll wait at varied phases
            code, text = _finish(
                _start(
                    stage,
                    f"{label}-submit",
                    ["submit", str(book.path), "--form", FORM_NAME, "--detach", "--force"],
                    url,
                )
            )
            if code != 0:
                raise RuntimeError(f"submit --detach through {label} exited {code}: {text}")
            with stage.conn() as conn:
                job = conn.execute("SELECT max(id) AS id FROM import_jobs").fetchone()
                job_id = int(job["id"]) if job else 0
                until = time.monotonic() + 30
                while time.monotonic() < until:
                    row = conn.execute(
                        "SELECT status, extract(epoch FROM started_at - created_at)::float8 AS s,"
                        " extract(epoch FROM finished_at - started_at)::float8 AS r"
                        " FROM import_jobs WHERE id = %s",
                        (job_id,),
                    ).fetchone()
                    if row and row["status"] in TERMINAL:
                        waits.append(float(row["s"]))
                        runs.append(float(row["r"]))
                        break
                    time.sleep(0.05)
    finally:
        worker.signal(signal.SIGTERM)
        _finish(worker, 30)
    return waits, runs


@contextlib.contextmanager
def _churn(url: str, clients: int) -> Iterator[None]:
    """Other clients' short transactions through the pooler while the block runs, so that
    its server connections change hands as they do under load (no prepared statements)."""
    stop = threading.Event()

    def loop() -> None:
        with (
            contextlib.suppress(psycopg.Error),
            psycopg.connect(url, autocommit=True, prepare_threshold=None) as conn,
        ):
            while not stop.is_set():
                conn.execute("SELECT pg_sleep(0.003)")

    threads = [threading.Thread(target=loop, daemon=True) for _ in range(clients)]
    for t in threads:
        t.start()
    try:
        yield
    finally:
        stop.set()
        for t in threads:
            t.join(10)


def _session_settings(url: str, clients: int) -> tuple[Counter[str], int]:
    """What ``clients`` transactions open at once through the pooler (each on a server
    connection of its own) see of the session settings; and on how many server connections."""
    seen: Counter[str] = Counter()
    pids: set[int] = set()
    conns = [psycopg.connect(url, connect_timeout=5) for _ in range(clients)]
    try:
        for conn in conns:
            row = conn.execute(
                "SELECT pg_backend_pid(), current_setting('statement_timeout'),"
                " current_setting('idle_in_transaction_session_timeout'),"
                " current_setting('lock_timeout')"
            ).fetchone()
            assert row is not None
            pids.add(int(row[0]))
            seen[
                f"statement_timeout={row[1]} idle_in_transaction={row[2]} lock_timeout={row[3]}"
            ] += 1
    finally:
        for conn in conns:
            with contextlib.suppress(psycopg.Error):
                conn.rollback()
                conn.close()
    return seen, len(pids)


def run_pgbouncer(campaign: Campaign, say: Callable[[str], None], pool_size: int = 4) -> bool:
    """The tool through PgBouncer in transaction mode; True when it works as directly."""
    if shutil.which("pgbouncer") is None and not Path("/usr/sbin/pgbouncer").exists():
        say("  pgbouncer is not installed (apt-get install -y pgbouncer): check skipped")
        return False
    version = subprocess.run(
        [shutil.which("pgbouncer") or "/usr/sbin/pgbouncer", "--version"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.splitlines()[:1]
    stage = campaign.stage("pgbouncer", {**_tuning(60), "IMPORTER_JOBS_IMPORT_MAX_ATTEMPTS": "3"})
    offset = campaign.server.server.log_file.stat().st_size
    bouncer = Bouncer(campaign, pool_size)
    works = True
    try:
        dbname = str(conninfo_to_dict(stage.url).get("dbname"))
        via = bouncer.url(dbname)
        say(
            f"  {' '.join(version)} on 127.0.0.1:{bouncer.port}, pool_mode = transaction,"
            f" default_pool_size = {pool_size}, in front of the dedicated server"
        )
        # 1. migrations (a session advisory lock, taken and released in separate
        #    transactions), while other clients' transactions use the same pool
        fresh = campaign.server.create_database("chaos_pgbouncer_migrate")
        fresh_via = bouncer.url(str(conninfo_to_dict(fresh).get("dbname")))
        with _churn(fresh_via, pool_size - 1):
            code, text = _finish(_start(stage, "migrate", ["db", "migrate"], fresh_via))
        with campaign.server.admin() as conn:
            held = conn.execute(
                "SELECT l.pid, l.objid, a.state FROM pg_locks l JOIN pg_stat_activity a"
                " USING (pid) WHERE l.locktype = 'advisory' AND l.granted"
            ).fetchall()
        say(
            f"  db migrate through it (beside {pool_size - 1} other clients): exit {code};"
            f" advisory locks still held afterwards: {len(held)}"
            + (f" (server pid {held[0][0]}, {held[0][2]}, key {held[0][1]})" if held else "")
        )
        if held or code != 0:
            works = False
            say(f"    {text.splitlines()[-1] if text else ''}")
        if held:
            say("    the migration lock is session-level: its unlock ran on another server")
            say("    connection; the next `db migrate` with work to do waits on it for ever")
        # 2. NOTIFY wake-ups: an idle worker's pickup, directly and through the pooler
        book = stage.workbook("pgbouncer-pickup", 5, seed=4242)
        direct, direct_runs = _pickups(stage, stage.url, book, 6, "direct")
        pooled, pooled_runs = _pickups(stage, via, book, 6, "pgbouncer")
        say(
            "  pickup of a detached submit by an idle worker (poll 5 s), median / max:"
            f" direct {statistics.median(direct):.2f} / {max(direct):.2f} s,"
            f" through pgbouncer {statistics.median(pooled):.2f} / {max(pooled):.2f} s;"
            f" claim to end (5 rows) max: direct {max(direct_runs):.2f} s,"
            f" through pgbouncer {max(pooled_runs):.2f} s"
        )
        if statistics.median(pooled) > 0.5:
            works = False
            say("    the worker behind pgbouncer is not woken by NOTIFY: it finds jobs by polling")
        # 3. a small fleet through it: 2 workers x 2, 40 jobs submitted through it too
        books = [stage.workbook(f"pgbouncer-{i}", 20, seed=4300 + i) for i in range(4)]
        before = int(_value(stage, "SELECT coalesce(max(id), 0) FROM import_jobs"))
        workers = [
            _start(stage, "pgbouncer-fleet", ["worker", "--concurrency", "2"], via)
            for _ in range(2)
        ]
        workers.append(_start(stage, "pgbouncer-timers", ["timers"], via))  # fires the retries
        submit = stage.fleet.start(
            "pgbouncer-bulk",
            [FORM_NAME, *(str(books[i % 4].path) for i in range(40))],
            extra_env={"PYTHONPATH": str(REPO), "IMPORTER_DATABASE_URL": via},
            command=[sys.executable, "-m", "tests.chaos.bulk_submit"],
        )
        code, text = _finish(submit, 300)
        say(f"  bulk submit --detach of 40 jobs through it: exit {code}")
        if code != 0:
            works = False
            say(f"    {text.splitlines()[-1] if text else ''}")
        by_name = {b.path.name: b for b in books}
        with stage.conn() as conn:
            rows = conn.execute(
                "SELECT id, file_name FROM import_jobs WHERE id > %s ORDER BY id", (before,)
            ).fetchall()
        expected = {int(r["id"]): by_name[str(r["file_name"])] for r in rows}
        ids = list(expected)
        stage.wait_until(lambda: stage.all_terminal(ids), 120, step=0.5)
        checks = stage.check_jobs(expected) if expected else []
        dups, lost, stuck = _totals(checks)
        with stage.conn() as conn:
            failures = conn.execute(
                "SELECT error, count(*) AS n FROM import_attempt_failures"
                " WHERE import_job_id > %s GROUP BY error ORDER BY n DESC LIMIT 5",
                (before,),
            ).fetchall()
            statuses = conn.execute(
                "SELECT status, count(*) AS n FROM import_jobs WHERE id > %s GROUP BY 1",
                (before,),
            ).fetchall()
        shown = ", ".join(f"{r['status']} {r['n']}" for r in statuses)
        exact = sum(c.ok for c in checks)
        say(
            f"  2 workers x 2 (+ `importer timers`) through it: {len(expected)} jobs ({shown}),"
            f" {exact} exact, {dups} rows stored twice, {stuck} jobs not terminal after 120 s"
            f" ({lost} of their rows not stored)"
        )
        if exact != len(expected) or not expected:
            works = False
        for r in failures:
            say(f"    failed attempts x{r['n']}: {str(r['error'])[:200]}")
        warnings: Counter[str] = Counter()
        for w in workers:
            out, err = w.output()
            for line in (out + err).splitlines():
                if _PROBLEM.search(line):
                    warnings[_shape(line)] += 1
        for shape, n in warnings.most_common(6):
            say(f"    worker log x{n}: {shape}")
        for w in workers:
            w.signal(signal.SIGTERM)
            _finish(w, 30)
        # 4. session settings set by a job's connection, as other clients' transactions see them
        seen, servers = _session_settings(via, pool_size)
        for text_, n in seen.most_common():
            say(f"  {n} of {servers} pooled server connections, as a new client sees them: {text_}")
        if any("statement_timeout=0" not in s for s in seen):
            works = False
            say("    a job's session settings (set_config(..., false)) stay on the server")
            say("    connection and apply to other clients' transactions; its own later ones")
            say("    may run on a connection without them")
        errors = Counter(
            re.sub(r"\d+", "N", line.split("] ", 1)[-1])[:160]
            for line in _server_log_since(campaign, offset)
        )
        for text_, n in errors.most_common(8):
            say(f"  server log x{n}: {text_}")
        pooler = Counter(
            re.sub(r"\d+", "N", line.split(" ", 3)[-1])[:160]
            for line in bouncer.log_lines()
            if re.search(r"WARNING|ERROR|LOG C-.*closing because|LOG S-.*closing because", line)
        )
        for text_, n in pooler.most_common(8):
            say(f"  pgbouncer log x{n}: {text_}")
    finally:
        stage.fleet.close()
        bouncer.close(keep_log=stage.folder / "logs" / "pgbouncer.log")
    say(f"  the tool through pgbouncer (transaction mode): {'works' if works else 'does NOT work'}")
    return works
