"""Reading workbooks: sniffing, two engines (calamine, openpyxl streaming), normalized rows.

The names below load with their module on first use (PEP 562): importing one small part of
the package (``importer.excel.values``, which the forms need) does not load the readers,
and every command that never reads a workbook starts that much sooner.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from importer.config import ENGINES, Engine, UnknownEngine, check_engine
    from importer.excel.base import SheetReader
    from importer.excel.reader import SheetPeek, list_sheets, open_sheet, peek_sheet
    from importer.excel.rows_after import open_rows_after
    from importer.excel.values import CellError, NumberText, Row, display_text

_HOMES = {
    "ENGINES": "importer.config",
    "Engine": "importer.config",
    "UnknownEngine": "importer.config",
    "check_engine": "importer.config",
    "SheetReader": "importer.excel.base",
    "SheetPeek": "importer.excel.reader",
    "list_sheets": "importer.excel.reader",
    "open_sheet": "importer.excel.reader",
    "peek_sheet": "importer.excel.reader",
    "open_rows_after": "importer.excel.rows_after",
    "CellError": "importer.excel.values",
    "NumberText": "importer.excel.values",
    "Row": "importer.excel.values",
    "display_text": "importer.excel.values",
}

__all__ = [
    "ENGINES",
    "CellError",
    "Engine",
    "NumberText",
    "Row",
    "SheetPeek",
    "SheetReader",
    "UnknownEngine",
    "check_engine",
    "display_text",
    "list_sheets",
    "open_rows_after",
    "open_sheet",
    "peek_sheet",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        # Not ours: `from importer.excel import xlsx_scan` then imports the submodule.
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
