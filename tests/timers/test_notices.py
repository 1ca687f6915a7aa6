"""Completion notices (webhooks): the outbox trigger of migration 0014, their delivery by the
timer scheduler to a real HTTP receiver on loopback, and what `status`, `timers list`,
`stats` and the metrics say of them."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from importer import __version__
from importer.config import (
    DEFAULT_NOTIFY_EVENTS,
    NotifySettings,
    TimerSettings,
    load_settings,
)
from importer.daemons.scheduler import TimerScheduler
from importer.database import Connection
from importer.errors import ConfigError, FormError
from importer.forms.definition import parse_form_text
from importer.forms.operations import JobOptions
from importer.repositories import jobs
from importer.repositories.notices import NOTIFY_KIND, job_notices
from importer.retry_policy import RetryPolicy
from importer.states import JobStatus, TimerStatus
from tests.conftest import Cli
from tests.support.fleet import wait_for
from tests.support.jobs import ORDERS_FORM, add_form, orders_book
from tests.support.webhook_server import (
    Answer,
    Behaviour,
    WebhookServer,
    failing_half,
    webhook_server,
)

OWNER = "worker:1:test"
# Short enough for tests: a timeout of half a second, retries 50 ms apart.
TIMEOUT = 0.5
FAST_TIMERS = TimerSettings(
    poll_interval_seconds=0.2,
    startup_delay_seconds=0.01,
    batch_size=20,
    lease_seconds=30,
    max_attempts=5,
    retry=RetryPolicy((0.05,), jitter=0.0),
)
FAST_ENV = {
    "IMPORTER_JOBS_RETRY_DELAYS_SECONDS": "0.05",
    "IMPORTER_NOTIFY_TIMEOUT_SECONDS": str(TIMEOUT),
}


def target(
    url: str,
    *,
    events: tuple[str, ...] = DEFAULT_NOTIFY_EVENTS,
    secret_env: str | None = None,
    max_attempts: int = 5,
) -> dict[str, Any]:
    """A job's notice target as a submit stores it."""
    return {
        "url": url,
        "secret_env": secret_env,
        "events": list(events),
        "max_attempts": max_attempts,
        "timeout_seconds": TIMEOUT,
    }


_FILE: dict[str, str] = {}


def new_job(conn: Connection, name: str, notify: dict[str, Any] | None, attempts: int = 3) -> int:
    """A pending job, available now (one stored file; the sheet name tells jobs apart)."""
    if conn.info.dbname not in _FILE:
        _FILE[conn.info.dbname] = jobs.store_file(conn, b"one workbook")
    new = jobs.NewJob(
        form="orders",
        form_version=1,
        file=_FILE[conn.info.dbname],
        file_name="orders.xlsx",
        sheet=name,
        engine="auto",
        header=["Order ID"],
        total_rows=1,
        max_attempts=attempts,
        notify=notify,
    )
    job, created = jobs.create_job(conn, new)
    assert created
    return job.id


def claim(conn: Connection, job_ids: list[int], lease_seconds: float = 60) -> None:
    claimed = jobs.claim_jobs(
        conn, owner=OWNER, limit=len(job_ids), lease_seconds=lease_seconds, job_ids=job_ids
    )
    assert sorted(j.id for j in claimed) == sorted(job_ids)


def notice_timers(conn: Connection) -> list[dict[str, Any]]:
    return conn.execute(
        "SELECT * FROM timer_jobs WHERE kind = %s ORDER BY id", (NOTIFY_KIND,)
    ).fetchall()


def live_notices(conn: Connection) -> int:
    row = conn.execute(
        "SELECT count(*) AS n FROM timer_jobs WHERE kind = %s"
        " AND status IN ('pending', 'processing')",
        (NOTIFY_KIND,),
    ).fetchone()
    assert row is not None
    return int(row["n"])


@contextmanager
def scheduler(url: str, settings: TimerSettings = FAST_TIMERS) -> Iterator[TimerScheduler]:
    """`importer timers` as its loop runs, in a thread of this process (whose environment
    holds the secrets the deliveries read)."""
    stop = threading.Event()
    running = TimerScheduler(url, settings, stop=stop)
    thread = threading.Thread(target=running.run, name="test-scheduler")
    thread.start()
    try:
        yield running
    finally:
        stop.set()
        thread.join(30)
        assert not thread.is_alive()


def delivered_all(conn: Connection, timeout: float = 60.0) -> None:
    wait_for(lambda: live_notices(conn) == 0, timeout=timeout, what="every notice finished")


