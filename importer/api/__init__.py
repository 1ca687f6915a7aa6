"""The facade: every command and every application goes through ``Importer``; requests with
many options are one frozen object (``SubmitRequest``, ``CheckRequest``), callbacks one
``RunEvents``. The request types load without the database layer (``importer.api.requests``);
``Importer`` brings it in on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from importer.api.requests import (
    CheckRequest,
    RejectedRow,
    ResumePlan,
    RetryResult,
    RunEvents,
    RunMode,
    SheetsRequest,
    SubmitOutcome,
    SubmitRequest,
)

if TYPE_CHECKING:
    from importer.api.facade import Importer

__all__ = [
    "CheckRequest",
    "Importer",
    "RejectedRow",
    "ResumePlan",
    "RetryResult",
    "RunEvents",
    "RunMode",
    "SheetsRequest",
    "SubmitOutcome",
    "SubmitRequest",
]


def __getattr__(name: str) -> Any:
    if name == "Importer":
        from importer.api.facade import Importer

        return Importer
    raise AttributeError(f"module 'importer.api' has no attribute {name!r}")
