"""The web front end (`importer serve`): the sender's page and the JSON API, one ASGI
application over the Importer facade, beside the command line. Only this package imports the
web framework; it holds no SQL and no engine logic."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from importer.web.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from importer.web.app import create_app

        return create_app
    raise AttributeError(f"module 'importer.web' has no attribute {name!r}")
