"""The JSON API under /api, for applications: bearer tokens, the same permissions as the page
(a job that is not the token's account's is 404, as one that does not exist), errors as
{"code", "message"} with their own HTTP status."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from importer.api import Importer
from importer.repositories.accounts import Account
from importer.repositories.jobs import Job
from importer.states import JobStatus
from importer.web.auth import bearer
from importer.web.errors import WebError, answer_for
from importer.web.events import ProgressHub
from importer.web.uploads import read_upload, submit_request
from importer.web.views import checked_json, job_json, rejected_json, undo_json

T = TypeVar("T")
MAX_PAGE = 500


async def blocking(call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """A facade call (it waits on the database) off the event loop."""
    return await run_in_threadpool(call, *args, **kwargs)


def error_response(exc: Exception) -> JSONResponse:
    answer = answer_for(exc)
    headers = {"WWW-Authenticate": "Bearer"} if answer.status == 401 else None
    return JSONResponse(answer.to_json(), status_code=answer.status, headers=headers)


def _int(request: Request, name: str, default: int, *, least: int = 0, most: int = 10**12) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    if not raw.isascii() or not raw.isdigit() or not least <= int(raw) <= most:
        raise WebError(400, "bad_request", f"{name} must be a whole number from {least} to {most}")
    return int(raw)


def job_id_of(request: Request) -> int:
    raw = str(request.path_params["job_id"])
    if not raw.isascii() or not raw.isdigit() or int(raw) == 0 or len(raw) > 18:
        raise WebError(404, "not_found", f"no import job with id {raw}")
    return int(raw)


def _statuses(request: Request) -> list[JobStatus] | None:
    wanted = [s for item in request.query_params.getlist("status") for s in item.split(",") if s]
    names = [s.value for s in JobStatus]
    for name in wanted:
        if name not in names:
            raise WebError(400, "bad_request", f"status {name!r}: use one of {', '.join(names)}")
    return [JobStatus(name) for name in wanted] or None


class Api:
    """The /api routes over one Importer."""

    def __init__(self, importer: Importer, max_upload_mb: int, hub: ProgressHub) -> None:
        self.importer = importer
        self.max_upload_mb = max_upload_mb
        self.hub = hub

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/forms", self.forms, methods=["GET"]),
            Route("/api/imports", self.list_imports, methods=["GET"]),
            Route("/api/imports", self.create_import, methods=["POST"]),
            Route("/api/imports/{job_id}", self.read_import, methods=["GET"]),
            Route("/api/imports/{job_id}/events", self.events, methods=["GET"]),
            Route("/api/imports/{job_id}/rejected", self.rejected, methods=["GET"]),
            Route("/api/imports/{job_id}/rejected.xlsx", self.error_workbook, methods=["GET"]),
            Route("/api/imports/{job_id}/cancel", self.cancel, methods=["POST"]),
            Route("/api/imports/{job_id}/retry", self.retry, methods=["POST"]),
            Route("/api/imports/{job_id}/undo", self.undo, methods=["POST"]),
            Route("/api/imports/{job_id}/rejected/edits", self.edit_rows, methods=["POST"]),
            Route("/api/imports/{job_id}/corrections", self.correct, methods=["POST"]),
        ]

    async def _account(self, request: Request) -> Account:
        return await blocking(bearer, self.importer, request)

    async def _as_account(self, request: Request, use: Callable[[Account], T]) -> T:
        """``use(account)`` for the request's bearer account, both in one hand-off to the
        thread pool: a hand-off costs a polling request about what its token's lookup does."""

        def authenticated() -> T:
            return use(bearer(self.importer, request))

        return await blocking(authenticated)

    async def forms(self, request: Request) -> Response:
        try:
            found = await self._as_account(request, self.importer.forms_for)
        except Exception as exc:
            return error_response(exc)
        shown = [{"name": f.name, "version": f.version, "key": list(f.key)} for f in found]
        return JSONResponse({"forms": shown})

    async def list_imports(self, request: Request) -> Response:
        def listed(account: Account) -> tuple[int, list[Job]]:
            limit = _int(request, "limit", 50, least=1, most=MAX_PAGE)
            before = _int(request, "before", 0) or None
            statuses = _statuses(request)
            return limit, self.importer.jobs_for(
                account, limit=limit, before=before, statuses=statuses
            )

        try:
            limit, found = await self._as_account(request, listed)
        except Exception as exc:
            return error_response(exc)
        body: dict[str, Any] = {"imports": [job_json(job) for job in found]}
        body["next_before"] = found[-1].id if len(found) == limit else None
        return JSONResponse(body)

    async def create_import(self, request: Request) -> Response:
        try:
            account = await self._account(request)
            upload = await read_upload(request, self.max_upload_mb)
            wanted = submit_request(upload)
            submission = await blocking(self.importer.submit_for, account, wanted)
        except Exception as exc:
            return error_response(exc)
        body = {**job_json(submission.job), "created": submission.created}
        return JSONResponse(body, status_code=201 if submission.created else 200)

    async def read_import(self, request: Request) -> Response:
        try:
            job = await self._as_account(
                request, lambda account: self.importer.job_for(account, job_id_of(request))
            )
        except Exception as exc:
            return error_response(exc)
        return JSONResponse(job_json(job))

    async def events(self, request: Request) -> Response:
        try:
            account = await self._account(request)
            first = await blocking(self.importer.progress_for, account, job_id_of(request))
        except Exception as exc:
            return error_response(exc)
        return self.hub.response(account, first)

    async def rejected(self, request: Request) -> Response:
        try:
            account = await self._account(request)
            after = _int(request, "after", 0)
            limit = _int(request, "limit", 50, least=1, most=MAX_PAGE)
            job, page = await blocking(
                self.importer.rejected_rows_for,
                account,
                job_id_of(request),
                after=after,
                limit=limit,
            )
        except Exception as exc:
            return error_response(exc)
        return JSONResponse(
            {
                "import": job.id,
                "header": job.header or [],
                "rejected_rows": job.failed_rows,
                "rows": [rejected_json(row) for row in page],
                "next_after": page[-1].number if len(page) == limit else None,
            }
        )

    async def error_workbook(self, request: Request) -> Response:
        try:
            account = await self._account(request)
            return await error_workbook_response(self.importer, account, job_id_of(request))
        except Exception as exc:
            return error_response(exc)

    async def cancel(self, request: Request) -> Response:
        try:
            job = await self._as_account(
                request, lambda account: self.importer.cancel_for(account, job_id_of(request))
            )
        except Exception as exc:
            return error_response(exc)
        return JSONResponse(job_json(job))

    async def edit_rows(self, request: Request) -> Response:
        try:
            account = await self._account(request)
            job_id = job_id_of(request)
            body = await _json_body(request)
            checked = await blocking(self.importer.edit_rows_for, account, job_id, _changes(body))
        except Exception as exc:
            return error_response(exc)
        return JSONResponse(checked_json(checked))

    async def correct(self, request: Request) -> Response:
        try:
            account = await self._account(request)
            submission = await blocking(
                self.importer.import_fixed_rows_for, account, job_id_of(request)
            )
        except Exception as exc:
            return error_response(exc)
        return JSONResponse({**job_json(submission.job), "created": submission.created}, 201)

    async def undo(self, request: Request) -> Response:
        try:
            account = await self._account(request)
            job_id = job_id_of(request)
            options = _undo_options(await _json_body(request))
            report = await blocking(self.importer.undo_for, account, job_id, **options)
        except Exception as exc:
            return error_response(exc)
        return JSONResponse(undo_json(report))

    async def retry(self, request: Request) -> Response:
        try:
            job = await self._as_account(
                request, lambda account: self.importer.retry_for(account, job_id_of(request))
            )
        except Exception as exc:
            return error_response(exc)
        return JSONResponse(job_json(job))


