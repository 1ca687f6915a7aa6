"""Sender B, walking every route with every method and sender A's job ids, gets 404 or 403
and nothing of A's in any answer; and what a sender writes (file names, sheet names, cells)
is shown as text, never as markup."""

from __future__ import annotations

import re
from pathlib import Path

import xlsxwriter
from httpx2 import Response
from starlette.routing import Route
from starlette.testclient import TestClient

from importer.database import Connection
from importer.web import create_app
from importer.web.uploads import safe_name
from tests.web.conftest import Site, csrf_of

A_FILE = "ana-quarterly-secret.xlsx"
A_CELL = "customer-of-ana-only"


def _ana_book(path: Path) -> Path:
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Sheet1")
    sheet.write_row(0, 0, ["Order ID", "Customer", "Amount"])
    sheet.write_row(1, 0, [1, A_CELL, 10])
    sheet.write_row(2, 0, ["not a number", A_CELL, 5])  # rejected: its cells are kept
    book.close()
    return path


def _request(client: TestClient, method: str, path: str, **extra: object) -> Response:
    return client.request(method, path, **extra)  # type: ignore[arg-type]


def test_sender_b_finds_nothing_of_sender_a_anywhere(
    site: Site, tmp_path: Path, conn: Connection
) -> None:
    site.account("ana@example.com", "sender", ["orders"])
    site.account("bob@example.com", "sender", ["orders"])
    ana = site.token("ana@example.com")
    api = site.client()
    book = _ana_book(tmp_path / A_FILE)
    made = api.post("/api/imports", headers=ana, files={"file": (A_FILE, book.read_bytes())}).json()
    site.work()
    job_id = made["id"]
    assert api.get(f"/api/imports/{job_id}", headers=ana).json()["failed_rows"] == 1

    # And one of A's uploads waiting to be imported (checked first), on the page.
    ana_page = site.signed_in("ana@example.com")
    ana_csrf = csrf_of(ana_page.get("/imports").text)
    kept = ana_page.post(
        "/imports", data={"csrf": ana_csrf}, files={"file": ("second-" + A_FILE, book.read_bytes())}
    )
    upload_id = int(kept.headers["location"].rsplit("/", 1)[1])

    bob_page = site.signed_in("bob@example.com")
    bob_csrf = csrf_of(bob_page.get("/imports").text)
    bob_api = site.token("bob@example.com")
    secrets = (A_FILE, A_CELL, "ana@example.com", "ana-quarterly")
    walked = 0
    for route in create_app(site.importer).routes:
        if not isinstance(route, Route) or route.methods is None:
            continue
        path = route.path.replace("{job_id}", str(job_id)).replace("{upload_id}", str(upload_id))
        path = path.replace("{row}", "3")  # A's rejected row
        someone_elses = "{job_id}" in route.path or "{upload_id}" in route.path
        for method in sorted(route.methods - {"HEAD"}):
            browser = route.path.startswith("/api/") is False
            if not someone_elses and method == "POST":
                continue  # sign-in, sign-out and uploads: B's own business, walked elsewhere
            client = bob_page if browser else api
            extra: dict[str, object] = {}
            if browser and method == "POST":
                extra["data"] = {"csrf": bob_csrf, "cell:Amount": "1", "column": "Amount"}
            if not browser:
                extra["headers"] = bob_api
                if method == "POST":
                    extra["json"] = {"rows": {"3": {"Amount": "1"}}}
            answer = _request(client, method, path, **extra)
            walked += 1
            if someone_elses:
                assert answer.status_code in (403, 404), (method, path, answer.status_code)
            for secret in secrets:
                assert secret not in answer.text, (method, path, secret)
    assert walked >= 25
    # Without the session's token, a POST is refused before anything is looked up.
    assert bob_page.post(f"/imports/{job_id}/cancel").status_code == 403
    # A's job and upload are untouched by all of it.
    row = conn.execute("SELECT status FROM import_jobs WHERE id = %s", (job_id,)).fetchone()
    assert row == {"status": "partially_succeeded"}
    assert "imported already" in ana_page.get(f"/uploads/{upload_id}").text  # the same bytes
    # An id that does not exist is answered exactly alike.
    mine = bob_page.get(f"/imports/{job_id}")
    nothing = bob_page.get("/imports/987654")
    assert mine.status_code == nothing.status_code == 404
    assert _no_id(mine.text) == _no_id(nothing.text)
    api_mine = api.get(f"/api/imports/{job_id}", headers=bob_api)
    api_none = api.get("/api/imports/987654", headers=bob_api)
    assert api_mine.status_code == api_none.status_code == 404
    assert _no_id(api_mine.text) == _no_id(api_none.text)


def _no_id(text: str) -> str:
    return re.sub(r"id \d+", "id N", text)


def test_markup_in_names_and_cells_is_shown_as_text(site: Site, tmp_path: Path) -> None:
    site.account("ana@example.com", "sender", ["orders"])
    script = "<script>alert(1)</script>"
    path = tmp_path / "book.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("<b onclick=alert(3)>")
    sheet.write_row(0, 0, ["Order ID", "Customer", "Amount"])
    sheet.write_row(1, 0, ['<img src=x onerror="alert(2)">', script, 5])
    sheet.write_row(2, 0, [2, "fine", 5])
    book.close()
    client = site.signed_in("ana@example.com")
    token = csrf_of(client.get("/imports").text)
    sent = client.post(
        "/imports",
        data={"csrf": token},
        files={"file": ("<svg onload=alert(4)>.xlsx", path.read_bytes())},
    )
    assert sent.status_code == 303, sent.text
    checked = client.get(sent.headers["location"]).text  # the check, before the import
    assert "&lt;svg onload=alert(4)&gt;.xlsx" in checked and "<svg" not in checked
    started = client.post(f"{sent.headers['location']}/import", data={"csrf": token})
    site.work()
    pages = [client.get(started.headers["location"]).text, client.get("/imports").text]
    for page in pages:
        assert "<svg" not in page and "<b onclick" not in page
        assert "&lt;svg onload=alert(4)&gt;.xlsx" in page
        assert "&lt;b onclick=alert(3)&gt;" in page
    assert "<script>alert" not in pages[0] and "<img" not in pages[0]
    assert "&lt;img src=x onerror=&#34;alert(2)&#34;&gt;" in pages[0]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages[0]


def test_a_file_name_is_kept_without_folders_or_control_characters(
    site: Site, tmp_path: Path, conn: Connection
) -> None:
    site.account("ana@example.com", "sender", ["orders"])
    headers = site.token("ana@example.com")
    book = _ana_book(tmp_path / "a.xlsx")
    made = site.client().post(
        "/api/imports",
        headers=headers,
        files={"file": ("../../etc/passwd.xlsx", book.read_bytes())},
    )
    assert made.status_code == 201, made.text
    assert made.json()["file_name"] == "passwd.xlsx"
    # Control characters (a client sends them percent-encoded; a raw one is dropped).
    assert safe_name("pass\x07wd\u202e\n.xlsx") == "passwd.xlsx"
    assert safe_name("..\\..\\boot.ini") == "boot.ini" and safe_name("\x00") == "upload"
