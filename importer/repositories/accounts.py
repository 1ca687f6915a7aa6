"""Accounts of the web page and the JSON API (SQL in sql/queries/accounts.sql): users with
their role and forms, API tokens, signed-in sessions and failed sign-ins.

Secrets never reach this module: it stores and looks up what the caller hashed (argon2 for
passwords, sha256 for the random secrets of tokens and sessions)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from importer.database import Connection, queries
from importer.errors import Missing, NotFoundError, UsageError
from importer.states import Role

EVERY_FORM = "*"


@dataclass(frozen=True)
class Account:
    id: int
    email: str
    role: Role
    forms: tuple[str, ...]  # granted; ("*",): every form (an admin's are every form anyway)
    has_password: bool
    created_at: datetime
    tokens: int = 0

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Account:
        return cls(
            id=int(row["id"]),
            email=row["email"],
            role=Role(row["role"]),
            forms=tuple(row["forms"]),
            has_password=bool(row["has_password"]),
            created_at=row["created_at"],
            tokens=int(row["tokens"]),
        )

    @property
    def every_form(self) -> bool:
        return self.role is Role.ADMIN or EVERY_FORM in self.forms

    def may_use(self, form: str) -> bool:
        return self.every_form or form in self.forms


@dataclass(frozen=True)
class Token:
    id: int
    name: str
    email: str
    created_at: datetime
    last_used_at: datetime | None = None


def normal_email(email: str) -> str:
    """An address as stored and compared: trimmed, lower case."""
    return email.strip().lower()


def _unknown(email: str) -> NotFoundError:
    return NotFoundError(f"no account {email!r}", what=Missing.ACCOUNT, key=email)


def add_user(
    conn: Connection,
    email: str,
    role: Role,
    forms: Sequence[str],
    password_hash: str | None,
) -> Account:
    """A new account with its forms (one transaction); UsageError if the address exists."""
    q = queries()
    with conn.transaction():
        row = conn.execute(
            q.insert_user,
            {"email": normal_email(email), "role": role.value, "password_hash": password_hash},
        ).fetchone()
        if row is None:
            raise UsageError(f"an account {normal_email(email)!r} exists already")
        for form in dict.fromkeys(forms):
            conn.execute(q.grant_user_form, {"user_id": row["id"], "form": form})
    return get_user(conn, email)


def get_user(conn: Connection, email: str) -> Account:
    row = conn.execute(queries().user_by_email, {"email": normal_email(email)}).fetchone()
    if row is None:
        raise _unknown(normal_email(email))
    return Account.from_row(row)


def user_by_id(conn: Connection, user_id: int) -> Account | None:
    row = conn.execute(queries().user_by_id, {"id": user_id}).fetchone()
    return Account.from_row(row) if row is not None else None


def list_users(conn: Connection) -> list[Account]:
    return [Account.from_row(row) for row in conn.execute(queries().list_users).fetchall()]


def remove_user(conn: Connection, email: str) -> None:
    """Delete the account, its forms, tokens and sessions; its jobs stay (with its name)."""
    row = conn.execute(queries().delete_user, {"email": normal_email(email)}).fetchone()
    if row is None:
        raise _unknown(normal_email(email))


def password_hash(conn: Connection, email: str) -> tuple[int, str | None] | None:
    """(account id, its password's hash) for a sign-in; None: no such account."""
    row = conn.execute(queries().user_password_hash, {"email": normal_email(email)}).fetchone()
    return None if row is None else (int(row["id"]), row["password_hash"])


def set_password(conn: Connection, email: str, hashed: str) -> None:
    """A new password; every browser signed in to the account is signed out."""
    q = queries()
    with conn.transaction():
        row = conn.execute(
            q.set_user_password, {"email": normal_email(email), "password_hash": hashed}
        ).fetchone()
        if row is None:
            raise _unknown(normal_email(email))
        conn.execute(q.end_user_sessions, {"user_id": row["id"]})


# --- API tokens ------------------------------------------------------------------------------


def add_token(conn: Connection, email: str, name: str, secret_hash: str) -> Token:
    account = get_user(conn, email)
    row = conn.execute(
        queries().insert_api_token,
        {"user_id": account.id, "name": name, "secret_hash": secret_hash},
    ).fetchone()
    assert row is not None
    return Token(int(row["id"]), row["name"], account.email, row["created_at"])


def remove_token(conn: Connection, token_id: int) -> Token:
    row = conn.execute(queries().delete_api_token, {"id": token_id}).fetchone()
    if row is None:
        raise NotFoundError(f"no API token {token_id}", what=Missing.TOKEN, key=token_id)
    return Token(int(row["id"]), row["name"], row["email"], datetime.min)


def list_tokens(conn: Connection, email: str | None = None) -> list[Token]:
    rows = conn.execute(
        queries().list_api_tokens, {"email": normal_email(email) if email else None}
    ).fetchall()
    return [
        Token(int(r["id"]), r["name"], r["email"], r["created_at"], r["last_used_at"]) for r in rows
    ]


def user_by_token(conn: Connection, secret_hash: str) -> Account | None:
    row = conn.execute(queries().user_by_token, {"secret_hash": secret_hash}).fetchone()
    return None if row is None else Account.from_row(row)


# --- web sessions ----------------------------------------------------------------------------


def add_session(
    conn: Connection, user_id: int, secret_hash: str, csrf_token: str, seconds: float
) -> None:
    q = queries()
    conn.execute(q.delete_expired_web_sessions)
    conn.execute(
        q.insert_web_session,
        {
            "secret_hash": secret_hash,
            "user_id": user_id,
            "csrf_token": csrf_token,
            "seconds": seconds,
        },
    )


def session_user(conn: Connection, secret_hash: str) -> tuple[Account, str] | None:
    """The live session's account and its CSRF token; None: no such session (or ended)."""
    row = conn.execute(queries().web_session, {"secret_hash": secret_hash}).fetchone()
    if row is None:
        return None
    account = user_by_id(conn, int(row["user_id"]))
    return None if account is None else (account, row["csrf_token"])


def end_session(conn: Connection, secret_hash: str) -> None:
    conn.execute(queries().delete_web_session, {"secret_hash": secret_hash})


# --- failed sign-ins -------------------------------------------------------------------------


def sign_in_wait(conn: Connection, email: str, free: int) -> float:
    """Seconds a sign-in with this address must still wait (0: it may try now)."""
    row = conn.execute(
        queries().sign_in_wait, {"email": normal_email(email), "free": free}
    ).fetchone()
    return float(row["wait"]) if row is not None else 0.0


def note_sign_in(conn: Connection, email: str, *, succeeded: bool) -> None:
    q = queries()
    statement = q.clear_sign_in_failures if succeeded else q.note_sign_in_failure
    conn.execute(statement, {"email": normal_email(email)})
