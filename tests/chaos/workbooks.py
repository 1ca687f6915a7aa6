"""Workbooks whose every row's fate is known in advance.

Row r (Excel numbering, data from row 2) is valid unless r is in `invalid`; a valid row
stores {"id": r, "name": "name-r", "amount": r / 4, "email": "u<r>@example.com"} in the form's
table (FORM_TABLE); an invalid row has a non-numeric id (exactly one error).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import xlsxwriter

from importer.forms.definition import parse_form_text
from importer.repositories.form_tables import FormTable, table_for

FORM_NAME = "chaos"
FORM_TOML = """\
name = "chaos"

[[fields]]
name = "id"
header = "ID"
type = "integer"
required = true

[[fields]]
name = "name"
header = "Name"
type = "string"
required = true

[[fields]]
name = "amount"
header = "Amount"
type = "decimal"

[[fields]]
name = "email"
header = "Email"
type = "email"
"""

# Where the chaos form's rows are stored (forms.chaos), its columns as the tool names them.
FORM_TABLE: FormTable = table_for(parse_form_text(FORM_TOML))


@dataclass(frozen=True)
class Expected:
    path: Path
    rows: int
    invalid: frozenset[int]  # Excel row numbers

    @property
    def valid(self) -> frozenset[int]:
        return frozenset(range(2, self.rows + 2)) - self.invalid

    @property
    def good(self) -> int:
        return self.rows - len(self.invalid)

    @property
    def bad(self) -> int:
        return len(self.invalid)


def write_form(folder: Path) -> Path:
    path = folder / "chaos.form.toml"
    path.write_text(FORM_TOML, encoding="utf-8")
    return path


def write_workbook(path: Path, rows: int, *, seed: int, invalid_ratio: float = 0.05) -> Expected:
    rng = random.Random(seed)
    invalid = frozenset(r for r in range(2, rows + 2) if rng.random() < invalid_ratio)
    with xlsxwriter.Workbook(str(path), {"constant_memory": True}) as book:
        sheet = book.add_worksheet("Data")
        sheet.write_row(0, 0, ["ID", "Name", "Amount", "Email"])
        # A seed cell far right makes files with equal rows distinct (distinct sha256). In
        # the header row: constant_memory writes rows in order and drops a cell written to
        # a row already left behind.
        sheet.write_string(0, 5, f"seed {seed}")
        for r in range(2, rows + 2):
            if r in invalid:
                sheet.write_string(r - 1, 0, f"x{r}")
            else:
                sheet.write_number(r - 1, 0, r)
            sheet.write_string(r - 1, 1, f"name-{r}")
            sheet.write_number(r - 1, 2, r / 4)
            sheet.write_string(r - 1, 3, f"u{r}@example.com")
    return Expected(path=path, rows=rows, invalid=invalid)
