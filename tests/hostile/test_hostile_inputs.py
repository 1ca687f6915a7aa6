"""Every file of the hostile corpus (tests/hostile/generate.py) through the real CLI.

For each file, a real `importer submit` child process must:
- exit with the documented code (2 refused, 0/3 imported, 1 job failed);
- for a refused file, print exactly one line on stderr, never a traceback, and leave the
  database as it was (no job, no stored file, no row);
- for an imported file, store exactly the expected good rows in the form's table, reject
  exactly the bad ones, and store the listed values verbatim, typed as the fields say (and
  never the listed forbidden text as data);
- stay within the bounds below, measured by the kernel for that child (its VmHWM, see
  tests/chaos/procs.py): at most BOUND_SECONDS wall time and BOUND_RSS_MB peak resident
  memory, interpreter start-up included. A watchdog kills a child at twice the memory bound.
It ends by printing `bad inputs: N tried, N handled`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from importer.database import Connection, connect
from tests.chaos.procs import Measured, run_measured
from tests.hostile.generate import FORM_NAME, Case, generate
from tests.support.jobs import counts, json_rows

# The whole hostile corpus through real processes: the full suite only.
pytestmark = pytest.mark.slow

BOUND_SECONDS = 60.0
BOUND_RSS_MB = 1024.0


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Case]]:
    folder = tmp_path_factory.mktemp("hostile")
    return folder, generate(folder)


def _snapshot(conn: Connection) -> dict[str, int]:
    """Jobs, files, timers, rows in every form's table, and row errors."""
    row = conn.execute(
        "SELECT (SELECT coalesce(max(id), 0) FROM import_jobs) AS max_job,"
        " (SELECT count(*) FROM import_row_errors) AS errors"
    ).fetchone()
    assert row is not None
    return {**counts(conn), **{k: int(v) for k, v in row.items()}}


def _add_form(folder: Path, cli_env: dict[str, str], cwd: Path) -> None:
    form = run_measured(
        ["forms", "add", str(folder / "hostile.form.toml")],
        env=cli_env,
        cwd=cwd,
        timeout=BOUND_SECONDS,
        rss_limit_mb=2 * BOUND_RSS_MB,
    )
    assert form.exit_code == 0, form.stderr


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def _common(m: Measured) -> list[str]:
    problems = []
    if m.stopped_for:
        problems.append(f"killed by the watchdog ({m.stopped_for}) after {m.seconds:.1f} s")
    if m.exit_code < 0:
        problems.append(f"died of signal {-m.exit_code} (a crash, not a refusal)")
    if m.seconds > BOUND_SECONDS:
        problems.append(f"took {m.seconds:.1f} s (bound {BOUND_SECONDS:.0f} s)")
    if m.peak_rss_mb > BOUND_RSS_MB:
        problems.append(f"peak RSS {m.peak_rss_mb:.0f} MB (bound {BOUND_RSS_MB:.0f} MB)")
    if "Traceback" in m.stderr or "Traceback" in m.stdout or "panicked" in m.stderr:
        problems.append("printed a traceback")
    return problems


def _check_refused(m: Measured, before: dict[str, int], after: dict[str, int]) -> list[str]:
    problems = []
    if m.exit_code != 2:
        problems.append(f"exit {m.exit_code}, expected 2 (refused)")
    lines = _lines(m.stderr)
    if len(lines) != 1:
        problems.append(f"{len(lines)} lines on stderr, expected exactly one error line")
    if after != before:
        problems.append(f"database changed by a refused file: {before} -> {after}")
    return problems


def _stored(conn: Connection, job_id: int) -> dict[int, dict[str, Any]]:
    """row_number -> the job's typed values in the form's table, as JSON gives them (an
    integer column a number, a date its ISO text): a text "1" never equals the number 1."""
    return json_rows(conn, job_id)


def _check_job(conn: Connection, case: Case, m: Measured, job: dict[str, Any]) -> list[str]:
    problems = []
    # 3: some rows rejected; 4: every row rejected, nothing imported.
    want_code = (3 if case.good else 4) if case.bad else 0
    if m.exit_code != want_code:
        problems.append(f"exit {m.exit_code}, expected {want_code}: {_lines(m.stderr)[-1:]}")
    want_status = "partially_succeeded" if case.bad else "succeeded"
    if job["status"] != want_status:
        problems.append(f"job {job['status']} ({job['last_error']}), expected {want_status}")
    if (job["success_rows"], job["failed_rows"]) != (case.good, case.bad):
        problems.append(
            f"{job['success_rows']} good / {job['failed_rows']} bad, "
            f"expected {case.good} / {case.bad}"
        )
    stored = _stored(conn, job["id"])
    if len(stored) != case.good:
        problems.append(f"{len(stored)} rows in the form's table, expected {case.good}")
    rejected = conn.execute(
        "SELECT count(*) AS n FROM import_rejected_rows WHERE import_job_id = %s", (job["id"],)
    ).fetchone()
    if rejected is None or rejected["n"] != case.bad:
        problems.append(f"{rejected and rejected['n']} rejected rows, expected {case.bad}")
    for row_number, fields in case.verbatim.items():
        data = stored.get(row_number)
        if data is None:
            problems.append(f"row {row_number} not stored (stored rows: {sorted(stored)[:8]})")
            continue
        for name, value in fields.items():
            if data.get(name) != value:
                got = data.get(name)
                problems.append(
                    f"row {row_number} {name}: stored {_short(got)}, expected {_short(value)}"
                )
    if case.sheet is not None and job["sheet"] != case.sheet:
        problems.append(f"sheet stored as {job['sheet']!r}, expected {case.sheet!r}")
    if job["file_name"] != case.name:
        problems.append(f"file name stored as {job['file_name']!r}, expected {case.name!r}")
    problems += _check_absent(conn, case, job["id"])
    return problems


