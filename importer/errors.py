"""The tool's own exceptions: every outside error is mapped into one of these.

One hierarchy, and each error carries its facts as attributes (the job, the form, the field,
the file, the constraint, ...) besides its one-line message, so that callers decide on data,
never on the text. What a process exit code an error means is decided in one place, by the
CLI (``importer.cli.exit_codes``); applications catch the classes.

    ImporterError
    ├── UsageError            refused before anything ran: arguments, settings, input
    │   ├── ConfigError       a setting (key, value, problem)
    │   ├── FormError         a form definition (form, field)
    │   ├── InputError        a workbook or its header (file)
    │   ├── NotFoundError     a job, form, version, timer or workbook that does not exist
    │   ├── StateError        the object's state does not allow the operation (job_id, status)
    │   ├── AccessDenied      a sign-in or API token refused (wait_seconds: try again after)
    │   └── NotAllowed        the account's role does not allow the operation (role)
    ├── DatabaseError         PostgreSQL refused or failed (sqlstate, constraint, detail)
    │   ├── DatabaseUnavailable, LockTimeout, UniqueViolation, TransientConflict
    │   └── SchemaError, EmbeddedServerError
    ├── LeaseLost             this process no longer owns the job (job_id)
    ├── JobFailed             the job ended failed or cancelled (job_id, status)
    ├── RowError              a form's hook refuses a row (column, message)
    └── PermanentFailure      an attempt no later attempt can change
"""

from __future__ import annotations

from enum import StrEnum


class ImporterError(Exception):
    """Base of every error the tool raises on purpose; ``str()`` is one line for a user."""


# --- refused before any job exists ---------------------------------------------------------


class UsageError(ImporterError):
    """Bad usage: wrong arguments or an operation refused before anything ran."""


class ConfigError(UsageError):
    """A setting is missing, malformed or out of range."""

    def __init__(self, key: str, value: object, problem: str) -> None:
        self.key = key
        self.value = value
        self.problem = problem
        super().__init__(f"invalid setting {key} = {value!r}: {problem}")


class FormError(UsageError):
    """A form definition is malformed, or does not fit what it is used for."""

    def __init__(self, message: str, *, form: str | None = None, field: str | None = None):
        self.form = form
        self.field = field
        super().__init__(message)


class InputError(UsageError):
    """A workbook (or its header) is refused before a job is created."""

    def __init__(self, message: str, *, file: str | None = None) -> None:
        self.file = file
        super().__init__(message)


class Missing(StrEnum):
    """What a NotFoundError did not find."""

    JOB = "job"
    FORM = "form"
    FORM_VERSION = "form version"
    TIMER = "timer"
    WORKBOOK = "workbook"
    GROUP = "group"  # of jobs: several sheets submitted together
    ROW = "row"  # of a keyed form, by its key (`importer history`)
    ACCOUNT = "account"  # of the web page and the API (`importer users`)
    TOKEN = "token"  # an account's API token
    UPLOAD = "upload"  # of the web page, waiting for its sender (checked, not imported yet)


class NotFoundError(UsageError):
    """A job, form, form version, timer or stored workbook named by the user does not
    exist: ``what`` says which, ``key`` is the id or name asked for."""

    def __init__(self, message: str, *, what: Missing, key: object) -> None:
        self.what = what
        self.key = key
        super().__init__(message)


class StateError(UsageError):
    """The operation does not apply to the object's current state."""

    def __init__(
        self, message: str, *, job_id: int | None = None, status: str | None = None
    ) -> None:
        self.job_id = job_id
        self.status = status
        super().__init__(message)


class AccessDenied(UsageError):
    """A sign-in (wrong address or password) or an API token refused; ``wait_seconds``: too
    many failed sign-ins with this address, the next one is answered after that long."""

    def __init__(self, message: str, *, wait_seconds: float = 0.0) -> None:
        self.wait_seconds = wait_seconds
        super().__init__(message)


class NotAllowed(UsageError):
    """An account may see the job but its role does not allow the operation (a sender's
    undo); ``role`` is the account's."""

    def __init__(self, message: str, *, role: str) -> None:
        self.role = role
        super().__init__(message)


# --- runtime ---------------------------------------------------------------------------------


class RowError(ImporterError):
    """Raised by a form's Python hook: the row is refused for ``message``; ``column``: the
    field (or header) whose cell is at fault, None for the row as a whole."""

    def __init__(self, column: str | None, message: str) -> None:
        super().__init__(message)
        self.column = column
        self.message = message


class DatabaseError(ImporterError):
    """PostgreSQL refused or failed an operation. ``sqlstate``, ``constraint`` and
    ``detail`` are the server's own, when it gave them."""

    def __init__(
        self,
        message: str,
        *,
        sqlstate: str | None = None,
        constraint: str | None = None,
        detail: str | None = None,
    ) -> None:
        self.sqlstate = sqlstate
        self.constraint = constraint
        self.detail = detail
        super().__init__(message)


class DatabaseUnavailable(DatabaseError):
    """The server cannot be reached (or the connection dropped)."""


class LockTimeout(DatabaseError):
    """A row or table lock was not granted within the session's lock_timeout."""


class UniqueViolation(DatabaseError):
    """A statement would have stored a second row with the same unique key (``constraint``
    names the index or constraint)."""


class TransientConflict(DatabaseError):
    """A deadlock or serialization failure: the transaction was rolled back; retry it."""


class SchemaError(DatabaseError):
    """The schema is newer than this code, or a migration failed."""


class EmbeddedServerError(DatabaseError):
    """The embedded PostgreSQL server could not be initialised or started."""


class LeaseLost(ImporterError):
    """This process no longer owns the job's lease: it must write nothing more."""

    def __init__(self, message: str, *, job_id: int) -> None:
        self.job_id = job_id
        super().__init__(message)


class JobFailed(ImporterError):
    """The job ended in ``failed`` or ``cancelled`` (``status``), or a daemon could not
    stop its jobs in time (``job_id`` None)."""

    def __init__(
        self, message: str, *, job_id: int | None = None, status: str | None = None
    ) -> None:
        self.job_id = job_id
        self.status = status
        super().__init__(message)


class PermanentFailure(ImporterError):
    """An attempt failed for a reason no later attempt can change (the stored workbook
    damaged or unreadable, the form version gone, the header no longer matching the form):
    the job fails at once, with this reason, instead of being retried."""


# --- describing errors -------------------------------------------------------------------

# Errors are stored on jobs and timers and shown on one line: bounded, never a traceback.
MAX_ERROR_CHARS = 2000


def bounded_error(text: str) -> str:
    """The text, at most MAX_ERROR_CHARS long (cut with an ellipsis), never empty."""
    text = text.strip() or "error"
    return text if len(text) <= MAX_ERROR_CHARS else text[: MAX_ERROR_CHARS - 1] + "…"


def describe_error(exc: BaseException) -> str:
    """One bounded line: the tool's own errors as their message, others with their type."""
    if isinstance(exc, ImporterError):
        return bounded_error(str(exc).strip() or type(exc).__name__)
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return bounded_error(f"{type(exc).__name__}: {text}" if text else type(exc).__name__)
