"""Rejected rows fixed in place, on the page and through the API: a changed cell checks its row
again by the form's rules (types, bounds, the lookup with its suggestions where the form shows
them to senders, never by default), one value replaced in every rejected row of a column, and
the fixed rows imported as a correction of the import: stored once under the import's row
numbers, the import counting them as fixed later."""

from __future__ import annotations

import io
import re
import threading
from pathlib import Path
from typing import Any

import openpyxl

from importer.database import Connection
from importer.errors import StateError
from tests.support.jobs import add_form, form_rows, write_book
from tests.web.conftest import Site, csrf_of, send

DELIVERIES = """
name = "deliveries"
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
lookup = { table = "customers", match = "name", returns = "id", ignore_case = true, SHOWN }
[[fields]]
name = "amount"
header = "Amount"
type = "decimal"
min = 0
"""
SHOWN = DELIVERIES.replace("SHOWN", "show_to_senders = true")
HIDDEN = DELIVERIES.replace(", SHOWN", "").replace('"deliveries"', '"parcels"')

# Excel rows 2..6: a good row, a lookup's near miss, two negative amounts, an unknown name.
ROWS: list[list[Any]] = [
    [1, "ACME Ltd.", 5],
    [2, "Acme Lt", 6],
    [3, "Bo", -1],
    [4, "Bo", -2],
    [5, "Nobody", 3],
]


def _customers(conn: Connection) -> None:
    conn.execute("CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL)")
    conn.execute("INSERT INTO customers VALUES (1, 'ACME Ltd.'), (2, 'Bo')")


def _imported(site: Site, tmp_path: Path, form: str) -> tuple[Any, str, str]:
    """Ana's signed-in page, its CSRF token and the page of her import of ROWS."""
    site.account("ana@example.com", "sender", [form])
    client = site.signed_in("ana@example.com")
    token = csrf_of(client.get("/imports").text)
    book = tmp_path / f"{form}.xlsx"
    write_book(book, ROWS, header=["Order ID", "Customer", "Amount"])
    where = send(client, token, book.name, book.read_bytes())
    site.work()
    return client, token, where


def test_rows_fixed_on_the_page_go_back_as_a_correction(
    site: Site, tmp_path: Path, conn: Connection
) -> None:
    _customers(conn)
    add_form(conn, SHOWN)
    client, token, where = _imported(site, tmp_path, "deliveries")
    page = client.get(where).text
    assert "4 rejected" in page and 'name="cell:Amount"' in page
    # The lookup's near miss, with its suggestion to pick (this form shows them to senders).
    assert "&#39;Acme Lt&#39; is not a known customer; did you mean" in page
    assert 'name="use:Customer" value="ACME Ltd."' in page
    assert "did you mean 'ACME Ltd.'" in _texts_of(client.get(f"{where}/rejected.xlsx").content)
    # The page's script: a cell changed, its row checked again, JSON back.
    fixed = client.post(
        f"{where}/rows/4", data={"csrf": token, "cell:Amount": "5"}, headers={"X-Fix": "1"}
    ).json()
    assert fixed == {"rows": [{"row": 4, "fixed": True, "problems": []}], "ready": 1}
    still = client.post(
        f"{where}/rows/6", data={"csrf": token, "cell:Customer": "Nobody either"},
        headers={"X-Fix": "1"},
    ).json()  # fmt: skip
    assert still["rows"][0]["fixed"] is False and still["ready"] == 1
    assert still["rows"][0]["problems"] == [
        {
            "column": "Customer",
            "value": "Nobody either",
            "message": "'Nobody either' is not a known customer",
            "suggestions": [],
        }
    ]
    # Without the script: the suggestion's button posts the row, the page comes back.
    picked = client.post(
        f"{where}/rows/3",
        data={"csrf": token, "cell:Customer": "Acme Lt", "use:Customer": "ACME Ltd."},
    )
    assert picked.status_code == 303 and picked.headers["location"].endswith("#row-3")
    # One value replaced in every rejected row of its column.
    replaced = client.post(
        f"{where}/replace", data={"csrf": token, "column": "Amount", "old": "-2", "new": "2"}
    )
    assert "replaced in 1 rows; 1 now fixed" in replaced.text
    page = client.get(where).text
    assert re.search(r'id="ready">3<', page) and page.count('<tr id="row-') == 4
    assert 'value="Nobody either"' in page  # a change kept, its row still to fix
    _import_the_fixed_rows(site, client, token, where, conn)


