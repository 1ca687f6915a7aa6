"""importer: load Excel workbooks into PostgreSQL as validated form data, exactly once.

The public Python surface is what ``__all__`` names (tests/api/test_surface.py pins it);
the errors are ``importer.errors``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from importer.version import __version__

__all__ = [
    "CheckRequest",
    "Importer",
    "Job",
    "JobStatus",
    "RejectedRow",
    "RunEvents",
    "SheetsRequest",
    "SubmitRequest",
    "__version__",
]

if TYPE_CHECKING:
    from importer.api import (
        CheckRequest,
        Importer,
        RejectedRow,
        RunEvents,
        SheetsRequest,
        SubmitRequest,
    )
    from importer.repositories.jobs import Job
    from importer.states import JobStatus

# name -> the module that defines it, imported on first use: `importer --version` and the
# readers need not load the database layer.
_LAZY = {
    "CheckRequest": "importer.api",
    "Importer": "importer.api",
    "RejectedRow": "importer.api",
    "RunEvents": "importer.api",
    "SheetsRequest": "importer.api",
    "SubmitRequest": "importer.api",
    "Job": "importer.repositories.jobs",
    "JobStatus": "importer.states",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'importer' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(module), name)


def __dir__() -> list[str]:
    return sorted(__all__)
