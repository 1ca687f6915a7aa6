"""The release is the product: the wheel, installed with its dependencies into an empty virtual
environment outside the work tree, runs what a user runs first. An editable install finds
every folder of the work tree whatever the packaging says, so it proves nothing here."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from email.parser import Parser
from pathlib import Path

import psycopg
import pyarrow.parquet as pq
import pytest
from openpyxl import load_workbook

from importer import __version__
from importer.cli.help import HELP
from importer.database import available_migrations
from sample_data.generate import big_form_text, write_big_xlsx, write_orders_xlsx
from tests.support.jobs import kill_9, wait_until_stopped
from tests.support.release import (
    ROOT,
    InstalledTool,
    Release,
    clean_environment,
    package_modules,
    run_checked,
)

pytestmark = pytest.mark.slow

SAMPLE = ROOT / "sample_data"
# A clean sheet the columnar path reads by default: its estimate under the row path's time
# (importer/columnar/choice.py: ~150,000 rows and more).
COLUMNAR_ROWS = 180_000


@pytest.fixture
def tool(installed_venv: Path, empty_database_url: str, tmp_path: Path) -> Iterator[InstalledTool]:
    """The installed command on a database with no schema yet, run in a folder of its own."""
    yield InstalledTool(installed_venv, tmp_path, clean_environment(empty_database_url, tmp_path))


def test_the_wheel_ships_every_module_and_builds_without_warnings(release: Release) -> None:
    shipped = release.wheel_files()
    missing = package_modules() - shipped
    assert not missing, f"left out of the wheel: {sorted(missing)}"
    assert "importer/py.typed" in shipped
    assert f"pg_workbook_importer-{__version__}.dist-info/licenses/LICENSE" in shipped
    warnings = [line for line in release.build_output.splitlines() if "warning" in line.lower()]
    assert warnings == []
    run_checked(sys.executable, "-m", "twine", "check", "--strict", release.wheel, release.sdist)


def test_the_metadata_names_the_tool_its_version_and_its_licence(release: Release) -> None:
    with zipfile.ZipFile(release.wheel) as archive:
        text = archive.read(f"pg_workbook_importer-{__version__}.dist-info/METADATA").decode()
    metadata = Parser().parsestr(text)
    assert metadata["Name"] == "pg-workbook-importer"
    assert metadata["Version"] == __version__
    assert metadata["License-Expression"] == "Apache-2.0"
    assert "PostgreSQL" in metadata["Summary"] and metadata["Keywords"]
    assert "Typing :: Typed" in metadata.get_all("Classifier", [])
    assert metadata["Description-Content-Type"] == "text/markdown"


def test_the_installed_tool_is_the_wheels_not_the_work_trees(tool: InstalledTool) -> None:
    where = subprocess.run(
        [tool.python, "-c", "import importer; print(importer.__file__)"],
        capture_output=True,
        text=True,
        cwd=tool.home,
        env=tool.env,
        timeout=60,
    ).stdout
    assert Path(where.strip()).is_relative_to(tool.venv)
    version = tool.run("--version")
    assert version.returncode == 0
    assert version.stdout.splitlines()[0] == f"importer {__version__}"
    assert "no schema yet" in version.stdout


def test_every_commands_help_runs_from_the_wheel(tool: InstalledTool) -> None:
    for command in ["", *HELP]:
        shown = tool.run(*command.split(), "--help")
        assert shown.returncode == 0 and "Usage:" in shown.stdout, (command, shown.stderr)


def test_a_users_first_import_from_the_wheel(tool: InstalledTool, empty_database_url: str) -> None:
    added = tool.run("forms", "add", SAMPLE / "orders.form.toml")
    assert added.returncode == 0, added.stderr
    assert "form 'orders' created" in added.stdout
    checked = tool.run("check", SAMPLE / "orders.xlsx")
    assert checked.returncode == 3, checked.stderr  # rows to fix, as submit says
    assert "nothing was stored" in checked.stdout
    submitted = tool.run("submit", SAMPLE / "orders.xlsx")
    assert submitted.returncode == 3, submitted.stderr
    assert "partially_succeeded" in submitted.stdout and "285" in submitted.stdout

    fix = tool.home / "rejected.xlsx"
    errors = tool.run("errors", "1", "-o", fix)
    assert errors.returncode == 0, errors.stderr
    assert load_workbook(fix, read_only=True).sheetnames[0] == "Orders"
    exported = tool.run("export", "orders", "-o", tool.home / "x.parquet")
    assert exported.returncode == 0, exported.stderr
    assert pq.read_table(tool.home / "x.parquet").num_rows == 285

    later = tool.home / "later.xlsx"
    write_orders_xlsx(later, 40)
    queued = tool.run("submit", later, "--detach")
    assert queued.returncode == 0, queued.stderr
    worked = tool.run("worker", "--once")
    assert worked.returncode == 0, worked.stderr
    timers = tool.run("timers", "--once")
    assert timers.returncode == 0, timers.stderr
    with psycopg.connect(empty_database_url) as conn:
        statuses = conn.execute("SELECT id, status FROM import_jobs ORDER BY id").fetchall()
        applied = conn.execute("SELECT max(version) FROM schema_migrations").fetchone()
    assert statuses[0][1] == "partially_succeeded"
    assert statuses[1][1] in ("succeeded", "partially_succeeded")  # the worker ran it
    assert applied == (available_migrations()[-1].version,)


def test_a_big_sheet_takes_the_columnar_path_from_the_wheel(tool: InstalledTool) -> None:
    form = tool.home / "big.form.toml"
    form.write_text(big_form_text(), encoding="utf-8")
    assert tool.run("forms", "add", form).returncode == 0
    book = tool.home / "big.xlsx"
    write_big_xlsx(book, COLUMNAR_ROWS)
    # -X importtime lists every module the run imports: the columnar path's own must be there.
    done = subprocess.run(
        [tool.python, "-X", "importtime", tool.command, "submit", book, "--form", "bench", "-q"],
        capture_output=True,
        text=True,
        cwd=tool.home,
        env=tool.env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "importer.columnar.sheet" in done.stderr and "fastexcel" in done.stderr
    status = tool.run("status", "1", "--json")
    assert f'"success_rows": {COLUMNAR_ROWS}' in status.stdout, status.stdout


def test_a_killed_import_resumes_from_the_wheel(
    tool: InstalledTool, empty_database_url: str
) -> None:
    assert tool.run("forms", "add", SAMPLE / "orders.form.toml").returncode == 0
    book = tool.home / "many.xlsx"
    write_orders_xlsx(book, 1_000)
    child = tool.popen(
        "submit",
        book,
        extra_env={
            "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "100",
            "IMPORTER_TEST_PAUSE_AT": "rows:400",
        },
    )
    wait_until_stopped(child)
    kill_9(child)
    with psycopg.connect(empty_database_url) as conn:
        before = conn.execute(
            "SELECT success_rows + failed_rows, status FROM import_jobs"
        ).fetchone()
    assert before is not None and 400 <= before[0] < 1_000 and before[1] == "running"
    resumed = tool.run("resume", "--json")
    assert resumed.returncode in (0, 3), resumed.stderr
    with psycopg.connect(empty_database_url) as conn:
        job = conn.execute(
            "SELECT status, success_rows, failed_rows, total_rows FROM import_jobs"
        ).fetchone()
        stored = conn.execute(
            "SELECT count(*), count(DISTINCT row_number) FROM forms.orders"
        ).fetchone()
    assert job is not None and job[3] == 1_000 and job[1] + job[2] == 1_000
    assert stored == (job[1], job[1])  # every good row once


def readme_block(heading: str) -> str:
    """The first ```sh block under a heading of the README, as a reader copies it."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split(f"\n{heading}\n", 1)[1]
    return section.split("```sh\n", 1)[1].split("```", 1)[0]


def test_the_readmes_first_import_runs_as_typed(
    installed_venv: Path, empty_database_url: str, tmp_path: Path
) -> None:
    """In a folder laid out as a clone after `make demo` (its .venv the installed wheel's),
    every line of the README's first import runs as written: no `command not found`."""
    (tmp_path / ".venv").symlink_to(installed_venv)
    shutil.copytree(SAMPLE, tmp_path / "sample_data", ignore=shutil.ignore_patterns("*.py"))
    block = readme_block("## A first import")
    script = "".join(
        f'{line}\necho "exit $?: {line.split("#")[0].strip()}"\n'
        for line in block.splitlines()
        if line.strip()
    )
    env = clean_environment(empty_database_url, tmp_path)
    done = subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300
    )
    assert "not found" not in done.stderr, done.stderr
    exits = [line for line in done.stdout.splitlines() if line.startswith("exit ")]
    assert exits == [
        "exit 0: . .venv/bin/activate",
        "exit 0: importer forms add sample_data/orders.form.toml",
        "exit 3: importer submit sample_data/orders.xlsx",
        "exit 0: importer errors 1 -o rejected.xlsx",
        "exit 0: importer resume",
    ], done.stdout + done.stderr
    assert load_workbook(tmp_path / "rejected.xlsx", read_only=True).sheetnames[0] == "Orders"
