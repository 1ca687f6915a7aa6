"""The keys an error workbook carries, so that the fixed file comes back as a correction.

Each rejected row gets a key in a hidden column (``Row key``): the job it was rejected by
(the origin), its Excel row there, and an HMAC of both under the database's own key
(``importer_keys``, migration 0018), cut to 64 bits: ``41-4812-9f3a1c2b7d4e6f80``. The
workbook as a whole says the same in its custom document properties (which Excel and
LibreOffice keep): the jobs of its sheets, signed alike. A key changed by hand, copied from
another row or made up fails its signature; a row without a key is a row the sender added.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass

from importer.forms.validation import ROW_KEY_COLUMN

__all__ = [
    "ABOUT_PROPERTY",
    "JOBS_PROPERTY",
    "ROW_KEY_COLUMN",
    "SIGNATURE_PROPERTY",
    "RowKey",
    "parse_sheets",
    "read_row_key",
    "row_key",
    "sheets_text",
    "signature_holds",
    "workbook_signature",
]

# The custom document properties of an error workbook (importer/report/xlsx.py writes them).
JOBS_PROPERTY = "importer.jobs"  # the origin job of each data sheet, "Sheet=41" per line
ABOUT_PROPERTY = "importer.about"  # the name of its About sheet (never data)
SIGNATURE_PROPERTY = "importer.signature"

_KEY = re.compile(r"\s*(\d{1,18})-(\d{1,9})-([0-9a-f]{16})\s*")


@dataclass(frozen=True)
class RowKey:
    origin: int  # the job the row was rejected by (the first import)
    row: int  # its Excel row there


def _mac(secret: bytes, text: str) -> str:
    return hmac.new(secret, text.encode(), hashlib.sha256).hexdigest()[:16]


def row_key(secret: bytes, origin: int, row: int) -> str:
    """The text of a row's key."""
    return f"{origin}-{row}-{_mac(secret, f'row {origin} {row}')}"


def read_row_key(secret: bytes, text: object) -> RowKey | None:
    """The key a cell holds; None when it is not one this database signed (changed, made up,
    from another database)."""
    if not isinstance(text, str):
        return None
    found = _KEY.fullmatch(text)
    if found is None:
        return None
    origin, row = int(found.group(1)), int(found.group(2))
    if not hmac.compare_digest(found.group(3), _mac(secret, f"row {origin} {row}")):
        return None
    return RowKey(origin, row)


def sheets_text(sheets: list[tuple[str, int]]) -> str:
    """The jobs property: one ``sheet=job`` a line, in the workbook's order."""
    return "\n".join(f"{name}={job}" for name, job in sheets)


def parse_sheets(text: str) -> list[tuple[str, int]] | None:
    """The jobs property read back; None when it is not one."""
    found: list[tuple[str, int]] = []
    for line in text.splitlines():
        name, _, job = line.rpartition("=")
        if not name or not job.isdigit():
            return None
        found.append((name, int(job)))
    return found or None


def workbook_signature(secret: bytes, jobs_text: str, about: str) -> str:
    return _mac(secret, f"workbook {jobs_text}\x1f{about}")


def signature_holds(secret: bytes, jobs_text: str, about: str, signature: str) -> bool:
    return hmac.compare_digest(signature.strip(), workbook_signature(secret, jobs_text, about))
