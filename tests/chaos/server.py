"""A dedicated embedded PostgreSQL per campaign, which the campaign may stop and restart.

Never the shared server: scenario 4 shuts it down (fast and immediate) under live workers.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import time
from pathlib import Path

import psutil
import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from importer.database.embedded import EmbeddedServer


class ChaosServer:
    def __init__(self, home: Path | None = None) -> None:
        self._owned_home = home is None
        self.home = Path(tempfile.mkdtemp(prefix="chaos-pg-")) if home is None else home
        self.server = EmbeddedServer(self.home)
        self.url = ""

    def start(self) -> str:
        self.url = self.server.ensure_running()
        return self.url

    def stop(self, mode: str) -> None:
        """pg_ctl stop -m fast|immediate (immediate: no checkpoint, crash recovery on start)."""
        self.server.stop(mode)

    def restart(self, mode: str, down_seconds: float) -> float:
        """Stop, stay down a while, start again; returns how long it was unreachable."""
        began = time.monotonic()
        self.stop(mode)
        time.sleep(down_seconds)
        self.start()
        return time.monotonic() - began

    def allow(self, hba_line: str) -> None:
        """Add a pg_hba.conf line (read at the next start or reload)."""
        hba = self.server.pgdata / "pg_hba.conf"
        text = hba.read_text()
        if hba_line not in text:
            hba.write_text(text.rstrip("\n") + "\n" + hba_line + "\n")

    def crash(self, down_seconds: float) -> float:
        """kill -9 of the server: the postmaster and every process of it at once (a crash,
        the OOM killer), down a while, start again (crash recovery); returns how long it was
        unreachable. Backends left alive would hold the shared memory the new postmaster
        needs, so none is."""
        began = time.monotonic()
        pid = int((self.server.pgdata / "postmaster.pid").read_text().split()[0])
        postmaster = psutil.Process(pid)
        everyone = [postmaster, *postmaster.children(recursive=True)]
        for proc in everyone:
            with contextlib.suppress(psutil.Error):
                proc.kill()
        psutil.wait_procs(everyone, timeout=10)
        time.sleep(down_seconds)
        self.start()
        return time.monotonic() - began

    def version(self) -> str:
        """ "PostgreSQL 18.1" (the server's version() up to its build details)."""
        with self.admin() as conn:
            row = conn.execute("SELECT version()").fetchone()
        return str(row[0]).split(" on ")[0] if row else "PostgreSQL (unknown version)"

    def admin(self) -> psycopg.Connection[tuple[object, ...]]:
        return psycopg.connect(self.url, autocommit=True, application_name="chaos")

    def create_database(self, name: str) -> str:
        with self.admin() as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return make_conninfo(self.url, dbname=name)

    def close(self) -> None:
        # A campaign's own server: its data goes with it (as root it lives outside the home).
        try:
            self.server.remove()
        finally:
            if self._owned_home:
                shutil.rmtree(self.home, ignore_errors=True)