# --- the settings and the job's target -------------------------------------------------------


def test_the_notify_settings_are_read_checked_and_resolved_into_the_job(tmp_path: Path) -> None:
    cfg = tmp_path / "importer.toml"
    cfg.write_text(
        '[notify]\nurl = "https://hooks.example.com/imports"\nsecret_env = "MY_SECRET"\n'
        'events = ["failed", "cancelled"]\ntimeout_seconds = 3\n'
    )
    notify = load_settings(cfg, environ={}).notify
    assert notify == NotifySettings(
        "https://hooks.example.com/imports", "MY_SECRET", ("failed", "cancelled"), 3.0
    )
    env = {"IMPORTER_NOTIFY_URL": "http://elsewhere/h", "IMPORTER_NOTIFY_EVENTS": "succeeded"}
    from_env = load_settings(cfg, environ=env).notify
    assert (from_env.url, from_env.events) == ("http://elsewhere/h", ("succeeded",))
    assert load_settings(environ={}).notify.events == DEFAULT_NOTIFY_EVENTS
    for key, value in [
        ("IMPORTER_NOTIFY_URL", "ftp://x"),
        ("IMPORTER_NOTIFY_EVENTS", "running"),
        ("IMPORTER_NOTIFY_SECRET_ENV", "not a name"),
    ]:
        with pytest.raises(ConfigError, match=key.removeprefix("IMPORTER_").lower()[:6]):
            load_settings(environ={key: value})
    # The secret's variable is no setting, and is not warned about as a mistyped one.
    named = {"IMPORTER_NOTIFY_SECRET_ENV": "IMPORTER_NOTIFY_SECRET", "IMPORTER_NOTIFY_SECRET": "s"}
    assert load_settings(environ=named).warnings == ()

    from importer.api import Importer

    defaults = Importer(settings=load_settings(cfg, environ={})).notify_defaults()
    form = parse_form_text(ORDERS_FORM)
    resolved = JobOptions(notify=defaults).notify_target(form.operations)
    assert resolved == {
        "url": "https://hooks.example.com/imports",
        "secret_env": "MY_SECRET",
        "events": ["failed", "cancelled"],
        "max_attempts": 5,
        "timeout_seconds": 3.0,
    }
    own = parse_form_text(
        ORDERS_FORM + '\n[notify]\nurl = "https://form.example/h"\nevents = ["succeeded"]\n'
    )
    assert JobOptions(notify=defaults).notify_target(own.operations) == {
        **resolved,
        "url": "https://form.example/h",
        "events": ["succeeded"],
    }
    off = parse_form_text(ORDERS_FORM.replace("\n", "\nnotify = false\n", 1))
    assert JobOptions(notify=defaults).notify_target(off.operations) is None
    with pytest.raises(FormError, match="reverted"):
        parse_form_text(ORDERS_FORM + '\n[notify]\nevents = ["running"]\n')


# --- the outbox: the transaction that ends a job makes its notice ----------------------------


def test_every_ending_path_makes_one_notice_and_nothing_else_does(conn: Connection) -> None:
    every = target("http://127.0.0.1:9/h", events=(*DEFAULT_NOTIFY_EVENTS, "cancelled"))
    done, cancelled_run, permanent, last, exhausted, pending_cancel = (
        new_job(conn, f"s{i}", every, attempts=1) for i in range(6)
    )
    retried = new_job(conn, "retried", every, attempts=3)
    quiet = new_job(conn, "quiet", None)
    unlisted = new_job(conn, "unlisted", target("http://127.0.0.1:9/h", events=("failed",)))
    claim(conn, [done, cancelled_run, permanent, last, retried, quiet, unlisted])
    claim(conn, [exhausted], lease_seconds=0.01)
    jobs.finish(conn, done, OWNER)
    jobs.finish(conn, cancelled_run, OWNER, cancelled=True)
    for job_id, is_permanent in ((permanent, True), (last, False), (retried, False)):
        jobs.fail_attempt(
            conn,
            job_id,
            OWNER,
            "boom",
            retry_delay_seconds=60,
            timer_max_attempts=2,
            permanent=is_permanent,
        )
    jobs.finish(conn, quiet, OWNER)
    jobs.finish(conn, unlisted, OWNER)  # succeeded; it only wants "failed"
    jobs.cancel(conn, pending_cancel)
    conn.execute("SELECT pg_sleep(0.05)")
    jobs.claim_jobs(conn, owner="other:2:b", limit=1, lease_seconds=60, job_ids=[exhausted])
    assert jobs.get_job(conn, exhausted).status is JobStatus.FAILED
    # An ended job's status written again as it was is no new end.
    conn.execute("UPDATE import_jobs SET status = status WHERE id = %s", (done,))

    found = {(t["target"], t["payload"]["event"]) for t in notice_timers(conn)}
    assert found == {
        (f"job-{done}-succeeded", "succeeded"),
        (f"job-{cancelled_run}-cancelled", "cancelled"),
        (f"job-{permanent}-failed", "failed"),
        (f"job-{last}-failed", "failed"),
        (f"job-{exhausted}-failed", "failed"),
        (f"job-{pending_cancel}-cancelled", "cancelled"),
    }
    timer = notice_timers(conn)[0]
    assert timer["max_attempts"] == 5 and timer["status"] == "pending"
    assert timer["payload"]["job"]["status"] == "succeeded"  # the job as it ended
    assert timer["payload"]["url"] == "http://127.0.0.1:9/h"


