"""Several sheets of one workbook in one submission: each sheet its own job (its own cursor:
exactly once and resumable per sheet), the jobs one group.

Every sheet is matched to its form (named, or the one its header fits) before any job
exists: a sheet no form fits is refused naming it (exit 2) unless ``skip_unmatched``.
Hidden sheets are left out of ``--all-sheets`` with a note. A form that looks another of
the group's forms up comes after it: the sheets are submitted, and run, in that order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from importer.config import ImportSettings
from importer.database import Connection
from importer.errors import InputError
from importer.intake.submission import (
    Asked,
    ReadingCallback,
    Submission,
    choose_for_header,
    read_workbook_bytes,
    sheet_layout,
    submit_workbook,
)
from importer.repositories import jobs


@dataclass(frozen=True)
class SheetChoice:
    sheet: str
    form: str | None = None  # None: the form its header fits


@dataclass(frozen=True)
class GroupSubmission:
    group_id: int
    submissions: list[Submission]  # in the order the sheets run
    notes: list[str] = field(default_factory=list)  # hidden or skipped sheets

    @property
    def job_ids(self) -> list[int]:
        return [s.job.id for s in self.submissions]


def submit_sheets(
    conn: Connection,
    source: Path | bytes,
    asked: Asked,
    *,
    settings: ImportSettings,
    file_name: str | None,
    choices: Sequence[SheetChoice] | None,  # None: every visible sheet
    skip_unmatched: bool,
    on_progress: ReadingCallback | None = None,
) -> GroupSubmission:
    """Match every sheet to its form, then create the group's jobs (queued: the caller runs
    them here in this order, or workers do), each as ``asked`` (its sheet, form and group
    set here). ``asked.correcting``: a sheet of an error workbook sent back is a correction
    of its job (its About sheet is left out)."""
    content = source if isinstance(source, bytes) else read_workbook_bytes(source)
    name = file_name or (source.name if isinstance(source, Path) else "workbook")
    from importer.excel import list_sheets

    notes: list[str] = []
    # Not a workbook: said before any sheet.
    sheets = list_sheets(content, file_name=name, memory_budget_mb=asked.memory_budget_mb)
    if choices is None:
        choices = _visible_sheets(content, sheets, notes)
    planned = _match_sheets(conn, content, name, choices, asked, skip_unmatched, notes)
    if not planned:
        raise InputError(f"{name}: no sheet fits a form")
    group_id = jobs.new_group_id(conn)
    submissions = [
        submit_workbook(
            conn,
            content,
            replace(asked, sheet=choice.sheet, form_name=form, group_id=group_id),
            settings=settings,
            file_name=name,
            on_progress=on_progress,
        )
        for choice, form in _in_lookup_order(conn, planned)
    ]
    # A sheet submitted before is its job again (unless force): it joins this group.
    found = [s.job.id for s in submissions if not s.created and s.job.group_id != group_id]
    if found:
        jobs.join_group(conn, found, group_id)
        submissions = [
            replace(s, job=jobs.get_job(conn, s.job.id)) if s.job.id in found else s
            for s in submissions
        ]
    return GroupSubmission(group_id, submissions, notes)


def _visible_sheets(
    content: bytes, sheets: list[tuple[str, bool]], notes: list[str]
) -> list[SheetChoice]:
    """Every visible sheet but an error workbook's About (``notes``: those left out)."""
    hidden = [sheet for sheet, visible in sheets if not visible]
    if hidden:
        notes.append(f"hidden sheets left out: {', '.join(map(repr, hidden))}")
    about = error_workbook_about(content)
    if about is not None:  # an error workbook's notes for the sender: no rows
        notes.append(f"sheet {about!r} left out: the error workbook's notes")
    return [SheetChoice(s) for s, visible in sheets if visible and s != about]


def _match_sheets(
    conn: Connection,
    content: bytes,
    name: str,
    choices: Sequence[SheetChoice],
    asked: Asked,
    skip_unmatched: bool,
    notes: list[str],
) -> list[tuple[SheetChoice, str]]:
    """Each sheet and the form it fits (its header checked), before any job of the group
    exists; a sheet no form fits is refused, or (``skip_unmatched``) left out with a note."""
    from importer.excel import peek_sheet
    from importer.forms.validation import Validator
    from importer.repositories.forms import get_form

    mapping = dict(asked.column_map)
    planned: list[tuple[SheetChoice, str]] = []  # (sheet, the form it fits)
    for choice in choices:
        named = get_form(conn, choice.form) if choice.form is not None else None
        try:
            peek = peek_sheet(
                content,
                sheet=choice.sheet,
                engine=asked.engine,
                memory_budget_mb=asked.memory_budget_mb,
                file_name=name,
                layout=sheet_layout(conn, named, mapping, asked.header_row, name),
            )
            form, _ = named or choose_for_header(conn, peek.header, mapping)
            # The header's fit to its form, before any job of the group exists.
            Validator(form, peek.header, mapping=mapping)
        except InputError as refused:
            if not skip_unmatched:
                raise InputError(
                    f"sheet {choice.sheet!r}: {refused} (or leave it out with --skip-unmatched)"
                ) from None
            notes.append(f"sheet {choice.sheet!r} left out: {refused}")
            continue
        planned.append((choice, form.name))
    return planned


def error_workbook_about(content: bytes | Path) -> str | None:
    """The About sheet of an error workbook (report/row_keys.py); None for any other file."""
    from importer.excel.doc_properties import custom_properties
    from importer.report.row_keys import ABOUT_PROPERTY

    return custom_properties(content).get(ABOUT_PROPERTY)


def error_workbook_sheets(content: bytes | Path) -> list[tuple[str, int]]:
    """The sheets of an error workbook and the import each came from ([] for any other)."""
    from importer.excel.doc_properties import custom_properties
    from importer.report.row_keys import JOBS_PROPERTY, parse_sheets

    return parse_sheets(custom_properties(content).get(JOBS_PROPERTY, "")) or []


def _in_lookup_order(
    conn: Connection, planned: list[tuple[SheetChoice, str]]
) -> list[tuple[SheetChoice, str]]:
    """The sheets with each form after the group's forms it looks up (else as given)."""
    from importer.repositories.forms import get_form

    looks_up: dict[str, set[str]] = {}
    names = {form for _, form in planned}
    for _, form_name in planned:
        form, _ = get_form(conn, form_name)
        looks_up[form_name] = {
            f.lookup.form for f in form.fields if f.lookup and f.lookup.form in names
        } - {form_name}
    ordered: list[tuple[SheetChoice, str]] = []
    done: set[str] = set()
    pending = list(planned)
    while pending:
        ready = next(
            (p for p in pending if looks_up[p[1]] <= done), pending[0]
        )  # a cycle: as given
        pending.remove(ready)
        ordered.append(ready)
        done.add(ready[1])
    return ordered
