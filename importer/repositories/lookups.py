"""Lookups against a table (or another form's table), and the claims of uniqueness a job's
rows made (forms/stages.py applies both).

A lookup is resolved a batch at a time: one query for the batch's texts not seen before
(``= ANY(...)``), its answers cached for the job. A text not found gets a few close known
values: its neighbours in the match column's order (and its first letters'), ranked by
similarity; a couple of index probes per miss, never a scan of the whole table when the
match column is indexed (with ``ignore_case``: an index on ``lower(column)``).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from psycopg import sql

from importer.database import Connection, queries
from importer.errors import FormError, NotFoundError
from importer.fields.field import Lookup
from importer.forms.definition import Form
from importer.repositories.form_tables import live_table, table_info

_SUGGESTED_PER_BATCH = 50  # misses of one batch that get suggestions (bounded work)


@dataclass(frozen=True)
class _Target:
    table: sql.Identifier
    match: sql.Identifier
    returns: sql.Identifier
    shown: str  # schema.table, for messages
    match_name: str  # the match column's name


def lookup_target(conn: Connection, lookup: Lookup, *, form: str) -> _Target:
    """The table and columns a lookup reads; FormError (exit 2) naming the form and what is
    missing when the table, a column or the right to read it is not there."""
    if lookup.form is not None:
        from importer.repositories.forms import get_form

        try:
            other, _ = get_form(conn, lookup.form)
        except NotFoundError:
            raise FormError(
                f"form {form!r}: lookup: there is no form {lookup.form!r} (add it first)",
                form=form,
            ) from None
        table = live_table(conn, other)
        columns = {}
        for key in ("match", "returns"):
            name = getattr(lookup, key)
            try:
                columns[key] = table.column(name).name
            except KeyError:
                raise FormError(
                    f"form {form!r}: lookup: form {lookup.form!r} has no field {name!r}",
                    form=form,
                ) from None
        schema, name = table.schema, table.name
    else:
        assert lookup.table is not None
        schema, name = lookup.table.split(".", 1)
        columns = {"match": lookup.match, "returns": lookup.returns}
    info = table_info(conn, schema, name)
    where = f"{schema}.{name}"
    if info is None:
        raise FormError(f"form {form!r}: lookup: table {where} does not exist", form=form)
    if not info.can_select:
        raise FormError(
            f"form {form!r}: lookup: role {info.role} may not SELECT on {where} "
            f"(GRANT SELECT ON {where} TO {info.role})",
            form=form,
        )
    for key, column in columns.items():
        if column not in info.columns:
            raise FormError(
                f"form {form!r}: lookup: {where} has no column {column} (its {key!r})", form=form
            )
    return _Target(
        sql.Identifier(schema, name),
        sql.Identifier(columns["match"]),
        sql.Identifier(columns["returns"]),
        where,
        columns["match"],
    )


def check_lookups(conn: Connection, form: Form) -> list[str]:
    """``forms add``: every lookup of the form can be read (FormError otherwise); a note for
    each whose match column no index serves (each batch's query then reads the table)."""
    notes = []
    for f in form.fields:
        if f.lookup is None:
            continue
        target = lookup_target(conn, f.lookup, form=form.name)
        if not _indexed(conn, target, f.lookup.ignore_case):
            column = target.match_name
            wanted = f"lower({column})" if f.lookup.ignore_case else column
            notes.append(
                f"form {form.name!r}: lookup of field {f.name!r}: no index on {wanted} of "
                f"{target.shown}, so each batch's lookup reads the whole table "
                f"(CREATE INDEX ON {target.shown} ({wanted}))"
            )
    return notes


def _indexed(conn: Connection, target: _Target, ignore_case: bool) -> bool:
    """Whether an index's first key is the match column as the lookup compares it."""
    quoted = target.match.as_string(conn)
    bare = target.match_name
    plain = {n for c in {bare, quoted} for n in (c, f"{c}::text", f"({c})::text")}
    wanted = {f"lower({c})" for c in plain} if ignore_case else plain
    rows = conn.execute(
        queries().lookup_index_columns, {"table": target.table.as_string(conn)}
    ).fetchall()
    return any(str(r["first_key"]) in wanted for r in rows)


class TableLookups:
    """The lookups of one job (or check), on a connection of its own: the reader's thread
    resolves them while the writer's commits the previous batch."""

    def __init__(self, conn: Connection, form: Form) -> None:
        self.conn = conn
        self.form = form
        self._targets: dict[Lookup, _Target] = {}
        self._found: dict[Lookup, dict[str, list[object]]] = {}
        self._near: dict[Lookup, dict[str, list[str]]] = {}

    def _target(self, lookup: Lookup) -> _Target:
        if lookup not in self._targets:
            self._targets[lookup] = lookup_target(self.conn, lookup, form=self.form.name)
        return self._targets[lookup]

    def _statement(self, name: str, lookup: Lookup) -> sql.Composed:
        target = self._target(lookup)
        text = sql.SQL("{}::text").format(target.match)
        key = sql.SQL("lower({})").format(text) if lookup.ignore_case else text
        return sql.SQL(getattr(queries(), name)).format(
            key=key, match=target.match, returns=target.returns, table=target.table
        )

    def find(self, lookup: Lookup, texts: Sequence[str]) -> Mapping[str, Sequence[object]]:
        found = self._found.setdefault(lookup, {})
        wanted = [t for t in texts if t not in found]
        if wanted:
            for t in wanted:
                found[t] = []
            rows = self.conn.execute(
                self._statement("lookup_rows", lookup), {"texts": wanted}
            ).fetchall()
            for row in rows:
                found[row["wanted"]].append(row["value"])
        return {t: found[t] for t in texts if found[t]}

    def suggest(self, lookup: Lookup, texts: Sequence[str]) -> Mapping[str, Sequence[str]]:
        near = self._near.setdefault(lookup, {})
        wanted = [t for t in texts if t not in near][:_SUGGESTED_PER_BATCH]
        if wanted:
            seen: dict[str, list[str]] = {t: [] for t in wanted}
            rows = self.conn.execute(
                self._statement("lookup_neighbours", lookup),
                {"texts": wanted * 2, "probes": [*wanted, *(t[:3] for t in wanted)]},
            ).fetchall()
            for row in rows:
                if row["shown"] is not None and row["shown"] not in seen[row["wanted"]]:
                    seen[row["wanted"]].append(row["shown"])
            for text, candidates in seen.items():
                near[text] = _closest(text, candidates, lookup.ignore_case)
        return {t: near[t] for t in texts if near.get(t)}


def _closest(text: str, candidates: Sequence[str], ignore_case: bool) -> list[str]:
    """The candidates most like the text (at least 60% alike), best first."""

    def alike(candidate: str) -> float:
        one, other = (text.lower(), candidate.lower()) if ignore_case else (text, candidate)
        return difflib.SequenceMatcher(None, one.lower(), other.lower()).ratio()

    scored = sorted(((alike(c), c) for c in candidates), key=lambda pair: -pair[0])
    return [c for score, c in scored if score >= 0.6][:3]


# --- uniqueness within a file -----------------------------------------------------------------


def write_claims(conn: Connection, job_id: int, claims: Sequence[tuple[str, str, int]]) -> None:
    """The batch's claims, inside its transaction."""
    if claims:
        conn.execute(
            queries().write_unique_claims,
            {
                "id": job_id,
                "sets": [c[0] for c in claims],
                "values": [c[1] for c in claims],
                "rows": [c[2] for c in claims],
            },
        )


def job_claims(conn: Connection, job_id: int) -> list[tuple[str, str, int]]:
    """What a job's committed rows claimed: a resumed run starts from these."""
    rows = conn.execute(queries().job_unique_claims, {"id": job_id}).fetchall()
    return [(r["unique_set"], r["value"], int(r["row_number"])) for r in rows]
