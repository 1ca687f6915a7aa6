"""The one table of outcomes -> HTTP answers: every refusal has a stable ``code``, a one-line
``message`` (the CLI's, for the tool's own errors) and its status."""

from __future__ import annotations

from dataclasses import dataclass

from importer.errors import (
    AccessDenied,
    DatabaseError,
    FormError,
    ImporterError,
    InputError,
    NotAllowed,
    NotFoundError,
    StateError,
    UsageError,
)
from importer.repositories.undo import LaterJobsChanged


class WebError(Exception):
    """A refusal only the web knows (a body too large, a stale form, no sign-in)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        self.status = status
        self.code = code
        self.message = message
        super().__init__(message)


@dataclass(frozen=True)
class Answer:
    status: int
    code: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


# The first matching row wins.
_ERRORS: tuple[tuple[type[ImporterError], int, str], ...] = (
    (NotFoundError, 404, "not_found"),
    (NotAllowed, 403, "forbidden"),
    (LaterJobsChanged, 409, "later_imports_changed"),  # undo them too: cascade
    (StateError, 409, "conflict"),
    (InputError, 422, "input_refused"),
    (FormError, 422, "form_refused"),
    (UsageError, 400, "bad_request"),
)

UNAVAILABLE = "the database is not answering; try again in a moment"


def answer_for(exc: Exception) -> Answer:
    """How an error is answered; an unexpected one says nothing of its insides."""
    if isinstance(exc, WebError):
        return Answer(exc.status, exc.code, exc.message)
    if isinstance(exc, AccessDenied):
        if exc.wait_seconds > 0:
            return Answer(429, "too_many_sign_ins", str(exc))
        return Answer(401, "unauthorized", str(exc))
    if isinstance(exc, DatabaseError):
        # Its message names the server (host, port, database): never shown to a sender.
        return Answer(503, "unavailable", UNAVAILABLE)
    for kind, status, code in _ERRORS:
        if isinstance(exc, kind):
            return Answer(status, code, one_line(str(exc)))
    return Answer(500, "internal", "something went wrong on the server; it was logged")


def one_line(text: str) -> str:
    return " ".join(text.split())


def too_large(limit_mb: int) -> WebError:
    return WebError(
        413,
        "too_large",
        f"the file is larger than this server accepts ({limit_mb} MB; [web] max_upload_mb)",
    )
