"""`forms infer`: a starting form definition from a sheet's header and the cells under it.

The result is a suggestion for a person to edit (types, required, rules), never used to
coerce data by itself: the declared form always decides. The header is the one a person
would pick (excel/table_header.py), the rows sampled are those an import of the proposal
would read (inferred_layout.py), and each column's type the one its cells fit
(inferred_types.py).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path

from importer.errors import InputError
from importer.excel.base import SheetReader
from importer.excel.no_table import why_mixed_columns
from importer.fields.field import Field, normalize_header
from importer.forms.definition import Form
from importer.forms.inferred_layout import (
    Sample,
    infer_header,
    no_table,
    proposed_layout,
    sample_sheet,
)
from importer.forms.inferred_types import guess_type
from importer.forms.rules import FormRules


def field_name(header: str, index: int) -> str:
    """An identifier for a header: "Order ID" -> "order_id", "Prix (€)" -> "prix"."""
    ascii_text = unicodedata.normalize("NFKD", header).encode("ascii", "ignore").decode()
    name = re.sub(r"[^a-z0-9]+", "_", ascii_text.lower()).strip("_")
    if not name:
        name = f"column_{index + 1}"
    if name[0].isdigit():
        name = f"f_{name}"
    return name[:60]


# A column is proposed `unique` when its header ends like a key and no sampled value repeats.
_KEY_LIKE = re.compile(r"(?:id|no|nr|number|code|key|ref|reference|sku|email|mail)$")
_UNIQUE_MIN_ROWS = 20


def _field(text: str, index: int, name: str, sample: Sample) -> tuple[Field, list[str]]:
    """The field proposed for the column ``index`` headed ``text``, and its notes."""
    values, empty, sampled = sample.columns[index], sample.empty[index], sample.rows
    guess = guess_type(values, empty)
    # Required only when no sampled row leaves it empty: a wrong `required` rejects good
    # rows, so a nearly full column is only pointed out.
    required = sampled > 0 and empty == 0
    if values and 0 < empty * 10 <= sampled:
        guess.notes.append(
            f"{empty} of {sampled} sampled rows leave it empty: required = true would reject them"
        )
    unique = (
        required
        and len(values) >= _UNIQUE_MIN_ROWS
        and guess.type in ("integer", "string", "email")
        and (guess.type == "email" or _KEY_LIKE.search(normalize_header(text)) is not None)
        and len({str(v).strip().casefold() for v in values}) == len(values)
    )
    if unique:
        guess.notes.append(f"no value repeats in {len(values)} sampled rows: unique = true")
    proposed = Field(
        name=name,
        header=text,
        type=guess.type,
        required=required,
        choices=guess.choices,
        formats=guess.formats,
        unique=unique,
    )
    return proposed, guess.notes


def infer_form(
    reader: SheetReader, name: str, *, refused_in: str | None = None
) -> tuple[Form, dict[str, str]]:
    """A form for the reader's sheet, and notes per field name for the TOML comments;
    ``refused_in`` (the file and sheet), when the header was not named: a sheet whose
    columns are no table's is refused (no_table.py)."""
    header = reader.header
    sample = sample_sheet(reader)
    if refused_in is not None:
        why = why_mixed_columns(header, sample.columns, reader.header_row)
        if why is not None:
            raise no_table(refused_in, why)
    fields: list[Field] = []
    notes: dict[str, str] = {}
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
        proposed, texts = _field(text, index, name_, sample)
        fields.append(proposed)
        if texts:
            notes[name_] = "; ".join(texts)
    if not fields:
        raise InputError("the header row has no usable column names")
    safe_name = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_.-") or "form"
    form = Form(
        name=safe_name[:63], fields=tuple(fields), rules=FormRules(missing=tuple(sample.missing))
    )
    return replace(form, layout=proposed_layout(reader, sample, form)), notes


@dataclass(frozen=True)
class InferredForm:
    """A proposed form, the notes for its fields (TOML comments) and the sheet it came from."""

    form: Form
    notes: dict[str, str]
    sheet: str
    file_name: str
    named_after: str = "file"  # "file" | "sheet" | "" (named with --name)
    header: tuple[int, int] = (1, 1)  # the Excel rows the header was found over
    first_row: int = 1  # the sheet's first row with values


def inferred_heading(inferred: InferredForm) -> str:
    """The comment `forms infer` writes at the top of the TOML: where it came from, where
    the header is when rows lie above it, and what the form is named after, so adding it
    over a registered form of that name replaces it (asked for with --yes when it would
    lose a key, field or rule)."""
    name = inferred.form.name
    after = {"file": " after the file", "sheet": f" after the sheet {inferred.sheet!r}"}
    first, last = inferred.header
    where = ""
    if (first, last) != (inferred.first_row, inferred.first_row):
        rows = f"row {first}" if first == last else f"rows {first}-{last}"
        above = " (the rows above it are not data)" if first > inferred.first_row else ""
        where = f"# the header is {rows}{above}\n"
    return (
        f"# inferred from {inferred.file_name}, sheet {inferred.sheet!r}: check every type\n"
        f"{where}"
        f"# named {name!r}{after.get(inferred.named_after, '')}: `importer forms add` of it"
        f" over a registered form {name!r}\n# makes a new version of that form, and asks for"
        " --yes if it would drop its key, a field\n# or a rule; change `name` below to add it"
        " as a form of its own\n"
    )


def _name_of_sheet(sheet: str) -> str:
    """A form name for a sheet: "Customers" -> "customers" ("" when nothing is left)."""
    ascii_text = unicodedata.normalize("NFKD", sheet).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", ascii_text.lower()).strip("_")[:63]


def infer_workbook_form(
    workbook: Path,
    *,
    sheet: str | None = None,
    name: str | None = None,
    header_row: int | None = None,
    memory_budget_mb: int = 512,
) -> InferredForm:
    """`forms infer WORKBOOK`: open the sheet and propose its form, named ``name``, else
    after the sheet asked for, else after the file; its header at ``header_row`` or where
    a person would see it; read within the reader's ``memory_budget_mb`` as a submit is."""
    from importer.excel import open_sheet  # the readers load only when a sheet is read

    where = workbook.name + (f": sheet {sheet!r}" if sheet is not None else "")
    layout = infer_header(header_row, where)
    with open_sheet(
        workbook, sheet=sheet, layout=layout, memory_budget_mb=memory_budget_mb
    ) as reader:
        after = "" if name else "file"
        if not name and sheet is not None and _name_of_sheet(reader.sheet_name):
            name, after = _name_of_sheet(reader.sheet_name), "sheet"
        refused_in = where if header_row is None else None
        form, notes = infer_form(reader, name or workbook.stem.split(".")[0], refused_in=refused_in)
        first = reader.header_first_row or reader.header_row
        return InferredForm(
            form,
            notes,
            reader.sheet_name,
            workbook.name,
            named_after=after,
            header=(first, reader.header_row),
            first_row=reader.leading[0][0] if reader.leading else first,
        )
