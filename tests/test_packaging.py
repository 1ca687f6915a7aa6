"""The SQL lives in the top-level sql/ folder and ships as importer.sql: the editable install
and a built wheel must both find it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import psycopg
import pytest

from importer.database import available_migrations
from importer.database.queries import _NAME, Queries

ROOT = Path(__file__).resolve().parent.parent
SQL = ROOT / "sql"
# Left out of the copy that is built: local state, not sources (and build output of its own).
NOT_SOURCES = shutil.ignore_patterns(
    ".git", ".venv", ".bench", ".*_cache", "__pycache__", "build", "dist", "*.egg-info"
)


def sql_files(kind: str) -> list[str]:
    return sorted(path.name for path in (SQL / kind).glob("*.sql"))


def run(*args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(arg) for arg in args], capture_output=True, text=True, timeout=600, cwd=cwd, env=env
    )
    assert done.returncode == 0, f"{args}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_installed_package_finds_every_migration_and_query() -> None:
    migrations = available_migrations()
    assert [f"{m.version:04d}_{m.name}.sql" for m in migrations] == sql_files("migrations")
    names = [
        match.group(1)
        for file in sql_files("queries")
        for match in _NAME.finditer((SQL / "queries" / file).read_text(encoding="utf-8"))
    ]
    queries = Queries()
    assert names and [name for name in names if name not in queries] == []


@pytest.mark.slow
def test_the_wheel_installs_in_an_empty_venv_and_migrates_an_empty_database(
    tmp_path: Path, empty_database_url: str
) -> None:
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCES)
    dist = tmp_path / "dist"
    run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "-q",
        "--no-deps",
        "--no-build-isolation",
        "-w",
        dist,
        source,
    )
    [wheel] = dist.glob("importer-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        shipped = set(archive.namelist())
    assert {f"importer/sql/migrations/{name}" for name in sql_files("migrations")} <= shipped
    assert {f"importer/sql/queries/{name}" for name in sql_files("queries")} <= shipped
    assert {"importer/py.typed", "importer-0.1.0.dist-info/licenses/LICENSE"} <= shipped

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv)
    run(venv / "bin" / "python", "-m", "pip", "install", "-q", wheel)  # dependencies too
    env = {k: v for k, v in os.environ.items() if not k.startswith("IMPORTER_")}
    env.pop("DATABASE_URL", None)
    env.update(
        IMPORTER_DATABASE_URL=empty_database_url,
        IMPORTER_HOME=str(tmp_path / "home"),
        NO_COLOR="1",
    )
    # The code that runs is the wheel's, not this work tree's.
    where = run(
        venv / "bin" / "python",
        "-c",
        "import importer; print(importer.__file__)",
        cwd=tmp_path,
        env=env,
    )
    assert Path(where.strip()).is_relative_to(venv)
    run(venv / "bin" / "importer", "db", "migrate", cwd=tmp_path, env=env)

    with psycopg.connect(empty_database_url) as conn:
        rows = conn.execute("SELECT version FROM schema_migrations ORDER BY version").fetchall()
    assert [version for (version,) in rows] == [m.version for m in available_migrations()]
