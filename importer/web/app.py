"""The web front end as one ASGI application over an Importer: the sender's page, the JSON
API under /api, and the package's own script and style sheet. No global state: each
create_app() is an application of its own (tests call it in-process)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime

from anyio import to_thread
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from importer.api import Importer
from importer.web.api import Api
from importer.web.events import ProgressHub
from importer.web.fixes import Fixes
from importer.web.openapi import openapi_document
from importer.web.pages import Pages
from importer.web.reviews import Reviews

# Scripts and styles only from this server: a cell that smuggles in markup runs nothing.
_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
        b" object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    """Every answer carries the headers above; no answer is cached by a shared cache."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name for name, _ in headers}
                headers += [pair for pair in _HEADERS if pair[0] not in names]
                if b"cache-control" not in names and not scope["path"].startswith("/static/"):
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


def when(moment: datetime | None) -> str:
    return "-" if moment is None else moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def templates() -> Environment:
    """Jinja2 with autoescape on for every template: cell values, sheet and file names are
    always text."""
    env = Environment(
        loader=PackageLoader("importer.web", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
    )
    env.globals["when"] = when
    return env


def create_app(
    importer: Importer,
    *,
    max_upload_mb: int | None = None,
    session_hours: float | None = None,
    stopping: Callable[[], bool] = lambda: False,
    threads: int | None = None,
) -> Starlette:
    """The page and the API over ``importer`` (limits default to its settings' [web]);
    ``stopping``: true once the server stops (its streams of progress events end then);
    ``threads``: the facade calls running at once (default: anyio's 40)."""
    web = importer.settings.web
    limit = max_upload_mb if max_upload_mb is not None else web.max_upload_mb
    hours = session_hours if session_hours is not None else web.session_hours
    hub = ProgressHub(importer, stopping)
    pages = Pages(importer, templates(), limit, hours, hub)
    api = Api(importer, limit, hub)

    async def openapi(request: Request) -> Response:
        return JSONResponse(openapi_document())

    routes = [
        *pages.routes(),
        *Reviews(pages).routes(),
        *Fixes(pages).routes(),
        Route("/api/openapi.json", openapi, methods=["GET"]),
        *api.routes(),
        Mount("/static", StaticFiles(packages=[("importer.web", "static")]), name="static"),
    ]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if threads is not None:
            to_thread.current_default_thread_limiter().total_tokens = threads
        yield

    return Starlette(routes=routes, middleware=[Middleware(SecurityHeaders)], lifespan=lifespan)
