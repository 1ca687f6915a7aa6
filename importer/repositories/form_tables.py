"""Where a form's rows live: a typed table, ``forms.<form name>`` by default.

A form's table has one column per field, typed by its field type's ``pg_type`` (bigint,
numeric, date, timestamptz, boolean, text), and the tool's own columns: ``import_job_id``
(the job that wrote the row), ``row_number`` (its Excel row) and ``written_at`` (when its
values were last written). ``(import_job_id, row_number)`` is unique (the second guard of
exactly once) and, for a form with a ``key``, so are the key's columns. Field columns are
nullable: validation decides what is required, and a column added by a later version must
not refuse the rows already there.

A form with ``table = "schema.table"`` writes into a table of the user's instead: its fields
go into the columns of their names (or their ``column``), the job into ``job_column`` when
the form names one. ``forms add`` checks such a table (check_user_table) and the tool never
alters it.

Names are quoted with psycopg.sql.Identifier whatever the form or a field is called; a field
named like one of the tool's columns gets ``_field`` appended, and names longer than
PostgreSQL's 63 bytes are cut and numbered so that no two collide.

``FormTable`` is what the batch writer, the check's preview and the readers know of a table:
they never build its names themselves. ``table_for(form)`` says what a form's version writes
(its columns typed by its fields); ``live_table(conn, form)`` says the same with each
column's type as the table has it now (a column a later version widened, a user's integer
column): the type a writer sends that column's values as.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, replace

from psycopg import sql

from importer.database import Connection, queries
from importer.errors import FormError
from importer.forms.definition import Form

SCHEMA = "forms"
JOB_COLUMN = "import_job_id"
ROW_COLUMN = "row_number"
WRITTEN_COLUMN = "written_at"
TOOL_COLUMNS = (JOB_COLUMN, ROW_COLUMN, WRITTEN_COLUMN)
_MAX_NAME_BYTES = 63  # PostgreSQL's NAMEDATALEN - 1

# The catalog's base type names of the types the tool's tables use, and the other way.
TYPNAMES = {
    "bigint": "int8",
    "numeric": "numeric",
    "date": "date",
    "timestamptz": "timestamptz",
    "boolean": "bool",
    "text": "text",
}
_PG_TYPES = {typname: pg_type for pg_type, typname in TYPNAMES.items()}


@dataclass(frozen=True)
class TableColumn:
    field: str  # the form's field
    name: str  # its column in the table
    pg_type: str  # bigint | numeric | date | timestamptz | boolean | text (live_table: any)


@dataclass(frozen=True)
class FormTable:
    """A form's table as the writers and readers see it."""

    schema: str
    name: str
    columns: tuple[TableColumn, ...]  # one per field, in field order
    key: tuple[str, ...]  # the key's column names (empty: an append form)
    job_column: str | None  # None: a table of the user's with no column for the job
    row_column: str | None
    written_column: str | None
    owned: bool  # created and changed by the tool (False: the user's own table)

    @property
    def identifier(self) -> sql.Identifier:
        return sql.Identifier(self.schema, self.name)

    @property
    def shown(self) -> str:
        """schema.name, for messages."""
        return f"{self.schema}.{self.name}"

    def column(self, field: str) -> TableColumn:
        for column in self.columns:
            if column.field == field:
                return column
        raise KeyError(field)


def _unique(name: str, used: set[str]) -> str:
    """The name, cut to 63 bytes and numbered when taken (ASCII: field names are)."""
    candidate = name[:_MAX_NAME_BYTES]
    number = 2
    while candidate in used:
        suffix = f"_{number}"
        candidate = name[: _MAX_NAME_BYTES - len(suffix)] + suffix
        number += 1
    used.add(candidate)
    return candidate


def names_for(fields: Iterable[str]) -> list[str]:
    """The table's column for each of these field names, in order."""
    used = set(TOOL_COLUMNS)
    return [_unique(f"{f}_field" if f in TOOL_COLUMNS else f, used) for f in fields]


