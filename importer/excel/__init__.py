"""Reading workbooks: sniffing, two engines (calamine, openpyxl streaming), normalized rows."""

from importer.excel.base import SheetReader
from importer.excel.reader import ENGINES, SheetPeek, open_sheet, peek_sheet, reads_in_pieces
from importer.excel.values import CellError, NumberText, Row, display_text

__all__ = [
    "ENGINES",
    "CellError",
    "NumberText",
    "Row",
    "SheetPeek",
    "SheetReader",
    "display_text",
    "open_sheet",
    "peek_sheet",
    "reads_in_pieces",
]
