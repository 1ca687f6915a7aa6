"""A daemon started while its database is away (or full) waits for it instead of exiting."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import psycopg
import pytest

from importer.daemons.daemon import until_reachable
from importer.database.errors import translate
from importer.errors import DatabaseUnavailable, EmbeddedServerError


def test_until_reachable_retries_an_unavailable_database_on_the_backoff() -> None:
    answers: list[object] = [DatabaseUnavailable("full"), DatabaseUnavailable("full"), "db"]
    lines: list[str] = []
    slept: list[float] = []

    def attempt() -> str:
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return str(answer)

    assert until_reachable(attempt, lines.append, sleep=slept.append) == "db"
    assert lines == ["full; retrying in 0.5s", "full; retrying in 1s"]
    assert slept == [0.5, 1.0]


def test_a_stop_while_waiting_ends_the_wait() -> None:
    stop = threading.Event()

    def attempt() -> str:
        stop.set()  # SIGTERM arrives while the database is still away
        raise DatabaseUnavailable("away")

    assert until_reachable(attempt, lambda line: None, stop=stop) is None


def test_until_reachable_does_not_retry_what_waiting_cannot_fix() -> None:
    def attempt() -> str:
        raise EmbeddedServerError("initdb failed")

    with pytest.raises(EmbeddedServerError):
        until_reachable(attempt, lambda line: None, sleep=lambda s: None)


def test_a_server_whose_last_slots_are_reserved_is_full_too() -> None:
    refused = psycopg.OperationalError(
        'connection failed: connection to server on socket "/run/.s.PGSQL.5432" failed:\n'
        "FATAL:  remaining connection slots are reserved for roles with the SUPERUSER attribute"
    )
    assert str(translate(refused)) == "database refused a connection: too many clients"


@pytest.mark.slow
def test_a_worker_waiting_for_its_database_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("IMPORTER_")}
    env.update(
        IMPORTER_DATABASE_URL="postgresql://postgres@127.0.0.1:1/none", IMPORTER_HOME=str(tmp_path)
    )
    worker = subprocess.Popen(
        [sys.executable, "-m", "importer", "worker"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert worker.stdout is not None
    first = worker.stdout.readline()  # the first refusal: it is waiting, not exiting
    worker.send_signal(signal.SIGTERM)
    out, err = worker.communicate(timeout=30)
    assert "cannot reach PostgreSQL" in first and "retrying in 0.5s" in first
    assert worker.returncode == 0, err
    assert "stopped before the database answered" in out
    assert "Traceback" not in out + err
