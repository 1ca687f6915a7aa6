"""`forms infer`: a starting form definition from a sheet's header and the cells under it.

The result is a suggestion for a person to edit (types, required, rules), never used to
coerce data by itself: the declared form always decides.

The sheets this is run on are the ones people fill in by hand, so they hold a few mistakes:
a column's type is the one that fits at least 90% of its filled sampled cells, and a note
(a TOML comment next to the field) says how many sampled values the proposed field would
reject, with examples. Those counts come from the very coercers an import uses, so a note
never claims a rejection the import would not make, and proposed date formats are ones the
date coercer reads.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import cache
from pathlib import Path

from importer.excel.base import SheetReader
from importer.excel.layout import HeaderLayout, Leading, Merge
from importer.excel.values import CellError, NumberText, display_text
from importer.fields.cells import Coercer, Invalid, build_coercer
from importer.fields.field import Field, normalize_header
from importer.fields.registry import FIELD_TYPE_SPECS, CellKind, FieldType, Inference
from importer.forms.definition import Form
from importer.forms.layout import SheetLayout
from importer.forms.rules import FormRules

SAMPLE_ROWS = 2000
# Sampled cells are kept until every column is judged: a very wide sheet samples fewer rows
# (16,384 columns: 61 rows) rather than holding millions of cells.
SAMPLE_CELLS = 1_000_000
EXAMPLES = 3  # misfit values quoted in a note
EXAMPLE_WIDTH = 32
# Enum: a column is a short list of categories when, in its sample, it has at least
# ENUM_MIN_FILLED filled cells, at most 10% of the sampled rows empty (sparse columns of
# repeated phrases are usually notes, not categories), and 2..ENUM_MAX_CHOICES distinct
# texts (trimmed, ignoring case) that each appear at least twice and together cover at least
# 90% of the filled cells. A text seen once is then taken for a mistake, and noted.
ENUM_MIN_FILLED = 20
ENUM_MAX_CHOICES = 12

_PADDED = re.compile(r"[+-]?0\d+")  # "00501": a code (zip, account), not a number
_NUMBERISH = re.compile(r"[+-]?[\d.]")  # how every text the number coercers accept begins
_ISOISH = re.compile(r"\d{4}-")  # how ISO dates and date-times as people write them begin
# 19/08/2024, 8.19.24, 19-08-2024: day and month in either order, then the year.
_SHAPED_DATE = re.compile(r"(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})")
_BOOL_TEXT = frozenset({"true", "false", "yes", "no", "y", "n"})
# The types inferred from cell kinds, in order of preference: a type is proposed when it
# fits 90% of the filled cells, and the narrower of two number (or date) types wins, its
# misfits noted with the wider type.
_CANDIDATES: dict[FieldType, Inference] = dict(
    sorted(
        ((spec.name, spec.infer) for spec in FIELD_TYPE_SPECS.values() if spec.infer is not None),
        key=lambda candidate: candidate[1].rank,
    )
)


@dataclass
class _Guess:
    type: FieldType
    formats: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)


def field_name(header: str, index: int) -> str:
    """An identifier for a header: "Order ID" -> "order_id", "Prix (€)" -> "prix"."""
    ascii_text = unicodedata.normalize("NFKD", header).encode("ascii", "ignore").decode()
    name = re.sub(r"[^a-z0-9]+", "_", ascii_text.lower()).strip("_")
    if not name:
        name = f"column_{index + 1}"
    if name[0].isdigit():
        name = f"f_{name}"
    return name[:60]


@cache
def _coercer(ftype: FieldType, formats: tuple[str, ...] = ()) -> Coercer:
    return build_coercer(Field(name="sample", header="sample", type=ftype, formats=formats))


def _accepts(coerce: Coercer, value: object) -> bool:
    try:
        coerce(value)
    except Invalid:
        return False
    return True


def _kind(value: object) -> CellKind:
    """What a filled cell is: bool, int, decimal, date, datetime, email, padded, shaped (a
    text like 19/08/2024, judged with its column) or text (anything else, errors too)."""
    kind = type(value)
    if kind is bool:
        return "bool"
    if kind is NumberText:
        return "padded"
    if kind is float or kind is int:
        return "int" if float(value).is_integer() else "decimal"  # type: ignore[arg-type]
    if kind is datetime:
        return "datetime"
    if kind is date:
        return "date"
    if kind is not str:
        return "text"  # times of day, durations, error cells
    text = value.strip()  # type: ignore[attr-defined]
    if _NUMBERISH.match(text):
        if _PADDED.fullmatch(text):
            return "padded"
        if _accepts(_coercer("integer"), text):
            return "int"
        if _accepts(_coercer("decimal"), text):
            return "decimal"
    if text.casefold() in _BOOL_TEXT:
        return "bool"
    if "@" in text and _accepts(_coercer("email"), text):
        return "email"
    if _ISOISH.match(text):
        if _accepts(_coercer("date"), text):
            return "date"
        if _accepts(_coercer("datetime"), text):
            return "datetime"
    if _SHAPED_DATE.fullmatch(text):
        return "shaped"
    return "text"


def _text_date_formats(texts: list[str]) -> tuple[tuple[str, ...], int, str | None]:
    """The formats for texts like 19/08/2024, how many of the texts they read, and a note
    when the day/month order is a guess.

    The order and the formats come from the texts' shapes (31/02/2024 is day-first even
    though no such day exists); whether a text is read is the date coercer's answer.
    """
    shapes: Counter[tuple[str, str]] = Counter()  # (separator, year directive)
    day_only = month_only = 0
    for text in texts:
        match = _SHAPED_DATE.fullmatch(text.strip())
        if match is None:
            continue
        first, second = int(match[1]), int(match[3])
        by_day = 1 <= first <= 31 and 1 <= second <= 12
        by_month = 1 <= first <= 12 and 1 <= second <= 31
        if by_day or by_month:  # 45/67/2024 tells nothing
            shapes[match[2], "%Y" if len(match[4]) == 4 else "%y"] += 1
            day_only += not by_month
            month_only += not by_day
    if not shapes:
        return (), 0, None
    day_first = day_only >= month_only  # day-first too when the sample cannot tell
    note = None
    if not day_only and not month_only:
        note = "no text date in the sample has a day above 12: day-first order is a guess"
    elif day_only and month_only:
        note = "text dates in the sample disagree on day/month order: the more common is used"
    day, month = ("%d", "%m") if day_first else ("%m", "%d")
    # strptime reads 1- or 2-digit days and months: 8/19/2024 is read by %m/%d/%Y.
    formats = tuple(f"{day}{sep}{month}{sep}{year}" for (sep, year), _ in shapes.most_common())
    coerce = _coercer("date", formats)
    return formats, sum(_accepts(coerce, text) for text in texts), note


def _enum_choices(values: list[object], kinds: list[CellKind], empty: int) -> tuple[str, ...]:
    """The choices of a column of categories (see ENUM_MIN_FILLED), or () when it is not."""
    filled = len(values)
    if filled < ENUM_MIN_FILLED or empty * 10 > (filled + empty):
        return ()
    spellings: dict[str, Counter[str]] = {}  # folded text -> its spellings, first seen first
    for value, kind in zip(values, kinds, strict=True):
        if type(value) is str and kind in ("text", "bool"):  # yes/no/maybe is a category
            text = value.strip()
            spellings.setdefault(text.casefold(), Counter())[text] += 1
            if len(spellings) > ENUM_MAX_CHOICES + filled // 10:
                return ()  # more distinct texts than choices and misfits together
    repeated = [seen for seen in spellings.values() if seen.total() >= 2]
    covered = sum(seen.total() for seen in repeated)
    if not 2 <= len(repeated) <= ENUM_MAX_CHOICES or covered * 10 < filled * 9:
        return ()
    # The most frequent spelling of each (the first seen on a tie): "paid" over "PAID".
    choices = tuple(seen.most_common(1)[0][0] for seen in repeated)
    # A choice is written in the TOML as it is: control characters would break the file.
    return choices if all(choice.isprintable() for choice in choices) else ()


def _example(value: object) -> str:
    if type(value) is CellError and not value.code:
        return "a formula without a value"
    text = (display_text(value) or "").strip()
    if len(text) > EXAMPLE_WIDTH:
        text = text[: EXAMPLE_WIDTH - 3] + "..."
    return repr(text)  # repr escapes line breaks: a note stays one TOML comment line


def _misfit_note(guess: _Guess, values: list[object]) -> str | None:
    """How many sampled values the proposed field rejects, by the import's own coercer."""
    proposed = Field(
        name="sample",
        header="sample",
        type=guess.type,
        choices=guess.choices,
        formats=guess.formats,
    )
    coerce = build_coercer(proposed)
    misfits = [value for value in values if not _accepts(coerce, value)]
    if not misfits:
        return None
    examples = list(dict.fromkeys(_example(value) for value in misfits))[:EXAMPLES]
    if "choices" in proposed.spec.rules:
        what = "are not among the choices"
    else:
        what = f"do not fit {guess.type}"
    note = (
        f"{len(misfits)} of {len(values)} sampled values {what} "
        f"(e.g. {', '.join(examples)}): such rows will be rejected"
    )
    inference = _CANDIDATES.get(guess.type)
    wider = inference.wider if inference is not None else None
    if wider and all(_accepts(_coercer(wider, guess.formats), value) for value in misfits):
        note += f" ({wider} would accept them)"
    return note


