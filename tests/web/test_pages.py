"""The sender's page: sign in with its CSRF token, an upload queued and run by a worker, the
job's page with its rejected rows, and what is refused and how."""

from __future__ import annotations

from pathlib import Path

from importer.database import Connection
from tests.support.jobs import orders_book
from tests.web.conftest import PASSWORD, Site, csrf_of


def test_sign_in_needs_the_forms_token_and_the_right_password(site: Site) -> None:
    site.account("ana@example.com", "sender", ["orders"])
    client = site.client()
    assert client.get("/imports").headers["location"] == "/signin"
    page = client.get("/signin")
    assert page.status_code == 200
    cookie = page.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie
    assert "default-src 'self'" in page.headers["content-security-policy"]
    # Without the form's token: refused, and not signed in.
    stale = client.post("/signin", data={"email": "ana@example.com", "password": PASSWORD})
    assert stale.status_code == 403 and "this form is out of date" in stale.text
    token = csrf_of(page.text)
    wrong = client.post(
        "/signin", data={"email": "ana@example.com", "password": "not it at all", "csrf": token}
    )
    assert wrong.status_code == 401 and "wrong e-mail address or password" in wrong.text
    right = client.post(
        "/signin", data={"email": "ana@example.com", "password": PASSWORD, "csrf": token}
    )
    assert right.status_code == 303 and right.headers["location"] == "/imports"
    session = right.headers["set-cookie"]
    assert session.startswith("importer_session=")
    assert "HttpOnly" in session and "SameSite=lax" in session and "Path=/" in session
    mine = client.get("/imports")
    assert mine.status_code == 200 and "My imports" in mine.text and "ana@example.com" in mine.text
    # Sign out needs the session's token too.
    assert client.post("/signout", data={"csrf": "forged"}).status_code == 403
    out = client.post("/signout", data={"csrf": csrf_of(mine.text)})
    assert out.status_code == 303 and out.headers["location"] == "/signin"
    assert client.get("/imports").status_code == 303  # signed out, on the server too


def test_the_session_cookie_is_secure_behind_https(site: Site) -> None:
    site.account("ana@example.com", "sender", ["orders"])
    client = site.client()
    client.base_url = client.base_url.copy_with(scheme="https")
    page = client.get("/signin")
    signed = client.post(
        "/signin",
        data={"email": "ana@example.com", "password": PASSWORD, "csrf": csrf_of(page.text)},
    )
    assert "Secure" in signed.headers["set-cookie"]


def test_repeated_failed_sign_ins_are_slowed_down(site: Site) -> None:
    site.account("ana@example.com", "sender", ["orders"])
    client = site.client()
    token = csrf_of(client.get("/signin").text)
    for _ in range(5):
        answer = client.post(
            "/signin", data={"email": "ana@example.com", "password": "guess guess", "csrf": token}
        )
        assert answer.status_code == 401
    slowed = client.post(
        "/signin", data={"email": "ana@example.com", "password": PASSWORD, "csrf": token}
    )
    assert slowed.status_code == 429 and "too many failed sign-ins" in slowed.text


def test_an_upload_is_queued_run_by_a_worker_and_shown_done(
    site: Site, tmp_path: Path, conn: Connection
) -> None:
    site.account("ana@example.com", "sender", ["orders"])
    client = site.signed_in("ana@example.com")
    token = csrf_of(client.get("/imports").text)
    book = orders_book(tmp_path / "orders.xlsx", 30)  # every 10th row has a mistake
    sent = client.post(
        "/imports",
        data={"csrf": token},
        files={"file": ("orders.xlsx", book.path.read_bytes())},
    )
    assert sent.status_code == 303, sent.text
    review = sent.headers["location"]
    assert review.startswith("/uploads/")  # checked first: nothing is imported yet
    checked = client.get(review)
    assert "Import the 27 good rows" in checked.text
    assert conn.execute("SELECT count(*) AS n FROM import_jobs").fetchone() == {"n": 0}
    started = client.post(f"{review}/import", data={"csrf": token})
    assert started.status_code == 303, started.text
    where = started.headers["location"]
    job_id = int(where.rsplit("/", 1)[1])
    waiting = client.get(where)
    assert "waiting for a worker" in waiting.text
    assert 'http-equiv="refresh"' in waiting.text  # reloads itself without JavaScript
    site.work()
    done = client.get(where)
    assert "partially_succeeded" in done.text and "27 rows imported, 3 rejected" in done.text
    assert 'http-equiv="refresh"' not in done.text
    assert "Rejected rows" in done.text and "Download the rejected rows" in done.text
    progress = client.get(f"{where}/progress").json()
    assert progress["status"] == "partially_succeeded" and progress["percent"] == 100.0
    assert "lease_owner" not in progress
    workbook = client.get(f"{where}/rejected.xlsx")
    assert workbook.status_code == 200 and workbook.content[:2] == b"PK"
    row = conn.execute("SELECT submitted_by FROM import_jobs WHERE id = %s", (job_id,)).fetchone()
    assert row == {"submitted_by": "ana@example.com"}
    # The same file again is the same job, not a second import.
    again = client.post(
        "/imports", data={"csrf": token}, files={"file": ("orders.xlsx", book.path.read_bytes())}
    )
    second = again.headers["location"]
    assert f'href="{where}"' in client.get(second).text  # "imported already"
    assert client.post(f"{second}/import", data={"csrf": token}).headers["location"] == where


