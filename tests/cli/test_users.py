"""`importer users`: accounts added, listed, removed; passwords and API tokens; and the jobs
a command line submits carry its operating system's user, shown by `status` and `jobs`."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from importer.api import Importer
from importer.database import Connection
from importer.errors import AccessDenied
from importer.identity import os_user
from importer.states import Role
from tests.conftest import Cli
from tests.support.jobs import add_form, orders_book


@pytest.fixture
def orders(conn: Connection, cli_env: dict[str, str]) -> None:
    add_form(conn)


def typed(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))


def test_an_account_is_added_listed_and_signs_in(
    cli: Cli, orders: None, monkeypatch: pytest.MonkeyPatch, database_url: str
) -> None:
    typed(monkeypatch, "correct horse battery\n")
    added = cli(
        "users", "add", "Ana@Example.com", "--role", "sender", "--forms", "orders",
        "--password-stdin",
    )  # fmt: skip
    assert added.exit_code == 0, added.stderr
    assert added.stdout.strip() == "added sender ana@example.com (forms orders)"
    listed = json.loads(cli("users", "list", "--json").stdout)
    assert listed["email"] == "ana@example.com" and listed["role"] == "sender"
    assert listed["forms"] == ["orders"] and listed["password"] is True
    table = cli("users", "list").stdout
    assert "ana@example.com" in table and "sender" in table and "orders" in table

    importer = Importer(database_url)
    session = importer.sign_in("ana@example.com", "correct horse battery")
    assert session.account.email == "ana@example.com"
    with pytest.raises(AccessDenied, match="wrong e-mail address or password"):
        importer.sign_in("ana@example.com", "wrong horse battery")
    # The stored hash is argon2id, never the password.
    conn = importer.database.connect(autocommit=True)
    with conn:
        stored = conn.execute("SELECT password_hash FROM users").fetchone()
    assert stored is not None and stored["password_hash"].startswith("$argon2id$")


def test_what_users_add_refuses(cli: Cli, orders: None, monkeypatch: pytest.MonkeyPatch) -> None:
    refusals = {
        ("x@example.com", "--role", "chief", "--no-password"): "--role 'chief': use one of",
        ("x@example.com", "--role", "sender", "--no-password"): "a sender needs --forms",
        ("x@example.com", "--role", "sender", "--forms", "ordres", "--no-password"): (
            "--forms: no form named 'ordres' (known: orders)"
        ),
        ("x@example.com", "--role", "admin", "--forms", "orders", "--no-password"): (
            "an admin has every form"
        ),
        ("not-an-address", "--role", "admin", "--no-password"): "is not an e-mail address",
        ("x@example.com", "--role", "admin"): "no terminal to ask for the password on",
    }
    for args, message in refusals.items():
        typed(monkeypatch, "")
        result = cli("users", "add", *args)
        assert result.exit_code == 2 and message in result.stderr, (args, result.stderr)
    typed(monkeypatch, "short\n")
    short = cli("users", "add", "x@example.com", "--role", "admin", "--password-stdin")
    assert short.exit_code == 2 and "at least 8 characters" in short.stderr
    assert cli("users", "list").stdout.startswith("no accounts")
    assert cli("users", "add", "x@example.com", "--role", "admin", "--no-password").exit_code == 0
    again = cli("users", "add", "X@example.com", "--role", "admin", "--no-password")
    assert again.exit_code == 2 and "an account 'x@example.com' exists already" in again.stderr


def test_a_new_password_ends_the_accounts_sessions(
    cli: Cli, orders: None, monkeypatch: pytest.MonkeyPatch, database_url: str
) -> None:
    typed(monkeypatch, "first password\n")
    cli("users", "add", "op@example.com", "--role", "operator", "--forms", "*", "--password-stdin")
    importer = Importer(database_url)
    session = importer.sign_in("op@example.com", "first password")
    assert importer.session_account(session.secret) is not None
    typed(monkeypatch, "second password\n")
    changed = cli("users", "password", "OP@example.com", "--password-stdin")
    assert changed.exit_code == 0, changed.stderr
    assert importer.session_account(session.secret) is None  # signed out everywhere
    importer.sign_in("op@example.com", "second password")
    unknown = cli("users", "password", "nobody@example.com", "--password-stdin")
    assert unknown.exit_code == 2 and "no account 'nobody@example.com'" in unknown.stderr


def test_an_api_token_is_shown_once_kept_hashed_and_revoked(
    cli: Cli, orders: None, database_url: str, conn: Connection
) -> None:
    cli("users", "add", "ci@example.com", "--role", "sender", "--forms", "orders", "--no-password")
    made = cli("users", "token", "ci@example.com", "--name", "ci")
    assert made.exit_code == 0, made.stderr
    token = made.stdout.strip()
    assert token.startswith("imp_") and len(token) > 40
    assert "token 1 (ci) of ci@example.com: shown this once" in made.stderr
    stored = conn.execute("SELECT * FROM api_tokens").fetchall()
    assert len(stored) == 1 and token not in json.dumps(stored, default=str)
    importer = Importer(database_url)
    account = importer.token_account(token)
    assert account.email == "ci@example.com"
    assert (account.role, account.forms, account.has_password, account.tokens) == (
        Role.SENDER,
        ("orders",),
        False,
        1,
    )
    assert "1 ci" in cli("users", "list").stdout
    revoked = cli("users", "revoke", "1")
    assert revoked.stdout.strip() == "revoked token 1 (ci) of ci@example.com"
    with pytest.raises(AccessDenied, match="the API token is not valid"):
        importer.token_account(token)
    assert cli("users", "revoke", "1").exit_code == 2  # no such token any more

    cli("users", "token", "ci@example.com")
    removed = cli("users", "remove", "ci@example.com", "--yes")
    assert removed.exit_code == 0 and "the jobs it submitted stay" in removed.stdout
    assert conn.execute("SELECT count(*) AS n FROM api_tokens").fetchone() == {"n": 0}


def test_a_command_line_submit_records_its_os_user(
    cli: Cli, orders: None, tmp_path: Path, conn: Connection
) -> None:
    book = orders_book(tmp_path / "orders.xlsx", 12, bad_every=0)
    assert cli("submit", str(book.path), "--form", "orders").exit_code == 0
    row = conn.execute("SELECT submitted_by, submitted_by_user FROM import_jobs").fetchone()
    assert row == {"submitted_by": os_user(), "submitted_by_user": None}
    status = cli("status", "1").stdout
    assert f"by {os_user()} (command line, OS user)" in status
    assert os_user() in cli("jobs").stdout
    assert json.loads(cli("jobs", "--json").stdout)["submitted_by"] == os_user()
