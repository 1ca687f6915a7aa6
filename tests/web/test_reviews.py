"""An upload on the page is checked before it is imported: the columns to match where its
header does not fit a form outright (the tool's proposals, required fields marked, columns
left out; the choice kept for this sender, form and header and proposed again), then the
check of its rows (counts, the most common problems, new/updated/unchanged for a keyed form,
the form's reject threshold), "Import the N good rows", "Fix first" and "Discard"."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import openpyxl
from starlette.testclient import TestClient

from importer.database import Connection
from tests.support.jobs import KEYED_FORM, ORDERS_FORM, add_form, form_rows, write_book
from tests.web.conftest import Site, csrf_of, send

ODD_HEADER = ["Order No", "Custmer", "Amount", "Notes"]


def _upload(client: TestClient, token: str, path: Path, **fields: str) -> str:
    sent = client.post(
        "/imports", data={"csrf": token, **fields}, files={"file": (path.name, path.read_bytes())}
    )
    assert sent.status_code == 303, sent.text
    return str(sent.headers["location"])


def _selected(html: str, index: int) -> str:
    """The field chosen in the page's select of column ``index`` ("" : ignored)."""
    select = re.search(rf'<select id="column-{index}".*?</select>', html, re.S)
    assert select is not None, html
    chosen = re.search(r'<option value="([^"]*)" selected>', select.group(0))
    assert chosen is not None, select.group(0)
    return chosen.group(1)


def _odd_book(path: Path, rows: list[list[Any]]) -> Path:
    write_book(path, rows, header=ODD_HEADER)
    return path


def test_columns_are_matched_once_and_proposed_again_for_the_same_header(
    site: Site, tmp_path: Path, conn: Connection
) -> None:
    site.account("ana@example.com", "sender", ["orders"])
    client = site.signed_in("ana@example.com")
    token = csrf_of(client.get("/imports").text)
    first = _odd_book(tmp_path / "first.xlsx", [[1, "Ann", 5, "x"], [2, "Bo", -1, "y"]])
    review = _upload(client, token, first)
    page = client.get(review).text
    # The command line's line, and the tool's proposals: a near miss is a guess, a column that
    # matches nothing is left out, every required field is marked.
    assert "missing required columns &#39;Order ID&#39;, &#39;Customer&#39; for form" in page
    assert "did you mean --map &#39;Custmer=customer&#39;?" in page
    assert [_selected(page, i) for i in range(4)] == ["", "customer", "amount", ""]
    assert "did you mean customer?" in page
    assert "Order ID (required)" in page and "Customer (required)" in page
    assert "Amount (required)" not in page
    # A choice that still leaves a required field out is refused, and kept on the page.
    chosen = {"column-0": "", "column-1": "customer", "column-2": "", "column-3": ""}
    refused = client.post(f"{review}/columns", data={"csrf": token, "form": "orders", **chosen})
    assert refused.status_code == 422 and "missing required column" in refused.text
    assert [_selected(refused.text, i) for i in range(4)] == ["", "customer", "", ""]
    chosen = {"column-0": "order_id", "column-1": "customer", "column-2": "amount", "column-3": ""}
    matched = client.post(f"{review}/columns", data={"csrf": token, "form": "orders", **chosen})
    assert matched.status_code == 303 and matched.headers["location"] == review
    checked = client.get(review).text
    assert "Import the 1 good row" in checked and 'id="fix-first"' in checked
    # The columns as matched can be changed again from the check.
    assert f'href="{review}?columns=1"' in checked
    again = client.get(f"{review}?columns=1").text
    assert [_selected(again, i) for i in range(4)] == ["order_id", "customer", "amount", ""]
    assert 'id="review-error"' not in again
    assert "<strong>1</strong> row: Amount: the value is less than the minimum 0" in checked
    started = client.post(f"{review}/import", data={"csrf": token})
    job_id = int(started.headers["location"].rsplit("/", 1)[1])
    site.work()
    stored = form_rows(conn, "orders", "import_job_id = %s", job_id)
    assert [(r["order_id"], r["customer"]) for r in stored] == [(1, "Ann")]
    kept = conn.execute("SELECT column_map FROM import_jobs WHERE id = %s", (job_id,)).fetchone()
    assert kept is not None and kept["column_map"] == {
        "Order No": "order_id", "Custmer": "customer", "Amount": "amount", "Notes": ""
    }  # fmt: skip
    # The same header again, another file: the columns as this sender matched them, proposed.
    second = _odd_book(tmp_path / "second.xlsx", [[3, "Cy", 7, "z"]])
    again = client.get(_upload(client, token, second)).text
    assert "as you matched this header the last time" in again
    assert [_selected(again, i) for i in range(4)] == ["order_id", "customer", "amount", ""]
    # Another sender gets the tool's proposals, not Ana's choice.
    site.account("bob@example.com", "sender", ["orders"])
    bob = site.signed_in("bob@example.com")
    bob_token = csrf_of(bob.get("/imports").text)
    theirs = bob.get(_upload(bob, bob_token, second)).text
    assert "last time" not in theirs and _selected(theirs, 0) == ""


