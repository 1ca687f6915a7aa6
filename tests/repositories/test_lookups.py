"""Lookups against real tables: one query per batch, cached for the job; suggestions for a
miss from a couple of index probes (no table scan); `forms add` refuses a lookup it cannot
read; a lookup may read another form's table; a hook runs only where it is allowed."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from importer.api import CheckRequest, Importer
from importer.config import FormsSettings, Settings
from importer.database import Connection
from importer.errors import FormError, ImporterError
from importer.excel.values import Row
from importer.fields.field import Lookup
from importer.forms.definition import parse_form_text
from importer.forms.validation import Validator
from importer.repositories.forms import save_form
from importer.repositories.lookups import TableLookups
from tests.conftest import Cli
from tests.support.jobs import write_book

ORDERS = """
name = "orders"
[[fields]]
name = "order_id"
header = "Order ID"
type = "integer"
required = true
[[fields]]
name = "customer_id"
header = "Customer"
type = "integer"
required = true
lookup = { table = "customers", match = "name", returns = "id", ignore_case = true }
"""


@pytest.fixture
def customers(conn: Connection) -> None:
    conn.execute("CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL)")
    conn.execute("CREATE INDEX customers_name ON customers (lower(name))")
    conn.execute(
        "INSERT INTO customers SELECT n, 'Customer ' || lpad(n::text, 6, '0')"
        " FROM generate_series(1, 20000) AS n"
    )
    conn.execute(
        "INSERT INTO customers VALUES (30001, 'ACME Ltd.'), (30002, 'Twin'), (30003, 'twin')"
    )
    conn.execute("ANALYZE customers")


def _validate(conn: Connection, cells: list[object]) -> tuple[dict[int, object], dict[int, str]]:
    form = parse_form_text(ORDERS)
    validator = Validator(form, ["Order ID", "Customer"], lookups=TableLookups(conn, form))
    result = validator.validate([Row(n, (n, c)) for n, c in enumerate(cells, start=2)])
    stored = {r.number: r.data["customer_id"] for r in result.valid}
    errors = {r.number: r.errors[0].message for r in result.rejected}
    return stored, errors


def test_a_lookup_stores_the_id_and_says_what_it_could_not_match(
    conn: Connection, customers: None
) -> None:
    stored, errors = _validate(
        conn, ["  acme LTD. ", "Customer 000042", "Acme Ltd", "twin", "Nobody at all"]
    )
    assert stored == {2: 30001, 3: 42}
    assert errors == {
        4: "'Acme Ltd' is not a known customer; did you mean 'ACME Ltd.'?",
        5: "'twin' is ambiguous: 2 customers go by it and the import cannot choose; write a"
        " value that only one customer goes by",
        6: "'Nobody at all' is not a known customer",
    }


def _scans(conn: Connection) -> int:
    conn.execute("SELECT pg_stat_clear_snapshot()")
    row = conn.execute(
        "SELECT seq_scan FROM pg_stat_user_tables WHERE relname = 'customers'"
    ).fetchone()
    assert row is not None
    return int(row["seq_scan"])


def test_misses_cost_index_probes_never_a_scan_of_the_table(
    conn: Connection, customers: None
) -> None:
    form = parse_form_text(ORDERS)
    lookups = TableLookups(conn, form)
    lookup = form.field("customer_id").lookup
    assert isinstance(lookup, Lookup)
    before = _scans(conn)
    misses = [f"customer 0{n:05d}x" for n in range(1, 200, 7)]
    assert not lookups.find(lookup, misses)
    near = lookups.suggest(lookup, misses)
    assert near["customer 000001x"][0] == "Customer 000001"
    conn.execute("SELECT pg_sleep(0.6)")  # the statistics collector's flush interval
    assert _scans(conn) == before


def test_the_lookup_is_cached_for_the_job(conn: Connection, customers: None) -> None:
    form = parse_form_text(ORDERS)
    lookups = TableLookups(conn, form)
    lookup = form.field("customer_id").lookup
    assert isinstance(lookup, Lookup)
    assert lookups.find(lookup, ["acme ltd."]) == {"acme ltd.": [30001]}
    conn.execute("DELETE FROM customers WHERE name = 'ACME Ltd.'")
    assert lookups.find(lookup, ["acme ltd."]) == {"acme ltd.": [30001]}  # the job's answer


@pytest.mark.parametrize(
    ("lookup", "refusal"),
    [
        (
            '{ table = "nowhere", match = "name", returns = "id" }',
            "table public.nowhere does not exist",
        ),
        ('{ table = "customers", match = "label", returns = "id" }', "has no column label"),
        ('{ table = "customers", match = "name", returns = "key" }', "has no column key"),
        ('{ form = "clients", match = "name", returns = "id" }', "there is no form 'clients'"),
    ],
)
def test_forms_add_refuses_a_lookup_it_cannot_read(
    cli: Cli, customers: None, tmp_path: Path, lookup: str, refusal: str
) -> None:
    form = tmp_path / "orders.toml"
    form.write_text(ORDERS.replace(ORDERS.splitlines()[-1], f"lookup = {lookup}"))
    result = cli("forms", "add", str(form))
    assert result.exit_code == 2
    assert refusal in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "orders" not in cli("forms", "list").stdout


def test_a_lookup_reads_another_forms_table(conn: Connection, cli: Cli, tmp_path: Path) -> None:
    save_form(
        conn,
        parse_form_text(
            'name = "clients"\nkey = ["client_id"]\n[[fields]]\nname = "client_id"\n'
            'type = "integer"\nrequired = true\n[[fields]]\nname = "email"\ntype = "email"\n'
        ),
    )
    clients = tmp_path / "clients.xlsx"
    write_book(clients, [[7, "ada@example.com"], [8, "bob@example.com"]], ["client_id", "email"])
    assert cli("submit", str(clients), "--quiet").exit_code == 0
    save_form(
        conn,
        parse_form_text(
            'name = "tickets"\n[[fields]]\nname = "client_id"\nheader = "Client"\n'
            'type = "integer"\nrequired = true\n'
            'lookup = { form = "clients", match = "email", returns = "client_id" }\n'
        ),
    )
    tickets = tmp_path / "tickets.xlsx"
    write_book(tickets, [["bob@example.com"], ["eve@example.com"]], ["Client"])
    assert cli("submit", str(tickets), "--form", "tickets", "--quiet").exit_code == 3
    rows = conn.execute("SELECT row_number, client_id FROM forms.tickets").fetchall()
    assert [(r["row_number"], r["client_id"]) for r in rows] == [(2, 8)]
    job = conn.execute("SELECT id FROM import_jobs WHERE form = 'tickets'").fetchone()
    assert job is not None
    errors = cli("errors", str(job["id"])).stdout
    assert "'eve@example.com' is not a known client" in errors


HOOK = """
from importer.errors import RowError

