"""The facade's part for export: a form's rows as a polars DataFrame or a file."""

from __future__ import annotations

from importer.api.base import ImporterBase


class ExportMethods(ImporterBase):
    pass
