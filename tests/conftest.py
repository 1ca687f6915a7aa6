"""Shared fixtures: a real PostgreSQL for every test.

The server is IMPORTER_TEST_DATABASE_URL when set, else an embedded server started for this
run. The schema is built once into a template database; each test gets a fresh copy
(CREATE DATABASE ... TEMPLATE), dropped afterwards. Names are unique per run, so several
runs may share one server.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo

from importer.config import Settings
from importer.database import Connection, connect, migrate

if TYPE_CHECKING:
    from tests.support.release import Release

RUN_ID = uuid.uuid4().hex[:8]


def database_url_for(server_url: str, dbname: str) -> str:
    return make_conninfo(server_url, dbname=dbname)


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    url = os.environ.get("IMPORTER_TEST_DATABASE_URL")
    if url:
        yield url
        return
    from importer.database.embedded import EmbeddedServer

    # Not under pytest's base folder: pytest prunes old run folders (and resets their
    # modes), which would pull the data directory from under a server still in use.
    home = Path(tempfile.mkdtemp(prefix="importer-test-pg-"))
    server = EmbeddedServer(home)
    try:
        yield server.ensure_running()
    finally:
        server.remove()
        shutil.rmtree(home, ignore_errors=True)


def _admin(server_url: str) -> psycopg.Connection[tuple[object, ...]]:
    return psycopg.connect(server_url, autocommit=True)


@pytest.fixture(scope="session")
def template_db(server_url: str) -> Iterator[str]:
    name = f"importer_tpl_{RUN_ID}"
    with _admin(server_url) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    with connect(database_url_for(server_url, name)) as conn:
        migrate(conn)
    yield name
    with _admin(server_url) as admin:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


@pytest.fixture
def database_url(server_url: str, template_db: str) -> Iterator[str]:
    """A fresh database with the current schema, for this test alone."""
    name = f"importer_t_{RUN_ID}_{uuid.uuid4().hex[:8]}"
    with _admin(server_url) as admin:
        admin.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(template_db)
            )
        )
    yield database_url_for(server_url, name)
    with _admin(server_url) as admin:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


@pytest.fixture
def empty_database_url(server_url: str) -> Iterator[str]:
    """A fresh database with no schema at all."""
    name = f"importer_e_{RUN_ID}_{uuid.uuid4().hex[:8]}"
    with _admin(server_url) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    yield database_url_for(server_url, name)
    with _admin(server_url) as admin:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


@pytest.fixture
def conn(database_url: str) -> Iterator[Connection]:
    with connect(database_url, autocommit=True) as connection:
        yield connection


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    return Settings(database_url=database_url, home=tmp_path / "home")


@pytest.fixture
def cli_env(database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Environment for running `importer` (in-process or as a child) against this test's db."""
    for key in list(os.environ):
        # IMPORTER_TEST_COLUMNAR=1 runs the suite with every .xlsx sheet in columns.
        if (key.startswith("IMPORTER_") or key == "DATABASE_URL") and key != COLUMNAR_SWITCH:
            monkeypatch.delenv(key)
    monkeypatch.setenv("IMPORTER_DATABASE_URL", database_url)
    monkeypatch.setenv("IMPORTER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.chdir(tmp_path)
    return dict(os.environ)


@dataclass
class CliResult:
    exit_code: int
    stdout: str
    stderr: str


class Cli(Protocol):
    """The type of the `cli` fixture: the command line's words in, its exit code and output out."""

    def __call__(self, *args: str) -> CliResult: ...


@pytest.fixture
def cli(cli_env: dict[str, str], capsys: pytest.CaptureFixture[str]) -> Cli:
    """Run the real CLI in-process: cli("submit", "f.xlsx", "--form", "orders")."""
    from importer.cli import run

    def invoke(*args: str) -> CliResult:
        capsys.readouterr()
        code = run(list(args))
        out = capsys.readouterr()
        return CliResult(code, out.out, out.err)

    return invoke


@pytest.fixture(scope="session")
def release(tmp_path_factory: pytest.TempPathFactory) -> Release:
    """The sdist and the wheel, built once per run from a copy of the sources."""
    from tests.support.release import build_release

    return build_release(tmp_path_factory.mktemp("release"))


@pytest.fixture(scope="session")
def installed_venv(release: Release, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty virtual environment outside the work tree, the wheel installed into it."""
    from tests.support.release import install

    venv = tmp_path_factory.mktemp("installed") / "venv"
    install(release.wheel, venv)
    return venv


IMPORTER_CMD = [sys.executable, "-m", "importer"]
COLUMNAR_SWITCH = "IMPORTER_TEST_COLUMNAR"