def clean_row(row):
    if row["customer_id"] == 30001:
        raise RowError("customer_id", "ACME orders go through the portal")
    row["order_id"] = row["order_id"] * 100
    return row
"""


def test_a_hook_runs_only_where_the_settings_allow_its_module(
    conn: Connection,
    customers: None,
    cli_env: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "shop_rules.py").write_text(HOOK)
    save_form(conn, parse_form_text('hook = "shop_rules:clean_row"\n' + ORDERS))
    book = tmp_path / "orders.xlsx"
    write_book(book, [[1, "acme ltd."], [2, "Customer 000005"]], ["Order ID", "Customer"])
    env = {**cli_env, "PYTHONPATH": str(tmp_path)}

    refused = subprocess.run(
        [sys.executable, "-m", "importer", "check", str(book)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert refused.returncode == 2
    assert "does not allow module 'shop_rules'" in refused.stderr
    assert "hooks_allowed" in refused.stderr

    env["IMPORTER_FORMS_HOOKS_ALLOWED"] = "shop_rules"
    done = subprocess.run(
        [sys.executable, "-m", "importer", "submit", str(book), "--quiet"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 3, done.stderr
    rows = conn.execute("SELECT row_number, order_id, customer_id FROM forms.orders").fetchall()
    assert [tuple(r.values()) for r in rows] == [(3, 200, 5)]
    error = conn.execute("SELECT column_name, message FROM import_row_errors").fetchone()
    assert error == {"column_name": "Customer", "message": "ACME orders go through the portal"}

    # The Python API: the same hook, allowed by settings built in code.
    monkeypatch.syspath_prepend(str(tmp_path))
    allowed = Settings(
        database_url=cli_env["IMPORTER_DATABASE_URL"],
        home=tmp_path / "home",
        forms=FormsSettings(hooks_allowed=("shop_rules",)),
    )
    report, _ = Importer(settings=allowed).check(CheckRequest(path=book))
    assert [(r.number, r.errors[0].message) for r in report.rejected] == [
        (2, "ACME orders go through the portal")
    ]
    with pytest.raises(FormError, match="does not allow module 'shop_rules'"):
        Importer(settings=replace(allowed, forms=FormsSettings())).check(CheckRequest(path=book))


def test_check_without_the_database_lookup_is_refused_clearly(conn: Connection) -> None:
    form = parse_form_text(ORDERS)
    validator = Validator(form, ["Order ID", "Customer"])  # no lookups given
    with pytest.raises(ImporterError, match="has lookups: they need the database"):
        validator.validate([Row(2, (1, "x"))])


def test_forms_add_notes_a_lookup_no_index_serves(
    conn: Connection, cli: Cli, customers: None, tmp_path: Path
) -> None:
    form = tmp_path / "orders.toml"
    form.write_text(ORDERS)
    served = cli("forms", "add", str(form))
    assert served.exit_code == 0 and "no index" not in served.stdout  # lower(name) is indexed
    form.write_text(
        ORDERS.replace('name = "orders"', 'name = "orders_exact"').replace(
            "ignore_case = true", "ignore_case = false"
        )
    )
    unserved = cli("forms", "add", str(form))
    assert unserved.exit_code == 0
    assert "no index on name of public.customers" in unserved.stdout
    assert "CREATE INDEX ON public.customers (name)" in unserved.stdout
