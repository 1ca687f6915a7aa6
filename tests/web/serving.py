"""`importer serve` as a real process on a free loopback port against a test's database: what
the browser tests, the progress streams and the crash tests start (and kill)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def environment(database_url: str, home: Path, **extra: str) -> dict[str, str]:
    """This process's environment without its IMPORTER_ settings, pointed at the database
    (``extra``: more variables, such as IMPORTER_TEST_PAUSE_AT)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("IMPORTER_") and key != "DATABASE_URL"
    }
    return {**env, "IMPORTER_DATABASE_URL": database_url, "IMPORTER_HOME": str(home), **extra}


def start_serve(env: dict[str, str], port: int, *, worker: bool = False) -> subprocess.Popen[bytes]:
    """`importer serve` on ``port`` (``worker``: with its embedded worker), its output piped
    (stdout and stderr together), in a process group of its own."""
    return subprocess.Popen(
        [sys.executable, "-m", "importer", "serve", "--port", str(port)]
        + ([] if worker else ["--no-worker"]),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def wait_for_answer(url: str, process: subprocess.Popen[Any]) -> None:
    """Until the server answers (an AssertionError if it ended or took over a minute)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"importer serve ended: {process.communicate()[0]!r}")
        try:
            httpx.get(f"{url}/signin", timeout=2)
            return
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError("importer serve did not answer within a minute")


def events_of(lines: Iterator[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The (name, data) of each server-sent event in a stream's lines, as they arrive."""
    kind, data = "message", ""
    for line in lines:
        if line == "":
            if data:
                yield kind, json.loads(data)
            kind, data = "message", ""
        elif line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("data:"):
            data += line[5:].strip()
