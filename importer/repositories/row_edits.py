"""Cells a sender changed in an import's rejected rows, kept until the rows go back as a
correction (SQL in sql/queries/row_edits.sql, the table of migration 0020); each account's
own, by the import's id and the row's Excel number."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from psycopg.types.json import Jsonb

from importer.database import Connection, queries


@dataclass(frozen=True)
class RowEdit:
    """A rejected row's changed cells ({column: value as typed}) and its problems with them
    ((column, value, message); none: the row is fixed)."""

    row: int
    cells: dict[str, str | None]
    problems: list[tuple[str | None, str | None, str]]

    @property
    def fixed(self) -> bool:
        return not self.problems


def save(conn: Connection, job_id: int, user_id: int, edits: Sequence[RowEdit]) -> None:
    with conn.transaction(), conn.cursor() as cursor:
        cursor.executemany(
            queries().save_row_edit,
            [
                {
                    "job_id": job_id,
                    "user_id": user_id,
                    "row": edit.row,
                    "cells": Jsonb(edit.cells),
                    "problems": Jsonb([list(p) for p in edit.problems]),
                }
                for edit in edits
            ],
        )


def edits(
    conn: Connection, job_id: int, user_id: int, rows: Sequence[int] | None = None
) -> dict[int, RowEdit]:
    """The account's edited rows of the import (``rows``: of these only)."""
    found = conn.execute(
        queries().row_edits,
        {"job_id": job_id, "user_id": user_id, "rows": list(rows) if rows is not None else None},
    ).fetchall()
    return {int(r["row_number"]): _edit(r) for r in found}


def _edit(row: Mapping[str, object]) -> RowEdit:
    cells = row["cells"]
    problems = row["problems"]
    assert isinstance(cells, dict) and isinstance(problems, list)
    return RowEdit(
        int(str(row["row_number"])),
        {str(k): (None if v is None else str(v)) for k, v in cells.items()},
        [(p[0], p[1], str(p[2])) for p in problems],
    )


def forget(conn: Connection, job_id: int, user_id: int, rows: Sequence[int]) -> None:
    conn.execute(
        queries().forget_row_edits, {"job_id": job_id, "user_id": user_id, "rows": list(rows)}
    )
