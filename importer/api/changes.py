"""The facade's part for taking imports back: undo, and a keyed row's history."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from importer.api.base import ImporterBase
from importer.errors import NotAllowed
from importer.states import Role

if TYPE_CHECKING:
    from importer.repositories.accounts import Account
    from importer.repositories.history import KeyHistory
    from importer.repositories.undo import UndoReport


class ChangeMethods(ImporterBase):
    def undo(self, job_id: int, *, cascade: bool = False, dry_run: bool = False) -> UndoReport:
        """Take the job's rows back in one transaction: rows it inserted removed, rows it
        overwrote restored; the job becomes ``reverted``. ``cascade``: also the later jobs
        that changed the same rows, newest first (without it they make it a
        LaterJobsChanged). ``dry_run``: report what would change, change nothing."""
        from importer.repositories import jobs
        from importer.repositories.forms import get_form
        from importer.repositories.undo import undo_job

        with self.connection() as conn:
            job = jobs.get_job(conn, job_id)
            form, _ = get_form(conn, job.form)
            return undo_job(conn, job_id, form, cascade=cascade, dry_run=dry_run)

    def undo_for(
        self, viewer: Account, job_id: int, *, cascade: bool = False, dry_run: bool = False
    ) -> UndoReport:
        """`undo` as the page and the API ask it: an operator's or an admin's, of a job it
        may see (NotFoundError otherwise, as for a job that does not exist); a sender's own
        job is NotAllowed. A cascade takes back later jobs of the same form, which an
        operator of it sees too."""
        from importer.repositories import visible_jobs

        with self.connection() as conn:
            visible_jobs.visible_job(conn, viewer.id, job_id)
        if viewer.role is Role.SENDER:
            raise NotAllowed(
                "only an operator or an admin can undo an import", role=viewer.role.value
            )
        return self.undo(job_id, cascade=cascade, dry_run=dry_run)

    def history(self, form: str, key: Sequence[str], *, limit: int = 100) -> KeyHistory:
        """A keyed form's row under ``key`` (a text per key field) and its earlier
        versions, newest first: what each job wrote and which job replaced it."""
        from importer.repositories.forms import get_form
        from importer.repositories.history import key_history

        with self.connection() as conn:
            definition, _ = get_form(conn, form)
            return key_history(conn, definition, key, limit=limit)