def column_names(form: Form) -> list[str]:
    """The table's column for each field, in field order."""
    if form.table is not None:
        return [f.column or f.name for f in form.fields]
    return names_for(f.name for f in form.fields)


def table_for(form: Form) -> FormTable:
    """The form's table: the tool's own ``forms.<name>``, or the user's ``table``."""
    columns = tuple(
        TableColumn(f.name, name, f.spec.pg_type)
        for f, name in zip(form.fields, column_names(form), strict=True)
    )
    by_field = {c.field: c.name for c in columns}
    key = tuple(by_field[k] for k in form.key)
    if form.table is not None:
        schema, name = form.table.split(".", 1)
        return FormTable(
            schema=schema,
            name=name,
            columns=columns,
            key=key,
            job_column=form.job_column,
            row_column=None,
            written_column=None,
            owned=False,
        )
    return FormTable(
        schema=SCHEMA,
        name=form.name,
        columns=columns,
        key=key,
        job_column=JOB_COLUMN,
        row_column=ROW_COLUMN,
        written_column=WRITTEN_COLUMN,
        owned=True,
    )


def index_name(table: str, what: str) -> str:
    """``<table>:<what>``: no form's table is named so (':' is not allowed in form names), so
    an index never takes another form's table name; cut long names keep a hash of the whole."""
    name = f"{table}:{what}"
    if len(name) <= _MAX_NAME_BYTES:
        return name
    digest = hashlib.sha256(table.encode()).hexdigest()[:8]
    return f"{table[: _MAX_NAME_BYTES - len(what) - 10]}:{digest}:{what}"


def key_index(table: FormTable) -> sql.Identifier:
    return sql.Identifier(table.schema, index_name(table.name, "key"))


def key_index_statement(table: FormTable) -> sql.Composed:
    q = queries()
    return sql.SQL(q.form_table_unique_index).format(
        index=sql.Identifier(index_name(table.name, "key")),
        table=table.identifier,
        columns=sql.SQL(", ").join(sql.Identifier(k) for k in table.key),
    )


def create_statements(table: FormTable) -> list[sql.Composed]:
    """CREATE TABLE IF NOT EXISTS for a table the tool owns, with its unique indexes."""
    assert table.owned and table.job_column and table.row_column and table.written_column
    q = queries()
    fields = [
        sql.SQL("{} {}").format(sql.Identifier(c.name), sql.SQL(c.pg_type)) for c in table.columns
    ]
    own = [
        sql.SQL("{} bigint NOT NULL").format(sql.Identifier(table.job_column)),
        sql.SQL("{} integer NOT NULL").format(sql.Identifier(table.row_column)),
        sql.SQL("{} timestamptz NOT NULL DEFAULT now()").format(
            sql.Identifier(table.written_column)
        ),
    ]
    statements = [
        sql.SQL(q.form_table_create).format(
            table=table.identifier, columns=sql.SQL(", ").join(own + fields)
        ),
        sql.SQL(q.form_table_unique_index).format(
            index=sql.Identifier(index_name(table.name, "job_row")),
            table=table.identifier,
            columns=sql.SQL(", ").join(
                [sql.Identifier(table.job_column), sql.Identifier(table.row_column)]
            ),
        ),
    ]
    if table.key:
        statements.append(key_index_statement(table))
    return statements


def comment_statement(table: FormTable, form: str, version: int) -> sql.Composed:
    comment = f"importer: rows of form {form!r}, version {version}"
    return sql.SQL(queries().form_table_comment).format(
        table=table.identifier, comment=sql.Literal(comment)
    )


# --- the table as the database has it ---------------------------------------------------------


@dataclass(frozen=True)
class ColumnInfo:
    name: str
    shown: str  # its type as PostgreSQL shows it: "character varying(20)"
    base: str  # its base type's catalog name: varchar (a domain's: its base type's)
    optional: bool  # a row may leave it out: nullable, or a default, identity or generated


