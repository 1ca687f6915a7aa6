"""The set-based guess of the rows a table's own checks refuse (refusal_suspects.py): which
rows it names, what it leaves out, and that a wrong guess changes nothing stored."""

from __future__ import annotations

from pathlib import Path

from psycopg import sql

from importer.database import Connection
from importer.repositories.refusal_suspects import row_checks, suspects_query
from tests.running.test_constraint_rows import errors_of, import_shop, shop, stored

TABLES = """
CREATE TABLE pairs (a integer, b integer, PRIMARY KEY (a, b));
INSERT INTO pairs VALUES (1, 1), (2, 2);
CREATE TABLE owners (id integer PRIMARY KEY);
INSERT INTO owners VALUES (1), (2);
CREATE TABLE guarded (
    id integer NOT NULL,
    amount numeric CHECK (amount > 0),
    owner integer REFERENCES owners (id),
    a integer,
    b integer,
    note text NOT NULL DEFAULT 'x' CHECK (note <> ''),
    FOREIGN KEY (a, b) REFERENCES pairs (a, b) MATCH FULL
);
CREATE TEMP TABLE staged (
    id integer, amount numeric, owner integer, a integer, b integer, row_number integer
);
"""

# row number -> (id, amount, owner, a, b); the comment says why a row is (not) suspected
STAGED = {
    2: (1, 5, 1, 1, 1),  # fine
    3: (2, -1, 1, 1, 1),  # CHECK amount > 0
    4: (3, None, 2, 2, 2),  # NULL passes a CHECK
    5: (None, 1, 1, 1, 1),  # NOT NULL id
    6: (5, 1, 9, 1, 1),  # owner 9 is not in owners
    7: (6, 1, None, None, None),  # NULL keys reference nothing
    8: (7, 1, 1, 1, None),  # MATCH FULL: part of a key NULL
    9: (8, 1, 1, 1, 2),  # (1, 2) is not in pairs
}


def test_the_guess_names_the_rows_a_check_a_not_null_or_a_foreign_key_refuses(
    conn: Connection,
) -> None:
    conn.execute(TABLES)
    with conn.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO staged VALUES (%s, %s, %s, %s, %s, %s)",
            [(*values, number) for number, values in STAGED.items()],
        )
    checks = row_checks(conn, "public", "guarded")
    assert {c.kind for c in checks} == {"c", "f", "n"}
    copied = ["id", "amount", "owner", "a", "b"]  # not note: a CHECK on it is left out

    query = suspects_query(checks, copied, sql.Identifier("staged"))

    assert query is not None
    found = conn.execute(query).fetchone()
    assert found is not None
    assert next(iter(found.values())) == [3, 5, 6, 8, 9]
    # A sheet whose columns no check is about alone: no guess, ranges of a width instead.
    assert suspects_query(checks, ["a"], sql.Identifier("staged")) is None


def test_a_wrongly_suspected_row_is_stored_in_the_file_order(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    """A trigger fills a NULL code: NOT NULL makes the row a suspect, yet it is stored, and
    it comes first in the file, so the later row with the code it was given is the one the
    unique constraint refuses (a plain COPY of the file would do the same)."""
    shop(conn)
    conn.execute(
        "CREATE FUNCTION fill_code() RETURNS trigger LANGUAGE plpgsql AS $$"
        " BEGIN NEW.code := coalesce(NEW.code, 'C' || NEW.order_id * 10); RETURN NEW; END $$;"
        " CREATE TRIGGER fill_code BEFORE INSERT ON shop_orders"
        " FOR EACH ROW EXECUTE FUNCTION fill_code()"
    )
    rows = [[i, 1, 10, f"C{i}"] for i in range(1, 13)]
    rows[1][3] = None  # order 2 (row 3) becomes C20
    rows[4][1] = 42  # order 5 (row 6): no customer 42
    rows[7][3] = "C20"  # order 8 (row 9) repeats the code order 2 was given

    job_id = import_shop(database_url, conn, tmp_path / "shop.xlsx", rows, batch=12)

    errors = errors_of(conn, job_id)
    assert sorted(errors) == [6, 9]
    assert 'violates foreign key constraint "shop_orders_customer_fk"' in errors[6][1]
    assert errors[9] == (
        "Code",
        'violates unique constraint "shop_orders_code_unique": Key (code)=(C20) already exists.',
    )
    kept = stored(conn)
    assert sorted(kept) == [1, 2, 3, 4, 6, 7, 9, 10, 11, 12]
    assert kept[2][2] == "C20"
