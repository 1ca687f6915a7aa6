"""A daemon started while its database is away (or full) waits for it instead of exiting."""

from __future__ import annotations

import psycopg
import pytest

from importer.database.errors import translate
from importer.errors import DatabaseUnavailable, EmbeddedServerError
from importer.running.daemon import until_reachable


def test_until_reachable_retries_an_unavailable_database_on_the_backoff() -> None:
    answers: list[object] = [DatabaseUnavailable("full"), DatabaseUnavailable("full"), "db"]
    lines: list[str] = []
    slept: list[float] = []

    def attempt() -> str:
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return str(answer)

    assert until_reachable(attempt, lines.append, sleep=slept.append) == "db"
    assert lines == ["full; retrying in 0.5s", "full; retrying in 1s"]
    assert slept == [0.5, 1.0]


def test_until_reachable_does_not_retry_what_waiting_cannot_fix() -> None:
    def attempt() -> str:
        raise EmbeddedServerError("initdb failed")

    with pytest.raises(EmbeddedServerError):
        until_reachable(attempt, lambda line: None, sleep=lambda s: None)


def test_a_server_whose_last_slots_are_reserved_is_full_too() -> None:
    refused = psycopg.OperationalError(
        'connection failed: connection to server on socket "/run/.s.PGSQL.5432" failed:\n'
        "FATAL:  remaining connection slots are reserved for roles with the SUPERUSER attribute"
    )
    assert str(translate(refused)) == "database refused a connection: too many clients"
