"""Reading workbooks: sniffing, two engines (calamine, openpyxl streaming), normalized rows."""

from importer.config import ENGINES, Engine, UnknownEngine, check_engine
from importer.excel.base import SheetReader
from importer.excel.reader import SheetPeek, list_sheets, open_sheet, peek_sheet
from importer.excel.rows_after import open_rows_after
from importer.excel.values import CellError, NumberText, Row, display_text

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
