"""A keyed form's history: the values its batches overwrote, ``form_history.<form>``.

Each batch of a form with a key keeps, in its upsert's own statement, the rows it
overwrites as they were (batches.sql upsert_kept_form_rows: typed as the table types them),
with the job that replaces them, and notes in ``import_job_replacements`` whose rows it
replaced; the form's write lock (undo.sql lock_form_writes), held by the batch from just
before that statement to its commit, makes what the statement's snapshot read the values it
overwrote. Measured by bench/history.py: a 200,000-row re-import where every row changes
takes about 1.09x the time without the history (a btree on the key cost 4% more, a
separate locking statement before the upsert 4% more again: neither is there).
``importer undo`` restores them
(repositories/undo.py); ``importer history FORM KEY`` shows a key's versions. Append forms
overwrite nothing and have none.

The history table follows its form's table: created with it (``forms add``, or migration
0013 for the forms there before), columns added and widened as the table's are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from psycopg import sql

from importer.database import Connection, queries
from importer.errors import DatabaseError, FormError, Missing, NotFoundError, UsageError
from importer.forms.definition import Form
from importer.repositories.form_tables import (
    index_name,
    live_table,
    table_info,
)

SCHEMA = "form_history"
VERSION_COLUMNS = (
    "version_job",
    "version_row",
    "version_written_at",
    "replaced_by_job",
    "replaced_at",
)
# The catalog's base type names as the tool's tables type their columns.
_BASE = {"int8": "bigint", "bool": "boolean"}


def history_identifier(form_name: str) -> sql.Identifier:
    return sql.Identifier(SCHEMA, form_name)


# --- the table ------------------------------------------------------------------------------


def prepare_history(conn: Connection, form: Form) -> None:
    """Create or evolve the form's history table after its own table (in the caller's
    transaction); a form without a key has none."""
    if not form.key:
        return
    table = live_table(conn, form)
    clash = sorted({c.name for c in table.columns} & set(VERSION_COLUMNS))
    if clash:
        raise FormError(
            f"form {form.name!r}: column {clash[0]} is a name the form's history uses for "
            "its own; give the field another column"
        )
    q = queries()
    target = history_identifier(form.name)
    info = table_info(conn, SCHEMA, form.name)
    if info is None:
        columns = sql.SQL(", ").join(
            sql.SQL("{} {}").format(sql.Identifier(c.name), sql.SQL(c.pg_type))
            for c in table.columns
        )
        conn.execute(sql.SQL(q.history_create).format(history=target, columns=columns))
        conn.execute(
            sql.SQL(q.history_job_index).format(
                index=sql.Identifier(index_name(form.name, "replaced_by")),
                history=target,
                column=sql.Identifier("replaced_by_job"),
            )
        )
        comment = f"importer: earlier versions of form {form.name!r}'s rows ({table.shown})"
        conn.execute(
            sql.SQL(q.history_comment).format(history=target, comment=sql.Literal(comment))
        )
        return
    for column in table.columns:
        found = info.columns.get(column.name)
        ident = sql.Identifier(column.name)
        if found is None:
            conn.execute(
                sql.SQL(q.history_add_column).format(
                    history=target, column=ident, type=sql.SQL(column.pg_type)
                )
            )
        elif _BASE.get(found.base, found.base) != column.pg_type:
            conn.execute(
                sql.SQL(q.history_retype_column).format(
                    history=target, column=ident, type=sql.SQL(column.pg_type)
                )
            )


# --- `importer history FORM KEY` ---------------------------------------------------------------


@dataclass(frozen=True)
class RowVersion:
    """One version of a keyed row: its values, the job and Excel row that wrote it and
    when; for an earlier version, the job that replaced it and when (None: current)."""

    values: dict[str, Any]  # field name -> value
    job_id: int | None
    row_number: int | None
    written_at: datetime | None
    replaced_by: int | None = None
    replaced_at: datetime | None = None
    corrects: int | None = None  # its job is a correction of this import (the same row)

    def to_json(self) -> dict[str, Any]:
        def plain(value: Any) -> Any:
            if isinstance(value, datetime) or hasattr(value, "isoformat"):
                return value.isoformat()
            if value is not None and not isinstance(value, str | int | float | bool):
                return str(value)
            return value

        return {
            "values": {k: plain(v) for k, v in self.values.items()},
            "job": self.job_id,
            "row_number": self.row_number,
            "written_at": plain(self.written_at),
            "replaced_by": self.replaced_by,
            "replaced_at": plain(self.replaced_at),
            "corrects": self.corrects,
        }


@dataclass(frozen=True)
class KeyHistory:
    form: str
    key: dict[str, str]  # key field -> the value asked for
    current: RowVersion | None  # None: no row holds the key now (an undo removed it)
    earlier: list[RowVersion]  # newest first

    def to_json(self) -> dict[str, Any]:
        return {
            "form": self.form,
            "key": self.key,
            "current": self.current.to_json() if self.current else None,
            "earlier": [v.to_json() for v in self.earlier],
        }


def key_history(conn: Connection, form: Form, key: Sequence[str], limit: int = 100) -> KeyHistory:
    """The row under ``key`` (one text per key field, cast to the column's type) now, and
    its earlier versions. UsageError for a form without a key or a value that is not of its
    type; NotFoundError when neither the row nor any version has the key."""
    if not form.key:
        raise UsageError(f"form {form.name!r} has no key: its rows are appended, never replaced")
    if len(key) != len(form.key):
        raise UsageError(
            f"form {form.name!r} is keyed on {', '.join(form.key)}: give "
            f"{len(form.key)} value{'s' if len(form.key) > 1 else ''}, one per key field"
        )
    table = live_table(conn, form)
    by_field = {c.field: c for c in table.columns}
    key_columns = [by_field[f] for f in form.key]
    q = queries()
    parts = {
        "key_columns": sql.SQL(", ").join(sql.Identifier(c.name) for c in key_columns),
        "key_values": sql.SQL(", ").join(
            sql.SQL("{}::{}").format(sql.Literal(v), sql.SQL(c.pg_type))
            for v, c in zip(key, key_columns, strict=True)
        ),
    }
    try:
        with conn.transaction():
            now = conn.execute(
                sql.SQL(q.key_current).format(table=table.identifier, **parts)
            ).fetchone()
            earlier_rows: list[dict[str, Any]] = []
            present = conn.execute(q.history_exists, {"name": f'{SCHEMA}."{form.name}"'})
            found = present.fetchone()
            history = history_identifier(form.name)
            if found is not None and found["present"] and now is not None:
                if table.job_column is not None:
                    # From the job that wrote the current row, back through the jobs that
                    # wrote each earlier version (the BRIN index finds each job's versions).
                    statement = sql.SQL(q.key_versions).format(
                        history=history, h_key=_key_of("h", key_columns), **parts
                    )
                    params = {"job": now[table.job_column], "limit": limit}
                else:
                    statement = sql.SQL(q.key_versions_scan).format(history=history, **parts)
                    params = {"limit": limit}
                earlier_rows = conn.execute(statement, params).fetchall()
    except DatabaseError as exc:
        if exc.sqlstate and exc.sqlstate[:2] in ("22",):  # a value not of the column's type
            raise UsageError(f"key {', '.join(key)}: {str(exc).split(': ', 1)[-1]}") from None
        raise
    asked = dict(zip(form.key, key, strict=True))
    if now is None and not earlier_rows:
        raise NotFoundError(
            f"form {form.name!r} has no row with {_shown(asked)}",
            what=Missing.ROW,
            key=_shown(asked),
        )
    current = None
    if now is not None:
        current = RowVersion(
            values={c.field: now[c.name] for c in table.columns},
            job_id=now.get(table.job_column) if table.job_column else None,
            row_number=now.get(table.row_column) if table.row_column else None,
            written_at=now.get(table.written_column) if table.written_column else None,
        )
    earlier = [
        RowVersion(
            values={c.field: r.get(c.name) for c in table.columns},
            job_id=r["version_job"],
            row_number=r["version_row"],
            written_at=r["version_written_at"],
            replaced_by=r["replaced_by_job"],
            replaced_at=r["replaced_at"],
        )
        for r in earlier_rows
    ]
    return KeyHistory(form.name, asked, *_with_origins(conn, current, earlier))


def _with_origins(
    conn: Connection, current: RowVersion | None, earlier: list[RowVersion]
) -> tuple[RowVersion | None, list[RowVersion]]:
    """Each version written by a correction names the import it corrects."""
    from importer.repositories.corrections import origins_of

    versions = [v for v in (current, *earlier) if v is not None]
    found = origins_of(conn, [v.job_id for v in versions if v.job_id is not None])
    if not found:
        return current, earlier

    def named(version: RowVersion) -> RowVersion:
        origin = found.get(version.job_id) if version.job_id is not None else None
        return replace(version, corrects=origin) if origin is not None else version

    return (named(current) if current else None), [named(v) for v in earlier]


def _key_of(alias: str, columns: Sequence[Any]) -> sql.Composable:
    return sql.SQL(", ").join(sql.Identifier(alias, c.name) for c in columns)


def _shown(key: dict[str, str]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in key.items())


# --- retention ---------------------------------------------------------------------------------


def purge_history(
    conn: Connection, form: Form, older_than_seconds: float, *, dry_run: bool = False
) -> tuple[int, int]:
    """Remove the versions replaced by the form's jobs that ended before the cutoff, a job
    at a time (each its own short transaction, so that imports and claims never wait
    long); those jobs can no longer be undone. Returns (jobs, rows); ``dry_run``: counts."""
    if not form.key or table_info(conn, SCHEMA, form.name) is None:
        return 0, 0
    q = queries()
    history = history_identifier(form.name)
    if dry_run:
        counted = conn.execute(
            sql.SQL(q.count_purgeable_history).format(history=history),
            {"seconds": older_than_seconds},
        ).fetchone()
        return (counted["jobs"], counted["rows"]) if counted else (0, 0)
    statement = sql.SQL(q.purge_history).format(history=history)
    jobs = rows = 0
    while True:
        with conn.transaction():
            found = conn.execute(
                statement, {"form": form.name, "seconds": older_than_seconds, "jobs": 1}
            ).fetchone()
        if found is None or not found["jobs"]:
            return jobs, rows
        jobs += found["jobs"]
        rows += found["rows"]
