"""Web benchmark: `importer serve` as its senders meet it, on the wall clock, in one run.

A real `importer serve` (with its worker) on 127.0.0.1 against a scratch database; accounts
and API tokens made with `importer users add` and `importer users token`. Measured:

1. a 200,000-row Excel-like workbook (bench/workbooks.py) uploaded through the API
   (POST /api/imports, multipart) until GET /api/imports/ID says it is done, against
   `importer submit FILE --form F --quiet` of the same file, interleaved, best of N (the
   form's table and the file's key cleared before each run, so every run starts alike);
2. the time from the upload's answer to the first progress event: the first event of
   GET /api/imports/ID/events (where the server has that stream; otherwise the first answer
   of GET /api/imports/ID, polled every 20 ms) that shows a worker running the job; the
   first that shows rows done is printed beside it;
3. pages of the rejected rows of an import with 100,000 of them, first, middle, last and
   spread between: GET /api/imports/ID/rejected (the API) and GET /imports/ID?after=N (the
   job's page, signed in), one request at a time;
4. 50 senders, each with its own account, token and imports, polling at once: every second
   (the page's pace) each asks for its list (GET /api/imports) and each of its imports
   (GET /api/imports/ID), all on the same tick.

Targets (issue: the sender's page): the upload >= 0.9x submit's rows/s; the first progress
event <= 1 s; a rejected rows page <= 50 ms p99; a polling request <= 100 ms p99.
Run alone: ``python -m bench.web [--rows N] [--rejected N] [--senders N] [--repeats N]``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import psycopg

from bench import workbooks
from bench.imports import IMPORTER, Check, Run, best, line, ratio, target, timed
from bench.scratch import scratch_database

ROWS = 200_000
REJECTED = 100_000
SENDERS = 50
JOBS_PER_SENDER = 2
REPEATS = 3
POLL_SECONDS = 0.02  # the first progress event, polled
DONE_POLL_SECONDS = 0.1  # then until the job is done
PAGE_ROWS = 50  # a page of rejected rows (the page's and the API's default)
PAGES = 60  # the pages read, spread over the whole range, each read REREADS times
REREADS = 3
POLL_ROUNDS = 10  # the senders' rounds, one a second
PASSWORD = "bench password 1"

# Targets (issue: the sender's page).
UPLOAD_VS_SUBMIT = 0.9
FIRST_EVENT_SECONDS = 1.0
REJECTED_PAGE_P99_MS = 50.0
POLLING_P99_MS = 100.0


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(env: dict[str, str]) -> Iterator[str]:
    """`importer serve` on a free port of 127.0.0.1 (with its worker); its base URL."""
    port = free_port()
    server = subprocess.Popen(
        [*IMPORTER, "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"bench: importer serve exited: {server.stderr.read()}")  # type: ignore[union-attr]
            try:
                if httpx.get(f"{base}/api/openapi.json", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("bench: importer serve did not answer within 60 s")
            time.sleep(0.1)
        yield base
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _command(command: Sequence[str], env: dict[str, str], stdin: str | None = None) -> str:
    done = subprocess.run(list(command), env=env, input=stdin, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(
            f"bench: {' '.join(command[2:])} exited {done.returncode}: {done.stderr}"
        )
    return done.stdout


def add_sender(env: dict[str, str], email: str) -> str:
    """A sender of the bench's form, with a password, made as an admin would; its token."""
    _command(
        [
            *IMPORTER,
            "users",
            "add",
            email,
            "--role",
            "sender",
            "--forms",
            workbooks.FORM_NAME,
            "--password-stdin",
        ],
        env,
        stdin=PASSWORD + "\n",
    )
    return _command([*IMPORTER, "users", "token", email, "--name", "bench"], env).strip()


def add_senders(env: dict[str, str], emails: Sequence[str]) -> dict[str, str]:
    """The accounts and their tokens, a few commands at a time."""
    with ThreadPoolExecutor(4) as pool:
        tokens = list(pool.map(lambda email: add_sender(env, email), emails))
    return dict(zip(emails, tokens, strict=True))


def api_client(base: str, token: str) -> httpx.Client:
    return httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=600)


