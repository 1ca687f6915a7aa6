"""The facade's part for accounts (`importer users`, the web page's sign-in, the API's
tokens): who may use the web page and the JSON API, with which role and forms."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from importer.api.base import ImporterBase
from importer.api.credentials import (
    TOKEN_PREFIX,
    hash_password,
    new_secret,
    new_token,
    secret_hash,
    verify_password,
)
from importer.errors import AccessDenied, UsageError
from importer.repositories import accounts
from importer.repositories import forms as forms_repo
from importer.repositories.accounts import EVERY_FORM, Account, Token
from importer.states import Role

# Failed sign-ins with one address before the next must wait (then 1 s, 2 s, 4 s, ... 60 s).
FREE_SIGN_IN_FAILURES = 5
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+")
_FORM_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class WebSession:
    """A signed-in browser: ``secret`` goes in its cookie (the database keeps its hash);
    ``csrf_token`` in every form it posts."""

    account: Account
    secret: str
    csrf_token: str


def parse_forms(text: str) -> list[str]:
    """`--forms orders,customers` (or '*': every form)."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    for name in names:
        if name != EVERY_FORM and not _FORM_NAME.fullmatch(name):
            raise UsageError(f"--forms {name!r}: a form's name, or '*' for every form")
    return names


class AccountMethods(ImporterBase):
    def add_user(
        self,
        email: str,
        role: Role | str,
        forms: Sequence[str] = (),
        password: str | None = None,
    ) -> Account:
        """A new account. A sender or an operator needs forms (names of registered forms, or
        '*' for every one); an admin has every form. ``password``: None for none yet."""
        role = _role(role)
        address = accounts.normal_email(email)
        if not _EMAIL.fullmatch(address):
            raise UsageError(f"{email!r} is not an e-mail address")
        if role is Role.ADMIN and forms:
            raise UsageError("an admin has every form: leave out --forms")
        if role is not Role.ADMIN and not forms:
            raise UsageError(
                f"a {role} needs --forms: the forms it may use (orders,customers, or '*')"
            )
        hashed = hash_password(password) if password is not None else None
        with self.connection() as conn:
            known = {form.name for form in forms_repo.list_forms(conn, retired=True)}
            unknown = [name for name in forms if name != EVERY_FORM and name not in known]
            if unknown:
                raise UsageError(
                    f"--forms: no form named {unknown[0]!r}"
                    + (f" (known: {', '.join(sorted(known))})" if known else "")
                )
            return accounts.add_user(conn, address, role, forms, hashed)

    def users(self) -> list[Account]:
        with self.connection() as conn:
            return accounts.list_users(conn)

    def user(self, email: str) -> Account:
        with self.connection() as conn:
            return accounts.get_user(conn, email)

    def api_tokens(self, email: str | None = None) -> list[Token]:
        """The API tokens (of one account), oldest first; never their secrets."""
        with self.connection() as conn:
            return accounts.list_tokens(conn, email)

    def remove_user(self, email: str) -> None:
        """The account, its tokens and sessions go; the jobs it submitted stay."""
        with self.connection() as conn:
            accounts.remove_user(conn, email)

    def set_password(self, email: str, password: str) -> None:
        """A new password (signs every browser of the account out)."""
        hashed = hash_password(password)
        with self.connection() as conn:
            accounts.set_password(conn, email, hashed)

    def create_token(self, email: str, name: str = "api") -> tuple[Token, str]:
        """A new API token for the account: (what is kept, the token itself: shown once)."""
        if not name.strip() or len(name) > 100:
            raise UsageError("--name: a token's name of 1 to 100 characters")
        token = new_token()
        with self.connection() as conn:
            return accounts.add_token(conn, email, name.strip(), secret_hash(token)), token

    def revoke_token(self, token_id: int) -> Token:
        with self.connection() as conn:
            return accounts.remove_token(conn, token_id)

    def token_account(self, token: str) -> Account:
        """The account of an API token; AccessDenied for a token that is none (any more)."""
        if token.startswith(TOKEN_PREFIX) and len(token) < 200:
            with self.connection() as conn:
                account = accounts.user_by_token(conn, secret_hash(token))
            if account is not None:
                return account
        raise AccessDenied("the API token is not valid (revoked, or never made)")

    # --- the web page's sessions -----------------------------------------------------------

    def sign_in(self, email: str, password: str, *, hours: float = 12.0) -> WebSession:
        """A new session for the right address and password. AccessDenied otherwise (one
        message for either mistake) and, after a few failures with the address, until the
        wait it names is over (kept in the database: every instance counts alike)."""
        address = accounts.normal_email(email)
        with self.connection() as conn:
            wait = accounts.sign_in_wait(conn, address, FREE_SIGN_IN_FAILURES)
            if wait > 0:
                raise AccessDenied(
                    f"too many failed sign-ins with this address: try again in {wait:.0f} s",
                    wait_seconds=wait,
                )
            found = accounts.password_hash(conn, address)
            if not verify_password(found[1] if found else None, password) or found is None:
                accounts.note_sign_in(conn, address, succeeded=False)
                raise AccessDenied("wrong e-mail address or password")
            accounts.note_sign_in(conn, address, succeeded=True)
            secret, csrf = new_secret(), new_secret()
            accounts.add_session(conn, found[0], secret_hash(secret), csrf, hours * 3600)
            account = accounts.user_by_id(conn, found[0])
        if account is None:  # removed at this very moment
            raise AccessDenied("wrong e-mail address or password")
        return WebSession(account, secret, csrf)

    def session_account(self, secret: str) -> tuple[Account, str] | None:
        """The account of a live session and its CSRF token; None: signed out or expired."""
        if not secret or len(secret) > 200:
            return None
        with self.connection() as conn:
            return accounts.session_user(conn, secret_hash(secret))

    def sign_out(self, secret: str) -> None:
        with self.connection() as conn:
            accounts.end_session(conn, secret_hash(secret))


def _role(role: Role | str) -> Role:
    try:
        return Role(role)
    except ValueError:
        raise UsageError(
            f"--role {role!r}: use one of {', '.join(r.value for r in Role)}"
        ) from None
