"""What a user would write instead of `importer submit`, each as its own process:
``python -m bench.peers CASE URL WORKBOOK``.

(a)  minimal: python-calamine iteration + COPY of the raw rows as JSON into a JSONB table
     shaped like the tool's former row table (``JSONB_TABLE``), 1,000-row transactions, each
     advancing a cursor (no validation, no error report);
(a2) minimal_typed: the same loop writing the form's typed table ``forms.<name>`` by binary
     COPY; each cell gets the one conversion its column's type needs (a float to an int, a
     text to a date, "Yes" to true, ...), and a row a cell of which will not convert is
     dropped, unreported (the least a typed table allows);
(c)  polars: ``polars.read_excel(engine="calamine")`` + ``write_database(engine="adbc")``.

None validates, records rejected rows or can resume; they are the speed a user compares with.
"""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Callable, Iterator
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

BATCH = 1_000
JSONB_TABLE = "peer_jsonb_rows"
# The JSONB table of (a): what the tool's form_data was (a key, a job reference, timestamps).
JSONB_TABLE_DDL = f"""
CREATE TABLE IF NOT EXISTS {JSONB_TABLE} (
    id            bigserial PRIMARY KEY,
    import_job_id bigint NOT NULL REFERENCES import_jobs (id) ON DELETE CASCADE,
    row_number    integer NOT NULL,
    form          text NOT NULL,
    data          jsonb NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    UNIQUE (import_job_id, row_number)
)
"""


def _calamine_rows(path: Path) -> Iterator[list[Any]]:
    import python_calamine as pc

    sheet = pc.CalamineWorkbook.from_path(str(path)).get_sheet_by_index(0)
    yield from sheet.iter_rows()


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
        next(rows)  # the header
        statement = f"COPY {JSONB_TABLE} (import_job_id, row_number, form, data) FROM STDIN"
        while batch := list(itertools.islice(rows, BATCH)):
            with conn.transaction():
                with conn.cursor().copy(statement) as copy:
                    for row in batch:
                        count += 1
                        copy.write_row((job, count + 1, "peer", json.dumps(row, default=str)))
                conn.execute("UPDATE import_jobs SET success_rows = %s WHERE id = %s", (count, job))
    return count


# --- (a2): the cell conversions a typed table needs, and nothing more -------------------


def _bigint(value: Any) -> int:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        return int(value.strip())
    raise ValueError(value)


def _numeric(value: Any) -> Decimal:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return Decimal(str(value))
    if isinstance(value, str):
        return Decimal(value.strip().replace(",", ""))
    raise ValueError(value)


def _date(value: Any) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        return date.fromisoformat(value.strip())
    raise ValueError(value)


_WORDS = {"true": True, "yes": True, "false": False, "no": False}


def _boolean(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return _WORDS[value.strip().lower()]
    raise ValueError(value)


def _text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


_CONVERT: dict[str, Callable[[Any], Any]] = {
    "bigint": _bigint,
    "numeric": _numeric,
    "date": _date,
    "boolean": _boolean,
    "text": _text,
}


def minimal_typed(url: str, path: Path) -> int:
    from bench.workbooks import FORM
    from importer.forms.definition import parse_form_text
    from importer.repositories.form_tables import table_for

    form = parse_form_text(FORM)
    table = table_for(form)
    assert table.job_column and table.row_column
    rows = _calamine_rows(path)
    header = [str(cell).strip() for cell in next(rows)]
    # Each of the table's columns from the sheet's column of its field's header.
    where = [header.index(field.header) for field in form.fields]
    convert = [_CONVERT[column.pg_type] for column in table.columns]
    names = [c.name for c in table.columns] + [table.job_column, table.row_column]
    statement = sql.SQL("COPY {} ({}) FROM STDIN (FORMAT BINARY)").format(
        table.identifier, sql.SQL(", ").join(sql.Identifier(n) for n in names)
    )
    types = [c.pg_type for c in table.columns] + ["bigint", "integer"]
    count = written = 0
    with psycopg.connect(url, autocommit=True) as conn:
        job = _job(conn, "peer_minimal_typed")
        while batch := list(itertools.islice(rows, BATCH)):
            with conn.transaction():
                with conn.cursor().copy(statement) as copy:
                    copy.set_types(types)
                    for row in batch:
                        count += 1
                        try:
                            values = [
                                None if row[i] == "" else f(row[i])
                                for i, f in zip(where, convert, strict=True)
                            ]
                        except (ValueError, KeyError, InvalidOperation):
                            continue  # a cell its column's type cannot take: dropped
                        written += 1
                        copy.write_row((*values, job, count + 1))
                conn.execute("UPDATE import_jobs SET success_rows = %s WHERE id = %s", (count, job))
    return written


def as_url(conninfo: str) -> str:
    """A ``postgresql://`` URL for a key=value conninfo (ADBC wants URLs)."""
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


CASES: dict[str, Callable[[str, Path], int]] = {
    "minimal": minimal,
    "minimal_typed": minimal_typed,
    "polars": polars_adbc,
}


def main(argv: list[str]) -> int:
    case, url, path = argv
    print(json.dumps({"rows": CASES[case](url, Path(path))}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