def test_an_end_rolled_back_leaves_no_notice_and_a_second_end_gets_its_own_key(
    conn: Connection,
) -> None:
    job_id = new_job(conn, "again", target("http://127.0.0.1:9/h"), attempts=1)
    claim(conn, [job_id])
    with pytest.raises(RuntimeError), conn.transaction():
        jobs.fail_attempt(
            conn, job_id, OWNER, "x", retry_delay_seconds=1, timer_max_attempts=1, permanent=True
        )
        raise RuntimeError("the ending transaction rolls back")
    assert notice_timers(conn) == []
    jobs.fail_attempt(
        conn, job_id, OWNER, "x", retry_delay_seconds=1, timer_max_attempts=1, permanent=True
    )
    jobs.retry(conn, job_id)  # failed -> pending: no end, no notice
    claim(conn, [job_id])
    jobs.fail_attempt(
        conn, job_id, OWNER, "y", retry_delay_seconds=1, timer_max_attempts=1, permanent=True
    )
    keys = [t["target"] for t in notice_timers(conn)]
    # The first is still live (never sent): the second end is a notice of its own.
    assert keys == [f"job-{job_id}-failed", f"job-{job_id}-failed-2"]


# --- delivery --------------------------------------------------------------------------------


def _ended_jobs(conn: Connection, url: str, count: int, **options: Any) -> list[int]:
    first = len(jobs.list_jobs(conn, limit=10_000))
    ids = [new_job(conn, f"end{first + i}", target(url, **options)) for i in range(count)]
    claim(conn, ids)
    for job_id in ids:
        jobs.finish(conn, job_id, OWNER)
    return ids


def test_a_receiver_that_fails_times_out_drops_and_is_slow_gets_every_notice_once_keyed(
    conn: Connection, database_url: str
) -> None:
    script: dict[int, list[Answer]] = {}  # position of the key's job -> its answers in turn
    keys: list[str] = []

    def behaviour(number: int, key: str) -> Answer:
        del number
        answers = script.get(keys.index(key), []) if key in keys else []
        return answers.pop(0) if answers else Answer()

    with webhook_server(behaviour) as server:
        ids = _ended_jobs(conn, server.url, 5)
        keys += [f"job-{i}-succeeded" for i in ids]
        script.update(
            {
                0: [Answer(500), Answer(503)],
                1: [Answer(pause=TIMEOUT * 3)],  # the sender times out, then sends again
                2: [Answer(pause=TIMEOUT / 3)],  # slow but in time: delivered at once
                3: [Answer(drop=True)],  # no answer at all
            }
        )
        with scheduler(database_url):
            delivered_all(conn)
        received = server.all()
    assert all(t["status"] == "completed" for t in notice_timers(conn))
    by_key = Counter(r.key for r in received)
    assert set(by_key) == set(keys)  # none invented
    assert [by_key[k] for k in keys] == [3, 2, 1, 2, 1]
    assert set(server_delivered(received)) == set(keys)
    for key in keys:  # a repeat is the same request: same key, same bytes
        assert len({r.body for r in received if r.key == key}) == 1
    first = next(r for r in received if r.key == keys[4])
    body = first.json
    assert body["event"] == "succeeded" and body["status"] == "succeeded"
    assert body["id"] == ids[4] and body["owner"] == "live" and body["top_reasons"] == []
    assert first.headers["content-type"] == "application/json"
    assert first.headers["user-agent"] == f"importer/{__version__}"  # installed or not
    assert "x-importer-signature" not in first.headers  # no secret, no signature
    assert first.path == "/hooks/import"
    attempts = {n.key: n.attempts for i in ids for n in job_notices(conn, i)}
    assert [attempts[k] for k in keys] == [3, 2, 1, 2, 1]