def upload(client: httpx.Client, path: Path) -> dict[str, Any]:
    with path.open("rb") as file:
        answer = client.post(
            "/api/imports",
            files={"file": (path.name, file, "application/octet-stream")},
            data={"form": workbooks.FORM_NAME},
        )
    if answer.status_code not in (200, 201):
        raise RuntimeError(f"bench: the upload answered {answer.status_code}: {answer.text}")
    body: dict[str, Any] = answer.json()
    return body


@dataclass
class Watched:
    """An upload watched until its job is done."""

    seconds: float  # from the upload's start to the news that it is done
    first_event: float  # from the upload's answer to the first news of a worker running it
    first_rows: float  # ... to the first news of rows done
    job: dict[str, Any]


def _moved(job: dict[str, Any]) -> bool:
    return job["status"] != "pending" or bool(job["done"])


def _note(moments: dict[str, float], job: dict[str, Any], started: float) -> None:
    """When the job was first seen running, and with rows done (an event's "rows", or the
    job's imported and rejected rows)."""
    elapsed = time.perf_counter() - started
    rows = job.get("rows", job.get("success_rows", 0) + job.get("failed_rows", 0))
    if _moved(job):
        moments.setdefault("moved", elapsed)
    if rows or job["done"]:
        moments.setdefault("rows", elapsed)


def _events_route(base: str) -> bool:
    """Whether the server streams a job's progress (GET /api/imports/{id}/events)."""
    paths = httpx.get(f"{base}/api/openapi.json").json().get("paths", {})
    return "/api/imports/{job_id}/events" in paths


def watch_streamed(client: httpx.Client, job_id: int) -> dict[str, float]:
    """The job's events until the one that says it is done."""
    started, moments = time.perf_counter(), dict[str, float]()
    with client.stream("GET", f"/api/imports/{job_id}/events") as stream:
        for text in stream.iter_lines():
            data = json.loads(text[5:]) if text.startswith("data:") else None
            if isinstance(data, dict) and "status" in data:
                _note(moments, data, started)
                if data["done"]:
                    break
    return moments


def watch_polled(client: httpx.Client, job_id: int) -> dict[str, float]:
    """GET the job every 20 ms until rows are done, then every 100 ms until it is done."""
    started, moments = time.perf_counter(), dict[str, float]()
    while True:
        job = client.get(f"/api/imports/{job_id}").json()
        _note(moments, job, started)
        if job["done"]:
            return moments
        time.sleep(POLL_SECONDS if "rows" not in moments else DONE_POLL_SECONDS)


def upload_and_watch(client: httpx.Client, path: Path, *, streamed: bool) -> Watched:
    started = time.perf_counter()
    job_id = upload(client, path)["id"]
    moments = watch_streamed(client, job_id) if streamed else watch_polled(client, job_id)
    seconds = time.perf_counter() - started
    job = client.get(f"/api/imports/{job_id}").json()
    inf = float("inf")
    return Watched(seconds, moments.get("moved", inf), moments.get("rows", inf), job)


class Scratch:
    """The scratch database's state between runs: every run starts from empty tables and a
    file no job holds yet."""

    def __init__(self, url: str) -> None:
        self.url = url

    def clear(self) -> None:
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute("UPDATE import_jobs SET idempotency_key = NULL")
            conn.execute(
                f"TRUNCATE import_rejected_rows, import_row_errors, forms.{workbooks.FORM_NAME}"
            )
            conn.execute(f"VACUUM ANALYZE forms.{workbooks.FORM_NAME}")

    def unfinished(self) -> int:
        with psycopg.connect(self.url) as conn:
            found = conn.execute(
                "SELECT count(*) FROM import_jobs WHERE status IN ('pending', 'running')"
            ).fetchone()
        return int(found[0]) if found else 0

    def newest_job(self) -> tuple[int, int, int]:
        with psycopg.connect(self.url) as conn:
            found = conn.execute(
                "SELECT id, success_rows, failed_rows FROM import_jobs ORDER BY id DESC LIMIT 1"
            ).fetchone()
        assert found is not None
        return int(found[0]), int(found[1]), int(found[2])


