"""What a sender reads of a row's problem on the page and through the API: a lookup's "did
you mean" names values of another table, so it is shown (with its values, to pick from)
only for the columns whose lookup says ``show_to_senders = true``; elsewhere the message
ends before it. The command line's operator reads every message whole."""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import dataclass

from importer.forms.definition import Form
from importer.forms.header_match import propose_columns

_HINT = re.compile(r"; did you mean (.+)\?$")
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


@dataclass(frozen=True)
class SenderProblem:
    """A problem as the sender reads it; ``suggestions``: values to pick, where shown."""

    column: str | None
    value: str | None
    message: str
    suggestions: tuple[str, ...] = ()


def shown_columns(form: Form, header: list[str], mapping: Mapping[str, str]) -> set[str]:
    """The header texts of the columns whose lookup's values a sender may be shown."""
    shown = {f.name for f in form.fields if f.lookup is not None and f.lookup.show_to_senders}
    if not shown:
        return set()
    choices = propose_columns(form, header, mapping)
    return {c.text for c in choices if not c.guessed and c.field in shown}


def for_sender(
    column: str | None, value: str | None, message: str, shown: set[str]
) -> SenderProblem:
    hint = _HINT.search(message)
    if hint is None:
        return SenderProblem(column, value, message)
    if column not in shown:
        return SenderProblem(column, value, message[: hint.start()])
    found = []
    for quoted in _QUOTED.findall(hint.group(1)):
        text = ast.literal_eval(quoted)
        if isinstance(text, str):
            found.append(text)
    return SenderProblem(column, value, message, tuple(found))
