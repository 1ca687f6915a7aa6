"""Stored form definitions: every change is a new version; jobs keep the one they started with."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from importer.database import Connection, queries
from importer.errors import FormError, Missing, NotFoundError
from importer.forms.definition import Form
from importer.repositories.form_tables import prepare_table


@dataclass(frozen=True)
class FormSummary:
    name: str
    version: int
    fields: int
    key: tuple[str, ...]
    created_at: datetime
    updated_at: datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "version": self.version,
            "fields": self.fields,
            "key": list(self.key),
            "created_at": self.created_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
        }


@dataclass(frozen=True)
class SavedForm:
    version: int  # the form's version now (unchanged definition: the one it had)
    notes: tuple[str, ...] = ()  # what the user should know of its table, one line each


def save_form(conn: Connection, form: Form) -> SavedForm:
    """Create the form or add a version; an unchanged definition keeps its version. In the
    same transaction its table is made ready (form_tables.prepare_table): forms.<name>
    created or brought to this version, or the user's own table checked. A FormError there
    stores nothing."""
    with conn.transaction():
        previous = _stored_current(conn, form.name)
        version = _save_definition(conn, form)
        notes = prepare_table(conn, form, previous, version)
    return SavedForm(version, tuple(notes))


def _stored_current(conn: Connection, name: str) -> Form | None:
    """The form's current stored version, locked until the transaction ends (None: a new
    form, or one this code no longer reads: its types are then taken from its table)."""
    row = conn.execute(queries().form_lock, {"name": name}).fetchone()
    if row is None:
        return None
    try:
        return Form.from_json(row["definition"])
    except FormError:
        return None


def _save_definition(conn: Connection, form: Form) -> int:
    definition = form.to_json()
    q = queries()
    with conn.transaction():
        created = conn.execute(
            q.form_insert_if_new, {"name": form.name, "definition": Jsonb(definition)}
        ).fetchone()
        if created is not None:
            conn.execute(
                q.form_version_insert,
                {"form_id": created["id"], "version": 1, "definition": Jsonb(definition)},
            )
            return 1
        current = conn.execute(q.form_lock, {"name": form.name}).fetchone()
        assert current is not None  # forms rows are never deleted
        if current["definition"] == definition:
            return int(current["version"])
        version = int(current["version"]) + 1
        conn.execute(
            q.form_update,
            {"id": current["id"], "version": version, "definition": Jsonb(definition)},
        )
        conn.execute(
            q.form_version_insert,
            {"form_id": current["id"], "version": version, "definition": Jsonb(definition)},
        )
        return version


def get_form(conn: Connection, name: str, version: int | None = None) -> tuple[Form, int]:
    """The form (current version, or the one asked for); NotFoundError if unknown."""
    q = queries()
    if version is None:
        row = conn.execute(q.form_current, {"name": name}).fetchone()
    else:
        row = conn.execute(q.form_at_version, {"name": name, "version": version}).fetchone()
    if row is None:
        if version is not None and conn.execute(q.form_current, {"name": name}).fetchone():
            raise NotFoundError(
                f"form {name!r} has no version {version}",
                what=Missing.FORM_VERSION,
                key=(name, version),
            )
        known = [r["name"] for r in conn.execute(q.form_list)]
        raise NotFoundError(_unknown_form(name, known), what=Missing.FORM, key=name)
    try:
        return Form.from_json(row["definition"]), int(row["version"])
    except FormError as exc:
        raise FormError(f"form {name!r} version {row['version']}: {exc}") from None


def _unknown_form(name: str, known: list[str]) -> str:
    """The refusal of an unknown form name: the closest known one, and the known ones."""
    if not known:
        return f"no form named {name!r}; there are no forms yet (importer forms add FILE.toml)"
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    maybe = f"; did you mean {close[0]!r}?" if close else ""
    shown = ", ".join(known[:10]) + (f" and {len(known) - 10} more" if len(known) > 10 else "")
    return (
        f"no form named {name!r}{maybe} (forms: {shown}; add one with: importer forms add"
        " FILE.toml)"
    )


def current_forms(conn: Connection) -> list[tuple[Form, int]]:
    """Every form at its current version (forms that no longer parse are left out)."""
    found = []
    for row in conn.execute(queries().form_list).fetchall():
        try:
            found.append((Form.from_json(row["definition"]), int(row["version"])))
        except FormError:
            continue
    return found


def list_forms(conn: Connection) -> list[FormSummary]:
    out = []
    for row in conn.execute(queries().form_list).fetchall():
        definition = row["definition"]
        out.append(
            FormSummary(
                name=row["name"],
                version=int(row["version"]),
                fields=len(definition.get("fields", [])),
                key=tuple(definition.get("key", [])),
                created_at=row["created_at"],
                updated_at=row["updated_at"],
            )
        )
    return out