@dataclass(frozen=True)
class TableInfo:
    oid: int
    relkind: str
    can_select: bool
    can_insert: bool
    can_update: bool
    role: str
    columns: dict[str, ColumnInfo]

    def unique_sets(self, conn: Connection) -> list[frozenset[str]]:
        rows = conn.execute(queries().form_table_unique_column_sets, {"oid": self.oid})
        return [frozenset(r["columns"]) for r in rows.fetchall()]


def table_info(conn: Connection, schema: str, name: str) -> TableInfo | None:
    """The table as the catalog has it; None when there is none of that name."""
    q = queries()
    found = conn.execute(q.form_table_lookup, {"schema": schema, "name": name}).fetchone()
    if found is None:
        return None
    rows = conn.execute(q.form_table_columns, {"oid": found["oid"]}).fetchall()
    columns = {
        r["name"]: ColumnInfo(r["name"], r["shown"], r["base"], bool(r["optional"])) for r in rows
    }
    return TableInfo(
        oid=int(found["oid"]),
        relkind=str(found["relkind"]),
        can_select=bool(found["can_select"]),
        can_insert=bool(found["can_insert"]),
        can_update=bool(found["can_update"]),
        role=str(found["role"]),
        columns=columns,
    )


def live_table(conn: Connection, form: Form) -> FormTable:
    """``table_for(form)`` with each column's type as the table has it now: the type to send
    its values as (a catalog name psycopg knows: bigint, numeric, ..., or int4, varchar,
    float8, timestamp for a user's table). A column the table lacks keeps the field's type."""
    table = table_for(form)
    info = table_info(conn, table.schema, table.name)
    if info is None:
        return table
    columns = []
    for column in table.columns:
        found = info.columns.get(column.name)
        if found is not None:
            column = replace(column, pg_type=_PG_TYPES.get(found.base, found.base))
        columns.append(column)
    return replace(table, columns=tuple(columns))


# --- `forms add`: the table made ready for a version --------------------------------------------

# Changes a column's type may take: every value of the old type has one of the new.
_WIDENINGS = {("bigint", "numeric"), ("date", "timestamptz")}


# The types that widen to each (text: every other).
_NARROWER = {
    "numeric": ("bigint",),
    "timestamptz": ("date",),
    "text": tuple(t for t in TYPNAMES if t != "text"),
}


def widens(old: str, new: str) -> bool:
    """A column of type ``old`` may become ``new`` (bigint -> numeric, date -> timestamptz,
    anything -> text)."""
    return old != new and (new == "text" or (old, new) in _WIDENINGS)


def prepare_table(conn: Connection, form: Form, previous: Form | None, version: int) -> list[str]:
    """Make the form's table ready for this version, in the caller's transaction; return the
    notes for the user. FormError (nothing changed) when the table cannot take it."""
    if form.table is not None:
        return check_user_table(conn, form)
    _evolve_own_table(conn, form, previous, version)
    conn.execute(comment_statement(table_for(form), form.name, version))
    return []


def _refuse(form: Form, message: str) -> FormError:
    return FormError(f"form {form.name!r}: {message}")


def _evolve_own_table(conn: Connection, form: Form, previous: Form | None, version: int) -> None:
    """Create forms.<name>, or bring it to this version: new fields add nullable columns, a
    widened type widens its column; a column of a field this version dropped stays (jobs of
    older versions may still be writing it)."""
    table = table_for(form)
    info = table_info(conn, table.schema, table.name)
    if info is None:
        for statement in create_statements(table):
            conn.execute(statement)
        return
    q = queries()
    before = {f.name: f for f in previous.fields} if previous is not None else {}
    for column in table.columns:
        field = form.field(column.field)
        new = column.pg_type
        earlier = before.get(column.field)
        if earlier is not None and earlier.spec.pg_type not in (new, *_NARROWER.get(new, ())):
            raise _refuse(
                form,
                f"field {field.name!r} cannot change from {earlier.type} "
                f"({earlier.spec.pg_type}) to {field.type} ({new}): the rows already in "
                f"{table.shown} cannot take it; give the field a new name, or make a new form",
            )
        found = info.columns.get(column.name)
        target = sql.Identifier(column.name)
        if found is None:
            conn.execute(
                sql.SQL(q.form_table_add_column).format(
                    table=table.identifier, column=target, type=sql.SQL(new)
                )
            )
            continue
        have = _PG_TYPES.get(found.base, found.base)
        if have == new or (earlier is not None and widens(new, have)):
            continue  # the column already takes this type's values (widened by a version)
        if not widens(have, new):
            raise _refuse(
                form,
                f"field {field.name!r} ({field.type}, {new}) cannot go into column "
                f"{column.name} of {table.shown}, which is {found.shown}: the rows already "
                "there cannot take it; give the field a new name, or make a new form",
            )
        _refuse_under_live_jobs(
            conn, form, version, f"column {column.name} cannot widen from {found.shown} to {new}"
        )
        conn.execute(
            sql.SQL(q.form_table_widen_column).format(
                table=table.identifier, column=target, type=sql.SQL(new)
            )
        )
    _change_key(conn, form, table, version)