def _import_the_fixed_rows(
    site: Site, client: Any, token: str, where: str, conn: Connection
) -> None:
    """Import the fixed rows: a correction of the import, queued for the workers; stored
    under the import's row numbers, counted by it, and nothing left to import twice."""
    started = client.post(f"{where}/fixed", data={"csrf": token})
    assert started.status_code == 303
    correction = started.headers["location"]
    site.work()
    done = client.get(correction).text
    assert "succeeded" in done and f'a correction of <a href="{where}"' in done
    origin = client.get(where).text
    assert re.search(r'id="fixed-later">3<', origin) and re.search(r'id="still-open">1<', origin)
    assert origin.count("imported later by") == 3
    origin_id = int(where.rsplit("/", 1)[1])
    stored = form_rows(conn, "deliveries", "import_job_id <> %s", origin_id)
    assert [(r["row_number"], r["customer_id"], float(r["amount"])) for r in stored] == [
        (3, 1, 6.0),
        (4, 2, 5.0),
        (5, 2, 2.0),
    ]
    again = client.post(f"{where}/fixed", data={"csrf": token})
    assert again.status_code == 409 and "no fixed rows" in again.text


def test_a_lookups_suggestions_are_not_shown_unless_the_form_says_so(
    site: Site, tmp_path: Path, conn: Connection
) -> None:
    _customers(conn)
    add_form(conn, HIDDEN)
    client, token, where = _imported(site, tmp_path, "parcels")
    page = client.get(where).text
    assert "&#39;Acme Lt&#39; is not a known customer" in page
    assert "did you mean" not in page and "use:Customer" not in page
    headers = site.token("ana@example.com")
    job_id = int(where.rsplit("/", 1)[1])
    rejected = site.client().get(f"/api/imports/{job_id}/rejected", headers=headers)
    assert "did you mean" not in rejected.text and "ACME" not in rejected.text
    checked = client.post(
        f"{where}/rows/3", data={"csrf": token, "cell:Customer": "Acme L"}, headers={"X-Fix": "1"}
    ).json()
    assert checked["rows"][0]["problems"][0]["message"] == "'Acme L' is not a known customer"
    assert checked["rows"][0]["problems"][0]["suggestions"] == []
    # Nor in the error workbook the page gives, nor in the rows to fix of a check first.
    assert "ACME" not in _texts_of(client.get(f"{where}/rejected.xlsx").content)
    book = tmp_path / "again.xlsx"
    write_book(book, [[9, "Acme Lt", 1]], header=["Order ID", "Customer", "Amount"])
    sent = client.post(
        "/imports", data={"csrf": token}, files={"file": (book.name, book.read_bytes())}
    )
    fix_first = client.get(f"{sent.headers['location']}/rejected.xlsx").content
    assert "not a known customer" in _texts_of(fix_first) and "ACME" not in _texts_of(fix_first)


def _texts_of(content: bytes) -> str:
    """Every cell and comment of a workbook, as one text."""
    book = openpyxl.load_workbook(io.BytesIO(content))
    texts = []
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                texts += [str(cell.value or ""), cell.comment.text if cell.comment else ""]
    return "\n".join(texts)


