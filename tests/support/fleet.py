"""Helpers for the fleet tests: real `importer` child processes and polling the database."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from importer.database import Connection
from importer.repositories import jobs
from tests.conftest import IMPORTER_CMD

T = TypeVar("T")

# Start-up delays and leases short enough for tests; the values are read by the child.
FAST_ENV = {
    "IMPORTER_JOBS_TIMER_STARTUP_DELAY_SECONDS": "0.01",
    "IMPORTER_JOBS_TIMER_POLL_INTERVAL_SECONDS": "0.5",
    "IMPORTER_JOBS_RETRY_DELAYS_SECONDS": "0.05",
    "IMPORTER_JOBS_IMPORT_STARTUP_DELAY_SECONDS": "0.01",
    "IMPORTER_JOBS_IMPORT_POLL_INTERVAL_SECONDS": "0.5",
}

# Every update of an import job is logged: a timer's effect is one such update.
EFFECT_LOG_SQL = """
CREATE TABLE test_job_updates (
    job_id bigint NOT NULL,
    status text NOT NULL,
    available_at timestamptz,
    at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE FUNCTION test_log_job_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO test_job_updates (job_id, status, available_at)
    VALUES (NEW.id, NEW.status, NEW.available_at);
    RETURN NEW;
END $$;
CREATE TRIGGER test_log_job_update AFTER UPDATE ON import_jobs
    FOR EACH ROW EXECUTE FUNCTION test_log_job_update();
"""


def wait_for(
    probe: Callable[[], T | None], *, timeout: float = 30.0, every: float = 0.05, what: str = ""
) -> T:
    """Poll until probe() returns something truthy; fail the test after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or probe}")
        time.sleep(every)


class Child:
    """A real `importer ...` process; output goes to a file for the failure message."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path) -> None:
        self.log = log
        self._out = log.open("wb")
        self.proc = subprocess.Popen(
            [*IMPORTER_CMD, *args], env=env, stdout=self._out, stderr=subprocess.STDOUT
        )

    @property
    def pid(self) -> int:
        return self.proc.pid

    def signal(self, signum: int) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signum)

    def wait(self, timeout: float = 60.0) -> int:
        try:
            return self.proc.wait(timeout)
        finally:
            self._out.flush()

    def output(self) -> str:
        self._out.flush()
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self._out.close()


@contextmanager
def children(env: dict[str, str], folder: Path) -> Iterator[Callable[..., Child]]:
    """Start children with start(*args, extra_env=...); all are killed at the end."""
    started: list[Child] = []

    def start(*args: str, extra_env: dict[str, str] | None = None) -> Child:
        child_env = {**env, **FAST_ENV, **(extra_env or {})}
        child = Child(list(args), child_env, folder / f"child-{len(started)}.log")
        started.append(child)
        return child

    try:
        yield start
    finally:
        for child in started:
            child.kill()


def waiting_job(conn: Connection, name: str) -> int:
    """An import job waiting on a timer (pending, available_at NULL)."""
    sha = jobs.store_file(conn, name.encode())
    new = jobs.NewJob(
        form="orders",
        form_version=1,
        file=sha,
        file_name=f"{name}.xlsx",
        sheet="Sheet1",
        engine="auto",
        header=["a"],
        total_rows=1,
        max_attempts=3,
    )
    job, created = jobs.create_job(conn, new, waiting=True)
    assert created
    return job.id
