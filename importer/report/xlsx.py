"""The error workbook's layout: the sender's sheet with the bad cells marked, and "About".

The first sheet has the original name, header and column order, so that the fixed file can
be submitted as it is; then "Problems" (wrapped) and "Source row". Each bad cell is filled
soft red with its reasons as a comment. The header is bold and frozen, columns are as wide
as their text (capped; measured on the first rows, as the sheet is streamed), and it prints
landscape, one page wide, the header repeated on every page.

Rows with keys (report/row_keys.py) get them in a last column, hidden (neither shown nor
printed), and the workbook's custom document properties name each sheet's import and its
About sheet, signed: the fixed file then comes back as a correction of that import.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Sequence
from copy import copy
from itertools import chain, islice

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ERROR_CODES, ILLEGAL_CHARACTERS_RE
from openpyxl.comments import Comment
from openpyxl.packaging.custom import StringProperty
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.styles.cell_style import StyleArray
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet
from openpyxl.worksheet.dimensions import RowDimension

from importer.excel.cell_json import TypedCell, cell_text
from importer.forms.validation import PROBLEMS_COLUMN, ROW_KEY_COLUMN, SOURCE_ROW_COLUMN
from importer.report.book import ErrorBook, ErrorRow, looks_like_formula, problem_text
from importer.report.row_keys import (
    ABOUT_PROPERTY,
    JOBS_PROPERTY,
    SIGNATURE_PROPERTY,
    sheets_text,
)

_SAMPLE_ROWS = 500  # rows measured for the column widths
# Past this many, bad cells keep their fill but no comment (the Problems column still says
# why): each comment costs ~6 KB of memory until the file is saved.
MAX_COMMENTS = 10_000
_MIN_WIDTH, _MAX_WIDTH, _PROBLEMS_WIDTH = 8, 32, 48
_LINE_HEIGHT = 15  # points: one line of the default 11 pt font
_BAD_FILL = PatternFill("solid", fgColor="FFC7CE")  # Excel's "light red fill"
# The font named in full: a Font with only a colour renders in a serif default elsewhere.
_FONT = {"name": "Calibri", "size": 11}
_BAD_FONT = Font(**_FONT, color="9C0006")
_HEADER_FILL = PatternFill("solid", fgColor="D9E1F2")
_HEADER_FONT = Font(**_FONT, bold=True)
_HEADER_BORDER = Border(bottom=Side(style="thin", color="808080"))
_TOP = Alignment(vertical="top")
_WRAP_TOP = Alignment(vertical="top", wrap_text=True)
_GREY = Font(**_FONT, color="595959")
_TITLE = Font(name="Calibri", bold=True, size=14)
_SHEET_NAME_BAD = re.compile(r"[\[\]:*?/\\]")
_AUTHOR = "importer"
BOOLEAN_FORMAT = '"TRUE";"TRUE";"FALSE"'


def sheet_title(name: str, taken: Collection[str] = ()) -> str:
    """A name Excel accepts (31 characters, none of []:*?/\\, not blank), unique in `taken`."""
    title = _SHEET_NAME_BAD.sub("_", ILLEGAL_CHARACTERS_RE.sub("", name)).strip("'")[:31]
    title = title if title.strip() else "Sheet1"
    base, n = title, 2
    while title.casefold() in {t.casefold() for t in taken}:
        suffix = f" ({n})"
        title, n = base[: 31 - len(suffix)] + suffix, n + 1
    return title


def _text_cell(sheet: WriteOnlyWorksheet, text: str) -> WriteOnlyCell:
    cell = WriteOnlyCell(sheet, value=ILLEGAL_CHARACTERS_RE.sub("", text))
    cell.data_type = "s"  # never a formula, whatever the text starts with
    if looks_like_formula(text):
        cell.quotePrefix = True  # and editing the cell in Excel keeps it text
    return cell


def _widths(header: list[str], sample: list[ErrorRow]) -> list[float]:
    def longest(texts: Iterator[str | None]) -> int:
        return max((len(line) for text in texts if text for line in text.splitlines()), default=0)

    widths: list[float] = []
    for index, name in enumerate(header):
        cells = (cell_text(row.cells[index]) for row in sample)
        widest = max(longest(iter([name])), longest(cells))
        widths.append(min(max(widest + 2, _MIN_WIDTH), _MAX_WIDTH))
    problems = longest(problem_text(p) for row in sample for p in row.problems)
    widths.append(min(max(problems + 2, len(PROBLEMS_COLUMN) + 2), _PROBLEMS_WIDTH))
    widths.append(len(SOURCE_ROW_COLUMN) + 3)
    return widths


def _lines(text: str | None, width: float) -> int:
    """How many lines a wrapped cell of this width shows (roughly: one character per unit)."""
    if not text:
        return 1
    per_line = max(int(width * 1.1) - 1, 1)  # proportional text: ~1.1 characters a unit
    return sum(max(1, -(-len(line) // per_line)) for line in text.splitlines()) or 1


def _height(cells: list[WriteOnlyCell], widths: list[float]) -> float | None:
    """The row's height when a wrapped cell needs more than one line (None: the default)."""
    lines = max(
        _lines(cell.value, width) if isinstance(cell.value, str) else 1
        for cell, width in zip(cells, widths, strict=False)
    )
    return lines * _LINE_HEIGHT if lines > 1 else None


