"""A set-based guess of the staged rows a table's constraints will refuse.

Isolating refused rows (batches.py, the session's isolating function) tries ranges of the
batch under subtransactions and halves a refused one: with 1% of rows refused, ~160 small
statements per 1,000 rows, each paying a subtransaction's start. Most refusals come from a
row's own values (a CHECK, NOT NULL, a foreign key whose key is missing), which one query
over the staged batch finds: the function then tries each such suspect alone and the rows
between them in one statement each, in the file's order. The guess is only a plan: a row
it misses (a unique index, a trigger) is still isolated by halving its range, a row it
wrongly suspects is stored when tried alone, and a guess the server cannot evaluate (a
CHECK calling a function of a domain type the staging column lacks) falls back to ranges.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from psycopg import sql

from importer.database import Connection, queries
from importer.repositories.form_tables import ROW_COLUMN, table_info


@dataclass(frozen=True)
class RowCheck:
    """One constraint a row can break by its own values, as the catalog has it."""

    kind: str  # 'c' CHECK, 'f' FOREIGN KEY, 'n' NOT NULL
    columns: tuple[str, ...]
    expression: str | None = None  # CHECK
    referenced: sql.Identifier | None = None  # FOREIGN KEY
    referenced_columns: tuple[str, ...] = ()
    match_full: bool = False


def row_checks(conn: Connection, schema: str, name: str) -> list[RowCheck]:
    """The table's CHECK, NOT NULL and (readable, not self-referencing) foreign keys."""
    info = table_info(conn, schema, name)
    if info is None:
        return []
    found: list[RowCheck] = []
    for r in conn.execute(queries().form_table_row_checks, {"oid": info.oid}).fetchall():
        referenced = (
            sql.Identifier(r["referenced_schema"], r["referenced_table"])
            if r["referenced_table"] is not None
            else None
        )
        found.append(
            RowCheck(
                kind=str(r["kind"]),
                columns=tuple(r["columns"]),
                expression=r["expression"],
                referenced=referenced,
                referenced_columns=tuple(r["referenced_columns"] or ()),
                match_full=r["match"] == "f",
            )
        )
    return found


def _broken_by(check: RowCheck) -> sql.Composable:
    """The condition on a staged row (alias s) under which the constraint refuses it."""
    if check.kind == "n":
        return sql.SQL("s.{} IS NULL").format(sql.Identifier(check.columns[0]))
    if check.kind == "c":
        # A CHECK refuses only FALSE (NULL passes); its column names are the staging's.
        return sql.SQL("({}) IS FALSE").format(sql.SQL(check.expression or "TRUE"))
    assert check.referenced is not None
    mine = [sql.Identifier("s", c) for c in check.columns]
    theirs = [sql.Identifier("r", c) for c in check.referenced_columns]
    present = sql.SQL(" AND ").join(sql.SQL("{} IS NOT NULL").format(c) for c in mine)
    matched = sql.SQL(" AND ").join(
        sql.SQL("{} = {}").format(t, m) for t, m in zip(theirs, mine, strict=True)
    )
    missing = sql.SQL("({present} AND NOT EXISTS (SELECT 1 FROM {table} AS r WHERE {on}))").format(
        present=present, table=check.referenced, on=matched
    )
    if not check.match_full or len(mine) == 1:
        return missing  # MATCH SIMPLE: a key with a NULL in it references nothing
    nonnull = sql.SQL("num_nonnulls({}) NOT IN (0, {})").format(
        sql.SQL(", ").join(mine), sql.Literal(len(mine))
    )
    return sql.SQL("({} OR {})").format(nonnull, missing)


def suspects_query(
    checks: Sequence[RowCheck], copied: Sequence[str], staging: sql.Identifier
) -> sql.Composed | None:
    """The row numbers of the staged rows some check refuses, in order; None when no check
    is about the copied columns alone (a column left to its default is not staged)."""
    have = set(copied)
    conditions = [_broken_by(c) for c in checks if c.columns and set(c.columns) <= have]
    if not conditions:
        return None
    return sql.SQL(
        "SELECT coalesce(array_agg(s.{row} ORDER BY s.{row}), ARRAY[]::integer[])"
        " FROM {staging} AS s WHERE {conditions}"
    ).format(
        row=sql.Identifier(ROW_COLUMN),
        staging=staging,
        conditions=sql.SQL(" OR ").join(conditions),
    )
