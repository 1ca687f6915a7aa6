"""Secrets of accounts: passwords hashed with argon2id (memory-hard: a stolen table resists
guessing), and the random secrets of API tokens and browser sessions, kept as their sha256
(32 random bytes need no slow hash)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from importer.errors import UsageError

TOKEN_PREFIX = "imp_"
MIN_PASSWORD_CHARS = 8
MAX_PASSWORD_CHARS = 1024  # a longer one is no password; hashing it would only cost time


@cache
def _hasher() -> PasswordHasher:
    return PasswordHasher()  # argon2id with the library's current recommended parameters


def check_password(password: str) -> None:
    if len(password) < MIN_PASSWORD_CHARS:
        raise UsageError(f"a password needs at least {MIN_PASSWORD_CHARS} characters")
    if len(password) > MAX_PASSWORD_CHARS:
        raise UsageError(f"a password has at most {MAX_PASSWORD_CHARS} characters")


def hash_password(password: str) -> str:
    check_password(password)
    return _hasher().hash(password)


# Verified when an address has no account or no password, so that a sign-in takes as long
# either way and its time tells nothing of which addresses exist.
_DECOY = "decoy password of no account"


@cache
def _decoy_hash() -> str:
    return _hasher().hash(_DECOY)


def verify_password(stored: str | None, password: str) -> bool:
    if len(password) > MAX_PASSWORD_CHARS:
        return False
    try:
        _hasher().verify(stored or _decoy_hash(), password)
    except (VerificationError, InvalidHashError):
        return False
    return stored is not None


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def new_token() -> str:
    """An API token as shown to its owner, once."""
    return TOKEN_PREFIX + new_secret()


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def same_secret(given: str, expected: str) -> bool:
    """Compared in constant time (a CSRF token)."""
    return hmac.compare_digest(given.encode("utf-8", "replace"), expected.encode("utf-8"))
