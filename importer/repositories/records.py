"""Stored rows of keyed forms, looked up by record key (what a re-import would change)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from importer.database import Connection, queries

# Keys per statement: a large sheet's keys go in slices, never one huge array.
_CHUNK = 5000


def stored_records(conn: Connection, form: str, record_keys: Sequence[str]) -> dict[str, Any]:
    """record key -> the stored data, for the keys that have a row."""
    found: dict[str, Any] = {}
    for start in range(0, len(record_keys), _CHUNK):
        rows = conn.execute(
            queries().stored_records,
            {"form": form, "record_keys": list(record_keys[start : start + _CHUNK])},
        ).fetchall()
        found.update((row["record_key"], row["data"]) for row in rows)
    return found