def _guess(values: list[object], empty: int) -> _Guess:
    """The type (and formats or choices) for a column from its filled sampled cells."""
    filled = len(values)
    if not filled:
        return _Guess("string", notes=["no values in the sample: type is a guess"])
    kinds = [_kind(value) for value in values]
    counts = Counter(kinds)
    if counts["padded"]:  # even one: zip codes are mostly digits without a leading zero
        return _Guess("string", notes=["numbers with leading zeros: kept as text"])
    shaped = [str(v) for v, k in zip(values, kinds, strict=True) if k == "shaped"]
    formats, text_dates, order_note = _text_date_formats(shaped)
    counts["text_date"] = text_dates
    fits = {
        ftype: sum(counts[kind] for kind in inference.kinds)
        for ftype, inference in _CANDIDATES.items()
    }
    guess: _Guess | None = None
    for ftype in _CANDIDATES:
        if fits[ftype] * 10 >= filled * 9:
            dated = "formats" in FIELD_TYPE_SPECS[ftype].rules
            guess = _Guess(ftype, formats=formats if dated else ())
            if dated and order_note:
                guess.notes.append(order_note)
            break
    if guess is None:
        choices = _enum_choices(values, kinds, empty)
        if choices:
            guess = _Guess(
                "enum", choices=choices, notes=["few values, each repeated: check the choices"]
            )
    if guess is None:
        best = max(_CANDIDATES, key=lambda ftype: fits[ftype])  # the first of equals
        typed = filled - counts["text"]
        if fits[best] and typed * 2 >= filled:  # mostly typed values, but no type dominates
            return _Guess(
                "string",
                notes=[
                    f"mixed kinds of values: {fits[best]} of {filled} sampled values fit {best},"
                    " below the 90% needed to propose it: check the type"
                ],
            )
        return _Guess("string")
    misfits = _misfit_note(guess, values)
    if misfits:
        guess.notes.append(misfits)
    return guess


