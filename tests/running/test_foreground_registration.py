"""A foreground `submit` / `resume` is a live process in `workers` (kind "submit") while it
runs, so `watch` and `stats` see it; its row goes when it ends, however it ends.

Real `importer` child processes paused at a batch boundary (IMPORTER_TEST_PAUSE_AT) against
real PostgreSQL.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import pytest

from importer.database import Connection
from importer.identity import new_owner
from importer.running.process import Registration
from importer.states import ProcessKind
from tests.conftest import IMPORTER_CMD, Cli
from tests.support.fleet import wait_for
from tests.support.jobs import (
    add_form,
    assert_exactly_once,
    kill_9,
    orders_book,
    wait_until_stopped,
)


@pytest.fixture
def orders(conn: Connection, cli_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    add_form(conn)
    monkeypatch.setenv("IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION", "10")
    monkeypatch.setenv("COLUMNS", "200")  # watch's tables in full


def processes(conn: Connection) -> list[dict[str, Any]]:
    return conn.execute(
        "SELECT owner, kind, pid, heartbeat_at FROM workers ORDER BY owner"
    ).fetchall()


class Paused(Protocol):
    def __call__(self, *args: str, at: str = ...) -> subprocess.Popen[bytes]: ...


@pytest.fixture
def paused(cli_env: dict[str, str]) -> Iterator[Paused]:
    """paused(*args, at=...): `importer ARGS` stopped (SIGSTOP) at a batch boundary of its
    run. Children still alive at the end (a failed test) are killed."""
    started: list[subprocess.Popen[bytes]] = []

    def start(*args: str, at: str = "committed:2") -> subprocess.Popen[bytes]:
        env = {
            **cli_env,
            "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "10",
            "IMPORTER_TEST_PAUSE_AT": at,
        }
        child = subprocess.Popen(
            [*IMPORTER_CMD, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        started.append(child)
        wait_until_stopped(child)
        return child

    yield start
    for child in started:
        if child.poll() is None:
            kill_9(child)


def finish(child: subprocess.Popen[bytes], signum: int | None = None) -> tuple[int, str]:
    if signum is not None:
        os.kill(child.pid, signum)  # delivered when it continues
    os.kill(child.pid, signal.SIGCONT)
    _out, err = child.communicate(timeout=60)
    return child.returncode, err.decode(errors="replace")


def first_watch_line(cli_env: dict[str, str]) -> str:
    """The first summary line of `importer watch` writing to a pipe (not a terminal)."""
    with subprocess.Popen(
        [*IMPORTER_CMD, "watch", "--interval", "0.2"],
        env=cli_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as watch:
        try:
            assert watch.stdout is not None
            line = watch.stdout.readline().decode()
        finally:
            watch.terminate()  # SIGTERM: watch leaves quietly
            _out, err = watch.communicate(timeout=30)
    assert watch.returncode == 0, err
    return line


def test_a_foreground_submit_is_listed_while_it_runs(
    cli: Cli,
    paused: Paused,
    conn: Connection,
    orders: None,
    tmp_path: Path,
    cli_env: dict[str, str],
) -> None:
    book = orders_book(tmp_path / "orders.xlsx", 60)
    child = paused("submit", str(book.path), "--form", "orders")
    job = conn.execute("SELECT id, lease_owner FROM import_jobs").fetchone()
    assert job is not None
    [row] = processes(conn)
    assert (row["owner"], row["kind"], row["pid"]) == (job["lease_owner"], "submit", child.pid)

    stats = json.loads(cli("stats", "--json").stdout)
    assert (stats["running"], stats["live_foreground"], stats["live_workers"]) == (1, 1, 0)
    plain = cli("stats")
    assert plain.exit_code == 0, plain.stderr
    assert "live workers:    0\n" in plain.stdout and "live foreground: 1\n" in plain.stdout
    watch = cli("watch", "--once")
    assert watch.exit_code == 0, watch.stderr
    assert "live processes" in watch.stdout and f"{row['owner']}  submit" in watch.stdout
    assert "workers 0  schedulers 0  foreground 1" in watch.stdout
    assert "workers 0 schedulers 0 foreground 1" in first_watch_line(cli_env)

    code, err = finish(child)
    assert code == 3, err
    assert processes(conn) == []
    assert_exactly_once(conn, int(job["id"]), book)
    assert json.loads(cli("stats", "--json").stdout)["live_foreground"] == 0
    assert "live foreground: 0\n" in cli("stats").stdout


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_run_unregisters(
    cli: Cli, paused: Paused, conn: Connection, orders: None, tmp_path: Path, signum: int
) -> None:
    book = orders_book(tmp_path / "orders.xlsx", 60)
    child = paused("submit", str(book.path), "--form", "orders")
    assert [r["pid"] for r in processes(conn)] == [child.pid]
    code, err = finish(child, signum)
    assert code == 128 + signum, err
    assert "continue with: importer resume 1" in err
    assert processes(conn) == []

    # resume registers the same way, and a failed job (an error end) unregisters too.
    child = paused("resume", "1", at="committed:1")
    assert [(r["kind"], r["pid"]) for r in processes(conn)] == [("submit", child.pid)]
    code, err = finish(child)
    assert code == 3, err
    assert processes(conn) == []
    assert_exactly_once(conn, 1, book)


def test_a_failed_run_unregisters(
    cli: Cli, conn: Connection, orders: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IMPORTER_JOBS_IMPORT_MAX_ATTEMPTS", "1")
    book = orders_book(tmp_path / "orders.xlsx", 10)
    assert cli("submit", str(book.path), "--form", "orders", "--detach").exit_code == 0
    conn.execute("UPDATE import_files SET content = %s", (b"PK\x03\x04 broken",))
    result = cli("resume", "1")
    assert result.exit_code == 1 and "import job 1 failed" in result.stderr
    assert processes(conn) == []


def test_a_killed_run_leaves_a_row_that_stops_counting(
    cli: Cli, paused: Paused, conn: Connection, orders: None, tmp_path: Path
) -> None:
    """Like a worker killed outright: its row stays, but once silent it is neither counted
    nor shown; a later run registers itself beside it."""
    book = orders_book(tmp_path / "orders.xlsx", 60)
    child = paused("submit", str(book.path), "--form", "orders")
    dead = child.pid
    kill_9(child)
    assert [r["pid"] for r in processes(conn)] == [dead]
    conn.execute("UPDATE workers SET heartbeat_at = now() - interval '31 seconds'")
    assert json.loads(cli("stats", "--json").stdout)["live_foreground"] == 0
    watch = cli("watch", "--once")
    assert watch.exit_code == 0 and "live processes" not in watch.stdout

    resumed = paused("resume", "1", at="committed:1")
    assert sorted(r["pid"] for r in processes(conn)) == sorted([dead, resumed.pid])
    assert json.loads(cli("stats", "--json").stdout)["live_foreground"] == 1
    code, err = finish(resumed)
    assert code == 3, err
    assert [r["pid"] for r in processes(conn)] == [dead]
    assert_exactly_once(conn, 1, book)


def test_registration_heartbeats_and_comes_back_when_forgotten(
    conn: Connection, database_url: str
) -> None:
    owner = new_owner()
    with Registration(database_url, owner, ProcessKind.FOREGROUND, interval=0.05):
        [first] = processes(conn)  # registered before start() returns
        assert (first["owner"], first["kind"], first["pid"]) == (owner, "submit", os.getpid())
        wait_for(
            lambda: processes(conn)[0]["heartbeat_at"] > first["heartbeat_at"],
            what="a heartbeat",
        )
        conn.execute("DELETE FROM workers")  # e.g. forgotten after a long outage
        wait_for(lambda: processes(conn), what="registering again")
    assert processes(conn) == []
    time.sleep(0.2)  # nothing beats after stop()
    assert processes(conn) == []
