"""The JSON API's OpenAPI document (served at /api/openapi.json; a test checks it against the
routes): every path and method, its parameters, and the error object every refusal is."""

from __future__ import annotations

from typing import Any

from importer import __version__
from importer.states import JobStatus

_ERROR = {"$ref": "#/components/schemas/Error"}
_JOB = {"$ref": "#/components/schemas/Import"}


def _answers(ok: dict[str, Any], *statuses: int) -> dict[str, Any]:
    answers = {**ok, "401": _error("no valid API token")}
    for status in statuses:
        answers[str(status)] = _error(_WHY[status])
    return answers


_WHY = {
    400: "a parameter is not what it must be",
    403: "the account's role does not allow it (code forbidden)",
    404: "no such import, or not one of this token's",
    409: "the import's state does not allow it",
    413: "the file is larger than [web] max_upload_mb",
    422: "the workbook or its header is refused (the command line's message)",
    503: "the database is not answering",
}


def _error(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _ERROR}}}


def _json(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _query(name: str, description: str, kind: str = "integer") -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "description": description,
            "schema": {"type": kind}}  # fmt: skip


_ID = {"name": "job_id", "in": "path", "required": True, "schema": {"type": "integer"}}


def _paths() -> dict[str, Any]:
    page = [_query("after", "rows after this Excel row"), _query("limit", "at most (500)")]
    listing = [
        _query("limit", "at most this many (500)"),
        _query("before", "only imports older than this id (the next page)"),
        _query("status", "only these statuses, comma-separated", "string"),
    ]
    one = {"200": _json("the import", _JOB)}
    return {
        "/api/forms": {"get": {"summary": "The forms this token may submit to",
                               "responses": _answers({"200": _json("forms", {"type": "object"})},
                                                     503)}},
        "/api/imports": {
            "get": {"summary": "The imports this token may see, newest first",
                    "parameters": listing,
                    "responses": _answers({"200": _json("imports", {"type": "object"})},
                                          400, 503)},
            "post": {"summary": "Upload a workbook: checked as `importer submit` checks it, "
                                "then queued for the workers",
                     "requestBody": {"required": True, "content": {"multipart/form-data": {
                         "schema": {"$ref": "#/components/schemas/Upload"}}}},
                     "responses": _answers({"201": _json("a new import", _JOB),
                                            "200": _json("this file's import, found", _JOB)},
                                           400, 404, 409, 413, 422, 503)},
        },
        "/api/imports/{job_id}": {"get": {"summary": "One import", "parameters": [_ID],
                                          "responses": _answers(one, 404, 503)}},
        "/api/imports/{job_id}/events": {
            "get": {"summary": "The import's progress as server-sent events, until it ends",
                    "description": _EVENTS, "parameters": [_ID],
                    "responses": _answers({"200": {
                        "description": "a stream of progress events (text/event-stream)",
                        "content": {"text/event-stream": {"schema": {
                            "$ref": "#/components/schemas/ProgressEvent"}}}}}, 404, 503)}},
        "/api/imports/{job_id}/rejected": {
            "get": {"summary": "A page of the import's rejected rows, each with its problems",
                    "parameters": [_ID, *page],
                    "responses": _answers({"200": _json("rows", {"type": "object"})},
                                          400, 404, 409, 503)}},
        "/api/imports/{job_id}/rejected.xlsx": {
            "get": {"summary": "The error workbook (as `importer errors -o`)",
                    "parameters": [_ID],
                    "responses": _answers({"200": {"description": "the workbook", "content": {
                        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":
                            {}}}}, 404, 409, 503)}},
        "/api/imports/{job_id}/cancel": {
            "post": {"summary": "Cancel: a pending import at once, a running one at its next "
                                "batch", "parameters": [_ID],
                     "responses": _answers(one, 404, 409, 503)}},
        "/api/imports/{job_id}/retry": {
            "post": {"summary": "Put a failed import back in the queue", "parameters": [_ID],
                     "responses": _answers(one, 404, 409, 503)}},
        "/api/imports/{job_id}/undo": {
            "post": {"summary": "Take the import back, as `importer undo` (an operator or an "
                                "admin; a sender's own import: 403)",
                     "description": _UNDO, "parameters": [_ID],
                     "requestBody": {"required": False, "content": {"application/json": {
                         "schema": {"$ref": "#/components/schemas/UndoOptions"}}}},
                     "responses": _answers({"200": _json("what it took back (or would)", {
                         "$ref": "#/components/schemas/Undo"})}, 400, 403, 404, 409, 503)}},
        "/api/imports/{job_id}/rejected/edits": {
            "post": {"summary": "Change cells of rejected rows; each row is checked again by "
                                "the form's rules and kept until the fixed rows are imported",
                     "parameters": [_ID],
                     "requestBody": {"required": True, "content": {"application/json": {
                         "schema": {"$ref": "#/components/schemas/RowEdits"}}}},
                     "responses": _answers({"200": _json("each row's problems now", {
                         "$ref": "#/components/schemas/RowsChecked"})}, 400, 404, 422, 503)}},
        "/api/imports/{job_id}/corrections": {
            "post": {"summary": "Import the fixed rows as a correction of the import (queued; "
                                "each row is imported at most once)",
                     "parameters": [_ID],
                     "responses": _answers({"201": _json("the correction", _JOB)},
                                           404, 409, 422, 503)}},
    }  # fmt: skip