def test_the_script_upload_gets_json_and_a_refusal_is_the_clis_line(
    site: Site, tmp_path: Path, conn: Connection
) -> None:
    site.account("ana@example.com", "sender", ["orders"])
    client = site.signed_in("ana@example.com")
    token = csrf_of(client.get("/imports").text)
    notes = b"#!/bin/sh\necho this is a script, not a workbook\n"
    refused = client.post(
        "/imports",
        data={"csrf": token},
        files={"file": ("notes.xlsx", notes)},
        headers={"X-Upload": "1"},
    )
    assert refused.status_code == 422
    answer = refused.json()
    assert answer["code"] == "input_refused" and "\n" not in answer["message"]
    assert "not a workbook" in answer["message"] or "not" in answer["message"]
    # The page without the script: the same line, on the page, and no job made.
    page = client.post("/imports", data={"csrf": token}, files={"file": ("notes.xlsx", notes)})
    assert page.status_code == 422 and answer["message"].replace("'", "&#39;") in page.text
    assert conn.execute("SELECT count(*) AS n FROM import_jobs").fetchone() == {"n": 0}
    # A form not granted is answered as one that does not exist.
    book = orders_book(tmp_path / "orders.xlsx", 5, bad_every=0)
    other = client.post(
        "/imports",
        data={"csrf": token, "form": "people"},
        files={"file": ("orders.xlsx", book.path.read_bytes())},
        headers={"X-Upload": "1"},
    )
    assert other.status_code == 404 and other.json() == {
        "code": "not_found",
        "message": "no form named 'people'; known: orders",
    }
    # Without the session's token nothing is stored either.
    forged = client.post("/imports", files={"file": ("orders.xlsx", book.path.read_bytes())})
    assert forged.status_code == 403
    assert conn.execute("SELECT count(*) AS n FROM import_files").fetchone() == {"n": 0}


def test_an_upload_over_the_limit_is_answered_413_with_a_sentence(
    site: Site, conn: Connection
) -> None:
    site.account("ana@example.com", "sender", ["orders"])
    client = site.signed_in("ana@example.com", max_upload_mb=1)
    token = csrf_of(client.get("/imports").text)
    big = b"x" * (2 << 20)
    answer = client.post("/imports", data={"csrf": token}, files={"file": ("big.xlsx", big)})
    assert answer.status_code == 413
    assert "the file is larger than this server accepts (1 MB" in answer.text
    by_script = client.post(
        "/imports",
        data={"csrf": token},
        files={"file": ("big.xlsx", big)},
        headers={"X-Upload": "1"},
    )
    assert by_script.status_code == 413 and by_script.json()["code"] == "too_large"
    # Sent in chunks with no length announced: stopped as it arrives all the same.
    chunks = (b"x" * 65536 for _ in range(40))
    streamed = client.post(
        "/imports",
        content=chunks,
        headers={"content-type": "multipart/form-data; boundary=b", "X-Upload": "1"},
    )
    assert streamed.status_code == 413
    assert conn.execute("SELECT count(*) AS n FROM import_files").fetchone() == {"n": 0}
