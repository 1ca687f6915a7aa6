"""Rejected rows fixed in place on the job's page: a row's changed cells checked again on the
server (the page's script asks for JSON and updates the row; without it the form posts and
the page comes back), one value replaced in every rejected row of a column, and the fixed
rows imported as a correction of the import. Each route parses, calls one Importer method
and renders."""

from __future__ import annotations

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from importer.web import auth
from importer.web.api import blocking, error_response, job_id_of
from importer.web.errors import WebError, answer_for
from importer.web.pages import Pages
from importer.web.views import checked_json

_CELL = "cell:"  # cell:COLUMN, the column by its header text
_USE = "use:"  # a suggestion's button: its value for that cell
_MAX_FIELDS = 2000


def row_of(request: Request) -> int:
    raw = str(request.path_params["row"])
    if not raw.isascii() or not raw.isdigit() or len(raw) > 9:
        raise WebError(404, "not_found", f"no rejected row {raw}")
    return int(raw)


def cells_of(form: FormData) -> dict[str, str | None]:
    """The row's cells as posted (``cell:Amount``: the cell of the column headed Amount); a
    suggestion's button (``use:Customer``) wins over what its cell holds."""
    cells: dict[str, str | None] = {}
    for prefix in (_CELL, _USE):
        for name, value in form.multi_items():
            column = name.removeprefix(prefix)
            if name.startswith(prefix) and column and isinstance(value, str):
                cells[column] = value.strip() or None
    return cells


class Fixes:
    """The /imports/{job_id} routes that change rejected rows, rendered by ``pages``."""

    def __init__(self, pages: Pages) -> None:
        self.pages = pages
        self.importer = pages.importer

    def routes(self) -> list[BaseRoute]:
        signed = self.pages.signed_in
        return [
            Route("/imports/{job_id}/rows/{row}", signed(self.edit), methods=["POST"]),
            Route("/imports/{job_id}/replace", signed(self.replace), methods=["POST"]),
            Route("/imports/{job_id}/fixed", signed(self.import_fixed), methods=["POST"]),
        ]

    async def _form(self, request: Request, visitor: auth.Visitor) -> FormData:
        form = await request.form(max_files=0, max_fields=_MAX_FIELDS)
        auth.check_csrf(form.get("csrf"), visitor.csrf_token)
        return form

    async def edit(self, request: Request, visitor: auth.Visitor) -> Response:
        by_script = request.headers.get("x-fix") == "1"
        try:
            form = await self._form(request, visitor)
            job_id, row = job_id_of(request), row_of(request)
            changes = {row: cells_of(form)}
            checked = await blocking(self.importer.edit_rows_for, visitor.account, job_id, changes)
        except Exception as exc:
            if by_script:
                return error_response(exc)
            raise
        if by_script:
            return JSONResponse(checked_json(checked))
        return RedirectResponse(_back(job_id, form, f"row-{row}"), status_code=303)

    async def replace(self, request: Request, visitor: auth.Visitor) -> Response:
        form = await self._form(request, visitor)
        job_id = job_id_of(request)
        column, old = str(form.get("column") or ""), str(form.get("old") or "")
        new = str(form.get("new") or "").strip() or None
        try:
            checked = await blocking(
                self.importer.replace_in_rejected_for, visitor.account, job_id, column, old, new
            )
        except Exception as exc:
            answer = answer_for(exc)
            return await self.pages.show_job(request, visitor, answer.message, answer.status)
        note = f"replaced in {len(checked.problems)} rows"
        fixed = sum(1 for problems in checked.problems.values() if not problems)
        return await self.pages.show_job(request, visitor, f"{note}; {fixed} now fixed", 200)

    async def import_fixed(self, request: Request, visitor: auth.Visitor) -> Response:
        await self._form(request, visitor)
        submission = await blocking(
            self.importer.import_fixed_rows_for, visitor.account, job_id_of(request)
        )
        return RedirectResponse(f"/imports/{submission.job.id}", status_code=303)


def _back(job_id: int, form: FormData, anchor: str) -> str:
    after = str(form.get("after") or "0")
    page = f"?after={after}" if after.isascii() and after.isdigit() and after != "0" else ""
    return f"/imports/{job_id}{page}#{anchor}"
