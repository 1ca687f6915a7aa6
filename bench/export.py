"""Export benchmark: `importer export FORM -o FILE.parquet` of 10,000,000 rows, as a user runs
it (the CLI in a process of its own, from start to exit), next to what the database itself
does: `COPY table TO STDOUT (FORMAT csv)` into a file (the peer), and the same export to CSV.

The rows are made in SQL (generate_series) in the form's table after `forms add`: an
integer, a unique text, a decimal, a date, a date-time and a boolean per row (some NULL),
besides the tool's import_job_id, row_number and written_at. Peak memory is each process's
own (wait4's ru_maxrss); the Parquet file is read back (its footer) to check its row count.

Target: the Parquet export's peak RSS <= 512 MB (exit 1 when it is over).
Run alone: ``python -m bench.export [--rows N]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import psycopg

from bench.scratch import scratch_database

ROWS = 10_000_000
PEAK_MB = 512  # the target for the Parquet export's process
FORM_NAME = "bench_export"
FORM = f"""
name = "{FORM_NAME}"
[[fields]]
name = "order_id"
type = "integer"
[[fields]]
name = "customer"
type = "string"
[[fields]]
name = "amount"
type = "decimal"
[[fields]]
name = "ordered_on"
type = "date"
[[fields]]
name = "paid_at"
type = "datetime"
[[fields]]
name = "paid"
type = "boolean"
"""
# Jobs of 1,000,000 rows each, as imports leave them: (job, row) in insertion order.
FILL = f"""
INSERT INTO forms.{FORM_NAME}
       (import_job_id, row_number, order_id, customer, amount, ordered_on, paid_at, paid)
SELECT g / 1000000 + 1, g %% 1000000 + 2, g, 'customer ' || g,
       CASE WHEN g %% 17 <> 0 THEN (g %% 100000) * 0.01 END,
       date '2020-01-01' + g %% 2000,
       CASE WHEN g %% 3 <> 0 THEN timestamptz '2020-01-01 00:00+00' + g * interval '1.5 s' END,
       g %% 2 = 0
  FROM generate_series(%(first)s, %(last)s) g
"""
PEER = (
    "import sys, psycopg\n"
    "url, table, path = sys.argv[1:]\n"
    "with psycopg.connect(url) as conn, open(path, 'wb') as out:\n"
    "    with conn.cursor().copy(f'COPY {table} TO STDOUT (FORMAT csv, HEADER)') as copy:\n"
    "        for data in copy:\n"
    "            out.write(data)\n"
)


@dataclass(frozen=True)
class Run:
    seconds: float
    peak_mb: float
    code: int
    output: str


def timed(command: Sequence[str], env: dict[str, str]) -> Run:
    """Wall clock from start to exit, and the process's own peak RSS."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        list(command), env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    assert proc.stdout is not None
    output = proc.stdout.read().decode(errors="replace")
    proc.stdout.close()
    return Run(seconds, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), output)


def fill(url: str, rows: int, say: Callable[[str], None]) -> None:
    from importer.database import connect
    from importer.forms.definition import parse_form_text
    from importer.repositories.forms import save_form

    started = time.monotonic()
    with connect(url, autocommit=True) as conn:
        save_form(conn, parse_form_text(FORM))  # creates forms.<name>, as forms add does
    with psycopg.connect(url, autocommit=True) as conn:
        step = 1_000_000
        for first in range(0, rows, step):
            conn.execute(FILL, {"first": first, "last": min(first + step, rows) - 1})
        conn.execute(f"VACUUM ANALYZE forms.{FORM_NAME}")
        size = conn.execute(f"SELECT pg_total_relation_size('forms.{FORM_NAME}') AS n").fetchone()
    assert size is not None
    say(
        f"  made {rows:,} rows in forms.{FORM_NAME} ({size[0] / 2**20:,.0f} MB with its index)"
        f" in {time.monotonic() - started:.0f} s"
    )


def _line(name: str, run: Run, rows: int, path: Path) -> str:
    size = path.stat().st_size / 2**20 if path.exists() else 0.0
    return (
        f"  {name:<26} {run.seconds:7.1f} s  {rows / run.seconds:>11,.0f} rows/s"
        f"  peak {run.peak_mb:6,.0f} MB  file {size:7,.0f} MB"
    )


def run(report: Callable[[str], None] | None = None, *, rows: int = ROWS) -> bool:
    """Print the figures and the target; True when it is met."""
    from importer.config import load_settings
    from importer.database import resolve_url

    say = report or (lambda text: print(text, flush=True))
    server = resolve_url(load_settings())
    say(
        f"export: {rows:,} rows x 9 columns of a form's table to Parquet through polars, in"
        " bounded batches; the peer is the server's own COPY TO a CSV file"
    )
    with scratch_database(server, "export") as url, tempfile.TemporaryDirectory() as folder:
        fill(url, rows, say)
        env = {**os.environ, "IMPORTER_DATABASE_URL": url, "NO_COLOR": "1"}
        out = Path(folder)
        cases = {
            "importer export .parquet": (
                [sys.executable, "-m", "importer", "export", FORM_NAME, "-o"],
                out / "rows.parquet",
            ),
            "peer: COPY TO csv file": (
                [sys.executable, "-c", PEER, url, f"forms.{FORM_NAME}"],
                out / "peer.csv",
            ),
            "importer export .csv": (
                [sys.executable, "-m", "importer", "export", FORM_NAME, "-o"],
                out / "rows.csv",
            ),
        }
        runs: dict[str, Run] = {}
        for name, (command, path) in cases.items():
            result = timed([*command, str(path)], env)
            if result.code != 0:
                raise RuntimeError(f"bench: {name} exited {result.code}: {result.output}")
            runs[name] = result
            say(_line(name, result, rows, path))
            if name != "importer export .parquet":
                path.unlink()  # room on the disk for the next case
        import pyarrow.parquet as pq

        written = pq.ParquetFile(out / "rows.parquet").metadata.num_rows
    parquet = runs["importer export .parquet"]
    peer = runs["peer: COPY TO csv file"]
    ok = parquet.peak_mb <= PEAK_MB and written == rows
    say(
        f"  Parquet: {written:,} rows read back (pyarrow); {parquet.seconds / peer.seconds:.1f}x"
        f" the peer's time; peak RSS {parquet.peak_mb:,.0f} MB (target <= {PEAK_MB} MB):"
        f" {'met' if ok else 'MISSED'}"
    )
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.export")
    parser.add_argument("--rows", type=int, default=ROWS)
    options = parser.parse_args(argv)
    return 0 if run(rows=options.rows) else 1


if __name__ == "__main__":
    sys.exit(main())
