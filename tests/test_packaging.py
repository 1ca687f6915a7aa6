"""The SQL lives in the top-level sql/ folder and ships as importer.sql: the install these tests
run from finds every migration and query (tests/test_release.py checks the built wheel)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

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