def _undo_options(body: object) -> dict[str, bool]:
    """``{"dry_run": true, "cascade": true}``, each optional (false); other keys ignored."""
    given = body if isinstance(body, dict) else {}
    options = {name: given.get(name, False) for name in ("dry_run", "cascade")}
    if not all(isinstance(value, bool) for value in options.values()):
        raise WebError(400, "bad_request", 'send {"dry_run": true|false, "cascade": true|false}')
    return options


async def _json_body(request: Request) -> object:
    """The request's JSON body (None: no body, or not JSON)."""
    try:
        return await request.json()
    except ValueError:
        return None


def _changes(body: object) -> dict[int, dict[str, str | None]]:
    """``{"rows": {"7": {"Amount": "5", ...}, ...}}``: each row's cells by column header."""
    rows = body.get("rows") if isinstance(body, dict) else None
    wrong = WebError(
        400,
        "bad_request",
        'send {"rows": {"ROW": {"Column": "value", ...}, ...}}: rows by their Excel number,'
        " cells by their column's header, values as texts (null: empty)",
    )
    if not isinstance(rows, dict) or not rows or len(rows) > MAX_PAGE:
        raise wrong
    changes: dict[int, dict[str, str | None]] = {}
    for row, cells in rows.items():
        if not str(row).isascii() or not str(row).isdigit() or not isinstance(cells, dict):
            raise wrong
        if not all(isinstance(v, str | None) for v in cells.values()) or not cells:
            raise wrong
        changes[int(row)] = {str(column): value for column, value in cells.items()}
    return changes


async def error_workbook_response(importer: Importer, account: Account, job_id: int) -> Response:
    """The job's error workbook as a download (the page's and the API's); the facade's
    refusals are raised."""
    name = f"rejected-{job_id}.xlsx"
    return await error_workbook_file(name, importer.error_workbook_for, account, job_id)


async def error_workbook_file(
    name: str, write: Callable[[Account, int, Path], object], account: Account, key: int
) -> Response:
    """A workbook the facade writes (``write(account, key, target)``) as a download, from a
    temporary folder removed once it is sent."""
    folder = Path(tempfile.mkdtemp(prefix="importer-web-"))
    target = folder / name
    try:
        await blocking(write, account, key, target)
    except BaseException:
        _remove(folder)
        raise
    return FileResponse(
        target,
        media_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        filename=target.name,
        background=BackgroundTask(_remove, folder),
    )


def _remove(folder: Path) -> None:
    import shutil

    shutil.rmtree(folder, ignore_errors=True)
