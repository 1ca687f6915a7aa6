"""A form's typed table: `forms add` creates forms.<name> with the version, evolves it with
later versions (added columns, widenings, key changes; refusals in one line), or checks a
table of the user's and never alters it."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path

import pytest

from importer.database import Connection
from importer.errors import FormError
from importer.forms.definition import parse_form_text
from importer.repositories.form_tables import live_table, table_for
from importer.repositories.forms import save_form
from tests.conftest import Cli

V1 = """
name = "stock"
[[fields]]
name = "sku"
type = "string"
required = true
[[fields]]
name = "qty"
type = "integer"
[[fields]]
name = "day"
type = "date"
[[fields]]
name = "flag"
type = "boolean"
"""


def columns(conn: Connection, schema: str, name: str) -> dict[str, str]:
    rows = conn.execute(
        "SELECT column_name, data_type, is_nullable FROM information_schema.columns"
        " WHERE table_schema = %s AND table_name = %s ORDER BY ordinal_position",
        (schema, name),
    ).fetchall()
    return {r["column_name"]: r["data_type"] for r in rows}


def comment(conn: Connection, name: str) -> str | None:
    row = conn.execute("SELECT obj_description(%s::regclass, 'pg_class') AS c", (name,))
    found = row.fetchone()
    return found["c"] if found else None


def put(conn: Connection, table: str, **values: object) -> None:
    """A row as a writer would leave it (job 1: the tables have no foreign key to jobs)."""
    names = ", ".join(f'"{n}"' for n in values)
    marks = ", ".join(["%s"] * len(values))
    conn.execute(
        f"INSERT INTO {table} (import_job_id, row_number, {names})"
        f" VALUES (1, (SELECT count(*) + 2 FROM {table}), {marks})",
        tuple(values.values()),
    )


def test_forms_add_creates_the_table_with_its_types_indexes_and_comment(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    (tmp_path / "stock.toml").write_text(V1)
    added = cli("forms", "add", str(tmp_path / "stock.toml"))
    assert added.exit_code == 0, added.stderr
    assert "table forms.stock" in added.stdout
    assert columns(conn, "forms", "stock") == {
        "import_job_id": "bigint",
        "row_number": "integer",
        "written_at": "timestamp with time zone",
        "sku": "text",
        "qty": "bigint",
        "day": "date",
        "flag": "boolean",
    }
    assert comment(conn, "forms.stock") == "importer: rows of form 'stock', version 1"
    put(conn, "forms.stock", sku="A")
    with pytest.raises(Exception, match="duplicate key"):  # (job, row) is unique
        conn.execute("INSERT INTO forms.stock (import_job_id, row_number) VALUES (1, 2)")


def test_a_refused_version_stores_nothing(conn: Connection) -> None:
    save_form(conn, parse_form_text(V1))
    put(conn, "forms.stock", sku="A", qty=3)
    with pytest.raises(FormError):
        save_form(conn, parse_form_text(V1.replace('"boolean"', '"date"')))
    versions = conn.execute("SELECT max(version) AS v FROM form_versions").fetchone()
    assert versions == {"v": 1}
    assert comment(conn, "forms.stock") == "importer: rows of form 'stock', version 1"


def test_a_version_adds_columns_widens_types_and_keeps_removed_fields(conn: Connection) -> None:
    save_form(conn, parse_form_text(V1))
    conn.execute("SET TimeZone = 'UTC'")
    put(conn, "forms.stock", sku="A", qty=12, day=date(2024, 3, 5), flag=True)
    v2 = (
        V1.replace('name = "qty"\ntype = "integer"', 'name = "qty"\ntype = "decimal"')
        .replace('name = "day"\ntype = "date"', 'name = "day"\ntype = "datetime"')
        .replace('name = "flag"\ntype = "boolean"', 'name = "note"\ntype = "string"')
    )
    v2 += '[[fields]]\nname = "flag_text"\nheader = "Flag text"\n'
    saved = save_form(conn, parse_form_text(v2))
    assert saved.version == 2 and saved.notes == ()
    assert columns(conn, "forms", "stock") == {
        "import_job_id": "bigint",
        "row_number": "integer",
        "written_at": "timestamp with time zone",
        "sku": "text",
        "qty": "numeric",
        "day": "timestamp with time zone",
        "flag": "boolean",  # removed from the form: kept for jobs of version 1
        "note": "text",
        "flag_text": "text",
    }
    row = conn.execute("SELECT * FROM forms.stock").fetchone()
    assert row is not None
    assert (row["qty"], row["day"], row["flag"]) == (
        Decimal(12),
        datetime(2024, 3, 5, tzinfo=UTC),
        True,
    )
    assert row["note"] is None and row["flag_text"] is None
    assert comment(conn, "forms.stock") == "importer: rows of form 'stock', version 2"
    # anything -> string: the column becomes text, each value its text
    v3 = v2.replace('name = "qty"\ntype = "decimal"', 'name = "qty"\ntype = "string"')
    assert save_form(conn, parse_form_text(v3)).version == 3
    assert columns(conn, "forms", "stock")["qty"] == "text"
    assert conn.execute("SELECT qty FROM forms.stock").fetchone() == {"qty": "12"}
    # what a job of version 1 writes: its version's columns, as the table types them now
    v1_table = live_table(conn, parse_form_text(V1))
    assert [(c.name, c.pg_type) for c in v1_table.columns] == [
        ("sku", "text"),
        ("qty", "text"),
        ("day", "timestamptz"),
        ("flag", "boolean"),
    ]
    assert [c.pg_type for c in table_for(parse_form_text(V1)).columns][:2] == ["text", "bigint"]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "decimal",
            "integer",
            "form 'codes': field 'code' cannot change from decimal (numeric) to integer"
            " (bigint): the rows already in forms.codes cannot take it; give the field a new"
            " name, or make a new form",
        ),
        (
            "string",
            "date",
            "form 'codes': field 'code' cannot change from string (text) to date (date)",
        ),
        (
            "datetime",
            "date",
            "form 'codes': field 'code' cannot change from datetime (timestamptz) to date",
        ),
        ("boolean", "integer", "field 'code' cannot change from boolean (boolean) to integer"),
    ],
)
def test_an_incompatible_change_is_refused_in_one_line(
    cli: Cli, tmp_path: Path, old: str, new: str, message: str
) -> None:
    text = 'name = "codes"\n[[fields]]\nname = "code"\ntype = "{}"\n'
    (tmp_path / "v1.toml").write_text(text.format(old))
    (tmp_path / "v2.toml").write_text(text.format(new))
    assert cli("forms", "add", str(tmp_path / "v1.toml")).exit_code == 0
    refused = cli("forms", "add", str(tmp_path / "v2.toml"))
    assert refused.exit_code == 2
    assert message in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1


def test_a_field_back_under_its_old_name_must_fit_its_column(conn: Connection) -> None:
    save_form(conn, parse_form_text(V1))
    save_form(conn, parse_form_text(V1.replace('name = "qty"', 'name = "count"')))
    back = V1.replace('name = "qty"\ntype = "integer"', 'name = "qty"\ntype = "date"')
    with pytest.raises(FormError) as caught:
        save_form(conn, parse_form_text(back))
    assert str(caught.value) == (
        "form 'stock': field 'qty' (date, date) cannot go into column qty of forms.stock,"
        " which is bigint: the rows already there cannot take it; give the field a new name,"
        " or make a new form"
    )


def test_a_widening_waits_for_jobs_of_earlier_versions(conn: Connection) -> None:
    save_form(conn, parse_form_text(V1))
    conn.execute("INSERT INTO import_files (sha256, size_bytes, content) VALUES ('x', 0, '')")
    job = conn.execute(
        "INSERT INTO import_jobs (form, form_version, file, file_name, max_attempts)"
        " VALUES ('stock', 1, 'x', 'a.xlsx', 3) RETURNING id"
    ).fetchone()
    assert job is not None
    wider = V1.replace('name = "qty"\ntype = "integer"', 'name = "qty"\ntype = "decimal"')
    with pytest.raises(FormError) as caught:
        save_form(conn, parse_form_text(wider))
    assert str(caught.value) == (
        "form 'stock': column qty cannot widen from bigint to numeric while jobs of earlier"
        f" versions may still write (jobs {job['id']}); add the form again once they have"
        " finished, or cancel them"
    )
    added = save_form(conn, parse_form_text(V1 + '[[fields]]\nname = "more"\n'))
    assert added.version == 2  # an added column does not touch what version 1 writes
    conn.execute("UPDATE import_jobs SET status = 'succeeded'")
    assert save_form(conn, parse_form_text(wider)).version == 3


def test_a_key_change_builds_its_index_or_names_the_duplicates(conn: Connection) -> None:
    save_form(conn, parse_form_text(V1))
    put(conn, "forms.stock", sku="A", qty=1)
    put(conn, "forms.stock", sku="A", qty=2)
    put(conn, "forms.stock", sku="B", qty=2)
    keyed = 'key = "qty"\n' + V1.replace('name = "qty"\n', 'name = "qty"\nrequired = true\n')
    with pytest.raises(FormError) as caught:
        save_form(conn, parse_form_text(keyed))
    assert str(caught.value) == (
        "form 'stock': the key cannot become (qty): forms.stock already holds rows that share"
        " it: (2) x2; remove those rows, or keep the key"
    )
    assert save_form(conn, parse_form_text(keyed.replace('key = "qty"', 'key = ["sku", "qty"]')))
    with pytest.raises(Exception, match="duplicate key"):
        put(conn, "forms.stock", sku="B", qty=2)
    put(conn, "forms.stock", sku="B", qty=3)  # the old key (none) no longer holds
    save_form(conn, parse_form_text(V1))  # back to no key: the index goes
    put(conn, "forms.stock", sku="B", qty=2)


# --- a table of the user's ----------------------------------------------------------------------

USERS = """
name = "orders"
table = "public.orders"
{top}
key = ["order_id"]
[[fields]]
name = "order_id"
column = "order_no"
type = "integer"
required = true
[[fields]]
name = "amount"
type = "decimal"
[[fields]]
name = "day"
type = "date"
[[fields]]
name = "customer"
type = "string"
"""

ORDERS_TABLE = (
    "CREATE TABLE public.orders (id bigserial PRIMARY KEY, order_no bigint UNIQUE NOT NULL,"
    " amount numeric(12, 2), day timestamptz, customer varchar(40), import_job_id bigint,"
    " created_at timestamptz NOT NULL DEFAULT now())"
)


def user_form(top: str = 'job_column = "import_job_id"') -> str:
    return USERS.format(top=top)


def test_a_users_table_that_fits_is_used_as_it_is(cli: Cli, conn: Connection) -> None:
    conn.execute(ORDERS_TABLE)
    before = columns(conn, "public", "orders")
    saved = save_form(conn, parse_form_text(user_form()))
    assert saved.version == 1 and saved.notes == ()
    assert columns(conn, "public", "orders") == before  # never altered
    assert comment(conn, "public.orders") is None
    assert conn.execute("SELECT to_regclass('forms.orders') AS t").fetchone() == {"t": None}
    table = table_for(parse_form_text(user_form()))
    assert (table.schema, table.name, table.owned, table.key) == (
        "public",
        "orders",
        False,
        ("order_no",),
    )
    assert (table.job_column, table.row_column, table.written_column) == (
        "import_job_id",
        None,
        None,
    )
    assert [c.pg_type for c in live_table(conn, parse_form_text(user_form())).columns] == [
        "bigint",
        "numeric",
        "timestamptz",
        "varchar",
    ]


def test_notes_come_back_through_the_result_and_the_cli(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    conn.execute(ORDERS_TABLE.replace("order_no bigint", "order_no integer"))
    (tmp_path / "orders.toml").write_text(user_form(top=""))
    added = cli("forms", "add", str(tmp_path / "orders.toml"))
    assert added.exit_code == 0, added.stderr
    lines = added.stdout.strip().splitlines()
    assert lines[0].endswith("table public.orders")
    assert lines[1:] == [
        "note: form 'orders': column order_no of public.orders is integer: values of field"
        " 'order_id' (integer) beyond its range will be refused by the database",
        "note: form 'orders': public.orders has no column for the job, so undo, export --job"
        " and history cannot find a job's rows there; add a bigint column and name it with"
        ' job_column = "..."',
    ]


REFUSALS = [
    (
        "DROP TABLE public.orders",
        "form 'orders': table public.orders does not exist (create it, or leave 'table' out"
        " and the tool makes forms.orders)",
    ),
    (
        "ALTER TABLE public.orders RENAME COLUMN order_no TO number",
        "form 'orders': public.orders has no column order_no for field 'order_id' (integer);"
        ' set column = "..." on the field where its column is named otherwise',
    ),
    (
        "ALTER TABLE public.orders ALTER COLUMN amount TYPE integer",
        "form 'orders': column amount of public.orders is integer, which cannot take field"
        " 'amount' (decimal); its column must be one of: numeric, double precision, real",
    ),
    (
        "ALTER TABLE public.orders ALTER COLUMN day TYPE timestamp",
        "form 'orders': column day of public.orders is timestamp without time zone, which"
        " cannot take field 'day' (date); its column must be one of: date, timestamptz",
    ),
    (
        "ALTER TABLE public.orders ALTER COLUMN customer TYPE integer USING 0",
        "form 'orders': column customer of public.orders is integer, which cannot take field"
        " 'customer' (string); its column must be one of: text, varchar, char",
    ),
    (
        "ALTER TABLE public.orders ALTER COLUMN import_job_id TYPE text",
        "form 'orders': job_column import_job_id of public.orders is text; a job id (bigint)"
        " needs a bigint or integer column",
    ),
    (
        "ALTER TABLE public.orders DROP COLUMN import_job_id",
        "form 'orders': public.orders has no column import_job_id (its job_column)",
    ),
    (
        "ALTER TABLE public.orders DROP CONSTRAINT orders_order_no_key",
        "form 'orders': key (order_id) needs a unique constraint or unique index on exactly"
        " (order_no) of public.orders, and there is none (ALTER TABLE public.orders ADD"
        " UNIQUE (order_no))",
    ),
    (
        "CREATE UNIQUE INDEX wider ON public.orders (order_no, customer);"
        " ALTER TABLE public.orders DROP CONSTRAINT orders_order_no_key",
        "form 'orders': key (order_id) needs a unique constraint or unique index on exactly",
    ),
    (
        "ALTER TABLE public.orders ADD COLUMN region text NOT NULL",
        "form 'orders': column region of public.orders (text) is NOT NULL with no default and"
        ' no field fills it; map a field to it (column = "region") or give it a default',
    ),
    (
        "CREATE ROLE importer_reader_{db}; GRANT SELECT, INSERT ON public.orders TO"
        " importer_reader_{db}; GRANT SELECT, INSERT, UPDATE ON forms, form_versions TO"
        " importer_reader_{db}; GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO"
        " importer_reader_{db}; SET ROLE importer_reader_{db}",
        "form 'orders': role importer_reader_{db} may not UPDATE on public.orders (GRANT"
        " SELECT, INSERT, UPDATE ON public.orders TO importer_reader_{db})",
    ),
]


@pytest.mark.parametrize(("change", "message"), REFUSALS)
def test_a_users_table_that_does_not_fit_is_refused_in_one_line(
    conn: Connection, change: str, message: str
) -> None:
    conn.execute(ORDERS_TABLE)
    db = conn.execute("SELECT current_database() AS d").fetchone()
    assert db is not None
    tag = str(db["d"])[-8:]
    try:
        conn.execute(change.replace("{db}", tag))
        with pytest.raises(FormError) as caught:
            save_form(conn, parse_form_text(user_form()))
    finally:
        conn.execute("RESET ROLE")
    assert str(caught.value).startswith(message.replace("{db}", tag))
    assert "\n" not in str(caught.value)
    assert conn.execute("SELECT count(*) AS n FROM forms").fetchone() == {"n": 0}
    if "ROLE" in change:
        conn.execute(f"DROP OWNED BY importer_reader_{tag}")
        conn.execute(f"DROP ROLE importer_reader_{tag}")


SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"

HOSTILE = """
name = "Odd-Name.v2"
[[fields]]
name = "row_number"
header = "Row"
type = "integer"
[[fields]]
name = "Select"
header = "Select"
type = "string"
[[fields]]
name = "{long}"
header = "Long one"
type = "boolean"
[[fields]]
name = "{long}x"
header = "Long two"
type = "date"
"""


def test_any_form_or_field_name_makes_a_valid_table(conn: Connection) -> None:
    long = "a" * 70
    save_form(conn, parse_form_text(HOSTILE.format(long=long)))
    assert columns(conn, "forms", "Odd-Name.v2") == {
        "import_job_id": "bigint",
        "row_number": "integer",
        "written_at": "timestamp with time zone",
        "row_number_field": "bigint",
        "Select": "text",
        "a" * 63: "boolean",
        "a" * 61 + "_2": "date",
    }
    assert conn.execute('SELECT * FROM forms."Odd-Name.v2"').fetchall() == []


def test_an_imported_form_reads_back_typed(cli: Cli, conn: Connection) -> None:
    assert cli("forms", "add", str(SAMPLES / "types.form.toml")).exit_code == 0
    submitted = cli("submit", str(SAMPLES / "types_xlsxwriter.xlsx"), "--form", "types", "-q")
    assert submitted.exit_code == 3, submitted.stderr  # the sample has rejected rows
    conn.execute("SET TimeZone = 'UTC'")
    rows = {r["row_number"]: r for r in conn.execute("SELECT * FROM forms.types").fetchall()}
    job = conn.execute("SELECT success_rows FROM import_jobs").fetchone()
    assert job is not None and len(rows) == job["success_rows"] > 0
    first = rows[2]
    assert (first["text"], first["whole"], first["amount"]) == ("Alpha", 12, Decimal("19.99"))
    assert first["day"] == date(2024, 3, 5) and first["flag"] is True
    assert first["moment"].replace(tzinfo=None) == datetime(2024, 3, 5, 13, 45)
    assert (first["status"], first["zip"]) == ("paid", "00123")
    assert rows[4]["amount"] == Decimal("0.3") and rows[10]["email"] is None
    assert rows[10]["flag"] is False and rows[10]["whole"] == -7
