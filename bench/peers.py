"""What a user would run instead of `importer submit`, each as its own process:
``python -m bench.peers CASE URL WORKBOOK``.

(a) minimal: python-calamine iteration + COPY of the raw rows as JSON, 1,000-row
    transactions, each advancing a cursor (no validation, no error report);
(b) per_row: one transaction per row (insert + cursor update), the first PER_ROW rows;
(c) polars: ``polars.read_excel(engine="calamine")`` + ``write_database(engine="adbc")``;
(d) pandas: ``pandas.read_excel(engine="calamine")`` + ``to_sql(chunksize=1000)``.

None validates, records rejected rows or can resume; they are the speed a user compares with.
"""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg

PER_ROW = 5_000
BATCH = 1_000


def _calamine_rows(path: Path) -> Iterator[list[Any]]:
    import python_calamine as pc

    sheet = pc.CalamineWorkbook.from_path(str(path)).get_sheet_by_index(0)
    rows = iter(sheet.iter_rows())
    next(rows)  # the header
    yield from rows


def _job(conn: psycopg.Connection[Any], name: str) -> int:
    conn.execute(
        "INSERT INTO import_files (sha256, size_bytes, content) VALUES (%s, 0, '')"
        " ON CONFLICT DO NOTHING",
        (name,),
    )
    row = conn.execute(
        "INSERT INTO import_jobs (form, form_version, file, file_name, max_attempts, status)"
        " VALUES (%s, 1, %s, %s, 1, 'running') RETURNING id",
        (name, name, name),
    ).fetchone()
    assert row is not None
    return int(row[0])


def minimal(url: str, path: Path) -> int:
    count = 0
    with psycopg.connect(url, autocommit=True) as conn:
        job = _job(conn, "peer_minimal")
        rows = _calamine_rows(path)
        while batch := list(itertools.islice(rows, BATCH)):
            with conn.transaction():
                with conn.cursor().copy(
                    "COPY form_data (import_job_id, row_number, form, data) FROM STDIN"
                ) as copy:
                    for row in batch:
                        count += 1
                        copy.write_row((job, count + 1, "peer", json.dumps(row, default=str)))
                conn.execute("UPDATE import_jobs SET success_rows = %s WHERE id = %s", (count, job))
    return count


def per_row(url: str, path: Path) -> int:
    count = 0
    with psycopg.connect(url, autocommit=True) as conn:
        job = _job(conn, "peer_per_row")
        for row in itertools.islice(_calamine_rows(path), PER_ROW):
            count += 1
            with conn.transaction():
                conn.execute(
                    "INSERT INTO form_data (import_job_id, row_number, form, data)"
                    " VALUES (%s, %s, 'peer', %s)",
                    (job, count + 1, json.dumps(row, default=str)),
                )
                conn.execute(
                    "UPDATE import_jobs SET success_rows = success_rows + 1 WHERE id = %s",
                    (job,),
                )
    return count


def as_url(conninfo: str) -> str:
    """A ``postgresql://`` URL for a key=value conninfo (ADBC and SQLAlchemy want URLs)."""
    from urllib.parse import quote, urlencode

    if "://" in conninfo:
        return conninfo
    info = psycopg.conninfo.conninfo_to_dict(conninfo)
    user = quote(str(info.pop("user", "")))
    dbname = quote(str(info.pop("dbname", "")))
    query = urlencode({k: str(v) for k, v in info.items()})
    return f"postgresql://{user}@/{dbname}" + (f"?{query}" if query else "")


def polars_adbc(url: str, path: Path) -> int:
    import polars as pl

    frame = pl.read_excel(path, engine="calamine")
    frame.write_database(
        "peer_polars", connection=as_url(url), engine="adbc", if_table_exists="replace"
    )
    return int(frame.height)


def pandas_to_sql(url: str, path: Path) -> int:
    import pandas as pd
    from sqlalchemy import create_engine

    frame = pd.read_excel(path, engine="calamine")
    engine = create_engine(as_url(url).replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as conn:
        frame.to_sql("peer_pandas", conn, if_exists="replace", index=False, chunksize=BATCH)
    engine.dispose()
    return len(frame)


CASES: dict[str, Callable[[str, Path], int]] = {
    "minimal": minimal,
    "per_row": per_row,
    "polars": polars_adbc,
    "pandas": pandas_to_sql,
}


def main(argv: list[str]) -> int:
    case, url, path = argv
    print(json.dumps({"rows": CASES[case](url, Path(path))}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
