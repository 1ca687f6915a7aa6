"""A job's progress as server-sent events: the events of a running import arrive in order and
end at its terminal status; the first comes at once and the first after the job starts comes
within a few polls of its start; another's job is a 404; a stream the client leaves stops
its polling; a stopping server ends its streams and says so in its log."""

from __future__ import annotations

import os
import signal
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx

from importer.api import Importer
from importer.api.viewing import PROGRESS_READER
from importer.database import Connection
from importer.web.events import POLL_SECONDS, RateWindow
from tests.support.jobs import add_form, orders_book
from tests.web.browser import Served
from tests.web.conftest import Site
from tests.web.serving import events_of

EVENT_FIELDS = {
    "id", "status", "total_rows", "rows", "imported", "rejected", "rate", "percent", "done",
    "state", "error",
}  # fmt: skip
ORDER = ["pending", "running", "partially_succeeded"]


def slow_writes(conn: Connection, seconds: float) -> None:
    """Each statement writing into forms.orders takes ``seconds`` longer (a real trigger on
    the real table), so that a small import runs long enough to be watched batch by batch."""
    conn.execute(
        "CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS $$"
        f" BEGIN PERFORM pg_sleep({seconds}); RETURN NULL; END $$"
    )
    conn.execute(
        "CREATE TRIGGER slow BEFORE INSERT ON forms.orders"
        " FOR EACH STATEMENT EXECUTE FUNCTION slow()"
    )


def small_batches(site: Site, rows: int) -> Importer:
    """A worker's Importer committing ``rows`` rows a batch."""
    runs = replace(site.settings.import_, rows_per_transaction=rows)
    return Importer(settings=replace(site.settings, import_=runs))


def test_the_events_of_an_import_arrive_in_order_and_end_at_its_end(
    site: Site, tmp_path: Path, conn: Connection
) -> None:
    site.account("ana@example.com", "sender", ["orders"])
    headers = site.token("ana@example.com")
    client = site.client()
    book = orders_book(tmp_path / "orders.xlsx", 60)  # rows 11, 21, ... 61 rejected
    job = client.post(
        "/api/imports", headers=headers, files={"file": ("orders.xlsx", book.path.read_bytes())}
    ).json()
    slow_writes(conn, 0.3)
    worker = small_batches(site, 10)

    def work_soon() -> None:
        time.sleep(0.5)  # the stream is open by then: it sees the job waiting first
        worker.run_worker(once=True)

    thread = threading.Thread(target=work_soon)
    thread.start()
    with client.stream("GET", f"/api/imports/{job['id']}/events", headers=headers) as answer:
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/event-stream")
        text = "\n".join(answer.iter_lines())
    thread.join(60)

    events = list(events_of(iter(text.split("\n"))))
    assert {kind for kind, _ in events} == {"progress"}
    shown = [data for _, data in events]
    assert all(set(data) == EVENT_FIELDS for data in shown)  # no lease, no host
    assert "lease" not in text
    assert shown[0]["status"] == "pending" and shown[0]["rows"] == 0
    last = shown[-1]
    assert (last["status"], last["done"], last["percent"]) == ("partially_succeeded", True, 100.0)
    assert (last["rows"], last["imported"], last["rejected"]) == (60, 54, 6)
    assert not any(data["done"] for data in shown[:-1])
    # In order: statuses never go back, rows never shrink, and each event is a change.
    steps = [ORDER.index(d["status"]) for d in shown]
    assert steps == sorted(steps)
    assert [d["rows"] for d in shown] == sorted(d["rows"] for d in shown)
    changes = [(d["status"], d["total_rows"], d["rows"], d["rejected"]) for d in shown]
    assert len(changes) == len(set(changes))
    # The batches were seen as they committed, with their rate.
    running = [d for d in shown if d["status"] == "running" and 0 < d["rows"] < 60]
    assert len(running) >= 2, changes
    assert any(d["rate"] for d in running)
    assert [int(line[4:]) for line in text.split("\n") if line.startswith("id: ")] == list(
        range(1, len(events) + 1)
    )


