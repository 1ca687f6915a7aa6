"""The summary after a foreground run: a table that fits the console, then for each job what
its rows did (inserted / updated / unchanged, for forms with a key), the most common reasons
rows were rejected, and the command to run next."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text

from importer.cli.corrections_view import correction_of, fixed_counts
from importer.cli.exit_codes import nothing_imported
from importer.cli.layout import Column, fitted_table
from importer.cli.progress import format_count, format_duration
from importer.excel.row_filter import describe_not_read

if TYPE_CHECKING:
    from importer.repositories.jobs import Job
    from importer.repositories.rejected_rows import Reason
    from importer.running.foreground import Quit

SUMMARY_COLUMNS = (
    Column("Job", right=True),
    # Shortened first; where even its least leaves no room (a long status at 50 columns),
    # the last to go: the job's id says which it is.
    Column("File", soft=16, least=8, drop=4),
    # Several sheets of one submission: which is which (empty, so left out, otherwise).
    Column("Sheet", soft=12, least=6, drop=4, when_filled=True),
    Column("Status"),  # how the import ended: always shown
    Column("Rows", right=True, drop=3),
    Column("Imported", right=True),
    Column("Rejected", right=True),
    Column("Time", right=True, drop=2),
    Column("Rows/s", right=True, drop=1),
)


@dataclass(frozen=True)
class SummaryRow:
    job: Job
    seconds: float | None = None  # the time the command spent on this job, waits included
    run_rows: int = 0  # rows this command committed
    reasons: Sequence[Reason] = field(default_factory=tuple)  # the most common, first
    origin: Job | None = None  # a correction's origin, as it is after the run


def _cells(row: SummaryRow, sheets: bool) -> list[str]:
    job = row.job
    rate = row.run_rows / row.seconds if row.seconds and row.run_rows else None
    return [
        str(job.id),
        job.file_name,
        (job.sheet or "") if sheets else "",  # only where one file gave several
        job.status,
        format_count(job.total_rows),
        format_count(job.kept_rows),
        format_count(job.failed_rows),
        format_duration(row.seconds),
        f"{rate:,.0f}" if rate else "-",
    ]


def summary_table(rows: Sequence[SummaryRow], width: int | None) -> Text:
    """The table; ``width`` None (not a terminal): every column, nothing shortened."""
    sheets = len({(row.job.file_name, row.job.sheet) for row in rows}) > len(
        {row.job.file_name for row in rows}
    )
    cells = [_cells(row, sheets) for row in rows]
    return fitted_table(
        SUMMARY_COLUMNS,
        cells,
        width,
        title="Import summary",
        rule=width is not None,
    )


def describe_reason(reason: Reason) -> str:
    text = f"{reason.column}: {reason.example}" if reason.column else reason.example
    if reason.variants > 1:
        text += f" (and {reason.variants - 1:,} like it)"
    return text


def keyed_line(job: Job) -> str | None:
    counts = job.keyed_counts
    if counts is None or job.taken_back:
        return None
    inserted, updated, unchanged = counts
    return (
        f"job {job.id}: {job.success_rows:,} imported: {inserted:,} inserted,"
        f" {updated:,} updated, {unchanged:,} unchanged"
    )


def stopped_lines(job: Job) -> list[str]:
    """What a person reads when Ctrl-C stopped the job: where it stands, what continues it."""
    return [
        f"stopped: job {job.id} has {job.cursor:,} of {format_count(job.total_rows)} rows"
        f" committed and is {job.status}",
        f"continue with: importer resume {job.id}",
    ]


def quit_lines(quit: Quit) -> list[str]:
    """The same after a second Ctrl-C, which quits without waiting for the batch."""
    if quit.job is not None:
        return stopped_lines(quit.job)
    if quit.job_id is None:
        return []
    return [
        f"stopped: job {quit.job_id} is still leased to this process (the database did not"
        " answer in time): it waits for its lease to run out, or for `importer resume"
        f" {quit.job_id}` on this host, which takes it over at once",
        f"continue with: importer resume {quit.job_id}",
    ]


def next_command(job: Job) -> str | None:
    """What to run after this job's summary (a stopped job's `importer resume` is said with
    the stop itself). A correction's rows still wrong are its import's, with the others."""
    if job.terminal and job.failed_rows:
        return f"importer errors {job.origin_job_id or job.id} -o rejected.xlsx"
    return None


def _corrected(row: SummaryRow) -> list[Text]:
    """A correction: what it corrects, and its import's rejected rows as they now stand."""
    said = correction_of(row.job)
    if said is None:
        return []
    lines = [Text(f"job {row.job.id}: {said}")]
    counts = fixed_counts(row.origin, always=True) if row.origin is not None else None
    if row.origin is not None and counts is not None:
        lines.append(Text(f"job {row.origin.id}: {counts}"))
    return lines


