"""History benchmark: what keeping the overwritten values (for `undo` and `history`) costs a
keyed re-import where every row changes, on the wall clock of the command as typed.

The 200,000 x 10 Excel-like workbook of bench.imports into a form keyed on its order id:
imported once, then, repeatedly and interleaved (best of N), every stored row is changed
in SQL and the same workbook is submitted again (`--force`), so each of its rows updates
one: once as the tool runs, once with the history turned off (a knob only this bench uses).
The target: the re-import with history at <= 1.10x the time of the one without.

Run alone: ``python -m bench.history [--rows N] [--repeats N]``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

import psycopg

from bench import workbooks
from bench.imports import IMPORTER, Run, best, line, ratio, target, timed
from bench.scratch import scratch_database

ROWS = 200_000
REPEATS = 4
HISTORY_VS_NONE = 1.10

NAME = "bench_keyed"
FORM = workbooks.FORM.replace(workbooks.FORM_NAME, NAME, 1).replace(
    f'name = "{NAME}"', f'name = "{NAME}"\nkey = ["order_id"]', 1
)
assert "key = " in FORM


def run(
    report: Callable[[str], None] | None = None, *, rows: int = ROWS, repeats: int = REPEATS
) -> bool:
    from importer.config import load_settings
    from importer.database import connect, resolve_url
    from importer.forms.definition import parse_form_text
    from importer.repositories.forms import save_form

    say = report or (lambda text: print(text, flush=True))
    path = workbooks.excel_like(rows)
    say(
        f"history: {rows:,} x 10 Excel-like workbook re-imported into a keyed form, every"
        f" stored row changed before each run; with and without history, best of {repeats}"
    )
    with scratch_database(resolve_url(load_settings()), "history") as url:
        with connect(url, autocommit=True) as conn:
            save_form(conn, parse_form_text(FORM))
        env = {**os.environ, "IMPORTER_DATABASE_URL": url, "NO_COLOR": "1"}
        command = [*IMPORTER, "submit", str(path), "--form", NAME, "--force", "--quiet"]
        first = timed(command, env)
        if first.code not in (0, 3):
            raise RuntimeError(f"bench: the first import exited {first.code}: {first.output}")
        cases = {"with history": env, "without": {**env, "IMPORTER_TEST_WITHOUT_HISTORY": "1"}}
        runs: dict[str, list[Run]] = {}
        kept = 0
        for repeat in range(repeats):
            # Alternating which goes first: a checkpoint or autovacuum falls on either alike.
            order = list(cases.items())
            for name, case_env in order if repeat % 2 == 0 else order[::-1]:
                with psycopg.connect(url, autocommit=True) as raw:
                    raw.execute(f"UPDATE forms.{NAME} SET amount = amount + 1")
                    raw.execute(f"TRUNCATE form_history.{NAME}, import_job_replacements")
                    raw.execute(f"VACUUM ANALYZE forms.{NAME}")
                result = timed(command, case_env)
                if result.code not in (0, 3):
                    raise RuntimeError(f"bench: {name} exited {result.code}: {result.output}")
                runs.setdefault(name, []).append(result)
                if name == "with history":
                    with psycopg.connect(url) as raw:
                        found = raw.execute(f"SELECT count(*) FROM form_history.{NAME}")
                        counted = found.fetchone()
                        kept = int(counted[0]) if counted else 0
    with_history, without = best(runs["with history"]), best(runs["without"])
    say(line("importer submit, keyed re-import, history kept", rows, with_history))
    say(line("importer submit, keyed re-import, no history", rows, without))
    cost = with_history.seconds / without.seconds
    say(ratio("    with vs without history (time)", cost))
    say(f"    the history kept {kept:,} earlier versions per re-import")
    checks = [
        target("history: re-import time with vs without", cost, "<=", HISTORY_VS_NONE),
        target("history: versions kept per re-import", kept, ">=", rows * 0.9),
    ]
    for name, value, goal, met in checks:
        say(f"  {name:<50} {value:>10.2f}   target {goal:<8} {'ok' if met else 'MISSED'}")
    return all(met for *_, met in checks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.history")
    parser.add_argument("--rows", type=int, default=ROWS)
    parser.add_argument("--repeats", type=int, default=REPEATS)
    options = parser.parse_args(argv)
    return 0 if run(rows=options.rows, repeats=options.repeats) else 1


if __name__ == "__main__":
    sys.exit(main())
