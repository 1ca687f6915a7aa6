"""The keys an error workbook carries, so that the fixed file comes back as a correction.

Each rejected row gets a key in a hidden column (``Row key``): the job it was rejected by
(the origin), its Excel row there, and an HMAC of both under the database's own key
(``importer_keys``, migration 0018), cut to 64 bits: ``41-4812-9f3a1c2b7d4e6f80``. The
workbook as a whole says the same in its custom document properties (which Excel and
LibreOffice keep): the jobs of its sheets, signed alike. A key changed by hand, copied from
another row or made up fails its signature; a row without a key is a row the sender added.
"""

from __future__ import annotations

import hmac
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
    "trusted_row_key",
    "workbook_signature",
]

# The custom document properties of an error workbook (importer/report/xlsx.py writes them).
JOBS_PROPERTY = "importer.jobs"  # the origin job of each data sheet, "Sheet=41" per line
ABOUT_PROPERTY = "importer.about"  # the name of its About sheet (never data)
SIGNATURE_PROPERTY = "importer.signature"


@dataclass(frozen=True)
class RowKey:
    origin: int  # the job the row was rejected by (the first import)
    row: int  # its Excel row there


def _mac(secret: bytes, text: str) -> str:
    return hmac.digest(secret, text.encode(), "sha256").hex()[:16]


def row_key(secret: bytes, origin: int, row: int) -> str:
    """The text of a row's key."""
    return f"{origin}-{row}-{_mac(secret, f'row {origin} {row}')}"


def read_row_key(secret: bytes, text: object) -> RowKey | None:
    """The key a cell holds; None when it is not one this database signed (changed, made up,
    from another database)."""
    parts = _parts(text)
    if parts is None:
        return None
    origin, row, mac = parts
    if not hmac.compare_digest(mac, _mac(secret, f"row {origin} {row}")):
        return None
    return RowKey(origin, row)


def trusted_row_key(text: object) -> RowKey | None:
    """The key of a cell whose workbook read_row_key checked already (a correction's run
    reads the very bytes its submit checked): its numbers, not its signature again."""
    parts = _parts(text)
    return None if parts is None else RowKey(parts[0], parts[1])


def _parts(text: object) -> tuple[int, int, str] | None:
    """(origin, row, signature) of a key's text: ``41-4812-9f3a1c2b7d4e6f80``."""
    if not isinstance(text, str):
        return None
    parts = text.strip().split("-")
    if len(parts) != 3:
        return None
    origin, row, mac = parts
    if not (_number(origin, 18) and _number(row, 9) and len(mac) == 16 and _HEX.issuperset(mac)):
        return None
    return int(origin), int(row), mac


def _number(text: str, digits: int) -> bool:
    return 0 < len(text) <= digits and text.isascii() and text.isdigit()


_HEX = frozenset("0123456789abcdef")


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
