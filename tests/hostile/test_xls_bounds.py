"""Bounded memory before any reader runs, for .xls: `forms infer`, `check` and `submit`, each a
real `importer` child process whose peak memory the kernel measures (tests/chaos/procs.py),
on every file of tests/hostile/xls_files.py.

The bound: no run exceeds the configured memory budget (reader.memory_budget_mb, 64 MB here,
for forms infer as for check and submit) by more than the reader's fixed cost: the peak of
the same command on a healthy .xls of the same size (the interpreter, the libraries, the
database driver, a read of 600 rows). A file refused is refused in one line, exit 2, and
creates no job and stores nothing; a file read imports its 600 rows. Before the safety
pass, directory_loop.xls and difat_loop.xls made calamine (xlrd refuses them, calamine was
the reader it fell back to) grow a buffer until the process died.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from importer.database import connect
from tests.chaos.procs import Measured, run_measured
from tests.hostile import xls_files
from tests.hostile.generate import FORM_NAME, FORM_TOML
from tests.support.jobs import counts

pytestmark = pytest.mark.slow  # about 50 child processes

BUDGET_MB = 64
WATCHDOG_MB = 2048  # a run past it is killed: it fails the test, never the machine
COMMANDS = ("forms infer", "check", "submit")


def _args(command: str, path: Path) -> list[str]:
    if command == "forms infer":
        return ["forms", "infer", str(path)]
    return [command, str(path), "--form", FORM_NAME]


def _budget(command: str) -> float:
    del command  # every command reads within the configured budget
    return BUDGET_MB


class Runs:
    """The commands against this test's database, with the budget configured."""

    def __init__(self, env: dict[str, str], folder: Path, url: str) -> None:
        self.env = {**env, "IMPORTER_READER_MEMORY_BUDGET_MB": str(BUDGET_MB)}
        self.folder, self.url = folder, url
        (folder / "hostile.form.toml").write_text(FORM_TOML, encoding="utf-8")
        added = self.run(["forms", "add", str(folder / "hostile.form.toml")])
        assert added.exit_code == 0, added.stderr
        self.fixed = {c: self.measure(c, "healthy.xls", xls_files.healthy()[0]) for c in COMMANDS}
        assert all(m.exit_code in (0, 3) for m in self.fixed.values()), self.fixed
        self.base = self.stored()  # the healthy file's job and rows

    def run(self, args: list[str]) -> Measured:
        return run_measured(
            args, env=self.env, cwd=self.folder, timeout=120, rss_limit_mb=WATCHDOG_MB
        )

    def measure(self, command: str, name: str, data: bytes) -> Measured:
        path = self.folder / name
        path.write_bytes(data)
        return self.run(_args(command, path))

    def problems(self, command: str, m: Measured) -> list[str]:
        """What breaks the bound, or the one-line rule, in any run."""
        out = []
        bound = _budget(command) + self.fixed[command].peak_rss_mb
        if m.stopped_for or m.exit_code < 0:
            out.append(f"killed ({m.stopped_for or -m.exit_code}) at {m.peak_rss_mb:.0f} MB")
        if m.peak_rss_mb > bound:
            out.append(f"peak {m.peak_rss_mb:.0f} MB, over {bound:.0f} MB")
        if "Traceback" in m.stderr or "panicked" in m.stderr:
            out.append("printed a traceback")
        return out

    def stored(self) -> dict[str, int]:
        with connect(self.url, autocommit=True) as conn:
            return counts(conn)


@pytest.fixture
def runs(cli_env: dict[str, str], database_url: str, tmp_path: Path) -> Runs:
    return Runs(cli_env, tmp_path, database_url)


def test_every_file_whose_sizes_lie_is_refused_in_one_line_within_the_budget(runs: Runs) -> None:
    failures: dict[str, list[str]] = {}
    for name, (build, message) in xls_files.REFUSED.items():
        data = build()
        for command in COMMANDS:
            before = runs.stored()
            m = runs.measure(command, name, data)
            problems = runs.problems(command, m)
            lines = [line for line in m.stderr.splitlines() if line.strip()]
            if m.exit_code != 2 or len(lines) != 1 or message not in lines[0]:
                problems.append(f"exit {m.exit_code}: {lines[-3:]}")
            if runs.stored() != before:
                problems.append("a refused file changed the database")
            if problems:
                failures[f"{command} {name}"] = problems
    assert not failures, failures


def test_files_whose_sizes_lie_but_hold_their_rows_are_read_within_the_budget(
    runs: Runs,
) -> None:
    failures: dict[str, list[str]] = {}
    for name, build in xls_files.READ.items():
        data = build()
        for command in COMMANDS:
            m = runs.measure(command, name, data)
            problems = runs.problems(command, m)
            if m.exit_code != 0:
                problems.append(f"exit {m.exit_code}: {m.stderr.splitlines()[-3:]}")
            elif command == "forms infer" and 'header = "Qty"' not in m.stdout:
                problems.append("no form proposed")
            if problems:
                failures[f"{command} {name}"] = problems
    assert not failures, failures
    assert runs.stored()["rows"] == runs.base["rows"] + xls_files.ROWS * len(xls_files.READ)


def test_a_sheet_xlrd_would_lay_out_past_the_budget_is_refused_by_the_budget(
    runs: Runs,
) -> None:
    """A blank cell in column IV of each of 65,536 rows (a 690 KB file): xlrd lays every row
    out 256 columns wide, about 230 MB; refused under a budget of 64 MB by every command."""
    data = xls_files.wide_rows(65536)
    for command in COMMANDS:
        m = runs.measure(command, "wide.xls", data)
        assert runs.problems(command, m) == [], m
        assert m.exit_code == 2 and "sheet 'Sheet1' reaches column IV over 65,536 rows" in (
            m.stderr
        ), m.stderr
    assert runs.stored() == runs.base
