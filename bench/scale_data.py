"""The database of a team that has imported for years, generated in SQL (bench/scale.py).

``fill(url, size)`` writes, into a migrated database with the forms registered:

- ``size.jobs`` finished jobs over three years (85% succeeded, 8% partially succeeded, 4%
  failed, 2% cancelled, 1% reverted), spread over the forms, most of them purged long ago
  and the last ``size.unpurged`` of those older than 30 days not yet (what a first purge
  finds), each with a stored workbook shared by many jobs;
- ``size.pending`` pending jobs, available now (a queue that has backed up);
- ``size.rows`` imported rows: half in the big form's table (``BIG_FORM``, the bench's own
  form, which the import rate is measured into), the rest over the others;
- ``size.errors`` row errors (with their rejected rows), 100,000 of them on one job
  (``size.errors_job``);
- ``size.timers`` timers, nearly all finished (notices delivered, retries run);
- attempt failures, one per failed job.

Bulk loads run with triggers and foreign keys off (``session_replication_role``) and build
the indexes of the big tables after the rows; the totals that triggers maintain are then
counted once (``import_totals_recount()``, as the migration that made them does).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import sql

BIG_FORM = "bench_orders"  # bench/workbooks.py FORM: 200,000-row workbooks fit it
OTHER_FORMS = ("scale_customers", "scale_stock")
ERRORS_ON_ONE_JOB = 100_000
FILES = 5_000

OTHER_FORM_TOML = """
name = "{name}"
[[fields]]
name = "ref"
header = "Ref"
type = "integer"
required = true
[[fields]]
name = "label"
header = "Label"
type = "string"
[[fields]]
name = "amount"
header = "Amount"
type = "decimal"
[[fields]]
name = "day"
header = "Day"
type = "date"
"""


@dataclass(frozen=True)
class Size:
    jobs: int
    pending: int
    rows: int
    errors: int
    timers: int
    unpurged: int  # finished jobs older than 30 days that no purge has seen yet

    @property
    def errors_job(self) -> int:
        """The finished job holding ERRORS_ON_ONE_JOB row errors (one of the newest)."""
        return self.jobs - 10


FULL = Size(
    jobs=10_000_000,
    pending=100_000,
    rows=100_000_000,
    errors=5_000_000,
    timers=1_000_000,
    unpurged=1_000_000,
)
SMALL = Size(
    jobs=200_000, pending=5_000, rows=2_000_000, errors=200_000, timers=20_000, unpurged=20_000
)


def form_tomls() -> list[str]:
    from bench import workbooks

    return [workbooks.FORM] + [OTHER_FORM_TOML.format(name=name) for name in OTHER_FORMS]


def _forms() -> list[str]:
    return [BIG_FORM, *OTHER_FORMS]


def fill(url: str, size: Size, say: Callable[[str], None]) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SET session_replication_role = replica")  # no triggers, no FK checks
        conn.execute("SET maintenance_work_mem = '512MB'")
        conn.execute("SET synchronous_commit = off")
        _step(say, "files", lambda: _files(conn))
        _step(
            say,
            f"{size.jobs:,} finished + {size.pending:,} pending jobs",
            lambda: _jobs(conn, size),
        )
        _step(say, f"{size.rows:,} imported rows", lambda: _rows(conn, size))
        _step(say, f"{size.errors:,} row errors", lambda: _errors(conn, size))
        _step(say, f"{size.timers:,} timers, attempt failures", lambda: _timers(conn, size))
        conn.execute("SET session_replication_role = origin")
        _step(say, "totals recounted", lambda: conn.execute("SELECT import_totals_recount()"))
        _step(say, "VACUUM ANALYZE", lambda: conn.execute("VACUUM ANALYZE"))


def _step(say: Callable[[str], None], what: str, action: Callable[[], Any]) -> None:
    started = time.monotonic()
    action()
    say(f"    generated: {what} ({time.monotonic() - started:.0f} s)")


def _files(conn: psycopg.Connection[Any]) -> None:
    conn.execute(
        """INSERT INTO import_files (sha256, size_bytes, content, created_at)
           SELECT 'scale-' || n, 4096, '\\x00'::bytea, now() - interval '3 years'
             FROM generate_series(0, %s - 1) n""",
        (FILES,),
    )


def _jobs(conn: psycopg.Connection[Any], size: Size) -> None:
    forms = _forms()
    rows_per_job = max(1, size.rows // size.jobs)
    # Job n (1..jobs) finished at an even pace over three years; the newest ones last.
    conn.execute(
        """
        INSERT INTO import_jobs (id, status, form, form_version, file, file_name, sheet, engine,
                                 total_rows, success_rows, failed_rows, attempts, max_attempts,
                                 idempotency_key, created_at, started_at, finished_at,
                                 available_at, purged_at, column_map, reverted_at)
        SELECT n,
               CASE WHEN n %% 100 < 85 THEN 'succeeded'
                    WHEN n %% 100 < 93 THEN 'partially_succeeded'
                    WHEN n %% 100 < 97 THEN 'failed'
                    WHEN n %% 100 < 99 THEN 'cancelled'
                    ELSE 'reverted' END,
               (%(forms)s::text[])[1 + CASE WHEN n %% 4 < 2 THEN 0 ELSE n %% 4 - 1 END],
               1, 'scale-' || (n %% %(files)s), 'orders-' || n || '.xlsx', 'Orders', 'auto',
               %(per_job)s, %(per_job)s, CASE WHEN n %% 100 BETWEEN 85 AND 92 THEN 1 ELSE 0 END,
               1, 5, 'scale-key-' || n, at, at, at + interval '1 minute', at,
               CASE WHEN at < now() - interval '30 days'
                     AND n <= %(purged_upto)s THEN at + interval '31 days' END,
               '{}'::jsonb,
               CASE WHEN n %% 100 = 99 THEN at + interval '2 minutes' END
          FROM (SELECT n, now() - interval '3 years'
                          + (interval '3 years' - interval '1 day') * n / %(jobs)s AS at
                  FROM generate_series(1, %(jobs)s) n) g
        """,
        {
            "forms": forms,
            "files": FILES,
            "per_job": rows_per_job,
            "jobs": size.jobs,
            # The jobs older than 30 days are the first ~(1 - 30/1095) of them.
            "purged_upto": max(0, int(size.jobs * (1 - 31 / 1095)) - size.unpurged),
        },
    )
    conn.execute(
        """
        INSERT INTO import_jobs (id, status, form, form_version, file, file_name, sheet,
                                 max_attempts, idempotency_key, created_at, available_at)
        SELECT n, 'pending', %(form)s, 1, 'scale-' || (n %% %(files)s),
               'queued-' || n || '.xlsx', 'Orders', 5, 'scale-key-' || n,
               now() - interval '1 hour' + interval '1 millisecond' * (n - %(first)s),
               now() - interval '1 hour'
          FROM generate_series(%(first)s, %(last)s) n
        """,
        {
            "form": forms[1],
            "files": FILES,
            "first": size.jobs + 1,
            "last": size.jobs + size.pending,
        },
    )
    conn.execute("SELECT setval('import_jobs_id_seq', %s)", (size.jobs + size.pending,))


def _rows(conn: psycopg.Connection[Any], size: Size) -> None:
    """Each finished job's rows in its form's table, rows_per_job each (Excel rows 2..)."""
    per_job = max(1, size.rows // size.jobs)
    for name in _forms():
        table = sql.Identifier("forms", name)
        indexes = conn.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'forms'"
            " AND tablename = %s",
            (name,),
        ).fetchall()
        for index_name, _ in indexes:
            conn.execute(sql.SQL("DROP INDEX forms.{}").format(sql.Identifier(index_name)))
        if name == BIG_FORM:
            values = sql.SQL(
                """j.id * 100 + r, 1 + (j.id + r) %% 5000,
                   'Customer ' || j.id || '-' || r, 'buyer' || j.id || '@example.com',
                   date '2024-01-01' + ((j.id + r) %% 700)::int,
                   lpad(((j.id * 7) %% 99999)::text, 5, '0'),
                   ((j.id %% 500000) / 100.0)::numeric, 'paid', (j.id + r) %% 2 = 0"""
            )
            columns = sql.SQL(
                "order_id, customer_no, customer, email, order_date, zip, amount, status, paid"
            )
        else:
            values = sql.SQL(
                """j.id * 100 + r, 'Item ' || j.id || '-' || r, ((j.id %% 100000) / 100.0)::numeric,
                   date '2023-01-01' + ((j.id + r) %% 1000)::int"""
            )
            columns = sql.SQL("ref, label, amount, day")
        conn.execute(
            sql.SQL(
                """INSERT INTO {table} (import_job_id, row_number, written_at, {columns})
                   SELECT j.id, r + 1, j.finished_at, {values}
                     FROM import_jobs j, generate_series(1, %(per_job)s) r
                    WHERE j.form = %(form)s AND j.id <= %(jobs)s
                      AND j.status <> 'reverted'"""
            ).format(table=table, columns=columns, values=values),
            {"per_job": per_job, "form": name, "jobs": size.jobs},
        )
        for _, definition in indexes:
            conn.execute(definition)  # the table's own index definitions, as they were


def _errors(conn: psycopg.Connection[Any], size: Size) -> None:
    """ERRORS_ON_ONE_JOB row errors (and rejected rows) on one job, the rest spread evenly
    over the partially succeeded jobs that no purge has seen (a purged job has none)."""
    spread = max(0, size.errors - ERRORS_ON_ONE_JOB)
    found = conn.execute(
        """SELECT count(*) FROM import_jobs
            WHERE id <= %s AND status = 'partially_succeeded' AND purged_at IS NULL""",
        (size.jobs,),
    ).fetchone()
    holders = int(found[0]) if found else 0
    per_job = -(-spread // holders) if holders else 0
    for table, columns, values in (
        (
            "import_rejected_rows",
            "import_job_id, row_number, row_values",
            '\'["x", "n/a"]\'::jsonb',
        ),
        (
            "import_row_errors",
            "import_job_id, row_number, column_name, raw_value, message",
            "'Qty', 'n/a', '''n/a'' is not a whole number'",
        ),
    ):
        conn.execute(
            sql.SQL(
                """INSERT INTO {table} ({columns})
                   SELECT id, %(first)s + r, {values}
                     FROM import_jobs, generate_series(0, %(per_job)s - 1) r
                    WHERE id <= %(jobs)s AND status = 'partially_succeeded'
                      AND purged_at IS NULL AND id <> %(big)s
                    LIMIT %(spread)s"""
            ).format(table=sql.Identifier(table), columns=sql.SQL(columns), values=sql.SQL(values)),
            {
                "first": 2 + max(1, size.rows // size.jobs),
                "per_job": per_job,
                "jobs": size.jobs,
                "big": size.errors_job,
                "spread": spread,
            },
        )
        conn.execute(
            sql.SQL(
                """INSERT INTO {table} ({columns})
                   SELECT %(big)s, r, {values} FROM generate_series(2, %(n)s + 1) r"""
            ).format(table=sql.Identifier(table), columns=sql.SQL(columns), values=sql.SQL(values)),
            {"big": size.errors_job, "n": ERRORS_ON_ONE_JOB},
        )
    conn.execute(
        """UPDATE import_jobs SET status = 'partially_succeeded', failed_rows = %(n)s,
                  success_rows = 100000, total_rows = 100000 + %(n)s
            WHERE id = %(big)s""",
        {"big": size.errors_job, "n": ERRORS_ON_ONE_JOB},
    )


def _timers(conn: psycopg.Connection[Any], size: Size) -> None:
    """Finished timers (delivered notices, retries run, scheduled imports), 1% failed, and a
    few hundred pending ones due in the future."""
    conn.execute(
        """
        INSERT INTO timer_jobs (kind, target, payload, status, due_at, attempts, max_attempts,
                                created_at, finished_at)
        SELECT CASE n %% 3 WHEN 0 THEN 'notify' WHEN 1 THEN 'import_retry'
                           ELSE 'scheduled_import' END,
               'scale-' || n,
               CASE WHEN n %% 3 = 0 THEN jsonb_build_object('job_id', n, 'event', 'succeeded')
                    ELSE '{}'::jsonb END,
               CASE WHEN n %% 100 = 0 THEN 'failed' WHEN n %% 100 = 1 THEN 'cancelled'
                    ELSE 'completed' END,
               at, 1, 5, at, at + interval '1 second'
          FROM (SELECT n, now() - interval '3 years'
                          + (interval '3 years' - interval '1 day') * n / %(n)s AS at
                  FROM generate_series(1, %(n)s) n) g
        """,
        {"n": size.timers},
    )
    conn.execute(
        """
        INSERT INTO timer_jobs (kind, target, status, due_at, max_attempts)
        SELECT 'scheduled_import', 'scale-later-' || n, 'pending',
               now() + interval '1 day' + interval '1 minute' * n, 5
          FROM generate_series(1, 300) n
        """
    )
    conn.execute(
        """INSERT INTO import_attempt_failures (import_job_id, failed_at, error)
           SELECT id, finished_at, 'the workbook could not be read'
             FROM import_jobs WHERE status = 'failed'"""
    )