@dataclass
class UploadFigures:
    api: list[float] = field(default_factory=list)
    submit: list[Run] = field(default_factory=list)
    first_events: list[float] = field(default_factory=list)
    first_rows: list[float] = field(default_factory=list)
    counts: set[tuple[int, int]] = field(default_factory=set)  # (imported, rejected) per run


def upload_vs_submit(
    scratch: Scratch,
    env: dict[str, str],
    client: httpx.Client,
    path: Path,
    repeats: int,
    *,
    streamed: bool,
) -> UploadFigures:
    """The API's upload and `importer submit`, interleaved, each from a clear table."""
    figures = UploadFigures()
    command = [*IMPORTER, "submit", str(path), "--form", workbooks.FORM_NAME, "--quiet"]
    for repeat in range(repeats):
        for case in ("api", "submit") if repeat % 2 == 0 else ("submit", "api"):
            scratch.clear()
            if case == "api":
                watched = upload_and_watch(client, path, streamed=streamed)
                figures.api.append(watched.seconds)
                figures.first_events.append(watched.first_event)
                figures.first_rows.append(watched.first_rows)
                job = watched.job
                if job["status"] not in ("succeeded", "partially_succeeded"):
                    raise RuntimeError(f"bench: the uploaded import ended {job}")
                figures.counts.add((job["success_rows"], job["failed_rows"]))
                continue
            result = timed(command, env)
            if result.code not in (0, 3):
                raise RuntimeError(f"bench: submit exited {result.code}: {result.output}")
            figures.submit.append(result)
            figures.counts.add(scratch.newest_job()[1:])
    return figures


def sign_in(base: str, email: str) -> httpx.Client:
    """A browser signed in to the page (its session cookie kept by the client)."""
    browser = httpx.Client(base_url=base, timeout=60)
    form = browser.get("/signin").text
    found = re.search(r'name="csrf" value="([^"]+)"', form)
    if found is None:
        raise RuntimeError("bench: the sign-in form has no CSRF token")
    answer = browser.post(
        "/signin", data={"email": email, "password": PASSWORD, "csrf": found.group(1)}
    )
    if answer.status_code != 303:
        raise RuntimeError(f"bench: signing in answered {answer.status_code}")
    return browser


def spread(rows: int, pages: int) -> list[int]:
    """``after`` of pages spread over the whole range: the first, the last and between (the
    header is row 1: the rows are 2..rows+1)."""
    last = rows + 1 - PAGE_ROWS
    return sorted({round(last * index / (pages - 1)) for index in range(pages)} | {0})


def time_pages(get: Callable[[int], httpx.Response], afters: Sequence[int]) -> list[float]:
    """Each page read REREADS times, one request at a time; milliseconds each."""
    get(afters[0])  # warm
    times = []
    for _ in range(REREADS):
        for after in afters:
            started = time.perf_counter()
            answer = get(after)
            times.append((time.perf_counter() - started) * 1000)
            if answer.status_code != 200:
                raise RuntimeError(f"bench: page after {after} answered {answer.status_code}")
    return times


@dataclass
class PageFigures:
    job: dict[str, Any]
    api: list[float]
    html: list[float]
    rows_seen: int  # rows on the API's first, middle and last pages (3 * PAGE_ROWS)


