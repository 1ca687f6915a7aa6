"""An upload before its import: the columns to match where its header does not fit a form
outright, then the check of its rows ("Import the N good rows", or "Fix first": the rows to
fix as a workbook), or dropped. Each route parses, calls one Importer method and renders."""

from __future__ import annotations

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from importer.web import auth
from importer.web.api import blocking, error_workbook_file
from importer.web.errors import WebError, answer_for
from importer.web.pages import Pages

_FIELD_PREFIX = "column-"
_MAX_COLUMNS = 2000


def upload_id_of(request: Request) -> int:
    raw = str(request.path_params["upload_id"])
    if not raw.isascii() or not raw.isdigit() or int(raw) == 0 or len(raw) > 18:
        raise WebError(404, "not_found", f"no upload with id {raw} waiting to be imported")
    return int(raw)


def chosen_fields(form: FormData) -> dict[int, str]:
    """The field chosen for each column (``column-3=customer``; empty: ignored)."""
    chosen: dict[int, str] = {}
    for name, value in form.multi_items():
        index = name.removeprefix(_FIELD_PREFIX)
        wanted = name.startswith(_FIELD_PREFIX) and index.isascii() and index.isdigit()
        if wanted and int(index) < _MAX_COLUMNS and isinstance(value, str):
            chosen[int(index)] = value.strip()
    return chosen


class Reviews:
    """The /uploads routes, rendered by ``pages``."""

    def __init__(self, pages: Pages) -> None:
        self.pages = pages
        self.importer = pages.importer

    def routes(self) -> list[BaseRoute]:
        signed = self.pages.signed_in
        return [
            Route("/uploads/{upload_id}", signed(self.review), methods=["GET"]),
            Route("/uploads/{upload_id}/columns", signed(self.columns), methods=["POST"]),
            Route("/uploads/{upload_id}/import", signed(self.start), methods=["POST"]),
            Route("/uploads/{upload_id}/drop", signed(self.drop), methods=["POST"]),
            Route("/uploads/{upload_id}/rejected.xlsx", signed(self.rows_to_fix), methods=["GET"]),
        ]

    async def review(
        self,
        request: Request,
        visitor: auth.Visitor,
        error: str | None = None,
        status: int = 200,
        chosen: dict[int, str] | None = None,
    ) -> Response:
        form = request.query_params.get("form") or None
        columns = request.query_params.get("columns") == "1" or request.method == "POST"
        again = request.query_params.get("again") == "1"  # not the check kept: run it anew
        if request.method == "POST":
            form = None  # a refused choice is shown for the form it was made for
        found = await blocking(
            self.importer.checked_upload_for,
            visitor.account,
            upload_id_of(request),
            form,
            columns,
            again,
        )
        return self.pages.render(
            request,
            "review.html",
            status,
            visitor=visitor,
            review=found,
            upload=found.upload,
            error=error,
            chosen=chosen,
        )

    async def columns(self, request: Request, visitor: auth.Visitor) -> Response:
        form = await request.form(max_files=0, max_fields=_MAX_COLUMNS + 10)
        auth.check_csrf(form.get("csrf"), visitor.csrf_token)
        upload_id = upload_id_of(request)
        fields = chosen_fields(form)
        try:
            await blocking(
                self.importer.match_columns_for,
                visitor.account,
                upload_id,
                str(form.get("form") or ""),
                fields,
            )
        except Exception as exc:
            answer = answer_for(exc)
            if answer.status != 422:
                raise
            return await self.review(request, visitor, answer.message, 422, fields)
        return RedirectResponse(f"/uploads/{upload_id}", status_code=303)

    async def start(self, request: Request, visitor: auth.Visitor) -> Response:
        form = await request.form(max_files=0, max_fields=10)
        auth.check_csrf(form.get("csrf"), visitor.csrf_token)
        submission = await blocking(
            self.importer.import_upload_for, visitor.account, upload_id_of(request)
        )
        return RedirectResponse(f"/imports/{submission.job.id}", status_code=303)

    async def drop(self, request: Request, visitor: auth.Visitor) -> Response:
        form = await request.form(max_files=0, max_fields=10)
        auth.check_csrf(form.get("csrf"), visitor.csrf_token)
        await blocking(self.importer.drop_upload_for, visitor.account, upload_id_of(request))
        return RedirectResponse("/imports", status_code=303)

    async def rows_to_fix(self, request: Request, visitor: auth.Visitor) -> Response:
        upload_id = upload_id_of(request)
        return await error_workbook_file(
            f"rows-to-fix-{upload_id}.xlsx",
            self.importer.checked_rows_for,
            visitor.account,
            upload_id,
        )