def _refuse_under_live_jobs(conn: Connection, form: Form, version: int, what: str) -> None:
    """A batch sends each value typed as its own version's column type (binary COPY) and
    upserts on its own version's key: a column retyped, or a key index replaced, under a job
    still running an earlier version would misread its values or refuse its batches, so such
    a change waits until those jobs are done."""
    found = conn.execute(
        queries().form_table_live_older_jobs, {"form": form.name, "version": version}
    ).fetchall()
    if found:
        jobs = ", ".join(str(r["id"]) for r in found)
        raise _refuse(
            form,
            f"{what} while jobs of earlier versions may still write (jobs {jobs}); add the "
            "form again once they have finished, or cancel them",
        )


def _change_key(conn: Connection, form: Form, table: FormTable, version: int) -> None:
    """The key's unique index follows the form's key; a new key must hold for the rows
    already there."""
    q = queries()
    name = index_name(table.name, "key")
    found = conn.execute(q.form_table_index_columns, {"schema": table.schema, "index": name})
    row = found.fetchone()
    existing = tuple(row["columns"] or ()) if row is not None else ()
    if existing == table.key:
        return
    if table.key:
        columns = sql.SQL(", ").join(sql.Identifier(k) for k in table.key)
        clashes = conn.execute(
            sql.SQL(q.form_table_duplicates).format(table=table.identifier, columns=columns)
        ).fetchall()
        if clashes:
            shown = ", ".join(
                "(" + ", ".join(str(r[k]) for k in table.key) + f") x{r['n']}" for r in clashes
            )
            raise _refuse(
                form,
                f"the key cannot become ({', '.join(form.key)}): {table.shown} already holds "
                f"rows that share it: {shown}; remove those rows, or keep the key",
            )
    if existing:
        _refuse_under_live_jobs(
            conn, form, version, f"the key cannot change from ({', '.join(existing)})"
        )
    conn.execute(sql.SQL(q.form_table_drop_index).format(index=sql.Identifier(table.schema, name)))
    if table.key:
        conn.execute(key_index_statement(table))


# --- a table of the user's ----------------------------------------------------------------------

# The base types of a user's column that take a field type's values.
_TAKES: dict[str, tuple[str, ...]] = {
    "integer": ("int8", "numeric", "float8", "float4", "int4", "int2"),
    "decimal": ("numeric", "float8", "float4"),
    "date": ("date", "timestamptz"),
    "datetime": ("timestamptz", "timestamp"),
    "boolean": ("bool",),
    "string": ("text", "varchar", "bpchar"),
    "email": ("text", "varchar", "bpchar"),
    "enum": ("text", "varchar", "bpchar"),
}
_SHOWN = {
    "int8": "bigint",
    "int4": "integer",
    "int2": "smallint",
    "numeric": "numeric",
    "float8": "double precision",
    "float4": "real",
    "date": "date",
    "timestamptz": "timestamptz",
    "timestamp": "timestamp",
    "bool": "boolean",
    "text": "text",
    "varchar": "varchar",
    "bpchar": "char",
}
_SMALL = {"int4", "int2"}
_NO_JOB_FEATURES = "undo, export --job and history"


