"""The CLI shell: --version, --help everywhere, one-line errors, exit codes."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest

from importer import __version__
from importer.cli import GC_THRESHOLDS
from importer.cli.app import app
from importer.database import available_migrations, connect, describe_target
from importer.database.embedded import EmbeddedServer
from importer.database.migrations import schema_version
from tests.conftest import IMPORTER_CMD, Cli


def _command_paths() -> list[list[str]]:
    import typer.main

    paths: list[list[str]] = []

    def walk(cmd: object, prefix: list[str]) -> None:
        paths.append(prefix)
        for name, sub in sorted(getattr(cmd, "commands", {}).items()):
            walk(sub, [*prefix, name])

    walk(typer.main.get_command(app), [])
    return paths


def test_version_names_the_schema_of_the_database_it_would_use(
    cli: Cli, database_url: str, empty_database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    latest = available_migrations()[-1].version
    result = cli("--version")
    assert result.exit_code == 0
    where = describe_target(database_url)
    assert result.stdout.splitlines() == [
        f"importer {__version__}",
        f"database: {where}, schema version {latest} (current)",
    ]
    monkeypatch.setenv("IMPORTER_DATABASE_URL", empty_database_url)
    result = cli("--version")
    assert result.stdout.splitlines()[1].endswith("no schema yet (the first command creates it)")
    with connect(empty_database_url) as conn:  # --version migrated nothing
        assert schema_version(conn) is None
    monkeypatch.setenv("IMPORTER_DATABASE_URL", "postgresql://u:secret@127.0.0.1:1/x")
    result = cli("--version")
    assert result.exit_code == 0 and "secret" not in result.stdout
    assert "127.0.0.1:1/x, not reachable (Connection refused)" in result.stdout


def test_version_starts_no_embedded_server(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("IMPORTER_DATABASE_URL")
    result = cli("--version")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1] == (
        "database: the embedded server, not running (the first command starts it);"
        " schema version unknown"
    )
    assert not EmbeddedServer(Path(os.environ["IMPORTER_HOME"])).info().exists


@pytest.mark.parametrize("path", _command_paths(), ids=lambda p: " ".join(p) or "root")
def test_every_command_has_help(cli: Cli, path: list[str]) -> None:
    result = cli(*path, "--help")
    assert result.exit_code == 0, result.stderr
    assert "Usage:" in result.stdout


def test_unknown_command_is_usage_error(cli: Cli) -> None:
    assert cli("frobnicate").exit_code == 2


def test_real_process_error_is_one_line_without_traceback(cli_env: dict[str, str]) -> None:
    env = dict(cli_env, IMPORTER_DATABASE_URL="postgresql://u:topsecret@127.0.0.1:1/x")
    done = subprocess.run(
        [*IMPORTER_CMD, "db", "migrate"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "topsecret" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "\x1b[" not in done.stderr  # NO_COLOR / not a terminal: plain text
    debug = subprocess.run(
        [*IMPORTER_CMD, "--debug", "db", "migrate"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" in debug.stderr and "topsecret" not in debug.stderr


def test_the_command_runs_with_the_collector_thresholds_for_imports() -> None:
    """A real `importer` process: main() sets them before the command runs."""
    probe = (
        "import gc, sys, importer.cli as cli\n"
        "cli.run = lambda started=None: print(gc.get_threshold()) or 0\n"
        "cli.main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == str(GC_THRESHOLDS)
    assert GC_THRESHOLDS[0] > gc.get_threshold()[0]  # not what a process starts with
