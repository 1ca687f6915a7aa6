"""The facade's part for export: a form's rows as a polars DataFrame or a file."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from importer.api.base import ImporterBase

if TYPE_CHECKING:
    import polars as pl

    from importer.exporting.files import ExportedFile


class ExportMethods(ImporterBase):
    def frame(
        self, form: str, job: int | None = None, since: timedelta | None = None
    ) -> pl.DataFrame:
        """The form's rows (of one job; written within ``since``) as one polars DataFrame,
        typed as its table (README "Export"). In memory: a table larger than memory is for
        ``export_rows``, which streams. NotFoundError for an unknown form or job."""
        from importer.exporting.frames import form_frame
        from importer.repositories.exports import RowFilter

        with self.connection() as conn:
            return form_frame(conn, form, RowFilter(job=job, since=since))

    def export_rows(
        self,
        form: str,
        target: Path,
        *,
        job: int | None = None,
        since: timedelta | None = None,
    ) -> ExportedFile:
        """Write the form's rows to ``target`` (.parquet, .csv or .xlsx by its suffix), whole
        or not at all, streaming in bounded memory (an .xlsx holds at most 1,048,575)."""
        from importer.exporting.files import check_target, export_form_rows
        from importer.repositories.exports import RowFilter

        check_target(target)  # a wrong name is refused before the database is asked
        with self.connection() as conn:
            return export_form_rows(conn, form, target, RowFilter(job=job, since=since))
