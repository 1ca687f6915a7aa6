"""An upload as `submit` takes it: the multipart body read within the size limit (413
otherwise, whether the client announced its length or not), its file name made safe, and
the same options as the command line (form, sheet, map, ignore, header_row, max_rejected)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import PurePosixPath

from starlette.datastructures import FormData, UploadFile
from starlette.requests import Request
from starlette.types import Message

from importer.api.requests import SubmitRequest
from importer.errors import UsageError
from importer.web.errors import WebError, too_large

# What the rest of a multipart body may take beside the file (boundaries, the other fields).
_SLACK_BYTES = 64 << 10
_MAX_NAME_CHARS = 200


@dataclass(frozen=True)
class Upload:
    """A multipart body read whole: its fields and the one file."""

    fields: FormData
    content: bytes
    file_name: str


async def read_upload(request: Request, limit_mb: int) -> Upload:
    """The body's fields and file, refused with 413 past ``limit_mb`` (counted as it comes
    in: a client that lies about its length or sends it in chunks is stopped there)."""
    limit = limit_mb * (1 << 20) + _SLACK_BYTES
    announced = request.headers.get("content-length", "")
    if announced.isdigit() and int(announced) > limit:
        raise too_large(limit_mb)
    received = 0

    async def receive() -> Message:
        nonlocal received
        message = await request.receive()
        if message["type"] == "http.request":
            received += len(message.get("body", b""))
            if received > limit:
                raise too_large(limit_mb)
        return message

    counted = Request(request.scope, receive)
    try:
        fields = await counted.form(max_files=1, max_fields=50)
    except WebError:
        raise
    except Exception as exc:  # the parser's refusals: a body that is no multipart form
        raise WebError(
            400, "bad_upload", "the upload could not be read (send it as multipart/form-data)"
        ) from exc
    file = fields.get("file")
    if not isinstance(file, UploadFile):
        raise WebError(400, "no_file", "choose a workbook to upload (the form's 'file' field)")
    content = await file.read()
    await file.close()
    if len(content) > limit_mb * (1 << 20):
        raise too_large(limit_mb)
    if not content:
        raise WebError(422, "input_refused", f"{safe_name(file.filename)}: the file is empty")
    return Upload(fields, content, safe_name(file.filename))


def safe_name(name: str | None) -> str:
    """The file's name as kept with the job: its last part only (no folders, no ../), no
    control characters, at most 200 characters; "upload" when nothing is left."""
    text = (name or "").replace("\\", "/")
    text = "".join(c for c in text if unicodedata.category(c)[0] != "C")
    text = PurePosixPath(text).name.strip().lstrip(".") or "upload"
    if len(text) > _MAX_NAME_CHARS:
        stem, dot, suffix = text.rpartition(".")
        keep = _MAX_NAME_CHARS - len(suffix) - 1
        text = f"{stem[:keep]}.{suffix}" if dot and keep > 0 else text[:_MAX_NAME_CHARS]
    return text


def _text(fields: FormData, name: str) -> str | None:
    value = fields.get(name)
    if not isinstance(value, str) or not value.strip():
        return None
    return value.strip()


def submit_request(upload: Upload) -> SubmitRequest:
    """The upload as `submit FILE` with its options would ask (queued for the workers)."""
    from importer.forms.header_match import parse_mapping
    from importer.forms.operations import parse_reject_limit

    fields = upload.fields
    pairs = [v for v in fields.getlist("map") if isinstance(v, str) and v.strip()]
    for value in fields.getlist("map"):
        if isinstance(value, str) and "\n" in value.strip():  # the page's one text box
            pairs.remove(value)
            pairs += [line for line in value.splitlines() if line.strip()]
    mapping = parse_mapping(pairs)
    ignored = [v for v in fields.getlist("ignore") if isinstance(v, str) and v.strip()]
    mapping.update({text.strip(): "" for text in ignored})
    header_row = _text(fields, "header_row")
    if header_row is not None and not re.fullmatch(r"[1-9][0-9]{0,6}", header_row):
        raise UsageError(f"header_row {header_row!r}: the header's row number, such as 3")
    limit = _text(fields, "max_rejected")
    return SubmitRequest(
        upload.content,
        file_name=upload.file_name,
        form=_text(fields, "form"),
        sheet=_text(fields, "sheet"),
        column_map=mapping,
        header_row=int(header_row) if header_row is not None else None,
        max_rejected=parse_reject_limit(limit, "max_rejected") if limit is not None else None,
        run_here=False,
    )
