"""One labelled sheet through the real CLI, as a new user would, and what the database kept.

`importer forms infer FILE --sheet S -o FORM.toml`, `importer forms add FORM.toml`, then
`importer submit FILE --form NAME --sheet S --json`: each a child process (run.py's
steps). Then the job as the database holds it: the header rows it used
(`import_jobs.sheet_layout`; none: the first row with values, alone), the Excel rows stored
(`row_number` of the form's table, `forms.NAME`), the rows rejected
(`import_rejected_rows`, `import_row_errors`), and the rows the job said it did not read
(its `rows_not_read`, from submit's JSON).
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo
from psycopg.rows import dict_row

from tests.chaos.procs import Measured
from tests.corpus.labelled.labels import Label
from tests.corpus.run import HEADER_MATCHING, NO_ROWS, Step, error_line

# Refusals of submit that come from the tool's own proposal (the form infer wrote for this
# very sheet): its header matching, or more than one row fitting the form.
AMBIGUOUS = (*HEADER_MATCHING, "more than one row could be the header")

Db = psycopg.Connection[dict[str, Any]]


@dataclass(frozen=True)
class Observed:
    """What the tool did with one sheet."""

    outcome: str  # "imported" | "refused" | "own refusal" | "broken"
    reason: str = ""  # the refusal's or the breakage's line
    header: tuple[int, int] | None = None  # first..last Excel row of the header it used
    stored: frozenset[int] = frozenset()
    rejected: frozenset[int] = frozenset()
    not_read: tuple[tuple[int, int], ...] = ()  # spans the job said it did not read
    counts: dict[str, int] = field(default_factory=dict)  # the job's total/success/failed
    seconds: float = 0.0


@contextmanager
def scratch_database(server_url: str) -> Iterator[str]:
    """A new, empty database on the server (the CLI builds its schema), dropped after."""
    name = f"importer_labelled_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield make_conninfo(server_url, dbname=name)
    finally:
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


def cli_environment(database_url: str, home: Path) -> dict[str, str]:
    """This process's environment for `importer` children, pointed at the database."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("IMPORTER_") and k != "DATABASE_URL"
    }
    env.update(IMPORTER_DATABASE_URL=database_url, IMPORTER_HOME=str(home), NO_COLOR="1")
    return env


def _broken(run: Measured, step: str) -> str | None:
    if run.stopped_for is not None:
        return f"{step}: stopped for {run.stopped_for}"
    if "Traceback" in run.stderr or run.exit_code < 0:
        return f"{step}: crashed ({error_line(run)[:160]})"
    return None


def _refusal(submit: Measured) -> Observed:
    line = error_line(submit)
    if NO_ROWS in line:
        return Observed("refused", line)
    if any(marker in line for marker in AMBIGUOUS):
        return Observed("own refusal", f"submit: {line}")
    return Observed("own refusal", f"infer accepted it, submit refused it: {line}")


def run_sheet(label: Label, index: int, step: Step, folder: Path, db: Db) -> Observed:
    """infer -> add -> submit for one labelled sheet, then what the database kept."""
    name = f"labelled_{index}"
    form = folder / f"{name}.form.toml"
    path, sheet = str(label.path), label.sheet
    runs = [step("forms", "infer", path, "--sheet", sheet, "--name", name, "-o", str(form))]
    if (broken := _broken(runs[-1], "infer")) is not None or runs[-1].exit_code not in (0, 2):
        return Observed("broken", broken or f"infer: exit {runs[-1].exit_code}")
    if runs[-1].exit_code == 2:
        return Observed("refused", f"infer: {error_line(runs[-1])}", seconds=runs[-1].seconds)
    runs.append(step("forms", "add", str(form)))
    if (broken := _broken(runs[-1], "forms add")) is not None:
        return Observed("broken", broken)
    if runs[-1].exit_code != 0:
        return Observed(
            "own refusal", f"forms add refused the proposed form: {error_line(runs[-1])}"
        )
    runs.append(step("submit", path, "--form", name, "--sheet", sheet, "--json", "--quiet"))
    submit, seconds = runs[-1], sum(r.seconds for r in runs)
    if (broken := _broken(submit, "submit")) is not None or submit.exit_code not in (0, 2, 3, 4):
        return Observed("broken", broken or f"submit: exit {submit.exit_code} {error_line(submit)}")
    if submit.exit_code == 2:
        refused = _refusal(submit)
        return Observed(refused.outcome, refused.reason, seconds=seconds)
    job = json.loads(submit.stdout)
    return _observe(db, name, job, label, seconds)


def _observe(db: Db, form: str, job: dict[str, Any], label: Label, seconds: float) -> Observed:
    job_id = int(job["id"])
    layout = db.execute(
        "SELECT sheet_layout FROM import_jobs WHERE id = %s", (job_id,)
    ).fetchone() or {"sheet_layout": None}
    where = layout["sheet_layout"]
    if where is None:  # the first row with values, alone
        header = (label.first_row, label.first_row)
    else:
        header = (int(where["row"]), int(where["row"]) + int(where["rows"]) - 1)
    table = sql.Identifier("forms", form)
    stored = db.execute(
        sql.SQL("SELECT row_number FROM {} WHERE import_job_id = %s").format(table), (job_id,)
    ).fetchall()
    rejected = db.execute(
        "SELECT row_number FROM import_rejected_rows WHERE import_job_id = %s"
        " UNION SELECT row_number FROM import_row_errors WHERE import_job_id = %s",
        (job_id, job_id),
    ).fetchall()
    not_read = tuple(
        (int(entry["first"]), int(entry["last"])) for entry in job.get("rows_not_read") or ()
    )
    counts = {k: int(job.get(k) or 0) for k in ("total_rows", "success_rows", "failed_rows")}
    return Observed(
        "imported",
        str(job.get("status", "")),
        header,
        frozenset(int(r["row_number"]) for r in stored),
        frozenset(int(r["row_number"]) for r in rejected),
        not_read,
        counts,
        seconds,
    )


@contextmanager
def connected(database_url: str) -> Iterator[Db]:
    with psycopg.connect(database_url, autocommit=True, row_factory=dict_row) as conn:
        yield conn