# Texts people write for "no value" (compared folded, without spaces): proposed as the
# form's `missing` when a column has them, and counted as empty cells for its type.
MISSING_TOKENS = frozenset({"n/a", "na", "n.a.", "-", "--", "none", "null", "nil", "?", "tbd"})
# A column is proposed `unique` when its header ends like a key and no sampled value repeats.
_KEY_LIKE = re.compile(r"(?:id|no|nr|number|code|key|ref|reference|sku|email|mail)$")
_UNIQUE_MIN_ROWS = 20
# A row whose first cell says this is a sum of the rows above: proposed as skip_rows_where.
TOTAL_PATTERN = r"^(?i:total|sum|subtotal|grand total)\b"
TOTAL_ROW = re.compile(TOTAL_PATTERN)


@dataclass
class _Sample:
    columns: list[list[object]]  # each column's filled cells
    empty: list[int]  # each column's empty cells
    rows: int  # the rows sampled
    missing: list[str]  # the "no value" texts seen (MISSING_TOKENS), as written
    totals: bool = False  # rows whose first cell says Total/Sum: not data
    notes_below: bool = False  # after a blank row, lines of one cell: notes, not data


def _sample(reader: SheetReader) -> _Sample:
    """Each column's filled cells and empty count over the first rows, and what is not
    data: "Total" rows (left out) and notes below a blank row (the sample ends there)."""
    width = len(reader.header)
    found = _Sample([[] for _ in range(width)], [0] * width, 0, [])
    limit = max(1, min(SAMPLE_ROWS, SAMPLE_CELLS // max(1, width)))
    tokens: dict[str, None] = {}
    previous = reader.header_row
    for row in reader.rows():
        first = row.values[0] if row.values else None
        if type(first) is str and TOTAL_ROW.match(first.strip()):
            found.totals = True
            previous = row.number
            continue
        filled = sum(v is not None for v in row.values)
        if row.number > previous + 1 and filled == 1 and width > 2 and found.rows:
            found.notes_below = True
            break
        previous = row.number
        for index, value in enumerate(row.values[:width]):
            if value is None or (type(value) is str and not value.strip()):
                found.empty[index] += 1
            elif type(value) is str and value.strip().casefold() in MISSING_TOKENS:
                found.empty[index] += 1
                tokens[value.strip()] = None
            else:
                found.columns[index].append(value)
        gap = range(len(row.values), width)
        found.empty[gap.start : width] = [n + 1 for n in found.empty[gap.start : width]]
        found.rows += 1
        if found.rows >= limit:
            break
    found.missing = list(tokens)
    return found


def infer_form(reader: SheetReader, name: str) -> tuple[Form, dict[str, str]]:
    """A form for the reader's sheet, and notes per field name for the TOML comments."""
    header = reader.header
    sample = _sample(reader)
    columns, empty, sampled = sample.columns, sample.empty, sample.rows

    fields: list[Field] = []
    notes: dict[str, list[str]] = {}
    used_names: set[str] = set()
    all_keys = {normalize_header(text) for text in header}
    for index, text in enumerate(header):
        key = normalize_header(text)
        if not key:
            continue  # a column without a header is never imported
        # A repeated header is a field of its own: submit matches equal headers by position.
        name_ = field_name(text, index)
        while name_ in used_names or normalize_header(name_) in all_keys - {key}:
            name_ = f"{name_}_{index + 1}"
        used_names.add(name_)
        guess = _guess(columns[index], empty[index])
        # Required only when no sampled row leaves it empty: a wrong `required` rejects good
        # rows, so a nearly full column is only pointed out.
        required = sampled > 0 and empty[index] == 0
        if columns[index] and 0 < empty[index] * 10 <= sampled:
            guess.notes.append(
                f"{empty[index]} of {sampled} sampled rows leave it empty: "
                "required = true would reject them"
            )
        values = columns[index]
        unique = (
            required
            and len(values) >= _UNIQUE_MIN_ROWS
            and guess.type in ("integer", "string", "email")
            and (guess.type == "email" or _KEY_LIKE.search(key) is not None)
            and len({str(v).strip().casefold() for v in values}) == len(values)
        )
        if unique:
            guess.notes.append(f"no value repeats in {len(values)} sampled rows: unique = true")
        fields.append(
            Field(
                name=name_,
                header=text,
                type=guess.type,
                required=required,
                choices=guess.choices,
                formats=guess.formats,
                unique=unique,
            )
        )
        if guess.notes:
            notes[name_] = guess.notes
    if not fields:
        from importer.errors import InputError

        raise InputError("the header row has no usable column names")
    safe_name = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_.-") or "form"
    rules = FormRules(missing=tuple(sample.missing))
    # The header row is left "auto": the form's fields find it, however many title lines
    # the next file has above it.
    layout = SheetLayout(
        stop_at_blank_row=sample.notes_below,
        skip_column=header[0] if sample.totals else None,
        skip_matches=TOTAL_PATTERN if sample.totals else None,
    )
    form = Form(name=safe_name[:63], fields=tuple(fields), rules=rules, layout=layout)
    return form, {field_name_: "; ".join(texts) for field_name_, texts in notes.items()}


def _header_like(leading: Leading, merges: Sequence[Merge]) -> HeaderLayout | None:
    """`forms infer`'s header: the first row whose cells are mostly texts (at least half
    of the columns the rows below it fill) followed by a row of values; None: the first."""
    del merges  # one row: merged cells do not change its texts
    for index, (number, values) in enumerate(leading[:-1]):
        texts = sum(type(v) is str and bool(v.strip()) for v in values)
        filled = sum(v is not None for v in values)
        below = max(
            (sum(v is not None for v in row) for _, row in leading[index + 1 : index + 6]),
            default=0,
        )
        # A title or a date line is one cell; a header, most of the columns, in words.
        if texts >= 2 and texts * 2 >= below and texts * 10 >= filled * 8:
            return HeaderLayout(row=number) if index else None
    return None


@dataclass(frozen=True)
class InferredForm:
    """A proposed form, the notes for its fields (TOML comments) and the sheet it came from."""

    form: Form
    notes: dict[str, str]
    sheet: str
    file_name: str


def inferred_heading(inferred: InferredForm) -> str:
    """The comment `forms infer` writes at the top of the TOML: where it came from, and that
    the form is named after the file, so adding it over a registered form of that name
    replaces it (asked for with --yes when it would lose a key, field or rule)."""
    name = inferred.form.name
    after = " after the file" if name == inferred.file_name.split(".")[0] else ""
    return (
        f"# inferred from {inferred.file_name}, sheet {inferred.sheet!r}: check every type\n"
        f"# named {name!r}{after}: `importer forms add` of it over a registered form"
        f" {name!r}\n# makes a new version of that form, and asks for --yes if it would drop"
        " its key, a field\n# or a rule; change `name` below to add it as a form of its own\n"
    )


def infer_workbook_form(
    workbook: Path,
    *,
    sheet: str | None = None,
    name: str | None = None,
    header_row: int | None = None,
) -> InferredForm:
    """`forms infer WORKBOOK`: open the sheet and propose its form (named after the file
    unless ``name``), its header at ``header_row`` or where it looks like one."""
    from importer.excel import open_sheet  # the readers load only when a sheet is read

    layout = HeaderLayout(row=header_row) if header_row else HeaderLayout(choose=_header_like)
    with open_sheet(workbook, sheet=sheet, layout=layout) as reader:
        form, notes = infer_form(reader, name or workbook.stem.split(".")[0])
        return InferredForm(form, notes, reader.sheet_name, workbook.name)
