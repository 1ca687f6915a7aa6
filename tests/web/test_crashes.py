"""Exactly once through the page's server, with real processes killed -9: `importer serve`
during an upload (its body half-sent: nothing is made, and the upload sent again is
imported), `importer serve` during the import its embedded worker runs (a restarted serve,
or `importer worker`, finishes it: every row stored once), and a worker during a correction
sent through the API's corrections route (each fixed row stored once; the import's rejected
rows are its rows fixed later and its rows still open)."""

from __future__ import annotations

import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from importer.database import Connection
from importer.web.auth import SESSION_COOKIE
from tests.conftest import IMPORTER_CMD
from tests.support.corrections import claims, job_row, stored
from tests.support.jobs import (
    Book,
    assert_exactly_once,
    counts,
    kill_9,
    orders_book,
    wait_until_stopped,
)
from tests.web.browser import PASSWORD
from tests.web.conftest import Site, csrf_of
from tests.web.serving import environment, free_port, start_serve, wait_for_answer

pytestmark = pytest.mark.slow

# Small batches, a short lease and no waiting: a killed process's job is taken over soon.
QUICK = {
    "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "10",
    "IMPORTER_JOBS_IMPORT_LEASE_SECONDS": "3",
    "IMPORTER_JOBS_IMPORT_STARTUP_DELAY_SECONDS": "0.1",
    "IMPORTER_JOBS_IMPORT_POLL_INTERVAL_SECONDS": "0.5",
}


class Server:
    """`importer serve` (with its worker) on its own port, against the test's database."""

    def __init__(self, database_url: str, home: Path, **extra: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = start_serve(
            environment(database_url, home, **QUICK, **extra), self.port, worker=True
        )
        wait_for_answer(self.url, self.process)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        self.process.communicate(timeout=60)


@contextmanager
def serving(database_url: str, home: Path, **extra: str) -> Iterator[Server]:
    server = Server(database_url, home, **extra)
    try:
        yield server
    finally:
        server.stop()


def _token(site: Site) -> dict[str, str]:
    site.importer.add_user("ana@example.com", "sender", ["orders"], PASSWORD)
    return site.token("ana@example.com")


def _upload(server: Server, headers: dict[str, str], book: Book) -> int:
    made = httpx.post(
        f"{server.url}/api/imports",
        headers=headers,
        files={"file": (book.path.name, book.path.read_bytes())},
        timeout=60,
    )
    assert made.status_code == 201, made.text
    return int(made.json()["id"])


def _until_done(server: Server, headers: dict[str, str], job_id: int) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job: dict[str, Any] = httpx.get(
            f"{server.url}/api/imports/{job_id}", headers=headers, timeout=30
        ).json()
        if job["done"]:
            return job
        time.sleep(0.2)
    raise AssertionError(f"import {job_id} did not end within two minutes")


def _multipart(name: str, content: bytes, fields: dict[str, str]) -> tuple[str, bytes]:
    boundary = "importer-test-boundary-7f3a"
    head = "".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'
        for key, value in fields.items()
    )
    head += (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    )
    return boundary, head.encode() + content + f"\r\n--{boundary}--\r\n".encode()


def _received_queue(server_port: int, client_port: int) -> int | None:
    """Bytes the server's end of this connection has not read yet (/proc/net/tcp)."""
    local, remote = f"0100007F:{server_port:04X}", f"0100007F:{client_port:04X}"
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        parts = line.split()
        if parts[1] == local and parts[2] == remote:
            return int(parts[4].split(":")[1], 16)
    return None


def _signed_in(server: Server) -> tuple[str, str]:
    """A browser's session cookie and its CSRF token, signed in as ana."""
    with httpx.Client(base_url=server.url, timeout=30) as browser:
        form = browser.get("/signin")
        signed = browser.post(
            "/signin",
            data={"email": "ana@example.com", "password": PASSWORD, "csrf": csrf_of(form.text)},
        )
        assert signed.status_code == 303, signed.text
        session = browser.cookies[SESSION_COOKIE]
        return f"{SESSION_COOKIE}={session}", csrf_of(browser.get("/imports").text)