def test_rows_fixed_through_the_api(site: Site, tmp_path: Path, conn: Connection) -> None:
    _customers(conn)
    add_form(conn, SHOWN)
    site.account("ana@example.com", "sender", ["deliveries"])
    headers = site.token("ana@example.com")
    api = site.client()
    book = tmp_path / "book.xlsx"
    write_book(book, ROWS, header=["Order ID", "Customer", "Amount"])
    made = api.post("/api/imports", headers=headers, files={"file": (book.name, book.read_bytes())})
    site.work()
    job_id = made.json()["id"]
    edits = f"/api/imports/{job_id}/rejected/edits"
    assert api.post(f"/api/imports/{job_id}/corrections", headers=headers).status_code == 409
    checked = api.post(
        edits,
        headers=headers,
        json={"rows": {"3": {"Customer": "ACME Ltd."}, "4": {"Amount": "x"}}},
    ).json()
    assert checked["ready"] == 1 and [r["fixed"] for r in checked["rows"]] == [True, False]
    assert checked["rows"][1]["problems"][0]["message"] == "'x' is not a number"
    bad = api.post(edits, headers=headers, json={"rows": {"3": {"Customer": 7}}})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_request"
    not_open = api.post(edits, headers=headers, json={"rows": {"2": {"Amount": "1"}}})
    assert not_open.status_code == 400 and "not one of job" in not_open.json()["message"]
    made_correction = api.post(f"/api/imports/{job_id}/corrections", headers=headers)
    assert made_correction.status_code == 201, made_correction.text
    correction = made_correction.json()
    assert correction["correction_of"] == job_id and correction["status"] == "pending"
    site.work()
    origin = api.get(f"/api/imports/{job_id}", headers=headers).json()
    assert (origin["fixed_later"], origin["still_open"]) == (1, 3)
    # Another sender's token finds none of it.
    site.account("bob@example.com", "sender", ["deliveries"])
    bob = site.token("bob@example.com")
    hidden = api.post(edits, headers=bob, json={"rows": {"4": {"Amount": "1"}}})
    assert hidden.status_code == 404
    assert api.post(f"/api/imports/{job_id}/corrections", headers=bob).status_code == 404


def test_an_error_workbook_sent_back_on_the_page_is_a_correction_of_its_import(
    site: Site, tmp_path: Path, conn: Connection
) -> None:
    _customers(conn)
    add_form(conn, SHOWN)
    client, token, where = _imported(site, tmp_path, "deliveries")
    book = openpyxl.load_workbook(io.BytesIO(client.get(f"{where}/rejected.xlsx").content))
    sheet = book.worksheets[0]
    header = [cell.value for cell in sheet[1]]
    for row in sheet.iter_rows(min_row=2):
        if row[header.index("Amount")].value == -1:
            row[header.index("Amount")].value = 1
    fixed = tmp_path / "fixed.xlsx"
    book.save(fixed)
    # Another sender cannot send it back: the import is not hers.
    site.account("bob@example.com", "sender", ["deliveries"])
    bob = site.signed_in("bob@example.com")
    refused = bob.post(
        "/imports",
        data={"csrf": csrf_of(bob.get("/imports").text)},
        files={"file": ("fixed.xlsx", fixed.read_bytes())},
    )
    assert refused.status_code == 404 and conn.execute(
        "SELECT count(*) AS n FROM import_jobs"
    ).fetchone() == {"n": 1}
    sent = client.post(
        "/imports", data={"csrf": token}, files={"file": ("fixed.xlsx", fixed.read_bytes())}
    )
    assert sent.status_code == 303 and sent.headers["location"].startswith("/imports/")
    site.work()
    correction = client.get(sent.headers["location"]).text
    assert f'a correction of <a href="{where}"' in correction
    assert re.search(r'id="fixed-later">1<', client.get(where).text)


