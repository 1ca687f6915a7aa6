"""Choosing the form a sheet is for, from its header alone (`submit FILE` without --form).

The form whose required fields the header all holds and which matches the most columns
wins; a tie, or no form whose required fields are all there, is refused (exit 2) with the
candidates and how many columns each matched, so the user can name one with --form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from importer.errors import InputError
from importer.fields.field import normalize_header
from importer.forms.definition import Form


@dataclass(frozen=True)
class Candidate:
    form: Form
    version: int
    matched: int  # the header's columns that match one of the form's fields
    missing: tuple[str, ...]  # required fields the header lacks


def score(
    form: Form, version: int, header: Sequence[str], mapping: Mapping[str, str] | None = None
) -> Candidate:
    """How well the header fits the form; ``mapping`` (--map) pairs count as matches."""
    mapped = {normalize_header(text): name for text, name in (mapping or {}).items()}
    keys = {normalize_header(text) for text in header if str(text).strip()} - set(mapped)
    named = set(mapped.values())
    matched = 0
    missing = []
    for field in form.fields:
        if field.name in named or keys.intersection(field.match_keys):
            matched += 1
        elif field.required:
            missing.append(field.name)
    return Candidate(form, version, matched, tuple(missing))


def choose_form(
    forms: Sequence[tuple[Form, int]],
    header: Sequence[str],
    mapping: Mapping[str, str] | None = None,
) -> tuple[Form, int]:
    """The one form for this header, or InputError naming the candidates."""
    if not forms:
        raise InputError("no forms yet: add one with `importer forms add FORM.toml`")
    candidates = sorted(
        (score(form, version, header, mapping) for form, version in forms),
        key=lambda c: (-c.matched, c.form.name),
    )
    fitting = [c for c in candidates if not c.missing and c.matched]
    if fitting and (len(fitting) == 1 or fitting[0].matched > fitting[1].matched):
        return fitting[0].form, fitting[0].version
    shown = ", ".join(
        f"{c.form.name} ({c.matched} of {len(c.form.fields)})" for c in candidates[:5]
    )
    if fitting:
        tied = " and ".join(c.form.name for c in fitting if c.matched == fitting[0].matched)
        raise InputError(
            f"the header fits several forms equally ({tied}); name one with --form"
            f" (columns matched: {shown})"
        )
    raise InputError(
        "no form fits this header (each lacks a required column); name one with --form, or"
        f" propose one with `importer forms infer FILE` (columns matched: {shown})"
    )
