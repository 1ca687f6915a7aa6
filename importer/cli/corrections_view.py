"""How corrections are shown: an import's rejected rows and what became of them
(`rejected 15 · fixed later 12 · still open 3`), and what a correction corrects."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importer.repositories.jobs import Job


def fixed_counts(job: Job, *, always: bool = False) -> str | None:
    """An import some of whose rejected rows corrections imported since (``always``: any
    import with rejected rows); None otherwise."""
    if job.origin_job_id is not None or not (job.fixed_rows or (always and job.failed_rows)):
        return None
    return (
        f"rejected {job.failed_rows:,} · fixed later {job.fixed_rows:,}"
        f" · still open {job.still_open:,}"
    )


def correction_of(job: Job) -> str | None:
    """What a correction is: `correction of job 41: 15 rows` (and the rows it added)."""
    if job.origin_job_id is None:
        return None
    plan = job.correction or {}
    keyed, added = int(plan.get("keyed", 0)), int(plan.get("added", 0))
    said = f"correction of job {job.origin_job_id}: {keyed:,} row{'' if keyed == 1 else 's'}"
    if added:
        first = int(plan.get("first_new_row", 0))
        where = f"row {first:,}" if added == 1 else f"rows {first:,}-{first + added - 1:,}"
        said += f", and {added:,} added (numbered after its rows: {where})"
    if plan.get("latest"):
        said += f"; validated by form {job.form} version {job.form_version} (the latest)"
    return said
