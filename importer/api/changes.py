"""The facade's part for taking imports back: undo and a row's history."""

from __future__ import annotations

from importer.api.base import ImporterBase


class ChangeMethods(ImporterBase):
    pass