def _check_absent(conn: Connection, case: Case, job_id: int) -> list[str]:
    if not case.absent:
        return []
    # Imported data only: a rejected row keeps its original cells for the sender's fix.
    stored = " ".join(
        json.dumps(data, ensure_ascii=False) for data in json_rows(conn, job_id).values()
    )
    return [f"stored text contains {needle!r}" for needle in case.absent if needle in stored]


def _short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) < 80 else f"{text[:60]}... ({len(text)} chars)"


def _try(
    case: Case, folder: Path, url: str, env: dict[str, str], cwd: Path, extra: list[str]
) -> tuple[list[str], Measured]:
    args = ["submit", str(folder / case.name), "--form", FORM_NAME, *extra]
    if case.sheet is not None:
        args += ["--sheet", case.sheet]
    with connect(url, autocommit=True) as conn:
        before = _snapshot(conn)
        m = run_measured(
            args, env=env, cwd=cwd, timeout=BOUND_SECONDS, rss_limit_mb=2 * BOUND_RSS_MB
        )
        after = _snapshot(conn)
        problems = _common(m)
        new_jobs = conn.execute(
            "SELECT * FROM import_jobs WHERE id > %s ORDER BY id", (before["max_job"],)
        ).fetchall()
        if case.kind == "refused" or (case.kind == "refused_or_failed" and m.exit_code == 2):
            problems += _check_refused(m, before, after)
        elif case.kind == "refused_or_failed":
            if m.exit_code != 1 or len(new_jobs) != 1 or new_jobs[0]["status"] != "failed":
                problems.append(
                    f"exit {m.exit_code} with jobs {[j['status'] for j in new_jobs]}: "
                    "expected refused (2) or one failed job (1)"
                )
            else:
                job = new_jobs[0]
                stored = len(_stored(conn, job["id"]))
                if stored != job["success_rows"]:
                    problems.append(f"failed job kept {stored} rows, counter {job['success_rows']}")
        elif len(new_jobs) != 1:
            problems.append(
                f"exit {m.exit_code}, {len(new_jobs)} jobs created (expected 1): "
                f"{_lines(m.stderr)[-1:]}"
            )
        else:
            problems += _check_job(conn, case, m, new_jobs[0])
        survived = conn.execute(
            "SELECT to_regclass(%s) IS NOT NULL AS form, to_regclass('import_jobs') IS NOT NULL"
            " AS jobs",
            (f"forms.{FORM_NAME}",),
        ).fetchone()
        if survived != {"form": True, "jobs": True}:
            problems.append(f"a table was dropped (form's table, import_jobs): {survived}")
    if (cwd / "pwned").exists() or (folder / "pwned").exists():
        problems.append("a shell ran a value: the file 'pwned' exists")
    return problems, m


def test_hostile_inputs(
    corpus: tuple[Path, list[Case]],
    database_url: str,
    cli_env: dict[str, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder, cases = corpus
    _add_form(folder, cli_env, tmp_path)
    failures: dict[str, list[str]] = {}
    slowest = heaviest = (0.0, "")
    for case in cases:
        problems, m = _try(case, folder, database_url, cli_env, tmp_path, [])
        if problems:
            failures[case.name] = problems
        slowest = max(slowest, (m.seconds, case.name))
        heaviest = max(heaviest, (m.peak_rss_mb, case.name))
    handled = len(cases) - len(failures)
    with capsys.disabled():
        print(
            f"\nbad inputs: {len(cases)} tried, {handled} handled "
            f"(bounds {BOUND_SECONDS:.0f} s and {BOUND_RSS_MB:.0f} MB each; slowest "
            f"{slowest[0]:.1f} s {slowest[1]}, peak {heaviest[0]:.0f} MB {heaviest[1]})"
        )
        for name, problems in failures.items():
            print(f"  {name}: {'; '.join(problems)}")
    assert not failures, f"{len(failures)} of {len(cases)} hostile inputs mishandled: " + "; ".join(
        f"{name}: {problems[0]}" for name, problems in failures.items()
    )


ENGINE_CASES = [
    "control_characters.xlsx",
    "rtl_emoji.xlsx",
    "sql_metacharacters.xlsx",
    "formulas_without_cached_values.xlsx",
    "long_cell_32767.xlsx",
]


@pytest.mark.parametrize("engine", ["calamine", "openpyxl"])
def test_both_engines_store_hostile_values_verbatim(
    corpus: tuple[Path, list[Case]],
    database_url: str,
    cli_env: dict[str, str],
    tmp_path: Path,
    engine: str,
) -> None:
    """The engines must agree: one normalized value whichever reads the file."""
    folder, cases = corpus
    _add_form(folder, cli_env, tmp_path)
    failures = {}
    for case in cases:
        if case.name not in ENGINE_CASES:
            continue
        problems, _ = _try(case, folder, database_url, cli_env, tmp_path, ["--engine", engine])
        if problems:
            failures[case.name] = problems
    assert not failures, failures
