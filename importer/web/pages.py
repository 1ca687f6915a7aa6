"""The sender's page: sign in and out, upload, the job with its live progress and rejected
rows, and "My imports" (an operator's: everyone's of its forms, with retry, cancel and undo
with its preview).
Server-rendered; the basic path works without JavaScript."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from jinja2 import Environment
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from importer.api import Importer
from importer.repositories.undo import LaterJobsChanged
from importer.states import Role
from importer.web import auth
from importer.web.api import blocking, error_response, error_workbook_response, job_id_of
from importer.web.errors import WebError, answer_for
from importer.web.events import ProgressHub
from importer.web.uploads import read_upload, submit_request
from importer.web.views import describe, job_json, percent, public_error

PAGE_ROWS = 50  # rejected rows shown a page
LIST_JOBS = 50  # jobs a page of "My imports"

# What the page's script fetches: answered 401 without a session, never sent to sign in.
_FOR_SCRIPTS = ("/progress", "/events")

Handler = Callable[[Request, auth.Visitor], Awaitable[Response]]


class Pages:
    """The HTML routes over one Importer."""

    def __init__(
        self,
        importer: Importer,
        templates: Environment,
        max_upload_mb: int,
        hours: float,
        hub: ProgressHub,
    ) -> None:
        self.importer = importer
        self.hub = hub
        self.templates = templates
        self.max_upload_mb = max_upload_mb
        self.hours = hours

    def routes(self) -> list[BaseRoute]:
        signed = self.signed_in
        return [
            Route("/", self.home, methods=["GET"]),
            Route("/signin", self.sign_in_page, methods=["GET"]),
            Route("/signin", self.sign_in, methods=["POST"]),
            Route("/signout", signed(self.sign_out), methods=["POST"]),
            Route("/imports", signed(self.imports), methods=["GET"]),
            Route("/imports", signed(self.upload), methods=["POST"]),
            Route("/imports/{job_id}", signed(self.job_page), methods=["GET"]),
            Route("/imports/{job_id}/progress", signed(self.progress), methods=["GET"]),
            Route("/imports/{job_id}/events", signed(self.events), methods=["GET"]),
            Route("/imports/{job_id}/rejected.xlsx", signed(self.download), methods=["GET"]),
            Route("/imports/{job_id}/cancel", signed(self.cancel), methods=["POST"]),
            Route("/imports/{job_id}/retry", signed(self.retry), methods=["POST"]),
            Route("/imports/{job_id}/undo", signed(self.undo_preview), methods=["GET"]),
            Route("/imports/{job_id}/undo", signed(self.undo), methods=["POST"]),
        ]

    def render(self, request: Request, name: str, status: int = 200, **context: Any) -> Response:
        text = self.templates.get_template(name).render(request=request, **context)
        return HTMLResponse(text, status_code=status)

    def refusal(self, request: Request, exc: Exception, visitor: auth.Visitor | None) -> Response:
        answer = answer_for(exc)
        return self.render(
            request, "error.html", answer.status, visitor=visitor, message=answer.message
        )

    def signed_in(self, handler: Handler) -> Callable[[Request], Awaitable[Response]]:
        """The route for a signed-in browser only (others are sent to sign in); a POST must
        carry the session's CSRF token."""

        async def endpoint(request: Request) -> Response:
            visitor = await blocking(auth.visitor, self.importer, request)
            if visitor is None:
                if request.method == "GET" and not request.url.path.endswith(_FOR_SCRIPTS):
                    return RedirectResponse("/signin", status_code=303)
                return self.refusal(request, WebError(401, "unauthorized", "sign in first"), None)
            try:
                return await handler(request, visitor)
            except Exception as exc:
                return self.refusal(request, exc, visitor)

        return endpoint

    # --- signing in and out ----------------------------------------------------------------

    async def home(self, request: Request) -> Response:
        visitor = await blocking(auth.visitor, self.importer, request)
        return RedirectResponse("/imports" if visitor else "/signin", status_code=303)

    async def sign_in_page(self, request: Request) -> Response:
        return self._sign_in_form(request, 200, "", None)

    def _sign_in_form(
        self, request: Request, status: int, email: str, error: str | None
    ) -> Response:
        token = auth.sign_in_token(request)
        response = self.render(
            request, "signin.html", status, csrf=token, email=email, error=error, visitor=None
        )
        auth.set_sign_in_cookie(response, request, token)
        return response

    async def sign_in(self, request: Request) -> Response:
        form = await request.form(max_files=0, max_fields=10)
        email = str(form.get("email") or "")
        try:
            auth.check_csrf(form.get("csrf"), request.cookies.get(auth.SIGN_IN_COOKIE, ""))
            session = await blocking(
                self.importer.sign_in, email, str(form.get("password") or ""), hours=self.hours
            )
        except Exception as exc:
            answer = answer_for(exc)
            return self._sign_in_form(request, answer.status, email, answer.message)
        response = RedirectResponse("/imports", status_code=303)
        auth.set_session_cookie(response, request, session.secret, self.hours)
        return response

    async def sign_out(self, request: Request, visitor: auth.Visitor) -> Response:
        form = await request.form(max_files=0, max_fields=10)
        auth.check_csrf(form.get("csrf"), visitor.csrf_token)
        await blocking(self.importer.sign_out, visitor.secret)
        response = RedirectResponse("/signin", status_code=303)
        auth.clear_session_cookie(response, request)
        return response

    # --- my imports and the upload ---------------------------------------------------------

    async def imports(
        self, request: Request, visitor: auth.Visitor, error: str | None = None, status: int = 200
    ) -> Response:
        account = visitor.account
        found = await blocking(self.importer.jobs_for, account, limit=LIST_JOBS)
        forms = await blocking(self.importer.forms_for, account)
        return self.render(
            request,
            "imports.html",
            status,
            visitor=visitor,
            jobs=found,
            forms=forms,
            error=error,
            everyone=account.role is not Role.SENDER,
            describe=describe,
            max_upload_mb=self.max_upload_mb,
        )

    async def upload(self, request: Request, visitor: auth.Visitor) -> Response:
        by_script = request.headers.get("x-upload") == "1"  # the page's script: JSON back
        try:
            upload = await read_upload(request, self.max_upload_mb)
            auth.check_csrf(upload.fields.get("csrf"), visitor.csrf_token)
            wanted = submit_request(upload)
            kept = await blocking(self.importer.upload_for, visitor.account, wanted)
        except Exception as exc:
            if by_script:
                return error_response(exc)
            answer = answer_for(exc)
            return await self.imports(request, visitor, answer.message, answer.status)
        # Checked first (its columns, its rows); an error workbook sent back is a correction.
        if kept.submission is not None:
            where = f"/imports/{kept.submission.job.id}"
        else:
            assert kept.review is not None
            where = f"/uploads/{kept.review.id}"
        if by_script:
            return JSONResponse({"location": where})
        return RedirectResponse(where, status_code=303)

    # --- one job ---------------------------------------------------------------------------

    async def job_page(self, request: Request, visitor: auth.Visitor) -> Response:
        return await self.show_job(request, visitor)

    async def show_job(
        self, request: Request, visitor: auth.Visitor, note: str | None = None, status: int = 200
    ) -> Response:
        """The job, and a page of its rejected rows to fix (``note``: what was just done)."""
        after = request.query_params.get("after", "0")
        after_row = int(after) if after.isascii() and after.isdigit() and len(after) < 10 else 0
        found = await blocking(
            self.importer.rows_to_fix_for,
            visitor.account,
            job_id_of(request),
            after=after_row,
            limit=PAGE_ROWS,
        )
        job, rows = found.job, found.rows
        return self.render(
            request,
            "job.html",
            status,
            visitor=visitor,
            job=job,
            rows=rows,
            ready=found.ready,
            note=note,
            after=after_row,
            next_after=rows[-1].number if len(rows) == PAGE_ROWS else None,
            percent=percent(job),
            state=describe(job),
            error=public_error(job.last_error),
            header=found.header,
        )

    async def progress(self, request: Request, visitor: auth.Visitor) -> Response:
        job = await blocking(self.importer.job_for, visitor.account, job_id_of(request))
        return JSONResponse({**job_json(job), "state": describe(job)})

    async def events(self, request: Request, visitor: auth.Visitor) -> Response:
        """The job's progress events (the page's script follows the job with them)."""
        account = visitor.account
        first = await blocking(self.importer.progress_for, account, job_id_of(request))
        return self.hub.response(account, first)

    async def download(self, request: Request, visitor: auth.Visitor) -> Response:
        return await error_workbook_response(self.importer, visitor.account, job_id_of(request))

    async def cancel(self, request: Request, visitor: auth.Visitor) -> Response:
        return await self._act(request, visitor, self.importer.cancel_for)

    async def retry(self, request: Request, visitor: auth.Visitor) -> Response:
        return await self._act(request, visitor, self.importer.retry_for)

    async def undo_preview(self, request: Request, visitor: auth.Visitor) -> Response:
        """What the undo would take back (a dry run: nothing changes), and the button that
        does it; where later imports changed its rows, the same with them (``?cascade=1``)."""
        job_id = job_id_of(request)
        cascade = request.query_params.get("cascade") == "1"
        job = await blocking(self.importer.job_for, visitor.account, job_id)
        context: dict[str, Any] = {"visitor": visitor, "job": job, "cascade": cascade}
        try:
            report = await blocking(
                self.importer.undo_for, visitor.account, job_id, cascade=cascade, dry_run=True
            )
        except LaterJobsChanged as exc:
            return self.render(request, "undo.html", later=exc.later, report=None, **context)
        return self.render(request, "undo.html", later=None, report=report, **context)

    async def undo(self, request: Request, visitor: auth.Visitor) -> Response:
        form = await request.form(max_files=0, max_fields=10)
        auth.check_csrf(form.get("csrf"), visitor.csrf_token)
        job_id = job_id_of(request)
        cascade = form.get("cascade") == "1"
        await blocking(self.importer.undo_for, visitor.account, job_id, cascade=cascade)
        return RedirectResponse(f"/imports/{job_id}", status_code=303)

    async def _act(self, request: Request, visitor: auth.Visitor, action: Any) -> Response:
        form = await request.form(max_files=0, max_fields=10)
        auth.check_csrf(form.get("csrf"), visitor.csrf_token)
        job = await blocking(action, visitor.account, job_id_of(request))
        back = "/imports" if form.get("back") == "list" else f"/imports/{job.id}"
        return RedirectResponse(back, status_code=303)