def check_user_table(conn: Connection, form: Form) -> list[str]:
    """The checks of a form that writes into a table of the user's; FormError (exit 2, one
    line naming the column and both types) at the first that fails, else the notes."""
    table = table_for(form)
    info = table_info(conn, table.schema, table.name)
    where = table.shown
    if info is None:
        raise _refuse(
            form,
            f"table {where} does not exist (create it, or leave 'table' out and the tool "
            f"makes forms.{form.name})",
        )
    _check_privileges(form, info, where)
    notes = _check_field_columns(form, table, info, where)
    notes += _check_job_column(form, info, where)
    if table.key and frozenset(table.key) not in info.unique_sets(conn):
        columns = ", ".join(table.key)
        raise _refuse(
            form,
            f"key ({', '.join(form.key)}) needs a unique constraint or unique index on exactly "
            f"({columns}) of {where}, and there is none (ALTER TABLE {where} ADD UNIQUE "
            f"({columns}))",
        )
    filled = {c.name for c in table.columns} | {form.job_column}
    for found in info.columns.values():
        if not found.optional and found.name not in filled:
            raise _refuse(
                form,
                f"column {found.name} of {where} ({found.shown}) is NOT NULL with no default "
                f'and no field fills it; map a field to it (column = "{found.name}") or give '
                "it a default",
            )
    return notes


def _check_privileges(form: Form, info: TableInfo, where: str) -> None:
    """A table (not a view) the role may read, insert into and (a keyed form) update."""
    if info.relkind not in ("r", "p"):
        raise _refuse(form, f"{where} is not a table (a view or other relation cannot be used)")
    wanted = [("SELECT", info.can_select), ("INSERT", info.can_insert)]
    if form.key:
        wanted.append(("UPDATE", info.can_update))  # a key's rows are updated in place
    for privilege, granted in wanted:
        if not granted:
            raise _refuse(
                form,
                f"role {info.role} may not {privilege} on {where} "
                f"(GRANT SELECT, INSERT{', UPDATE' if form.key else ''} ON {where} "
                f"TO {info.role})",
            )


def _check_field_columns(form: Form, table: FormTable, info: TableInfo, where: str) -> list[str]:
    """Each field's column, of a type that takes it (notes: those of a smaller range)."""
    notes = []
    for column in table.columns:
        field = form.field(column.field)
        found = info.columns.get(column.name)
        if found is None:
            raise _refuse(
                form,
                f"{where} has no column {column.name} for field {field.name!r} ({field.type}); "
                'set column = "..." on the field where its column is named otherwise',
            )
        takes = _TAKES[field.type]
        if found.base not in takes:
            kinds = ", ".join(dict.fromkeys(_SHOWN[t] for t in takes))
            raise _refuse(
                form,
                f"column {column.name} of {where} is {found.shown}, which cannot take field "
                f"{field.name!r} ({field.type}); its column must be one of: {kinds}",
            )
        if found.base in _SMALL:
            notes.append(
                f"form {form.name!r}: column {column.name} of {where} is {found.shown}: "
                f"values of field {field.name!r} ({field.type}) beyond its range will be "
                "refused by the database"
            )
    return notes


def _check_job_column(form: Form, info: TableInfo, where: str) -> list[str]:
    """The job's column, a bigint or integer; a note where there is none."""
    notes = []
    if form.job_column is not None:
        found = info.columns.get(form.job_column)
        if found is None:
            raise _refuse(form, f"{where} has no column {form.job_column} (its job_column)")
        if found.base not in ("int8", "int4"):
            raise _refuse(
                form,
                f"job_column {form.job_column} of {where} is {found.shown}; a job id "
                "(bigint) needs a bigint or integer column",
            )
    else:
        notes.append(
            f"form {form.name!r}: {where} has no column for the job, so {_NO_JOB_FEATURES} "
            "cannot find a job's rows there; add a bigint column and name it with "
            'job_column = "..."'
        )
    return notes
