"""Who is asking: a browser by its session cookie (HttpOnly, SameSite=Lax, Secure behind
HTTPS; the session kept in the database, so any instance answers), an application by its
bearer token. Every form a browser posts carries the session's CSRF token."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response

from importer.api import Importer
from importer.api.credentials import new_secret, same_secret
from importer.repositories.accounts import Account
from importer.web.errors import WebError

SESSION_COOKIE = "importer_session"
# Before a session exists, the sign-in form's CSRF token is also a cookie (double submit).
SIGN_IN_COOKIE = "importer_sign_in"


@dataclass(frozen=True)
class Visitor:
    """A signed-in browser: its account, its session's secret and its CSRF token."""

    account: Account
    secret: str
    csrf_token: str


def secure(request: Request) -> bool:
    """Cookies are Secure when the page is served over HTTPS (uvicorn reads a trusted
    proxy's X-Forwarded-Proto into the scheme)."""
    return request.url.scheme == "https"


def visitor(importer: Importer, request: Request) -> Visitor | None:
    secret = request.cookies.get(SESSION_COOKIE, "")
    found = importer.session_account(secret) if secret else None
    return None if found is None else Visitor(found[0], secret, found[1])


def set_session_cookie(response: Response, request: Request, secret: str, hours: float) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        secret,
        max_age=int(hours * 3600),
        path="/",
        httponly=True,
        samesite="lax",
        secure=secure(request),
    )


def clear_session_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(
        SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=secure(request)
    )


def sign_in_token(request: Request) -> str:
    """The sign-in form's CSRF token: the one its cookie holds, or a new one."""
    return request.cookies.get(SIGN_IN_COOKIE) or new_secret()


def set_sign_in_cookie(response: Response, request: Request, token: str) -> None:
    response.set_cookie(
        SIGN_IN_COOKIE,
        token,
        max_age=3600,
        path="/signin",
        httponly=True,
        samesite="lax",
        secure=secure(request),
    )


def check_csrf(given: object, expected: str) -> None:
    if not isinstance(given, str) or not expected or not same_secret(given, expected):
        raise WebError(
            403, "csrf", "this form is out of date (or was not sent by this page): reload it"
        )


def bearer(importer: Importer, request: Request) -> Account:
    """The account of the request's bearer token; 401 without a valid one."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise WebError(401, "unauthorized", "send an API token: Authorization: Bearer TOKEN")
    return importer.token_account(token.strip())