def test_fixed_rows_sent_twice_at_once_are_stored_once(
    site: Site, tmp_path: Path, conn: Connection
) -> None:
    _customers(conn)
    add_form(conn, SHOWN)
    site.account("ana@example.com", "sender", ["deliveries"])
    account = site.importer.user("ana@example.com")
    book = tmp_path / "book.xlsx"
    write_book(book, ROWS, header=["Order ID", "Customer", "Amount"])
    headers = site.token("ana@example.com")
    made = site.client().post(
        "/api/imports", headers=headers, files={"file": (book.name, book.read_bytes())}
    )
    site.work()
    job_id = made.json()["id"]
    site.importer.edit_rows_for(account, job_id, {4: {"Amount": "4"}, 5: {"Amount": "5"}})
    barrier = threading.Barrier(2)
    made_jobs: list[int] = []
    refused: list[str] = []

    def click() -> None:
        barrier.wait()
        try:
            made_jobs.append(site.importer.import_fixed_rows_for(account, job_id).job.id)
        except StateError as exc:  # the other click took the rows first
            refused.append(str(exc))

    clicks = [threading.Thread(target=click) for _ in range(2)]
    for thread in clicks:
        thread.start()
    for thread in clicks:
        thread.join(60)
    assert len(made_jobs) + len(refused) == 2 and made_jobs
    site.work()
    stored = form_rows(conn, "deliveries", "import_job_id <> %s", job_id)
    assert sorted(r["row_number"] for r in stored) == [4, 5]  # each fixed row once
    origin = site.importer.job(job_id)
    assert (origin.fixed_rows, origin.still_open) == (2, 2)


CUSTOMERS = """
name = "customers"
[[fields]]
name = "customer_id"
header = "Customer ID"
type = "integer"
required = true
[[fields]]
name = "name"
header = "Name"
required = true
"""
ORDERS = """
name = "orders"
[[fields]]
name = "order_id"
header = "Order ID"
type = "integer"
required = true
[[fields]]
name = "amount"
header = "Amount"
type = "decimal"
max = 1000
"""


def test_a_groups_error_workbook_sent_back_on_the_page_corrects_every_sheet(
    site: Site, tmp_path: Path, conn: Connection
) -> None:
    from importer.api.requests import SheetsRequest
    from importer.forms.operations import Submitter

    add_form(conn, CUSTOMERS)
    add_form(conn, ORDERS)
    ana = site.account("ana@example.com", "sender", ["customers", "orders"])
    book = openpyxl.Workbook()
    customers = book.active
    assert customers is not None
    customers.title = "Customers"
    customer_rows: list[list[object]] = [["Customer ID", "Name"], [1, "Ada"], [2, None], [3, "Bo"]]
    for row in customer_rows:
        customers.append(row)
    orders = book.create_sheet("Orders")
    order_rows: list[list[object]] = [["Order ID", "Amount"], [10, 5], [11, 5000], [12, 7]]
    for row in order_rows:
        orders.append(row)
    path = tmp_path / "both.xlsx"
    book.save(path)
    who = Submitter(ana.email, ana.id, frozenset(ana.forms))
    group, _ = site.importer.submit_sheets(SheetsRequest(path, run_here=False, submitter=who), None)
    site.work()
    assert group.submissions[0].job.group_id is not None
    fix = tmp_path / "fix.xlsx"
    site.importer.export_group_rows(group.submissions[0].job.group_id, fix)
    errors = openpyxl.load_workbook(fix)
    errors["Customers"]["B2"] = "Cy"  # the name that was missing
    errors["Orders"]["B2"] = 50  # the amount over the maximum
    errors.save(fix)
    client = site.signed_in("ana@example.com")
    sent = client.post(
        "/imports",
        data={"csrf": csrf_of(client.get("/imports").text)},
        files={"file": ("fix.xlsx", fix.read_bytes())},
    )
    assert sent.status_code == 303, sent.text
    site.work()
    # Each sheet corrects its own import: no sheet's fixes left out.
    assert sorted(r["name"] for r in form_rows(conn, "customers")) == ["Ada", "Bo", "Cy"]
    assert sorted(r["order_id"] for r in form_rows(conn, "orders")) == [10, 11, 12]
    fixed = conn.execute(
        "SELECT form, fixed_rows FROM import_jobs WHERE origin_job_id IS NULL ORDER BY id"
    ).fetchall()
    assert [(r["form"], r["fixed_rows"]) for r in fixed] == [("customers", 1), ("orders", 1)]