def server_delivered(received: list[Any]) -> list[str]:
    return [r.key for r in received if r.delivered]


def test_the_signature_is_the_hmac_of_the_exact_body_and_needs_its_secret(
    conn: Connection, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TEST_NOTICE_SECRET", raising=False)
    with webhook_server() as server:
        (signed,) = _ended_jobs(conn, server.url, 1, secret_env="TEST_NOTICE_SECRET")
        with scheduler(database_url):
            # Not set in the delivering process: nothing is sent unsigned; the attempt fails.
            wait_for(
                lambda: any(n.attempts >= 1 and n.last_error for n in job_notices(conn, signed)),
                what="a failed attempt",
            )
            assert server.all() == []
            (notice,) = job_notices(conn, signed)
            assert notice.last_error is not None and "TEST_NOTICE_SECRET" in notice.last_error
            monkeypatch.setenv("TEST_NOTICE_SECRET", "s3cret")
            delivered_all(conn)
        (request,) = server.all()
    expected = hmac.new(b"s3cret", request.body, hashlib.sha256).hexdigest()
    assert request.headers["x-importer-signature"] == f"sha256={expected}"
    assert request.key == f"job-{signed}-succeeded"


def test_a_notice_that_is_never_answered_fails_and_every_view_says_so(
    conn: Connection, database_url: str, cli: Cli
) -> None:
    with webhook_server(lambda number, key: Answer(500)) as server:
        (job_id,) = _ended_jobs(conn, server.url, 1, max_attempts=2)
        with webhook_server() as fine:
            (good,) = _ended_jobs(conn, fine.url, 1)  # a neighbour in the same batch
            with scheduler(database_url):
                delivered_all(conn)
            assert [r.key for r in fine.all()] == [f"job-{good}-succeeded"]  # sent once
        assert len(server.all()) == 2
    (notice,) = job_notices(conn, job_id)
    assert notice.status is TimerStatus.FAILED and notice.attempts == 2
    assert notice.last_error is not None and "answered 500" in notice.last_error
    assert "receiver says no" in notice.last_error

    shown = json.loads(cli("status", str(job_id), "--json").stdout)
    assert [(n["key"], n["status"], n["attempts"]) for n in shown["notices"]] == [
        (f"job-{job_id}-succeeded", "failed", 2)
    ]
    text = cli("status", str(job_id)).stdout
    assert f"notice:    succeeded (job-{job_id}-succeeded) not delivered" in text
    assert "delivered" in cli("status", str(good)).stdout
    listed = cli("timers", "list").stdout
    assert "notify" in listed and f"job-{job_id}-succeeded" in listed
    stats = json.loads(cli("stats", "--json").stdout)
    assert stats["timers_failed_by_kind"] == {"notify": 1}
    assert stats["notices"]["failed"] == 1 and stats["notices"]["completed"] == 1
    plain = cli("stats").stdout
    assert "timers failed:   1 (1 notify)\n" in plain
    assert "notices:         1 delivered, 0 to send, 1 failed\n" in plain
    metrics = cli("stats", "--format", "openmetrics").stdout
    assert 'importer_notices{status="failed"} 1.0' in metrics
    assert 'importer_timers_failed_by_kind{kind="notify"} 1.0' in metrics
    assert 'importer_timers_live_by_kind{kind="import_retry"} 0.0' in metrics


# --- through the real commands ----------------------------------------------------------------


def test_a_forms_own_url_overrides_the_settings_and_notify_false_sends_nothing(
    cli: Cli, conn: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with webhook_server() as settings_server, webhook_server() as form_server:
        for name, extra in (
            ("plain", ""),
            ("own_url", f'\n[notify]\nurl = "{form_server.url}"\n'),
            ("silent", None),
        ):
            text = ORDERS_FORM.replace('name = "orders"', f'name = "{name}"', 1)
            text = text.replace("\n", "\nnotify = false\n", 1) if extra is None else text + extra
            add_form(conn, text)
        for key, value in FAST_ENV.items():
            monkeypatch.setenv(key, value)
        monkeypatch.setenv("IMPORTER_NOTIFY_URL", settings_server.url)
        ended = {}
        for index, name in enumerate(("plain", "own_url", "silent")):
            book = orders_book(tmp_path / f"{name}.xlsx", 20, start_id=100 * index)
            assert cli("submit", str(book.path), "--form", name, "--quiet").exit_code == 3
            ended[name] = jobs.list_jobs(conn)[-1].id
        assert cli("timers", "--once").exit_code == 0
        plain, own = settings_server.all(), form_server.all()
    assert [r.key for r in plain] == [f"job-{ended['plain']}-partially_succeeded"]
    assert [r.key for r in own] == [f"job-{ended['own_url']}-partially_succeeded"]
    assert job_notices(conn, ended["silent"]) == []
    assert jobs.get_job(conn, ended["silent"]).notify is None
    body = own[0].json
    assert body["failed_rows"] == 2 and body["event"] == "partially_succeeded"
    assert body["top_reasons"][0]["column"] == "Amount" and body["top_reasons"][0]["errors"] == 2


@pytest.mark.slow
def test_a_thousand_jobs_ending_give_a_thousand_notices_through_a_receiver_failing_half(
    cli: Cli,
    conn: Connection,
    database_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    behaviour: Behaviour = failing_half()
    with webhook_server(behaviour) as server:
        expected = _thousand_endings(cli, conn, server, tmp_path, monkeypatch)
        assert len(expected) == 1000
        settings = TimerSettings(
            poll_interval_seconds=0.2,
            startup_delay_seconds=0.01,
            batch_size=100,
            lease_seconds=30,
            retry=RetryPolicy((0.05,), jitter=0.0),
        )
        with scheduler(database_url, settings):
            delivered_all(conn, timeout=240)
        received = server.all()
    keys = {r.key for r in received}
    assert keys == set(expected)  # each at least once; none for a job that did not end
    assert set(server_delivered(received)) == set(expected)
    assert len(received) > 1500  # about half were refused and sent again
    bodies: dict[str, set[bytes]] = {}
    for r in received:
        bodies.setdefault(r.key, set()).add(r.body)
    assert all(len(b) == 1 for b in bodies.values())  # a repeat is the same request
    for r in received[:50]:
        assert r.json["event"] == expected[r.key]
    timers = notice_timers(conn)
    assert len(timers) == 1000 and {t["status"] for t in timers} == {"completed"}


def _thousand_endings(
    cli: Cli,
    conn: Connection,
    server: WebhookServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> dict[str, str]:
    """1,000 jobs that end (5 real runs: submitted --detach, run by `worker --once`; the rest
    through the repository's ending statements) beside jobs that do not; key -> event."""
    expected: dict[str, str] = {}
    for key, value in FAST_ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("IMPORTER_NOTIFY_URL", server.url)
    monkeypatch.setenv("IMPORTER_NOTIFY_EVENTS", "succeeded,partially_succeeded,failed,cancelled")
    monkeypatch.setenv("IMPORTER_JOBS_TIMER_MAX_ATTEMPTS", "40")  # 2^-40: none runs out
    add_form(conn)
    for index in range(5):
        book = orders_book(tmp_path / f"b{index}.xlsx", 10, bad_every=5 if index % 2 else 0)
        assert (
            cli("submit", str(book.path), "--form", "orders", "--detach", "--quiet").exit_code == 0
        )
    assert cli("worker", "--once").exit_code == 0
    for job in jobs.list_jobs(conn):
        assert job.terminal
        expected[f"job-{job.id}-{job.status}"] = str(job.status)

    every = target(server.url, events=(*DEFAULT_NOTIFY_EVENTS, "cancelled"), max_attempts=40)
    ids = [new_job(conn, f"r{i}", every, attempts=1) for i in range(1000 - len(expected) + 40)]
    claim(conn, ids[:-20])
    ending, staying = ids[: 1000 - len(expected)], ids[-40:]
    for position, job_id in enumerate(ending):
        way = position % 4
        if way == 0:
            job = jobs.finish(conn, job_id, OWNER)
        elif way == 1:
            job = jobs.finish(conn, job_id, OWNER, cancelled=True)
        elif way == 2:
            job = jobs.fail_attempt(
                conn, job_id, OWNER, "gone", retry_delay_seconds=1, timer_max_attempts=1
            )
        else:
            job = jobs.fail_attempt(
                conn,
                job_id,
                OWNER,
                "bad",
                retry_delay_seconds=1,
                timer_max_attempts=1,
                permanent=True,
            )
        expected[f"job-{job_id}-{job.status}"] = str(job.status)
    # Jobs that do not end: 20 left running, 20 left pending.
    for job_id in staying:
        assert not jobs.get_job(conn, job_id).terminal
    return expected
