"""One webhook request: a POST and whether it was delivered. The only module that imports
httpx (a runtime dependency for this alone: timeouts on connect and read, a pool of
connections shared by the threads that deliver).

A 2xx answer delivers; anything else — another status, a timeout, a refused or dropped
connection, an address that does not resolve — is WebhookFailed, with one line saying why
(the address without its query, which may hold a token). Redirects are not followed: a
receiver that moved says so with a 3xx, which is retried like any other answer.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

from importer.errors import ImporterError

# What an error line quotes of the receiver's answer.
ANSWER_QUOTED = 120


def _user_agent() -> str:
    """importer/VERSION: the version lives in one place (importer/version.py); the
    distribution's name is not the package's, so the metadata is not asked."""
    from importer.version import __version__

    return f"importer/{__version__}"


USER_AGENT = _user_agent()


class WebhookFailed(ImporterError):
    """The request was not delivered (``url`` without its query, ``status`` if one came)."""

    def __init__(self, message: str, *, url: str, status: int | None = None) -> None:
        super().__init__(message)
        self.url = url
        self.status = status


@dataclass(frozen=True)
class WebhookRequest:
    url: str
    body: bytes
    headers: Mapping[str, str]
    timeout_seconds: float


# One client per timeout, shared by every delivering thread (httpx's Client is thread-safe):
# building one costs an SSL context, far more than a request to a receiver nearby.
_clients: dict[float, httpx.Client] = {}
_clients_lock = threading.Lock()


def _client(timeout_seconds: float) -> httpx.Client:
    with _clients_lock:
        client = _clients.get(timeout_seconds)
        if client is None:
            client = httpx.Client(
                timeout=httpx.Timeout(timeout_seconds),  # connect, read, write and pool
                follow_redirects=False,
                headers={"User-Agent": USER_AGENT},
            )
            _clients[timeout_seconds] = client
        return client


def shown(url: str) -> str:
    """The address as an error line shows it: no query, no user or password."""
    parts = urlsplit(url)
    host = parts.hostname or "?"
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}"


def post(request: WebhookRequest) -> int:
    """POST the body; the 2xx status that delivered it, else WebhookFailed."""
    where = shown(request.url)
    try:
        with _client(request.timeout_seconds).stream(
            "POST", request.url, content=request.body, headers=dict(request.headers)
        ) as response:
            status = response.status_code
            if 200 <= status < 300:
                return status
            answer = _first_bytes(response)
    except httpx.TimeoutException as exc:
        phase = {
            httpx.ConnectTimeout: "connecting",
            httpx.ReadTimeout: "waiting for the answer",
            httpx.WriteTimeout: "sending",
            httpx.PoolTimeout: "waiting for a connection",
        }.get(type(exc), "")
        raise WebhookFailed(
            f"POST {where}: no answer within {request.timeout_seconds:g} s"
            + (f" ({phase})" if phase else ""),
            url=where,
        ) from None
    except httpx.HTTPError as exc:
        raise WebhookFailed(f"POST {where}: {_reason(exc)}", url=where) from None
    text = f"POST {where}: answered {status} {response.reason_phrase}".rstrip()
    raise WebhookFailed(f"{text}: {answer}" if answer else text, url=where, status=status)


def _first_bytes(response: httpx.Response) -> str:
    """The start of the answer, on one line (the rest is not read)."""
    taken = b""
    for chunk in response.iter_raw():
        taken += chunk
        if len(taken) >= ANSWER_QUOTED:
            break
    text = taken[:ANSWER_QUOTED].decode("utf-8", errors="replace")
    return " ".join(text.split())


def _reason(exc: httpx.HTTPError) -> str:
    text = str(exc).strip()
    if isinstance(exc, httpx.ConnectError):
        return f"could not connect ({text})" if text else "could not connect"
    if isinstance(exc, httpx.RemoteProtocolError):
        return f"the connection ended without an answer ({text})" if text else "no answer"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
