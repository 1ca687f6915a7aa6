"""Business rules benchmark: what a form's rules cost on the wall clock a user waits for.

The 200,000 x 10 Excel-like workbook of bench.imports, imported twice, interleaved, best of
N: by the plain form, and by the same form with 2 row rules, 1 lookup (its "Customer No"
matched against a 100,000-row customers table, the id stored) and 1 computed field. The
target: the form with rules at >= 0.8x the speed of the plain one.

Run alone: ``python -m bench.rules [--rows N] [--repeats N]``.
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
REPEATS = 3
CUSTOMERS = 100_000
RULES_VS_PLAIN = 0.8

PLAIN_NAME = "bench_plain"
RULES_NAME = "bench_rules"
PLAIN_FORM = workbooks.FORM.replace(workbooks.FORM_NAME, PLAIN_NAME, 1)
RULES_FORM = (
    workbooks.FORM.replace(workbooks.FORM_NAME, RULES_NAME, 1).replace(
        'header = "Customer No"\ntype = "integer"\nrequired = true\nmin = 1\n',
        'header = "Customer No"\ntype = "integer"\nrequired = true\n'
        'lookup = { table = "public.bench_customers", match = "code", returns = "id" }\n',
    )
    + """
[[fields]]
name = "gross"
type = "decimal"
compute = "round(amount * 1.2, 2)"

[[rules]]
check = "order_date >= date('2024-01-01') and amount < 1000000"
columns = ["order_date"]
message = "the order is older than the shop"

[[rules]]
when = "paid and status == 'cancelled'"
require = ["email"]
message = "a paid order cancelled needs an e-mail to refund"
"""
)
assert "lookup" in RULES_FORM  # the replace above found the field


def setup(url: str) -> None:
    from importer.database import connect
    from importer.forms.definition import parse_form_text
    from importer.repositories.forms import save_form

    with psycopg.connect(url, autocommit=True) as raw:
        raw.execute("CREATE TABLE public.bench_customers (code text PRIMARY KEY, id bigint)")
        raw.execute(
            "INSERT INTO public.bench_customers"
            " SELECT n::text, 1000000 + n FROM generate_series(1, %s) AS n",
            (CUSTOMERS,),
        )
        raw.execute("VACUUM ANALYZE public.bench_customers")
    with connect(url, autocommit=True) as conn:
        save_form(conn, parse_form_text(PLAIN_FORM))
        save_form(conn, parse_form_text(RULES_FORM))


def run(
    report: Callable[[str], None] | None = None, *, rows: int = ROWS, repeats: int = REPEATS
) -> bool:
    from importer.config import load_settings
    from importer.database import resolve_url

    say = report or (lambda text: print(text, flush=True))
    path = workbooks.excel_like(rows)
    say(
        f"rules: {rows:,} x 10 Excel-like workbook; the plain form against the same form with"
        f" 2 row rules, 1 lookup against {CUSTOMERS:,} rows and 1 computed field;"
        f" wall clock, best of {repeats}"
    )
    with scratch_database(resolve_url(load_settings()), "rules") as url:
        setup(url)
        env = {**os.environ, "IMPORTER_DATABASE_URL": url, "NO_COLOR": "1"}
        cases = {
            name: [*IMPORTER, "submit", str(path), "--form", name, "--force", "--quiet"]
            for name in (PLAIN_NAME, RULES_NAME)
        }
        runs: dict[str, list[Run]] = {}
        for _ in range(repeats):
            for name, command in cases.items():
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute(f"TRUNCATE forms.{name}, import_rejected_rows, import_row_errors")
                result = timed(command, env)
                if result.code not in (0, 3):
                    raise RuntimeError(f"bench: {name} exited {result.code}: {result.output}")
                runs.setdefault(name, []).append(result)
        with psycopg.connect(url) as conn:
            stored = conn.execute(
                f"SELECT count(*), count(customer_no) FILTER (WHERE customer_no > 1000000)"
                f" FROM forms.{RULES_NAME}"
            ).fetchone()
    plain, ruled = best(runs[PLAIN_NAME]), best(runs[RULES_NAME])
    say(line("importer submit, plain form", rows, plain))
    say(line("importer submit, form with rules + lookup + compute", rows, ruled))
    say(ratio("    rules vs plain", plain.seconds / ruled.seconds))
    assert stored is not None
    say(f"    stored {stored[0]:,} rows by the form with rules, {stored[1]:,} with a looked-up id")
    checks = [
        target(
            "rules: form with rules vs plain form",
            plain.seconds / ruled.seconds,
            ">=",
            RULES_VS_PLAIN,
        ),
        target("rules: rows stored without their id", stored[0] - stored[1], "<=", 0),
    ]
    for name, value, goal, met in checks:
        say(f"  {name:<50} {value:>10.2f}   target {goal:<8} {'ok' if met else 'MISSED'}")
    return all(met for *_, met in checks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.rules")
    parser.add_argument("--rows", type=int, default=ROWS)
    parser.add_argument("--repeats", type=int, default=REPEATS)
    options = parser.parse_args(argv)
    return 0 if run(rows=options.rows, repeats=options.repeats) else 1


if __name__ == "__main__":
    sys.exit(main())
