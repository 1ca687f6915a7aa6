"""Stored form definitions: every change is a new version; jobs keep the one they started with."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from psycopg.types.json import Jsonb

from importer.database import Connection, queries
from importer.errors import FormError, Missing, NotFoundError, StateError
from importer.forms.definition import Form
from importer.repositories.form_tables import prepare_table
from importer.repositories.history import prepare_history


@dataclass(frozen=True)
class FormSummary:
    name: str
    version: int
    fields: int
    key: tuple[str, ...]
    created_at: datetime
    updated_at: datetime
    retired_at: datetime | None = None  # `forms remove`: not listed, chosen nor submitted to

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "version": self.version,
            "fields": self.fields,
            "key": list(self.key),
            "created_at": self.created_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
            "retired_at": self.retired_at.isoformat() if self.retired_at else None,
        }


@dataclass(frozen=True)
class SavedForm:
    version: int  # the form's version now (unchanged definition: the one it had)
    notes: tuple[str, ...] = ()  # what the user should know of its table, one line each


# The losses named in a refusal; the rest are counted ("and 3 more").
_LOSSES_SHOWN = 3


def save_form(conn: Connection, form: Form, *, confirmed: bool | None = None) -> SavedForm:
    """Create the form or add a version; an unchanged definition keeps its version. What a
    new version loses of the stored one (forms/changes.py: its key, a field, a requirement,
    a rule, its table) is, with ``confirmed`` False, refused with a FormError; with True,
    stored and named in the notes; with None (code that means the change), not looked at.
    In the same transaction its table is made ready (form_tables.prepare_table):
    forms.<name> created or brought to this version, or the user's own table checked. A
    FormError there stores nothing. A retired form added again is in use again."""
    from importer.forms.changes import describe_losses

    with conn.transaction():
        previous, stored_version = _stored_current(conn, form.name)
        losses = []
        if confirmed is not None and previous is not None:
            losses = describe_losses(previous, form)
        if losses and not confirmed:
            raise FormError(_refusal(form.name, stored_version, losses), form=form.name)
        version = _save_definition(conn, form)
        notes = [f"accepted with --yes: {loss}" for loss in losses]
        notes += prepare_table(conn, form, previous, version)
        prepare_history(conn, form)  # a keyed form's overwritten values (history.py)
    return SavedForm(version, tuple(notes))


def _refusal(name: str, stored_version: int, losses: list[str]) -> str:
    shown = ", ".join(losses[:_LOSSES_SHOWN])
    more = len(losses) - _LOSSES_SHOWN
    if more > 0:
        shown += f" (and {more} more)"
    return (
        f"form {name!r} version {stored_version + 1} would {shown}; nothing stored: add it"
        f" again with --yes to replace version {stored_version}, or give the new form"
        " another name"
    )


def _stored_current(conn: Connection, name: str) -> tuple[Form | None, int]:
    """The form's current stored version and its number, locked until the transaction ends
    (None, 0: a new form; None and its number: one this code no longer reads, its types
    then taken from its table)."""
    row = conn.execute(queries().form_lock, {"name": name}).fetchone()
    if row is None:
        return None, 0
    try:
        return Form.from_json(row["definition"]), int(row["version"])
    except FormError:
        return None, int(row["version"])


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
            conn.execute(q.form_unretire, {"id": current["id"]})
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


def get_form(
    conn: Connection, name: str, version: int | None = None, *, retired: bool = False
) -> tuple[Form, int]:
    """The form (current version, or the one asked for); NotFoundError if unknown. Its
    current version is refused (FormError) once the form is retired, unless ``retired``:
    an older version asked for by number (a job's) is always given."""
    q = queries()
    if version is None:
        row = conn.execute(q.form_current, {"name": name}).fetchone()
        if row is not None and row["retired_at"] is not None and not retired:
            raise FormError(_retired(name, int(row["version"]), row["retired_at"]), form=name)
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


def _retired(name: str, version: int, when: datetime) -> str:
    return (
        f"form {name!r} is retired (since {when.astimezone(UTC):%Y-%m-%d %H:%M} UTC); bring it"
        " back with:"
        f" importer forms show {name} --version {version} > {name}.toml; importer forms add"
        f" {name}.toml"
    )


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


def list_forms(conn: Connection, *, retired: bool = False) -> list[FormSummary]:
    """The forms in use, by name (``retired``: the retired ones too)."""
    q = queries()
    out = []
    for row in conn.execute(q.form_list_all if retired else q.form_list).fetchall():
        definition = row["definition"]
        out.append(
            FormSummary(
                name=row["name"],
                version=int(row["version"]),
                fields=len(definition.get("fields", [])),
                key=tuple(definition.get("key", [])),
                created_at=row["created_at"],
                updated_at=row["updated_at"],
                retired_at=row["retired_at"],
            )
        )
    return out


@dataclass(frozen=True)
class RetiredForm:
    name: str
    version: int  # its current version, the one `forms add` of it would bring back
    retired_at: datetime
    already: bool  # it was retired before this call


def retire_form(conn: Connection, name: str) -> RetiredForm:
    """Mark the form retired; its versions, its table and its rows stay. Refused (a
    StateError naming them) while a pending or running job still needs it; NotFoundError
    for a name never added."""
    q = queries()
    with conn.transaction():
        row = conn.execute(q.form_lock, {"name": name}).fetchone()
        if row is None:
            get_form(conn, name)  # the refusal of an unknown name, with the close ones
            raise AssertionError("get_form refuses an unknown form")  # pragma: no cover
        if row["retired_at"] is not None:
            return RetiredForm(name, int(row["version"]), row["retired_at"], already=True)
        waiting = conn.execute(q.form_jobs_unfinished, {"name": name}).fetchall()
        if waiting:
            listed = ", ".join(f"{j['id']} ({j['status']})" for j in waiting[:10])
            if len(waiting) > 10:
                listed += f" and {len(waiting) - 10} more"
            raise StateError(
                f"form {name!r} is still needed by job{'s' if len(waiting) > 1 else ''}"
                f" {listed}; let them finish (or cancel them: importer cancel JOB_ID), then"
                " remove it"
            )
        done = conn.execute(q.form_retire, {"id": row["id"]}).fetchone()
        assert done is not None  # locked and not retired above
        return RetiredForm(name, int(row["version"]), done["retired_at"], already=False)
