"""The tool's own exceptions: every outside error is mapped into one of these.

Each class carries the process exit code the CLI uses (see README, "Exit codes"):
0 succeeded, 3 finished with rejected rows, 1 job failed or runtime error,
2 bad usage or an input refused before any job was created.
"""

from __future__ import annotations


class ImporterError(Exception):
    """Base of every error the CLI reports as one line."""

    exit_code = 1


# --- refused before any job exists: exit 2 -------------------------------------------


class UsageError(ImporterError):
    """Bad usage: wrong arguments, unknown ids, operations not allowed in this state."""

    exit_code = 2


class ConfigError(UsageError):
    """A setting is missing, malformed or out of range."""

    def __init__(self, key: str, value: object, problem: str) -> None:
        self.key = key
        self.value = value
        super().__init__(f"invalid setting {key} = {value!r}: {problem}")


class FormError(UsageError):
    """A form definition is malformed or unknown."""


class InputError(UsageError):
    """A workbook (or its header) is refused before a job is created."""


class NotFoundError(UsageError):
    """A job, form or timer named by the user does not exist."""


class StateError(UsageError):
    """The operation does not apply to the object's current state."""


# --- runtime: exit 1 -------------------------------------------------------------------


class DatabaseError(ImporterError):
    """PostgreSQL refused or failed an operation."""


class DatabaseUnavailable(DatabaseError):
    """The server cannot be reached (or the connection dropped)."""


class LockTimeout(DatabaseError):
    """A row or table lock was not granted within the session's lock_timeout."""


class UniqueViolation(DatabaseError):
    """A statement would have stored a second row with the same unique key."""


class TransientConflict(DatabaseError):
    """A deadlock or serialization failure: the transaction was rolled back; retry it."""


class SchemaError(DatabaseError):
    """The schema is newer than this code, or a migration failed."""


class EmbeddedServerError(DatabaseError):
    """The embedded PostgreSQL server could not be initialised or started."""


class LeaseLost(ImporterError):
    """This process no longer owns the job's lease: it must write nothing more."""


class JobFailed(ImporterError):
    """The job ended in `failed`."""


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