def test_the_check_says_what_an_import_would_do_to_a_keyed_form(
    site: Site, tmp_path: Path, conn: Connection
) -> None:
    add_form(conn, KEYED_FORM)
    site.account("ana@example.com", "sender", ["ledger"])
    client = site.signed_in("ana@example.com")
    token = csrf_of(client.get("/imports").text)
    old = tmp_path / "old.xlsx"
    write_book(old, [[1, "Ann", 5], [2, "Bo", 6]])
    send(client, token, old.name, old.read_bytes())
    site.work()
    new = tmp_path / "new.xlsx"
    write_book(new, [[1, "Ann", 5], [2, "Bo", 60], [3, "Cy", 7], [4, "Di", -1], [5, "Ed", -2]])
    review = _upload(client, token, new, form="ledger")
    page = client.get(review).text
    counts = dict(re.findall(r'<dd id="check-(\w+)">([\d,]+)</dd>', page))
    assert counts == {
        "rows": "5", "good": "3", "rejected": "2", "inserted": "1", "updated": "1", "unchanged": "1"
    }  # fmt: skip
    assert "<strong>2</strong> rows: Amount: the value is less than the minimum 0" in page
    assert "nothing is imported until you say so" in page
    assert conn.execute("SELECT count(*) AS n FROM import_jobs").fetchone() == {"n": 1}


def test_the_forms_reject_threshold_applies_as_in_the_command_line(
    site: Site, tmp_path: Path, conn: Connection
) -> None:
    add_form(conn, ORDERS_FORM.replace('name = "orders"', 'name = "capped"\nmax_rejected = 1'))
    site.account("ana@example.com", "sender", ["capped"])
    client = site.signed_in("ana@example.com")
    token = csrf_of(client.get("/imports").text)
    book = tmp_path / "book.xlsx"
    write_book(book, [[1, "Ann", 5], [2, "Bo", -1], [3, "Cy", -2]])
    review = _upload(client, token, book)
    page = client.get(review).text
    assert "An import would fail: 2 of 3 rows rejected (66.7%), over the limit of 1" in page
    assert 'id="import"' not in page
    # Fix first: the rows to fix, as the error file `importer check -o` writes.
    fix = client.get(f"{review}/rejected.xlsx")
    assert fix.status_code == 200 and fix.content[:2] == b"PK"
    sheet = openpyxl.load_workbook(io.BytesIO(fix.content)).worksheets[0]
    texts = [[c for c in row if c is not None] for row in sheet.iter_rows(values_only=True)]
    assert texts[1][1:3] == ["Bo", -1] and texts[2][1:3] == ["Cy", -2]
    # The sender's own threshold over the form's, as --max-rejected.
    loose = _upload(client, token, book, max_rejected="90%")
    assert "Import the 1 good row" in client.get(loose).text
    # Discard: the upload and its bytes go; the other upload of the same bytes keeps them.
    dropped = client.post(f"{review}/drop", data={"csrf": token})
    assert dropped.status_code == 303 and dropped.headers["location"] == "/imports"
    assert client.get(review).status_code == 404
    assert conn.execute("SELECT count(*) AS n FROM import_files").fetchone() == {"n": 1}
    client.post(f"{loose}/drop", data={"csrf": token})
    assert conn.execute("SELECT count(*) AS n FROM import_files").fetchone() == {"n": 0}
    assert conn.execute("SELECT count(*) AS n FROM import_jobs").fetchone() == {"n": 0}


def _figures(html: str) -> tuple[str, str, bool]:
    good = re.search(r'id="check-good">([^<]*)<', html)
    rejected = re.search(r'id="check-rejected">([^<]*)<', html)
    assert good is not None and rejected is not None, html
    return good.group(1), rejected.group(1), 'id="check-kept"' in html


def test_the_check_is_kept_with_the_upload_until_its_columns_or_its_form_change(
    site: Site, tmp_path: Path, conn: Connection
) -> None:
    site.account("ana@example.com", "sender", ["orders"])
    client = site.signed_in("ana@example.com")
    token = csrf_of(client.get("/imports").text)
    book = tmp_path / "orders.xlsx"
    write_book(book, [[1, "Ann", 5], [2, "Bo", -1], [3, "Cy", 7]])
    review = _upload(client, token, book)
    assert _figures(client.get(review).text) == ("2", "1", False)  # checked: every row read

    # The stored bytes made unreadable: a check run again would be refused, so the page shown
    # again is the check kept with the upload; "check again" does run it.
    stored = conn.execute("SELECT sha256, content FROM import_files").fetchone()
    assert stored is not None
    conn.execute("UPDATE import_files SET content = 'not a workbook'::bytea")
    assert _figures(client.get(review).text) == ("2", "1", True)
    assert client.get(f"{review}?again=1").status_code == 422
    conn.execute("UPDATE import_files SET content = %s", (stored["content"],))

    # New options (the columns matched again) let the kept check go: it runs anew.
    columns = {"column-0": "order_id", "column-1": "customer", "column-2": "amount"}
    matched = client.post(f"{review}/columns", data={"csrf": token, "form": "orders", **columns})
    assert matched.status_code == 303, matched.text
    assert _figures(client.get(review).text) == ("2", "1", False)
    assert _figures(client.get(review).text) == ("2", "1", True)
    # So does a new version of the form: its rules may read the rows otherwise.
    add_form(conn, ORDERS_FORM.replace("min = 0", "min = -10"))
    assert _figures(client.get(review).text) == ("3", "0", False)
