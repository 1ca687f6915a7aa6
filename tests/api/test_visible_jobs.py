"""Jobs as one account sees them: a sender its own jobs of its forms, an operator every job
of its forms, an admin all; a job outside that is answered as one that does not exist, by
every read and action, scoped in SQL. And failed sign-ins slow the next ones down."""

from __future__ import annotations

from dataclasses import replace

import pytest

from importer.api import Importer
from importer.database import Connection
from importer.errors import AccessDenied, NotFoundError
from importer.repositories import jobs
from importer.repositories.accounts import Account
from importer.states import JobStatus
from tests.support.jobs import PEOPLE_FORM, add_form


def _job(conn: Connection, form: str, by: Account | None, name: str) -> int:
    sha = jobs.store_file(conn, name.encode())
    new = jobs.NewJob(form, 1, sha, f"{name}.xlsx", "Sheet1", "calamine", ["A"], 3, 3)
    if by is not None:
        new = replace(new, submitted_by=by.email, submitted_by_user=by.id)
    else:
        new = replace(new, submitted_by="alice")
    job, _ = jobs.create_job(conn, new)
    conn.execute(
        "INSERT INTO import_rejected_rows (import_job_id, row_number, row_values)"
        " VALUES (%s, 2, jsonb_build_array('secret of ' || %s))",
        (job.id, name),
    )
    return job.id


@pytest.fixture
def importer(database_url: str, conn: Connection) -> Importer:
    add_form(conn)
    add_form(conn, PEOPLE_FORM)
    return Importer(database_url)


def test_each_role_sees_its_jobs_and_no_other(importer: Importer, conn: Connection) -> None:
    ana = importer.add_user("ana@example.com", "sender", ["orders"], "password one")
    bob = importer.add_user("bob@example.com", "sender", ["orders", "people"], "password two")
    ops = importer.add_user("ops@example.com", "operator", ["orders"])
    boss = importer.add_user("boss@example.com", "admin")
    jobs_by = {
        "ana": _job(conn, "orders", ana, "ana"),
        "bob": _job(conn, "orders", bob, "bob"),
        "bob_people": _job(conn, "people", bob, "bob_people"),
        "cli": _job(conn, "orders", None, "cli"),
    }
    sees = {
        "ana": {"ana"},
        "bob": {"bob", "bob_people"},
        "ops": {"ana", "bob", "cli"},
        "boss": set(jobs_by),
    }
    for who, account in {"ana": ana, "bob": bob, "ops": ops, "boss": boss}.items():
        listed = {job.id for job in importer.jobs_for(account)}
        assert listed == {jobs_by[name] for name in sees[who]}, who
        for name, job_id in jobs_by.items():
            if name in sees[who]:
                assert importer.job_for(account, job_id).id == job_id
                _, page = importer.rejected_rows_for(account, job_id)
                assert page[0].texts == [f"secret of {name}"]
                continue
            # Exactly as a job that does not exist: same class, same message.
            for call in (
                importer.job_for,
                importer.rejected_rows_for,
                importer.cancel_for,
                importer.retry_for,
            ):
                with pytest.raises(NotFoundError) as refused:
                    call(account, job_id)
                assert str(refused.value) == f"no import job with id {job_id}", (who, name)
    with pytest.raises(NotFoundError, match="no import job with id 999"):
        importer.job_for(boss, 999)
    # The ones it sees, it may act on: a sender cancels its own pending job.
    assert importer.cancel_for(ana, jobs_by["ana"]).status is JobStatus.CANCELLED
    assert importer.job(jobs_by["bob"]).status is JobStatus.PENDING


def test_a_grant_taken_away_hides_the_jobs_at_once(importer: Importer, conn: Connection) -> None:
    ana = importer.add_user("ana@example.com", "sender", ["orders", "people"], "password one")
    job_id = _job(conn, "people", ana, "ana")
    assert importer.job_for(ana, job_id).id == job_id
    conn.execute("DELETE FROM user_forms WHERE form = 'people'")
    with pytest.raises(NotFoundError):
        importer.job_for(ana, job_id)  # the same Account object: the grants are read in SQL
    assert [f.name for f in importer.forms_for(importer.user("ana@example.com"))] == ["orders"]


def test_failed_sign_ins_slow_the_next_ones_down(importer: Importer, conn: Connection) -> None:
    importer.add_user("ana@example.com", "sender", ["orders"], "the right one")
    for _ in range(5):
        with pytest.raises(AccessDenied, match="wrong e-mail address or password"):
            importer.sign_in("ana@example.com", "a wrong one")
    with pytest.raises(AccessDenied, match="too many failed sign-ins") as waiting:
        importer.sign_in("ana@example.com", "the right one")  # even the right one waits
    assert 0 < waiting.value.wait_seconds <= 1
    # An address with no account counts alike (nothing tells which addresses exist).
    for _ in range(5):
        with pytest.raises(AccessDenied, match="wrong e-mail address or password"):
            importer.sign_in("nobody@example.com", "anything at all")
    with pytest.raises(AccessDenied, match="too many failed sign-ins"):
        importer.sign_in("nobody@example.com", "anything at all")
    # Once the wait is over, the right password signs in and the count starts again.
    conn.execute("UPDATE sign_in_failures SET last_failure_at = now() - interval '2 seconds'")
    session = importer.sign_in("ANA@example.com", "the right one")
    assert importer.session_account(session.secret) == (session.account, session.csrf_token)
    assert conn.execute("SELECT email FROM sign_in_failures").fetchall() == [
        {"email": "nobody@example.com"}
    ]
    importer.sign_out(session.secret)
    assert importer.session_account(session.secret) is None
