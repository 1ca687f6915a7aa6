"""Choosing the form a sheet is for, from its header alone (`submit FILE` without --form).

The form whose required fields the header all holds and which matches the most columns
wins; a tie, or no form whose required fields are all there, is refused (exit 2) with the
candidates and how many columns each matched, so the user can name one with --form. When no
form fits but one is clearly the closest (it matches more columns than any other, and at
least half of its own fields), the refusal is that form's own diagnosis (the column missing,
its near miss and the --map to fix it), as `--form NAME` would give it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from importer.errors import InputError
from importer.forms.definition import Form
from importer.forms.header_match import coverage, match_header


@dataclass(frozen=True)
class Candidate:
    form: Form
    version: int
    matched: int  # the header's columns that match one of the form's fields
    missing: tuple[str, ...]  # required fields the header lacks


def score(
    form: Form, version: int, header: Sequence[str], mapping: Mapping[str, str] | None = None
) -> Candidate:
    """How well the header fits the form, matched as an import would match it (--map and
    --ignore included, by header or by column letter)."""
    matched, missing = coverage(form, [str(text) for text in header], mapping)
    return Candidate(form, version, matched, missing)


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
        f"{c.form.name} ({c.matched} of {len(c.form.sheet_fields)})" for c in candidates[:5]
    )
    if fitting:
        tied = " and ".join(c.form.name for c in fitting if c.matched == fitting[0].matched)
        raise InputError(
            f"the header fits several forms equally ({tied}); name one with --form"
            f" (columns matched: {shown})"
        )
    closest = _clearly_closest(candidates)
    if closest is not None:
        try:
            match_header(closest.form, [str(text) for text in header], mapping=mapping)
        except InputError as exc:
            raise InputError(
                f"no form fits this header; the closest is {closest.form.name!r}"
                f" ({closest.matched} of {len(closest.form.sheet_fields)} columns matched): {exc}"
            ) from None
    raise InputError(
        "no form fits this header (each lacks a required column); name one with --form, or"
        f" propose one with `importer forms infer FILE` (columns matched: {shown})"
    )


def _clearly_closest(candidates: Sequence[Candidate]) -> Candidate | None:
    """The one candidate (sorted best first) ahead of every other, by at least one column,
    that matches at least half of its own fields; None when no form stands out."""
    if not candidates:
        return None
    best = candidates[0]
    ahead = len(candidates) == 1 or best.matched > candidates[1].matched
    return best if ahead and best.matched * 2 >= len(best.form.sheet_fields) else None