def _send_half(server: Server, route: str, headers: dict[str, str], book: Book) -> socket.socket:
    """An upload (to the API, or the page's) whose body stops half-way, once the server has
    read all that came."""
    fields: dict[str, str] = {}
    if route == "page":
        cookie, csrf = _signed_in(server)
        who, fields, path = f"Cookie: {cookie}", {"csrf": csrf}, "/imports"
    else:
        who, path = f"Authorization: {headers['Authorization']}", "/api/imports"
    boundary, body = _multipart(book.path.name, book.path.read_bytes(), fields)
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n{who}\r\n"
        f"Content-Type: multipart/form-data; boundary={boundary}\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    client = socket.create_connection(("127.0.0.1", server.port))
    client.sendall(head + body[: len(body) // 2])
    client_port = client.getsockname()[1]
    deadline = time.monotonic() + 30
    while _received_queue(server.port, client_port) != 0:
        assert time.monotonic() < deadline, "the server never read the half sent"
        time.sleep(0.05)
    return client


def _uploads_kept(conn: Connection) -> int:
    found = conn.execute("SELECT count(*) AS n FROM upload_reviews").fetchone()
    assert found is not None
    return int(found["n"])


@pytest.mark.parametrize("route", ["api", "page"])
def test_serve_killed_during_an_upload_leaves_nothing_and_the_upload_again_is_imported(
    site: Site, database_url: str, conn: Connection, tmp_path: Path, route: str
) -> None:
    headers = _token(site)
    book = orders_book(tmp_path / "orders.xlsx", 20_000)  # a body of several reads
    before = counts(conn)
    with serving(database_url, tmp_path / "home") as server:
        client = _send_half(server, route, headers, book)
        kill_9(server.process)
        client.close()
    assert counts(conn) == before  # no job, no stored file, no row
    assert _uploads_kept(conn) == 0  # nor an upload waiting to be checked

    with serving(database_url, tmp_path / "home") as server:
        job_id = _upload(server, headers, book)
        job = _until_done(server, headers, job_id)
    assert (job["status"], job["success_rows"], job["failed_rows"]) == (
        "partially_succeeded",
        len(book.valid),
        len(book.invalid),
    )
    assert_exactly_once(conn, job_id, book)


@pytest.mark.parametrize("finisher", ["serve", "worker"])
def test_serve_killed_during_an_import_is_finished_by_another_process_exactly_once(
    site: Site, database_url: str, conn: Connection, tmp_path: Path, finisher: str
) -> None:
    headers = _token(site)
    book = orders_book(tmp_path / "orders.xlsx", 60, bad_every=7)  # 6 batches of 10
    with serving(database_url, tmp_path / "home", IMPORTER_TEST_PAUSE_AT="batch:3") as server:
        job_id = _upload(server, headers, book)
        wait_until_stopped(server.process)  # its worker, inside batch 3's transaction
        kill_9(server.process)
    killed = job_row(conn, job_id)
    assert killed["status"] == "running"
    assert killed["success_rows"] + killed["failed_rows"] == 20  # batches 1 and 2 committed

    if finisher == "serve":
        with serving(database_url, tmp_path / "home") as server:
            job = _until_done(server, headers, job_id)
        assert job["status"] == "partially_succeeded"
    else:
        _wait_for_expired_lease(conn, job_id)
        worker = subprocess.run(
            [*IMPORTER_CMD, "worker", "--once"],
            env=environment(database_url, tmp_path / "home", **QUICK),
            capture_output=True,
            timeout=120,
        )
        assert worker.returncode == 0, worker.stderr.decode()
    assert_exactly_once(conn, job_id, book)
    assert job_row(conn, job_id)["attempts"] == 2  # the killed run's attempt, and this one


def _wait_for_expired_lease(conn: Connection, job_id: int) -> None:
    deadline = time.monotonic() + 30
    while True:
        found = conn.execute(
            "SELECT lease_expires_at < now() AS expired FROM import_jobs WHERE id = %s",
            (job_id,),
        ).fetchone()
        if found is not None and found["expired"]:
            return
        assert time.monotonic() < deadline, "the lease never expired"
        time.sleep(0.2)


def test_a_worker_killed_during_a_correction_sent_through_the_api_stores_each_fixed_row_once(
    site: Site, database_url: str, conn: Connection, tmp_path: Path
) -> None:
    headers = _token(site)
    client = site.client()
    book = orders_book(tmp_path / "orders.xlsx", 60, bad_every=2)  # rows 3, 5, ... 61 bad
    made = client.post(
        "/api/imports", headers=headers, files={"file": ("orders.xlsx", book.path.read_bytes())}
    )
    origin = int(made.json()["id"])
    site.work()
    assert job_row(conn, origin)["failed_rows"] == 30
    fixed = sorted(book.invalid)[:24]  # 24 rows fixed, 6 left open
    edits = {"rows": {str(n): {"Amount": "5.5"} for n in fixed}}
    checked = client.post(f"/api/imports/{origin}/rejected/edits", headers=headers, json=edits)
    assert checked.status_code == 200 and checked.json()["ready"] == 24, checked.text
    sent = client.post(f"/api/imports/{origin}/corrections", headers=headers)
    assert sent.status_code == 201, sent.text
    correction = int(sent.json()["id"])

    env = environment(database_url, tmp_path / "home", **QUICK)
    small = {**env, "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "4"}
    worker = subprocess.Popen(
        [*IMPORTER_CMD, "worker"],
        env={**small, "IMPORTER_TEST_PAUSE_AT": "batch:3"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    wait_until_stopped(worker)
    kill_9(worker)
    assert len(stored(conn, correction)) == len(claims(conn, origin)) == 8  # two batches

    _wait_for_expired_lease(conn, correction)
    resumed = subprocess.run(
        [*IMPORTER_CMD, "worker", "--once"], env=small, capture_output=True, timeout=120
    )
    assert resumed.returncode == 0, resumed.stderr.decode()
    expected = {n: (book.rows[n - 2][0], book.rows[n - 2][1], 5.5) for n in fixed}
    assert stored(conn, correction) == expected  # each fixed row once, as fixed
    assert claims(conn, origin) == dict.fromkeys(fixed, correction)
    done = job_row(conn, correction)
    assert (done["status"], done["success_rows"], done["failed_rows"]) == ("succeeded", 24, 0)
    shown = client.get(f"/api/imports/{origin}", headers=headers).json()
    assert (shown["failed_rows"], shown["fixed_later"], shown["still_open"]) == (30, 24, 6)
    # The rows left open are still there to fix; the fixed ones are not offered again.
    open_rows = client.get(f"/api/imports/{origin}/rejected?limit=500", headers=headers).json()
    assert len(open_rows["rows"]) == 30  # the import's rejected rows, as rejected
    again = client.post(f"/api/imports/{origin}/corrections", headers=headers)
    assert again.status_code == 409 and again.json()["code"] == "conflict"  # none fixed now
