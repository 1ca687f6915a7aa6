"""The tables around the import bench: the user's own table with its constraints, the checks
of what an import left there, and the storage of a typed table against JSONB.

The user's table (``workbooks.OWN_TABLE``) has a FOREIGN KEY to a customers table holding
customer numbers 1..``workbooks.CUSTOMERS`` and a CHECK on the amount; bench workbooks made
with ``violating`` break each on known rows (``workbooks.violations``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import sql

from bench import workbooks

OWN_TABLE_DDL = f"""
CREATE TABLE IF NOT EXISTS bench_customers (
    id   bigint PRIMARY KEY,
    name text NOT NULL
);
INSERT INTO bench_customers
    SELECT n, 'customer ' || n FROM generate_series(1, {workbooks.CUSTOMERS}) AS n
    ON CONFLICT DO NOTHING;
CREATE TABLE IF NOT EXISTS {workbooks.OWN_TABLE} (
    order_id      bigint PRIMARY KEY,
    import_job_id bigint,
    customer_no   bigint NOT NULL
        CONSTRAINT {workbooks.FK_CONSTRAINT} REFERENCES bench_customers (id),
    customer      text NOT NULL,
    email         text,
    order_date    date,
    zip           text,
    amount        numeric
        CONSTRAINT {workbooks.CHECK_CONSTRAINT} CHECK (amount <= {workbooks.AMOUNT_CAP}),
    status        text,
    paid          boolean
)
"""

JSONB_COPY = "bench_storage_jsonb"


def own_table() -> sql.Identifier:
    return sql.Identifier(*workbooks.OWN_TABLE.split("."))


def create_own_table(conn: psycopg.Connection[Any]) -> None:
    conn.execute(OWN_TABLE_DDL)


def last_job(conn: psycopg.Connection[Any], form: str) -> int:
    row = conn.execute(
        "SELECT id FROM import_jobs WHERE form = %s ORDER BY id DESC LIMIT 1", (form,)
    ).fetchone()
    assert row is not None, f"no job of {form}"
    return int(row[0])


@dataclass(frozen=True)
class Outcome:
    """What an import into the user's table left, against what the workbook holds."""

    stored: int
    expected_stored: int
    rejected: dict[str, int]  # constraint -> rows rejected naming it, as expected
    wrong: list[str]  # every difference from what the workbook says, described

    @property
    def exact(self) -> bool:
        return not self.wrong and self.stored == self.expected_stored


def check_own_import(conn: psycopg.Connection[Any], rows: int, violating: float) -> Outcome:
    """Every violating row rejected naming its constraint, every other row stored once."""
    job = last_job(conn, workbooks.OWN_FORM_NAME)
    expected = workbooks.violations(rows, violating)
    wrong: list[str] = []
    rejected: dict[str, int] = {}
    for constraint, numbers in expected.items():
        found = {
            int(r[0])
            for r in conn.execute(
                "SELECT DISTINCT row_number FROM import_row_errors"
                " WHERE import_job_id = %s AND position(%s IN message) > 0",
                (job, constraint),
            )
        }
        rejected[constraint] = len(found & numbers)
        if missing := numbers - found:
            wrong.append(f"{len(missing)} rows breaking {constraint} not rejected naming it")
        if extra := found - numbers:
            wrong.append(f"{len(extra)} rows rejected naming {constraint} that do not break it")
    others = conn.execute(
        "SELECT count(DISTINCT row_number) FROM import_rejected_rows WHERE import_job_id = %s"
        " AND NOT (row_number = ANY(%s))",
        (job, sorted(set().union(*expected.values()))),
    ).fetchone()
    assert others is not None
    if others[0]:
        wrong.append(f"{others[0]} rows rejected that break no constraint")
    table = own_table()
    counted = conn.execute(
        sql.SQL(
            "SELECT count(*), count(DISTINCT order_id) FROM {} WHERE import_job_id = %s"
        ).format(table),
        (job,),
    ).fetchone()
    assert counted is not None
    stored, distinct = int(counted[0]), int(counted[1])
    if stored != distinct:
        wrong.append(f"{stored - distinct} rows stored twice")
    bad = conn.execute(
        sql.SQL("SELECT count(*) FROM {} WHERE customer_no > %s OR amount > %s").format(table),
        (workbooks.CUSTOMERS, workbooks.AMOUNT_CAP),
    ).fetchone()
    assert bad is not None
    if bad[0]:
        wrong.append(f"{bad[0]} violating rows stored")
    expected_stored = rows - sum(len(n) for n in expected.values())
    if stored != expected_stored:
        wrong.append(f"{stored:,} rows stored, {expected_stored:,} expected")
    return Outcome(stored, expected_stored, rejected, wrong)


@dataclass(frozen=True)
class Storage:
    rows: int
    typed_bytes: int
    jsonb_bytes: int

    def per_row(self, size: int) -> float:
        return size / self.rows if self.rows else float("nan")


def storage(conn: psycopg.Connection[Any], table: sql.Composable) -> Storage:
    """The typed table's size (heap, TOAST, indexes) against the same rows as JSONB: a copy
    with the tool's columns as columns, the fields as one document, the same unique index."""
    conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(JSONB_COPY)))
    conn.execute(
        sql.SQL(
            "CREATE TABLE {copy} AS SELECT import_job_id, row_number, written_at,"
            " to_jsonb(t) - 'import_job_id' - 'row_number' - 'written_at' AS data FROM {table} t"
        ).format(copy=sql.Identifier(JSONB_COPY), table=table)
    )
    conn.execute(
        sql.SQL("CREATE UNIQUE INDEX ON {} (import_job_id, row_number)").format(
            sql.Identifier(JSONB_COPY)
        )
    )
    conn.execute(sql.SQL("VACUUM ANALYZE {}").format(table))
    conn.execute(sql.SQL("VACUUM ANALYZE {}").format(sql.Identifier(JSONB_COPY)))
    row = conn.execute(
        sql.SQL(
            "SELECT (SELECT count(*) FROM {table}), pg_total_relation_size(%s::regclass),"
            " pg_total_relation_size(%s::regclass)"
        ).format(table=table),
        (table.as_string(conn), JSONB_COPY),
    ).fetchone()
    assert row is not None
    return Storage(int(row[0]), int(row[1]), int(row[2]))


def typed_table(form_name: str) -> sql.Identifier:
    from importer.repositories.form_tables import SCHEMA

    return sql.Identifier(SCHEMA, form_name)
