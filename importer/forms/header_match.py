"""Which sheet column is which field: the header matched against a form, once per sheet.

The rule (README, "Forms"): matching ignores case, spaces and punctuation, and runs in
three passes over the fields in the form's order, each taking the leftmost column not yet
taken:

1. ``--map "Header=field"`` pairs the user named (``"Header="`` ignores that column);
2. exact texts (header, aliases, name; case and surrounding spaces aside), so "100" and
   "-100", or "Country Code" and "Country code", stay distinct columns;
3. the normalized texts ("Order ID" = "order_id" = "ORDER-ID").

Two fields with the same header therefore take equal columns by position (the first
"Amount" field the first "Amount" column). What is left is refused when it looks like a
field — a second column for a field already matched, or a near miss of an unmatched field's
header ("Emial" for "Email"): a column silently ignored would store nulls, or overwrite stored
values with nulls in a keyed form. ``--ignore HEADER`` (or ``--map "HEADER="``) lets it go.
A ``--map``/``--ignore`` column is named by its header text, or by its letter (``--ignore J``)
when no header reads so: the only way to tell two columns with one header apart.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from importer.errors import InputError
from importer.fields.field import Field, normalize_header
from importer.forms.definition import Form

# How alike a leftover header and a field's header must be to count as a near miss
# (difflib ratio of the normalized texts: "emial"/"email" 0.8, "custmer"/"customer" 0.93).
NEAR_MISS = 0.8


def column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


@dataclass(frozen=True)
class HeaderMatch:
    columns: dict[str, int]  # field name -> column index
    extra: list[str]  # header texts of columns no field takes (ignored)


def letter_index(text: str) -> int | None:
    """Column letters to an index ("J" -> 9, "aa" -> 26); None unless 1 to 3 ASCII letters."""
    letters = text.strip().upper()
    if not (1 <= len(letters) <= 3 and letters.isascii() and letters.isalpha()):
        return None
    index = 0
    for char in letters:
        index = index * 26 + ord(char) - 64
    return index - 1


def parse_mapping(pairs: Iterable[str]) -> dict[str, str]:
    """``["Qty=quantity", "Notes="]`` -> ``{"Qty": "quantity", "Notes": ""}``."""
    mapping: dict[str, str] = {}
    for pair in pairs:
        header, sep, field_name = pair.partition("=")
        if not sep or not header.strip():
            raise InputError(f'--map {pair!r}: use "Sheet header=field" (or "Header=" to skip it)')
        mapping[header.strip()] = field_name.strip()
    return mapping


def _same_text(a: str, b: str) -> bool:
    return a.strip().casefold() == b.strip().casefold()


def _texts(f: Field) -> list[str]:
    return [f.header, *f.aliases, f.name]


class _Matcher:
    def __init__(self, form: Form, header: list[str]) -> None:
        self.form = form
        self.header = header
        self.taken: dict[int, str] = {}  # column -> field name ("" = ignored)
        self.columns: dict[str, int] = {}

    def free(self) -> list[int]:
        return [i for i, text in enumerate(self.header) if i not in self.taken and text.strip()]

    def take(self, field_name: str, index: int) -> None:
        self.taken[index] = field_name
        if field_name:
            self.columns[field_name] = index

    def apply_mapping(
        self, mapping: Mapping[str, str], ignored: Iterable[str], *, strict: bool = True
    ) -> None:
        """Take the columns the user named. ``strict`` False (scoring a form for the choice):
        a pair that does not fit this form is passed over instead of refused."""
        names = {f.name for f in self.form.sheet_fields}
        wanted = [*mapping.items(), *((text, "") for text in ignored)]
        for text, field_name in wanted:
            if field_name and field_name not in names:
                if not strict:
                    continue
                raise InputError(
                    f"--map {text}={field_name}: form {self.form.name!r} has no field"
                    f" {field_name!r} (its fields: {', '.join(sorted(names))})"
                )
            if field_name in self.columns:
                if not strict:
                    continue
                raise InputError(f"--map: field {field_name!r} is mapped twice")
            index = self.find(text)
            if index is None:
                if not strict:
                    continue
                option = "--map" if field_name else "--ignore"
                last = column_letter(max(len(self.header) - 1, 0))
                raise InputError(
                    f"{option} {text!r}: the sheet has no column {text!r} (name one by its"
                    f" header or its letter, A to {last}); its header has: {_listing(self.header)}"
                )
            self.take(field_name, index)

    def find(self, text: str) -> int | None:
        """The leftmost free column whose header reads ``text`` (exactly, then normalized),
        else the column with that letter, if it is not taken yet."""
        free = self.free()
        found = [i for i in free if _same_text(self.header[i], text)]
        found = found or [
            i for i in free if normalize_header(self.header[i]) == normalize_header(text)
        ]
        if found:
            return found[0]
        index = letter_index(text)
        if index is not None and index < len(self.header) and index not in self.taken:
            return index  # a column with no header may be mapped by its letter, too
        return None

    def match(self) -> None:
        for exact in (True, False):
            for f in self.form.sheet_fields:
                if f.name in self.columns:
                    continue
                for index in self.free():
                    text = self.header[index]
                    if (
                        any(_same_text(text, t) for t in _texts(f))
                        if exact
                        else normalize_header(text) in f.match_keys
                    ):
                        self.take(f.name, index)
                        break


def match_header(
    form: Form,
    header: list[str],
    *,
    mapping: Mapping[str, str] | None = None,
    ignored: Iterable[str] = (),
) -> HeaderMatch:
    """Pair columns with fields (module docstring); InputError (exit 2) for a header that
    lacks a required field or has a column that looks like a field but is not one."""
    matcher = _Matcher(form, header)
    matcher.apply_mapping(mapping or {}, ignored)
    matcher.match()
    unmatched = [f for f in form.sheet_fields if f.name not in matcher.columns]
    problems: list[str] = []
    near: dict[str, tuple[int, Field]] = {}
    extra: list[str] = []
    for index in matcher.free():
        text = header[index]
        key = normalize_header(text)
        twin = next(
            (f for f in form.sheet_fields if f.name in matcher.columns and key in f.match_keys),
            None,
        )
        if twin is not None and key:
            first, second = column_letter(matcher.columns[twin.name]), column_letter(index)
            problems.append(
                f"columns {first} ({header[matcher.columns[twin.name]]!r}) and {second}"
                f" ({text!r}) both match field {twin.name!r}: to keep {first}, skip {second}"
                f" with --ignore {second} (or keep {second} with --ignore {first})"
            )
            continue
        close = _closest(key, unmatched)
        if close is not None and close.name not in near:
            near[close.name] = (index, close)
            continue
        extra.append(text)
    if problems:
        raise InputError("duplicate columns: " + "; ".join(problems))
    missing = [f for f in unmatched if f.required]
    if missing:
        wanted = ", ".join(repr(f.header) for f in missing)
        hints = [_hint(header[near[f.name][0]], f) for f in missing if f.name in near]
        maybe = f" ({'; '.join(hints)})" if hints else ""
        raise InputError(
            f"missing required column{'s' if len(missing) > 1 else ''} {wanted} "
            f"for form {form.name!r}{maybe}; the sheet's header has: {_listing(header)}"
        )
    if near:
        hints = [_hint(header[index], f) for index, f in near.values()]
        raise InputError(
            f"{'; '.join(hints)}; or skip {'it' if len(near) == 1 else 'them'} with --ignore"
            " (a column left out would be stored as empty)"
        )
    return HeaderMatch(dict(matcher.columns), extra)


def coverage(
    form: Form, header: list[str], mapping: Mapping[str, str] | None = None
) -> tuple[int, tuple[str, ...]]:
    """How far the header fits the form, matched as match_header would (the --map pairs
    that do not fit this form passed over): the fields matched, the required ones missing."""
    matcher = _Matcher(form, header)
    matcher.apply_mapping(mapping or {}, (), strict=False)
    matcher.match()
    missing = tuple(
        f.name for f in form.sheet_fields if f.required and f.name not in matcher.columns
    )
    return len(matcher.columns), missing


@dataclass(frozen=True)
class ColumnChoice:
    """One column of a header that does not fit its form outright, as a sender is asked to
    match it: the field it goes to (None: ignored), and whether that is only a guess (a near
    miss of a field's header, "did you mean") rather than a match."""

    index: int
    letter: str
    text: str
    field: str | None
    guessed: bool = False


def propose_columns(
    form: Form, header: list[str], mapping: Mapping[str, str] | None = None
) -> list[ColumnChoice]:
    """Each column with a header text, and the field an import would give it (``mapping``
    first, then the header's texts as match_header matches them); a column no field takes
    is proposed for the field its text nearly reads, when that field has no column yet."""
    matcher = _Matcher(form, header)
    matcher.apply_mapping(mapping or {}, (), strict=False)
    matcher.match()
    open_fields = [f for f in form.sheet_fields if f.name not in matcher.columns]
    choices = []
    for index, text in enumerate(header):
        if index in matcher.taken:
            choices.append(
                ColumnChoice(index, column_letter(index), text, matcher.taken[index] or None)
            )
        elif text.strip():
            close = _closest(normalize_header(text), open_fields)
            if close is not None:
                open_fields.remove(close)
            name = close.name if close is not None else None
            choices.append(ColumnChoice(index, column_letter(index), text, name, name is not None))
    return choices


def mapping_of(header: list[str], fields: Mapping[int, str]) -> dict[str, str]:
    """A sender's choice for each column (by index: a field's name, or "" to ignore it) as
    --map pairs: a column named by its header text, or by its letter where another column
    reads the same."""
    texts = [normalize_header(text) for text in header]
    mapping: dict[str, str] = {}
    for index, name in sorted(fields.items()):
        if not 0 <= index < len(header):
            continue
        text = header[index].strip()
        unique = bool(text) and texts.count(texts[index]) == 1
        mapping[text if unique else column_letter(index)] = name
    return mapping


def _closest(key: str, fields: list[Field]) -> Field | None:
    if not key:
        return None
    best: tuple[float, Field] | None = None
    for f in fields:
        for candidate in f.match_keys:
            ratio = difflib.SequenceMatcher(None, key, candidate).ratio()
            if ratio >= NEAR_MISS and (best is None or ratio > best[0]):
                best = (ratio, f)
    return best[1] if best else None


def _hint(text: str, f: Field) -> str:
    return f"column {text!r} looks like {f.header!r}: did you mean --map {f'{text}={f.name}'!r}?"


def _listing(header: list[str]) -> str:
    return ", ".join(repr(h) for h in header if h.strip()) or "(none)"