def test_a_stream_of_another_senders_job_is_refused_as_not_found(
    site: Site, tmp_path: Path
) -> None:
    site.account("ana@example.com", "sender", ["orders"])
    site.account("bob@example.com", "sender", ["orders"])
    client = site.client()
    book = orders_book(tmp_path / "orders.xlsx", 5)
    job = client.post(
        "/api/imports",
        headers=site.token("ana@example.com"),
        files={"file": ("orders.xlsx", book.path.read_bytes())},
    ).json()
    bob = site.token("bob@example.com")
    theirs = client.get(f"/api/imports/{job['id']}/events", headers=bob)
    none = client.get("/api/imports/987654/events", headers=bob)
    assert theirs.status_code == none.status_code == 404
    assert theirs.json()["code"] == "not_found" and "orders.xlsx" not in theirs.text
    assert client.get(f"/api/imports/{job['id']}/events").status_code == 401


def test_the_rate_is_the_rows_a_second_of_the_last_seconds() -> None:
    window = RateWindow(seconds=5)
    assert window.add(0, now=100.0) is None
    assert window.add(100, now=101.0) == 100.0
    assert window.add(300, now=102.0) == 150.0
    assert window.add(300, now=110.0) == 0.0  # nothing new in the last five seconds


def _readers(conn: Connection) -> int:
    found = conn.execute(
        "SELECT count(*) AS n FROM pg_stat_activity"
        " WHERE application_name = %s AND datname = current_database()",
        (PROGRESS_READER,),
    ).fetchone()
    assert found is not None
    return int(found["n"])


def _until(check: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the time allowed"
        time.sleep(0.05)


def _upload(served: Served, headers: dict[str, str], book: Path, name: str) -> int:
    made = httpx.post(
        f"{served.url}/api/imports",
        headers=headers,
        files={"file": (name, book.read_bytes())},
        timeout=30,
    )
    assert made.status_code == 201, made.text
    return int(made.json()["id"])


def test_a_served_stream_comes_at_once_follows_the_job_and_stops_with_its_client(
    served: Served, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    served.account("ana@example.com", "sender", ["orders"])
    _, token = served.importer.create_token("ana@example.com", "test")
    headers = {"Authorization": f"Bearer {token}"}
    job_id = _upload(served, headers, orders_book(tmp_path / "a.xlsx", 30).path, "a.xlsx")
    url = f"{served.url}/api/imports/{job_id}/events"
    with httpx.stream("GET", url, headers=headers, timeout=30) as answer:
        events = events_of(answer.iter_lines())
        first = next(events)[1]
        assert first["status"] == "pending"  # sent at once: nothing has moved yet
        _until(lambda: _readers(conn) == 1)
        served.work_in_background().join(60)
        moved = next(events)[1]
        lag = conn.execute(
            "SELECT extract(epoch FROM clock_timestamp() - started_at) AS s"
            " FROM import_jobs WHERE id = %s",
            (job_id,),
        ).fetchone()
        rest = [moved, *(data for _, data in events)]
    assert rest[-1]["status"] == "partially_succeeded"
    assert rest[-1]["done"] is True and rest[-1]["rows"] == 30
    # The worker ran the job in well under a second; the first event after its start came
    # within a few of the server's polls of it (its database's clock on both ends).
    assert lag is not None and float(lag["s"]) < 2.0 + 8 * POLL_SECONDS, lag
    _until(lambda: _readers(conn) == 0)  # no stream left: the server reads nothing more

    # A stream of a job that does not move, left by its client: the server stops polling.
    waiting = _upload(served, headers, orders_book(tmp_path / "b.xlsx", 5).path, "b.xlsx")
    with httpx.stream(
        "GET", f"{served.url}/api/imports/{waiting}/events", headers=headers, timeout=30
    ) as answer:
        events = events_of(answer.iter_lines())  # kept: dropping it would close the stream
        assert next(events)[1]["status"] == "pending"
        _until(lambda: _readers(conn) == 1)
    _until(lambda: _readers(conn) == 0)

    # The server stopped while a stream is open: the stream ends, the stop is logged.
    with httpx.stream(
        "GET", f"{served.url}/api/imports/{waiting}/events", headers=headers, timeout=30
    ) as answer:
        lines = answer.iter_lines()
        assert next(events_of(lines))[1]["status"] == "pending"
        os.killpg(served.process.pid, signal.SIGTERM)
        assert list(events_of(lines)) == []  # ended, with no event: reconnect elsewhere
    out, _ = served.process.communicate(timeout=60)
    assert served.process.returncode == 0, out
    assert b"stopping on SIGTERM" in out and b"stopped on SIGTERM" in out