def rejected_pages(base: str, client: httpx.Client, email: str, rows: int) -> PageFigures:
    """An import of ``rows`` rejected rows, then its pages through the API and the page."""
    path = workbooks.excel_like(rows, invalid=1.0)
    job = upload_and_watch(client, path, streamed=False).job
    job_id, rejected = job["id"], job["failed_rows"]
    afters = spread(rejected, PAGES)
    api = time_pages(
        lambda after: client.get(f"/api/imports/{job_id}/rejected", params={"after": after}),
        afters,
    )
    seen = 0
    for after in (afters[0], afters[len(afters) // 2], afters[-1]):
        page = client.get(f"/api/imports/{job_id}/rejected", params={"after": after}).json()
        seen += len(page["rows"])
    browser = sign_in(base, email)
    try:
        html = time_pages(lambda after: browser.get(f"/imports/{job_id}?after={after}"), afters)
    finally:
        browser.close()
    return PageFigures(job, api, html, seen)


def senders_jobs(base: str, scratch: Scratch, tokens: dict[str, str]) -> dict[str, list[int]]:
    """Each sender's own imports (small workbooks of their own), run by the worker."""
    owned: dict[str, list[int]] = {}
    for index, (email, token) in enumerate(tokens.items()):
        with api_client(base, token) as client:
            owned[email] = [
                upload(client, workbooks.excel_like(11 + JOBS_PER_SENDER * index + n))["id"]
                for n in range(JOBS_PER_SENDER)
            ]
    deadline = time.monotonic() + 300
    while scratch.unfinished():
        if time.monotonic() > deadline:
            raise RuntimeError("bench: the senders' imports did not finish within 300 s")
        time.sleep(0.5)
    return owned


def poll_as(
    base: str, token: str, job_ids: list[int], start: threading.Barrier, times: list[float]
) -> None:
    """One sender polling its imports every second, on the same tick as the others, on a
    kept connection of the standard library's client: httpx took ~4.5 ms of CPU a request
    here, twice the server's, and 50 of them on the same two cores measured the clients."""
    where = urlsplit(base)
    client = http.client.HTTPConnection(where.hostname or "127.0.0.1", where.port, timeout=60)
    headers = {"Authorization": f"Bearer {token}"}

    def get(path: str) -> None:
        client.request("GET", path, headers=headers)
        answer = client.getresponse()
        answer.read()
        if answer.status != 200:
            raise RuntimeError(f"bench: {path} answered {answer.status}")

    try:
        get("/api/imports")  # connected, and the server warm
        start.wait()
        begun = time.monotonic()
        for round_ in range(POLL_ROUNDS):
            for path in ["/api/imports", *(f"/api/imports/{i}" for i in job_ids)]:
                started = time.perf_counter()
                get(path)
                times.append((time.perf_counter() - started) * 1000)
            time.sleep(max(0.0, begun + round_ + 1 - time.monotonic()))
    finally:
        client.close()


def senders_polling(base: str, tokens: dict[str, str], owned: dict[str, list[int]]) -> list[float]:
    start = threading.Barrier(len(tokens))
    times: list[float] = []  # list.append is atomic: the threads share it
    with ThreadPoolExecutor(len(tokens)) as pool:
        running = [
            pool.submit(poll_as, base, token, owned[email], start, times)
            for email, token in tokens.items()
        ]
        for future in running:
            future.result()
    return times


def _say_ms(say: Callable[[str], None], name: str, values: Sequence[float]) -> None:
    say(
        f"  {name:<50} p50 {percentile(values, 0.5):>7.1f} ms  p99 {percentile(values, 0.99):>7.1f}"
        f" ms  max {max(values):>7.1f} ms  ({len(values):,} requests)"
    )


def _say_uploads(
    say: Callable[[str], None], rows: int, figures: UploadFigures, streamed: bool
) -> list[Check]:
    submit = best(figures.submit)
    api = min(figures.api)
    say(line("importer submit FILE --form F --quiet", rows, submit))
    say(
        f"  {'POST /api/imports until GET says done':<50} {rows / api:>10,.0f} rows/s"
        f"  {api:>7.2f} s"
    )
    say(ratio("    upload through the API vs submit (rows/s)", submit.seconds / api))
    how = "its events stream" if streamed else f"GET every {POLL_SECONDS * 1000:.0f} ms"
    moved, rows_done = figures.first_events, figures.first_rows
    say(
        f"  {'after the upload answered, the job seen running':<50} {max(moved):>10.2f} s"
        f"  (worst of {len(moved)}; {how})"
    )
    say(
        f"  {'... and its first rows done (no target)':<50} {max(rows_done):>10.2f} s"
        f"  (best {min(rows_done):.2f} s)"
    )
    if len(figures.counts) != 1:
        say(f"    WRONG: the runs stored different counts: {sorted(figures.counts)}")
    return [
        target(
            "web: upload via API vs submit (rows/s)", submit.seconds / api, ">=", UPLOAD_VS_SUBMIT
        ),
        target(
            "web: first progress event, seconds (worst)",
            max(figures.first_events),
            "<=",
            FIRST_EVENT_SECONDS,
        ),
        target("web: runs that stored other counts", len(figures.counts) - 1, "<=", 0),
    ]


def run(
    report: Callable[[str], None] | None = None,
    *,
    rows: int = ROWS,
    rejected: int = REJECTED,
    senders: int = SENDERS,
    repeats: int = REPEATS,
) -> bool:
    """Print the figures and the targets; True when every target is met."""
    from importer.config import load_settings
    from importer.database import connect, resolve_url
    from importer.forms.definition import parse_form_text
    from importer.repositories.forms import save_form

    say = report or (lambda text: print(text, flush=True))
    path = workbooks.excel_like(rows)
    say(
        f"web: importer serve (with its worker) on 127.0.0.1; a {rows:,}-row Excel-like workbook"
        f" uploaded through the API against importer submit, best of {repeats}, interleaved;"
        f" pages of {rejected:,} rejected rows; {senders} senders polling at once"
    )
    checks: list[Check] = []
    with scratch_database(resolve_url(load_settings()), "web") as url:
        with connect(url, autocommit=True) as conn:
            save_form(conn, parse_form_text(workbooks.FORM))
        env = {**os.environ, "IMPORTER_DATABASE_URL": url, "NO_COLOR": "1"}
        emails = [f"sender{n:02d}@bench.example" for n in range(senders)]
        started = time.monotonic()
        tokens = add_senders(env, emails)
        say(
            f"    {senders} accounts and tokens (users add, users token):"
            f" {time.monotonic() - started:.0f} s"
        )
        scratch = Scratch(url)
        with serving(env) as base:
            streamed = _events_route(base)
            with api_client(base, tokens[emails[0]]) as client:
                # The worker's start-up delay over, the server warm: a small import first.
                upload_and_watch(client, workbooks.excel_like(10), streamed=False)
                figures = upload_vs_submit(scratch, env, client, path, repeats, streamed=streamed)
                checks += _say_uploads(say, rows, figures, streamed)
                scratch.clear()
                pages = rejected_pages(base, client, emails[0], rejected)
            checks += _say_pages(say, pages, rejected)
            owned = senders_jobs(base, scratch, tokens)
            times = senders_polling(base, tokens, owned)
            _say_ms(
                say, f"{senders} senders polling (list + {JOBS_PER_SENDER} imports, 1/s)", times
            )
            checks.append(
                target("web: polling request p99 ms", percentile(times, 0.99), "<=", POLLING_P99_MS)
            )
    for name, value, goal, met in checks:
        say(f"  {name:<50} {value:>10.2f}   target {goal:<8} {'ok' if met else 'MISSED'}")
    return all(met for *_, met in checks)


def _say_pages(say: Callable[[str], None], pages: PageFigures, rejected: int) -> list[Check]:
    found = pages.job["failed_rows"]
    say(f"    the import of {rejected:,} rows: {found:,} rejected (job {pages.job['id']})")
    _say_ms(say, "GET /api/imports/ID/rejected?after=N", pages.api)
    _say_ms(say, "GET /imports/ID?after=N (the job's page)", pages.html)
    return [
        target("web: rejected rows of the import", found, ">=", rejected),
        target("web: rows on first, middle, last API pages", pages.rows_seen, ">=", 3 * PAGE_ROWS),
        target(
            "web: rejected rows API page p99 ms",
            percentile(pages.api, 0.99),
            "<=",
            REJECTED_PAGE_P99_MS,
        ),
        target(
            "web: rejected rows HTML page p99 ms",
            percentile(pages.html, 0.99),
            "<=",
            REJECTED_PAGE_P99_MS,
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.web")
    parser.add_argument("--rows", type=int, default=ROWS)
    parser.add_argument("--rejected", type=int, default=REJECTED)
    parser.add_argument("--senders", type=int, default=SENDERS)
    parser.add_argument("--repeats", type=int, default=REPEATS)
    options = parser.parse_args(argv)
    met = run(
        rows=options.rows,
        rejected=options.rejected,
        senders=options.senders,
        repeats=options.repeats,
    )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
