"""A form's field: its name, header, type and rules, as the form parser made it.

The coercers are built from a field (see registry.py), so the field is defined here, in
the fields layer, and the forms above take it from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Literal

from importer.excel.values import normalize_header as normalize_header
from importer.fields.registry import FIELD_TYPE_SPECS, Bound, FieldType, FieldTypeSpec

Case = Literal["lower", "upper", "title"]


@dataclass(frozen=True)
class Lookup:
    """A field whose cell names a row of another table: the cell is matched against
    ``match`` (as written, or ignoring case) and the field stores that row's ``returns``."""

    match: str
    returns: str
    table: str | None = None  # "schema.table"
    form: str | None = None  # or another form's table
    ignore_case: bool = False
    # The page and the API show a sender the table's values a miss nearly reads ("did you
    # mean"), only where the form says so: they are another table's values.
    show_to_senders: bool = False

    @property
    def noun(self) -> str:
        """What one row of the target is, for messages: "customers" -> "customer"."""
        name = (self.form or self.table or "").rsplit(".", 1)[-1].replace("_", " ")
        if name.endswith("ies"):
            return name[:-3] + "y"
        if name.endswith("s") and not name.endswith("ss"):
            return name[:-1]
        return name

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"form": self.form} if self.form else {"table": self.table}
        out |= {"match": self.match, "returns": self.returns}
        if self.ignore_case:
            out["ignore_case"] = True
        if self.show_to_senders:
            out["show_to_senders"] = True
        return out


@dataclass(frozen=True)
class Field:
    name: str
    header: str
    type: FieldType
    aliases: tuple[str, ...] = ()
    required: bool = False
    min: Bound | None = None
    max: Bound | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    message: str | None = None  # the reason given for a cell that does not match `pattern`
    choices: tuple[str, ...] = ()
    formats: tuple[str, ...] = ()  # strptime formats accepted for text dates
    description: str | None = None
    column: str | None = None  # its column in a user's table, where the name differs
    # Cleaning, before the type (forms/cleaning.py); None: the form's setting.
    trim: bool | None = None
    missing: tuple[str, ...] | None = None  # texts read as an empty cell
    replace: tuple[tuple[str, str], ...] = ()  # (text, what it means), exact after trimming
    case: Case | None = None
    default: object = None  # for an empty optional cell, as the sheet would give it
    unique: bool = False  # unique within the file
    lookup: Lookup | None = None
    compute: str | None = None  # an expression (forms/expressions.py): no column in the sheet
    fill_merged: bool = False  # a merged cell of its column fills every cell it covers

    @property
    def spec(self) -> FieldTypeSpec:
        """What the field's type is: its rules, coercers, PostgreSQL type."""
        return FIELD_TYPE_SPECS[self.type]

    @property
    def match_keys(self) -> tuple[str, ...]:
        """Normalized header, name and aliases: any sheet header equal to one matches."""
        keys = [normalize_header(self.header), normalize_header(self.name)]
        keys += [normalize_header(a) for a in self.aliases]
        return tuple(dict.fromkeys(k for k in keys if k))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "header": self.header, "type": self.type}
        if self.aliases:
            out["aliases"] = list(self.aliases)
        if self.required:
            out["required"] = True
        for key in ("min", "max"):
            bound = getattr(self, key)
            if bound is not None:
                out[key] = _bound_to_json(bound)
        for key in ("min_length", "max_length", "pattern", "message", "description", "column"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.choices:
            out["choices"] = list(self.choices)
        if self.formats:
            out["formats"] = list(self.formats)
        if self.trim is not None:
            out["trim"] = self.trim
        if self.missing is not None:
            out["missing"] = list(self.missing)
        if self.replace:
            out["replace"] = dict(self.replace)
        if self.case is not None:
            out["case"] = self.case
        if self.default is not None:
            out["default"] = _bound_to_json(self.default)  # type: ignore[arg-type]
        if self.unique:
            out["unique"] = True
        if self.lookup is not None:
            out["lookup"] = self.lookup.to_json()
        if self.compute is not None:
            out["compute"] = self.compute
        if self.fill_merged:
            out["fill_merged"] = True
        return out


def _bound_to_json(bound: Bound) -> Any:
    if isinstance(bound, date | datetime):
        return bound.isoformat()
    if isinstance(bound, Decimal):
        return str(bound)
    return bound