def _reasons(row: SummaryRow, width: int | None) -> list[Text]:
    """The rejected rows' line, then the most common reasons, a line each; a long one wraps
    under its own start."""
    job = row.job
    rows = "row" if job.failed_rows == 1 else "rows"
    if nothing_imported(job):
        # Said plainly: a table row reading "partially_succeeded" hides that nothing is stored.
        every = "its only row was" if job.failed_rows == 1 else f"all {job.failed_rows:,} rows were"
        head = f"job {job.id}: nothing was imported: {every} rejected"
    elif row.reasons:
        head = f"job {job.id}: {job.failed_rows:,} {rows} rejected"
    else:
        return []
    if not row.reasons:
        return [Text(head)]
    many = "; the most common reasons" if len(row.reasons) > 1 else ""
    lines = [Text(f"{head}{many}:")]
    digits = max(len(f"{reason.errors:,}") for reason in row.reasons)
    indent = " " * (4 + digits + 2)
    for reason in row.reasons:
        first = f"    {reason.errors:>{digits},}  "
        text = describe_reason(reason)
        wrapped = (
            textwrap.wrap(text, width - len(indent), break_on_hyphens=False)
            if width is not None and width - len(indent) >= 20
            else [text]
        )
        lines.append(Text(first + wrapped[0]))
        lines.extend(Text(indent + more) for more in wrapped[1:])
    return lines


def _not_read(job: Job, width: int | None) -> list[Text]:
    """The rows with values the import did not read as data, a line per rule (never a row
    left without a word); a long line wraps under its own start."""
    lines = []
    for entry in job.rows_not_read or ():
        text = f"job {job.id}: {describe_not_read(entry)}"
        room = width - 4 if width is not None and width >= 40 else None
        wrapped = textwrap.wrap(text, room, break_on_hyphens=False) if room else [text]
        lines += [Text(wrapped[0]), *(Text("    " + more) for more in wrapped[1:])]
    return lines


def _one_group(rows: Sequence[SummaryRow]) -> int | None:
    """The group of several sheets submitted together, when these rows are exactly that."""
    groups = {row.job.group_id for row in rows}
    if len(rows) < 2 or len(groups) != 1:
        return None
    return groups.pop()


def summary(rows: Sequence[SummaryRow], width: int | None) -> RenderableType:
    """The table, then what each job's rows did and what to do next (at a terminal's width,
    each line wrapped at words: the console soft-wraps, which the terminal does mid-word)."""
    parts: list[RenderableType] = [summary_table(rows, width)]
    after: list[Text] = []
    group = _one_group(rows)
    for row in rows:
        keyed = keyed_line(row.job)
        if keyed is not None and not nothing_imported(row.job):
            after.append(Text(keyed))
        after.extend(_corrected(row))
        after.extend(_reasons(row, width))
        after.extend(_not_read(row.job, width))
        command = next_command(row.job)
        if command is not None and group is None:
            after.append(Text.assemble("next: ", (command, "bold")))
    if group is not None and any(next_command(row.job) for row in rows):
        # One error workbook for the sheets submitted together: it comes back as one
        # correction per sheet.
        command = f"importer errors g{group} -o rejected.xlsx"
        after.append(Text.assemble("next: ", (command, "bold")))
    if after:
        parts.append(Text())
        for line in after if width is not None else ():
            line.no_wrap, line.overflow = False, "fold"
        parts.extend(after)
    return Group(*parts)
