"""Corrections benchmark: a 100,000-row import with 5% rejected rows, all of them fixed in its
error workbook and sent back, against a plain import of the same fixed rows.

The Excel-like workbook of bench.imports (about 5% of its rows flawed, one flaw each) is
imported once; its error workbook (`importer errors JOB -o`) is fixed as a sender would, in
openpyxl (every flawed cell given a valid value, the file saved again), then submitted,
repeatedly and interleaved (best of N), as the correction it is (`importer submit fix.xlsx`)
and as a new import of the same rows (`--as-new`), each undone after its run so that every
run starts alike (undoing the correction opens its rows again). Both are timed on the wall
clock of the command as typed, and on the job's own run (started to finished, in the
database). The target: the correction's rows/s at >= 0.9x the plain import's, on the
command's clock.

Run alone: ``python -m bench.corrections [--rows N] [--repeats N]``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path

import psycopg

from bench import workbooks
from bench.imports import IMPORTER, Run, best, line, ratio, target, timed
from bench.scratch import scratch_database

ROWS = 100_000
REPEATS = 5
CORRECTION_VS_PLAIN = 0.9  # rows/s, at least


def fix_error_workbook(path: Path) -> int:
    """Every rejected row of the error workbook given valid values where the bench's
    workbook puts its flaws (email, date, ZIP, amount, status, paid); the rows fixed."""
    import openpyxl

    book = openpyxl.load_workbook(path)
    sheet = book.worksheets[0]
    header = [cell.value for cell in sheet[1]]
    at = {name: header.index(name) for name in workbooks.HEADER[:9]}
    fixed = 0
    for row in sheet.iter_rows(min_row=2):
        order = row[at["Order ID"]].value
        row[at["Email"]].value = f"buyer{order}@example.com"
        row[at["Order Date"]].value = date(2024, 6, 1)
        row[at["ZIP"]].value = "02134"
        amount = row[at["Amount"]].value
        row[at["Amount"]].value = abs(amount) if isinstance(amount, int | float) else 10.0
        row[at["Status"]].value = "paid"
        row[at["Paid"]].value = True
        fixed += 1
    book.save(path)
    return fixed


def _job_seconds(url: str, job_id: int) -> float:
    with psycopg.connect(url) as raw:
        found = raw.execute(
            "SELECT extract(epoch FROM finished_at - started_at)::float8 FROM import_jobs"
            " WHERE id = %s",
            (job_id,),
        ).fetchone()
    return float(found[0]) if found and found[0] is not None else float("nan")


def _newest(url: str) -> tuple[int, int | None, int, int]:
    with psycopg.connect(url) as raw:
        found = raw.execute(
            "SELECT id, origin_job_id, success_rows, failed_rows FROM import_jobs"
            " ORDER BY id DESC LIMIT 1"
        ).fetchone()
    assert found is not None
    return int(found[0]), found[1], int(found[2]), int(found[3])


def run(
    report: Callable[[str], None] | None = None, *, rows: int = ROWS, repeats: int = REPEATS
) -> bool:
    from importer.config import load_settings
    from importer.database import connect, resolve_url
    from importer.forms.definition import parse_form_text
    from importer.repositories.forms import save_form

    say = report or (lambda text: print(text, flush=True))
    source = workbooks.excel_like(rows)
    say(
        f"corrections: a {rows:,}-row Excel-like import, its rejected rows fixed in its error"
        f" workbook and sent back; as a correction and as a new import, best of {repeats}"
    )
    with scratch_database(resolve_url(load_settings()), "corrections") as url:
        with connect(url, autocommit=True) as conn:
            save_form(conn, parse_form_text(workbooks.FORM))
        env = {**os.environ, "IMPORTER_DATABASE_URL": url, "NO_COLOR": "1"}
        name = workbooks.FORM_NAME
        first = timed([*IMPORTER, "submit", str(source), "--form", name, "--quiet"], env)
        if first.code != 3:
            raise RuntimeError(f"bench: the import exited {first.code}: {first.output}")
        origin, _, _, rejected = _newest(url)
        fix = workbooks.CACHE / f"corrections-{rows}-fix.xlsx"
        errors = timed([*IMPORTER, "errors", str(origin), "-o", str(fix)], env)
        if errors.code != 0:
            raise RuntimeError(f"bench: errors -o exited {errors.code}: {errors.output}")
        fixed = fix_error_workbook(fix)
        cases = {
            "correction": [*IMPORTER, "submit", str(fix), "--quiet"],
            "plain import": [*IMPORTER, "submit", str(fix), "--as-new", "--form", name, "-q"],
        }
        runs: dict[str, list[Run]] = {}
        job_runs: dict[str, list[float]] = {}
        for repeat in range(repeats):
            order = list(cases.items())
            for case, command in order if repeat % 2 == 0 else order[::-1]:
                result = timed(command, env)
                job, corrects, good, bad = _newest(url)
                if result.code != 0 or good != fixed or bad:
                    raise RuntimeError(f"bench: {case} exited {result.code}: {result.output}")
                if (corrects == origin) != (case == "correction"):
                    raise RuntimeError(f"bench: {case} ran as job {job}, corrects {corrects}")
                runs.setdefault(case, []).append(result)
                job_runs.setdefault(case, []).append(_job_seconds(url, job))
                undone = timed([*IMPORTER, "undo", str(job)], env)
                if undone.code != 0:
                    raise RuntimeError(f"bench: undo {job} exited {undone.code}: {undone.output}")
    correction, plain = best(runs["correction"]), best(runs["plain import"])
    say(f"    the import: {rows:,} rows, {rejected:,} rejected; {fixed:,} fixed and sent back")
    say(line("importer submit fix.xlsx (a correction)", fixed, correction))
    say(line("importer submit fix.xlsx --as-new (a new import)", fixed, plain))
    command_ratio = plain.seconds / correction.seconds
    job_ratio = min(job_runs["plain import"]) / min(job_runs["correction"])
    say(ratio("    correction vs plain import (rows/s, command)", command_ratio))
    say(
        ratio(
            f"    correction vs plain import (rows/s, the job's run:"
            f" {min(job_runs['correction']):.2f} s, {min(job_runs['plain import']):.2f} s)",
            job_ratio,
        )
    )
    checks = [
        target("corrections: rows/s vs a plain import", command_ratio, ">=", CORRECTION_VS_PLAIN),
        target("corrections: rows fixed and sent back", fixed, ">=", rejected),
    ]
    for check, value, goal, met in checks:
        say(f"  {check:<50} {value:>10.2f}   target {goal:<8} {'ok' if met else 'MISSED'}")
    return all(met for *_, met in checks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.corrections")
    parser.add_argument("--rows", type=int, default=ROWS)
    parser.add_argument("--repeats", type=int, default=REPEATS)
    options = parser.parse_args(argv)
    return 0 if run(rows=options.rows, repeats=options.repeats) else 1


if __name__ == "__main__":
    sys.exit(main())
