"""The procrastinate side of bench.queue: its app and its one task (run by its own worker CLI,
``procrastinate --app=bench.queue_tasks.app worker``). The database comes from
BENCH_QUEUE_URL."""

from __future__ import annotations

import os

import procrastinate
import psycopg
from procrastinate.types import JSONValue

__all__ = ["JSONValue", "app", "insert_rows"]

URL = os.environ.get("BENCH_QUEUE_URL", "")

app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=URL))


@app.task(name="insert_rows")  # type: ignore[untyped-decorator, unused-ignore]
def insert_rows(rows: int) -> None:
    """What an importer job's batch writes, without the workbook: ``rows`` JSON rows in one
    transaction, on a connection of its own (as an importer job has)."""
    with psycopg.connect(URL) as conn:
        conn.execute(
            "INSERT INTO bench_rows (job, data)"
            " SELECT 0, jsonb_build_object('n', g, 'name', 'name-' || g)"
            " FROM generate_series(1, %s) g",
            (rows,),
        )
