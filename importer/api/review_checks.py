"""The facade's part for the page's check of an upload: the check's figures are kept with the
upload, so that showing the page again does not read and check every row again. They are
kept while the upload's options (its form, columns, threshold) and the versions of the forms
it may be for stay as they were; "check again" runs it anew (a lookup table changed since,
say). "Fix first" still checks the rows: it needs each one."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from importer.api.fixes import FixMethods
from importer.database import Connection
from importer.errors import NotFoundError
from importer.repositories import jobs, visible_jobs
from importer.repositories import upload_reviews as reviews
from importer.repositories.accounts import Account
from importer.repositories.jobs import Job
from importer.repositories.upload_reviews import UploadReview

if TYPE_CHECKING:
    from importer.intake.checking import CheckReport
    from importer.intake.reviewing import ColumnsToMatch


@dataclass(frozen=True)
class CheckSummary:
    """What the page shows of a check: its counts, its most common reasons, whether an
    import would cross the reject threshold."""

    sheet: str
    total_rows: int
    good: int
    rejected_rows: int
    keyed: bool
    inserted: int
    updated: int
    unchanged: int
    reasons: list[tuple[str | None, str, int]]
    extra_columns: list[str]
    over_limit: str | None

    @classmethod
    def of(cls, report: CheckReport) -> CheckSummary:
        return cls(
            sheet=report.sheet,
            total_rows=report.total_rows,
            good=report.good,
            rejected_rows=len(report.rejected),
            keyed=report.keyed,
            inserted=report.inserted,
            updated=report.updated,
            unchanged=report.unchanged,
            reasons=report.top_reasons(),
            extra_columns=list(report.extra_columns),
            over_limit=report.over_limit,
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CheckSummary:
        reasons = [(column, reason, int(rows)) for column, reason, rows in data["reasons"]]
        return cls(**{**data, "reasons": reasons})

    def top_reasons(self) -> list[tuple[str | None, str, int]]:
        return self.reasons


@dataclass(frozen=True)
class CheckedUpload:
    """An upload as its page shows it: its form, and its columns to match or its check
    (``kept``: read from the upload, not run again)."""

    upload: UploadReview
    form: str
    forms: list[str]
    columns: ColumnsToMatch | None = None
    check: CheckSummary | None = None
    imported: Job | None = None
    notes: tuple[str, ...] = ()
    kept: bool = False


class ReviewMethods(FixMethods):
    def checked_upload_for(
        self,
        viewer: Account,
        upload_id: int,
        form: str | None = None,
        columns: bool = False,
        again: bool = False,
    ) -> CheckedUpload:
        """review_upload_for as the page shows it: the check kept with the upload when it
        still holds (``again``: checked anew), else run and kept."""
        from importer.repositories import forms as forms_repo

        with self.connection() as conn:
            upload = reviews.review(conn, viewer.id, upload_id)
            versions = {f.name: f.version for f in forms_repo.list_forms(conn)}
            key = {
                "form": form,
                "versions": {n: v for n, v in versions.items() if viewer.may_use(n)},
            }
            kept = upload.checked
            if kept is not None and kept.get("key") == key and not (columns or again):
                return self._kept(conn, viewer, upload, kept)
        found = self.review_upload_for(viewer, upload_id, form, columns)
        if found.check is None:
            return CheckedUpload(found.upload, found.form, found.forms, columns=found.columns)
        summary = CheckSummary.of(found.check)
        checked = {"key": key, "form": found.form, "forms": found.forms, "notes": found.notes}
        with self.connection() as conn:
            reviews.keep_check(
                conn, viewer.id, upload_id, upload.options(), {**checked, **asdict(summary)}
            )
        return CheckedUpload(
            found.upload, found.form, found.forms, None, summary, found.imported, tuple(found.notes)
        )

    def _kept(
        self, conn: Connection, viewer: Account, upload: UploadReview, kept: dict[str, Any]
    ) -> CheckedUpload:
        fields = {name: kept[name] for name in CheckSummary.__dataclass_fields__}
        summary = CheckSummary.from_json(fields)
        # Whether this very file was imported since is looked up anew: it is one row.
        key = jobs.idempotency_key(kept["form"], summary.sheet, upload.file)
        imported = jobs.find_job_by_key(conn, key)
        if imported is not None:
            try:
                visible_jobs.visible_job(conn, viewer.id, imported.id)
            except NotFoundError:
                imported = None
        return CheckedUpload(
            upload, kept["form"], kept["forms"], None, summary, imported, tuple(kept["notes"]), True
        )