_EVENTS = (
    "The first event is the import as it is, sent at once; then one each time its committed"
    " rows, its rejected rows or its status change (read from the database a few times a"
    " second, whichever worker runs it). Each is `event: progress` with an `id` (1, 2, ...)"
    " and a [ProgressEvent](#progressevent) as its `data`; the stream ends after the event"
    " whose `done` is true (a client that connects again gets that event again). An"
    " `event: error` with an [Error](#error) as its data ends a stream that cannot go on"
    " (`not_found`: the import is no longer this token's; `unavailable`: the database);"
    " a stream ends without it when the server stops, to be opened again (an EventSource"
    " does so by itself). A comment line is sent on a quiet stream every 15 seconds."
)


_UNDO = (
    "In one transaction the rows the import inserted are removed and the rows it overwrote"
    " get their values from before it; the import becomes `reverted`. With `dry_run` nothing"
    " changes: the answer says what would. Where later imports changed the same rows, the"
    " answer is 409 with code `later_imports_changed` unless `cascade` takes them back too,"
    " newest first; an import that has not ended, or was undone already, is 409 `conflict`."
)


def _schemas() -> dict[str, Any]:
    counts = {"type": ["integer", "null"]}
    return {
        "Error": {"type": "object", "required": ["code", "message"], "properties": {
            "code": {"type": "string", "description": "stable: not_found, conflict, "
                     "input_refused, form_refused, bad_request, unauthorized, forbidden, "
                     "too_large, later_imports_changed, ..."},
            "message": {"type": "string", "description": "one line, for a person"}}},
        "Import": {"type": "object", "properties": {
            "id": {"type": "integer"},
            "status": {"type": "string", "enum": [s.value for s in JobStatus]},
            "form": {"type": "string"}, "form_version": {"type": "integer"},
            "file_name": {"type": "string"}, "sheet": {"type": ["string", "null"]},
            "total_rows": counts, "success_rows": {"type": "integer"},
            "failed_rows": {"type": "integer"}, "inserted": counts, "updated": counts,
            "unchanged": counts, "done": {"type": "boolean"},
            "percent": {"type": ["number", "null"]}, "attempts": {"type": "integer"},
            "error": {"type": ["string", "null"]}, "submitted_by": {"type": ["string", "null"]},
            "created_at": {"type": "string", "format": "date-time"},
            "created": {"type": "boolean", "description": "POST: false when found, not made"},
            "correction_of": {"type": ["integer", "null"],
                              "description": "the import whose rejected rows this one fixes"},
            "fixed_later": {"type": "integer",
                            "description": "an import's rejected rows a correction imported"},
            "still_open": {"type": "integer",
                           "description": "its rejected rows no correction imported yet"}}},
        "ProgressEvent": {"type": "object", "properties": {
            "id": {"type": "integer", "description": "the import"},
            "status": {"type": "string", "enum": [s.value for s in JobStatus]},
            "total_rows": counts,
            "rows": {"type": "integer", "description": "rows committed: imported + rejected"},
            "imported": {"type": "integer"}, "rejected": {"type": "integer"},
            "rate": {"type": ["number", "null"],
                     "description": "rows a second over the last few seconds of the stream"},
            "percent": {"type": ["number", "null"]},
            "done": {"type": "boolean", "description": "true: the last event of the stream"},
            "state": {"type": "string", "description": "where it stands, in words"},
            "error": {"type": ["string", "null"]}}},
        "UndoOptions": {"type": "object", "properties": {
            "dry_run": {"type": "boolean", "description": "say what would change; change "
                        "nothing (default false)"},
            "cascade": {"type": "boolean", "description": "also the later imports that "
                        "changed its rows, newest first (default false)"}}},
        "Undo": {"type": "object", "properties": {
            "dry_run": {"type": "boolean"}, "form": {"type": "string"},
            "removed": {"type": "integer", "description": "rows inserted, now removed"},
            "restored": {"type": "integer",
                         "description": "rows overwritten, given their values back"},
            "imports": {"type": "array", "description": "each import taken back, newest "
                        "first: {id, removed, restored}", "items": {"type": "object"}},
            "reverted": {"type": "array", "items": _JOB,
                         "description": "the imports as they are now (empty: a dry run)"}}},
        "RowEdits": {"type": "object", "required": ["rows"], "properties": {
            "rows": {"type": "object", "description": "Excel row -> {column header: value as "
                     "typed (null: empty)}", "additionalProperties": {
                         "type": "object",
                         "additionalProperties": {"type": ["string", "null"]}}}}},
        "RowsChecked": {"type": "object", "properties": {
            "rows": {"type": "array", "items": {"type": "object", "properties": {
                "row": {"type": "integer"}, "fixed": {"type": "boolean"},
                "problems": {"type": "array", "items": {"type": "object", "properties": {
                    "column": {"type": ["string", "null"]},
                    "value": {"type": ["string", "null"]},
                    "message": {"type": "string"},
                    "suggestions": {"type": "array", "items": {"type": "string"},
                                    "description": "values to pick, only where the form's "
                                                   "lookup shows them to senders"}}}}}}},
            "ready": {"type": "integer", "description": "fixed rows waiting to be imported"}}},
        "Upload": {"type": "object", "required": ["file"], "properties": {
            "file": {"type": "string", "format": "binary"},
            "form": {"type": "string", "description": "default: chosen from the header"},
            "sheet": {"type": "string"},
            "map": {"type": "array", "items": {"type": "string"},
                    "description": "\"Header=field\", as --map"},
            "ignore": {"type": "array", "items": {"type": "string"}},
            "header_row": {"type": "integer"},
            "max_rejected": {"type": "string", "description": "50, or 2%"}}},
    }  # fmt: skip


def openapi_document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {"title": "importer", "version": __version__},
        "paths": _paths(),
        "components": {
            "schemas": _schemas(),
            "securitySchemes": {"token": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{"token": []}],
    }
