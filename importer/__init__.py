"""importer: load Excel workbooks into PostgreSQL as validated form data, exactly once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"
__all__ = ["Importer", "__version__"]

if TYPE_CHECKING:
    from importer.api import Importer


def __getattr__(name: str) -> Any:
    # Lazy: `importer --version` and the readers need not load the database layer.
    if name == "Importer":
        from importer.api import Importer

        return Importer
    raise AttributeError(f"module 'importer' has no attribute {name!r}")
