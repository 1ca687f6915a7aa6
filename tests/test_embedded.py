"""The embedded server: started on first use, shared by concurrent processes, reused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from importer.database.embedded import EmbeddedServer

# Starts and stops real embedded servers: the full suite only.
pytestmark = pytest.mark.slow

START = (
    "import sys; from pathlib import Path; from importer.database.embedded import EmbeddedServer\n"
    "print(EmbeddedServer(Path(sys.argv[1])).ensure_running())\n"
)


def _postmaster_pid(home: Path) -> int:
    return int((home / "pgdata" / "postmaster.pid").read_text().splitlines()[0])


def test_two_processes_start_one_server_and_reuse_it(tmp_path: Path) -> None:
    home = tmp_path / "h"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", START, str(home)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=180) for p in procs]
    server = EmbeddedServer(home)
    try:
        assert all(p.returncode == 0 for p in procs), outs
        urls = {out.strip() for out, _ in outs}
        assert len(urls) == 1
        first_pid = _postmaster_pid(home)
        with psycopg.connect(urls.pop()) as conn:
            row = conn.execute("SELECT current_database()").fetchone()
        assert row == ("importer",)
        # a later process reuses the running server instead of starting another
        again = subprocess.run(
            [sys.executable, "-c", START, str(home)], capture_output=True, text=True, timeout=60
        )
        assert again.returncode == 0, again.stderr
        assert _postmaster_pid(home) == first_pid
    finally:
        server.stop()
    assert not server.stop()  # already stopped


def test_restarts_after_stop_with_data_kept(tmp_path: Path) -> None:
    server = EmbeddedServer(tmp_path / "h")
    try:
        with psycopg.connect(server.ensure_running(), autocommit=True) as conn:
            conn.execute("CREATE TABLE kept (x int)")
            conn.execute("INSERT INTO kept VALUES (42)")
        server.stop()
        with psycopg.connect(server.ensure_running()) as conn:
            assert conn.execute("SELECT x FROM kept").fetchone() == (42,)
    finally:
        server.stop()


def test_long_home_path_uses_short_socket_folder(tmp_path: Path) -> None:
    home = tmp_path / ("x" * 120)
    server = EmbeddedServer(home)
    assert len(str(server.socket_dir)) < 100
