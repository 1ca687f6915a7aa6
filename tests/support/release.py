"""The release as a user gets it: the sdist and the wheel built from the tracked sources (a
copy outside the work tree, built as a release is: sdist first, the wheel from it), the wheel
installed with its dependencies into an empty virtual environment, and the commands run from
there, in a folder of their own, so nothing of the work tree can stand in for what is missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent.parent
DISTRIBUTION = "pg_workbook_importer"
# Left out of the copy that is built when git cannot list the tracked files: local state.
NOT_SOURCES = shutil.ignore_patterns(
    ".git", ".venv", ".bench", ".*_cache", "__pycache__", "build", "dist", "*.egg-info"
)


def run_checked(
    *args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None
) -> str:
    done = subprocess.run(
        [str(arg) for arg in args], capture_output=True, text=True, timeout=900, cwd=cwd, env=env
    )
    assert done.returncode == 0, f"{args}:\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


def copy_sources(target: Path) -> Path:
    """What a clone holds: the tracked files (and any new ones not ignored), as they are now."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
    )
    if listed.returncode != 0:  # no git here: everything but local state
        shutil.copytree(ROOT, target, ignore=NOT_SOURCES)
        return target
    for name in listed.stdout.decode().split("\0"):
        source = ROOT / name
        if name and source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


@dataclass(frozen=True)
class Release:
    wheel: Path
    sdist: Path
    build_output: str

    def wheel_files(self) -> set[str]:
        with zipfile.ZipFile(self.wheel) as archive:
            return set(archive.namelist())


def build_release(workdir: Path) -> Release:
    """``python -m build`` of a copy of the sources: the sdist, then the wheel from it."""
    source = copy_sources(workdir / "source")
    dist = workdir / "dist"
    # Byte-compiling is part of a release's build (without it setuptools warns it skipped it).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    output = run_checked(
        sys.executable,
        "-m",
        "build",
        "--no-isolation",
        "--outdir",
        dist,
        source,
        cwd=workdir,
        env=env,
    )
    [wheel] = dist.glob(f"{DISTRIBUTION}-*.whl")
    [sdist] = dist.glob(f"{DISTRIBUTION}-*.tar.gz")
    return Release(wheel, sdist, output)


def package_modules(root: Path = ROOT) -> set[str]:
    """The files a wheel must ship, named as in it: every module of importer/, the web
    page's templates, script and style sheet, and every file of sql/ (as importer/sql/)."""
    found = {
        str(PurePosixPath("importer", *path.relative_to(root / "importer").parts))
        for path in (root / "importer").rglob("*")
        if "__pycache__" not in path.parts and path.suffix in (".py", ".html", ".js", ".css")
    }
    found |= {
        str(PurePosixPath("importer", "sql", *path.relative_to(root / "sql").parts))
        for path in (root / "sql").rglob("*")
        if path.is_file() and path.suffix in (".py", ".sql")
    }
    return found


@dataclass
class InstalledTool:
    """A virtual environment holding the wheel, and a folder to run its commands in."""

    venv: Path
    home: Path
    env: dict[str, str] = field(default_factory=dict)

    @property
    def command(self) -> Path:
        return self.venv / "bin" / "importer"

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    def run(
        self, *args: str | Path, extra_env: dict[str, str] | None = None, timeout: float = 300
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.command), *(str(arg) for arg in args)],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=self.home,
            env={**self.env, **(extra_env or {})},
            stdin=subprocess.DEVNULL,
        )

    def popen(self, *args: str | Path, extra_env: dict[str, str]) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [str(self.command), *(str(arg) for arg in args)],
            cwd=self.home,
            env={**self.env, **extra_env},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )


def install(wheel: Path, venv: Path) -> None:
    """An empty virtual environment, then the wheel with its dependencies from the index."""
    run_checked(sys.executable, "-m", "venv", venv)
    run_checked(venv / "bin" / "python", "-m", "pip", "install", "-q", wheel)


def clean_environment(database_url: str, home: Path) -> dict[str, str]:
    """This process's environment without any IMPORTER_* setting or Python path of the work
    tree: the installed tool sees the database it is given and nothing else."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("IMPORTER_", "PYTHON", "VIRTUAL_ENV")) and key != "DATABASE_URL"
    }
    env.update(IMPORTER_DATABASE_URL=database_url, IMPORTER_HOME=str(home / ".home"))
    env.update(NO_COLOR="1", COLUMNS="100")
    return env