def _comment(problems: list[str]) -> Comment:
    text = "\n".join(problems)
    lines = sum(1 + len(line) // 40 for line in text.splitlines())
    return Comment(text, _AUTHOR, height=max(60, 16 * lines + 24), width=260)


class _Rows:
    """Builds the data rows. A style is worked out once per kind of cell and then copied (a
    cell's style set attribute by attribute costs ~15 µs, a copy ~1 µs)."""

    def __init__(self, sheet: WriteOnlyWorksheet, header: list[str]) -> None:
        self.sheet = sheet
        # The first column of a header text (the errors name their column by its text).
        self.positions = {name: index for index, name in reversed(list(enumerate(header)))}
        self.comments_left = MAX_COMMENTS
        self._styles: dict[tuple[object, ...], StyleArray] = {}

    def _styled(self, cell: WriteOnlyCell, key: tuple[object, ...], fmt: str | None) -> None:
        style = self._styles.get(key)
        if style is not None:
            cell._style = copy(style)
            return
        kind, bad = key[0], key[-1]
        cell.alignment = _WRAP_TOP if kind in ("text", "problems") else _TOP
        if fmt:
            cell.number_format = fmt
        if bad:
            cell.fill = _BAD_FILL
        if bad or kind == "problems":
            cell.font = _BAD_FONT
        elif kind == "row":
            cell.font = _GREY
        self._styles[key] = copy(cell._style)

    def _value_cell(self, typed: TypedCell, bad: bool) -> WriteOnlyCell:
        value = typed.value
        if isinstance(value, str) and typed.error and value in ERROR_CODES:
            cell = WriteOnlyCell(self.sheet, value=value)
            cell.data_type = "e"
        elif isinstance(value, str):
            cell = _text_cell(self.sheet, value)
            if cell.quotePrefix:  # a style of its own (rare): set directly
                cell.alignment = _WRAP_TOP  # long text wraps within its capped column
                if bad:
                    cell.fill, cell.font = _BAD_FILL, _BAD_FONT
                return cell
            self._styled(cell, ("text", bad), None)
            return cell
        elif value is True or value is False:
            # A boolean cell in a General format: LibreOffice shows some as 1/0. The format
            # it writes for booleans itself shows TRUE/FALSE there too (Excel shows a
            # boolean as TRUE/FALSE whatever its format).
            cell = WriteOnlyCell(self.sheet, value=value)
            self._styled(cell, ("value", BOOLEAN_FORMAT, bad), BOOLEAN_FORMAT)
            return cell
        else:
            cell = WriteOnlyCell(self.sheet, value=value)
        self._styled(cell, ("value", typed.number_format, bad), typed.number_format)
        return cell

    def row(self, row: ErrorRow) -> list[WriteOnlyCell]:
        by_column: dict[int, list[str]] = {}
        for problem in row.problems:
            index = self.positions.get(problem.column) if problem.column is not None else None
            if index is not None:
                by_column.setdefault(index, []).append(problem.message)
        cells = [
            self._value_cell(typed, index in by_column) for index, typed in enumerate(row.cells)
        ]
        for index, messages in by_column.items():
            if self.comments_left > 0:
                cells[index].comment = _comment(messages)
                self.comments_left -= 1
        problems = _text_cell(self.sheet, "\n".join(problem_text(p) for p in row.problems))
        if problems.quotePrefix:
            problems.alignment, problems.font = _WRAP_TOP, _BAD_FONT
        else:
            self._styled(problems, ("problems", False), None)
        number = WriteOnlyCell(self.sheet, value=row.number)
        self._styled(number, ("row", False), None)
        if row.key is None:
            return [*cells, problems, number]
        return [*cells, problems, number, _text_cell(self.sheet, row.key)]


def _header_row(sheet: WriteOnlyWorksheet, names: list[str]) -> list[WriteOnlyCell]:
    cells = []
    for name in names:
        cell = _text_cell(sheet, name)
        cell.font, cell.fill, cell.border = _HEADER_FONT, _HEADER_FILL, _HEADER_BORDER
        cell.alignment = _WRAP_TOP
        cells.append(cell)
    return cells


def _print_setup(sheet: WriteOnlyWorksheet, header_row: int = 1) -> None:
    sheet.page_setup.orientation = "landscape"
    sheet.page_setup.fitToWidth = 1
    sheet.page_setup.fitToHeight = 0  # as many pages down as it takes
    sheet.sheet_properties.pageSetUpPr.fitToPage = True
    sheet.print_options.gridLines = True
    sheet.print_title_rows = f"{header_row}:{header_row}"
    sheet.page_margins.left = sheet.page_margins.right = 0.4
    sheet.oddFooter.center.text = "&A, page &P of &N"
    sheet.freeze_panes = f"A{header_row + 1}"


def _about_sheet(book: Workbook, title: str, lines: list[tuple[str, str]]) -> None:
    sheet = book.create_sheet(title)
    # A streamed sheet writes its properties with its first row: set them all before.
    sheet.column_dimensions["A"].width = 18
    sheet.column_dimensions["B"].width = 80
    sheet.page_setup.orientation = "landscape"
    sheet.page_setup.fitToWidth, sheet.page_setup.fitToHeight = 1, 0
    sheet.sheet_properties.pageSetUpPr.fitToPage = True
    heading = WriteOnlyCell(sheet, value="Rows importer could not import, to fix and resubmit")
    heading.font = _TITLE
    sheet.append([heading])
    sheet.append([])
    for label, text in lines:
        name = _text_cell(sheet, label)
        name.font = _HEADER_FONT
        sheet.append([name, _text_cell(sheet, text)])


def _append(
    sheet: WriteOnlyWorksheet, cells: list[WriteOnlyCell], widths: list[float], number: int
) -> None:
    """Append a row, as tall as its wrapped text. The row is written out at once, so its
    dimension is dropped after: memory stays flat however many rows there are."""
    height = _height(cells, widths)
    if height is not None:
        sheet.row_dimensions[number] = RowDimension(sheet, index=number, ht=height)
    sheet.append(cells)
    sheet.row_dimensions.pop(number, None)


# Signs the workbook's properties: (the jobs property's text, the About sheet's name) -> text.
Signer = Callable[[str, str], str]


def write_xlsx(path: str, book: ErrorBook, sign: Signer | None = None) -> int:
    """Write the error workbook to ``path``; the number of rows written."""
    return write_books(path, [book], sign)


def write_books(path: str, books: Sequence[ErrorBook], sign: Signer | None = None) -> int:
    """Several error books in one workbook, a sheet each under its sheet's name (a group of
    sheets submitted together), then one About sheet (the first book's); rows written.
    ``sign``: the books whose rows carry keys are named in the custom properties, signed."""
    workbook = Workbook(write_only=True)
    titles: list[str] = []
    count = 0
    for book in books:
        titles.append(sheet_title(book.sheet_name, titles))
        count += _write_sheet(workbook.create_sheet(titles[-1]), book)
    about = sheet_title("About", titles)
    _about_sheet(workbook, about, books[0].about)
    keyed = [(title, b.origin) for title, b in zip(titles, books, strict=True) if b.origin]
    if sign is not None and keyed:
        jobs = sheets_text(keyed)
        for name, value in (
            (JOBS_PROPERTY, jobs),
            (ABOUT_PROPERTY, about),
            (SIGNATURE_PROPERTY, sign(jobs, about)),
        ):
            workbook.custom_doc_props.append(StringProperty(name=name, value=value))
    workbook.save(path)
    return count


def _write_sheet(sheet: WriteOnlyWorksheet, book: ErrorBook) -> int:
    header = book.header
    rows = iter(book.rows)
    sample = list(islice(rows, _SAMPLE_ROWS))
    names = [*header, PROBLEMS_COLUMN, SOURCE_ROW_COLUMN]
    widths = _widths(header, sample)
    for index, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = width
    if book.origin is not None:  # the rows' keys: a last column, hidden
        names.append(ROW_KEY_COLUMN)
        sheet.column_dimensions[get_column_letter(len(names))].hidden = True
    top = len(book.above) + 1  # the header's row: the rows above it come back first
    _print_setup(sheet, top)
    for number, texts in enumerate(book.above, start=1):
        sheet.append([_text_cell(sheet, text) if text else None for text in texts])
        sheet.row_dimensions.pop(number, None)
    _append(sheet, _header_row(sheet, names), widths, top)
    builder = _Rows(sheet, header)
    count = 0
    for row in chain(sample, rows):
        count += 1
        _append(sheet, builder.row(row), widths, top + count)
    last = len(names) - (book.origin is not None)  # the filter leaves the hidden keys out
    sheet.auto_filter.ref = f"A{top}:{get_column_letter(last)}{top + count}"
    return count
