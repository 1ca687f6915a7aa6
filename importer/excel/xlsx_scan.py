"""A fast byte-level pass over an .xlsx sheet before calamine reads it.

calamine (a) allocates one slot per cell of the sheet's bounding box, so a single value
at XFD1048576 makes it abort the whole process, and (b) turns error cells (#N/A) and
formulas without a saved value into empty strings, and number formats into nothing.
This pass streams the decompressed XML once (chunked, bounded memory) and finds:
the bounding box, and the few cells whose normalized value calamine cannot give
(errors, uncalculated formulas, zero-padded numbers). Most sheets have none, so the
pass costs one decompression plus a few C-level searches per chunk.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass, field
from operator import gt, itemgetter

from importer.errors import InputError
from importer.excel.special_cells import PaddedRun, SpecialCells, number_with_format, runs_of
from importer.excel.values import CellError
from importer.excel.xlsx_parts import UNPACK_ERRORS, xml_unescape

CHUNK = 4 << 20
MAX_ROW_BYTES = 64 << 20
Xml = bytes | bytearray  # a split's worker reads its pieces into a buffer it keeps


@dataclass
class SheetScan:
    max_row: int = 0  # largest row number (1-based) holding cells
    max_col: int = 0  # largest column number (1-based) seen, an upper bound
    xml_bytes: int = 0
    positional: bool = False  # some cells have no r="A1" reference
    bad_ref: str | None = None  # a cell reference that is not one (r="!!")
    bad_string_index: bool = False  # a text cell points at shared string -1 (calamine reads
    # the last string then)
    max_string_index: int = -1  # largest shared-string number a text cell uses (-1: none)
    # (row number, 0-based column) -> the value calamine cannot give
    overrides: dict[tuple[int, int], object] = field(default_factory=dict)
    # rows of zero-padded numbers, written the usual way (see special_cells)
    padded: list[PaddedRun] = field(default_factory=list)

    def special(self) -> SpecialCells:
        return SpecialCells(self.overrides, self.padded)


def column_index(letters: str) -> int:
    """1-based column number of "A", "Z", "AA", ..."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - 64)
    return n


class _Patterns:
    def __init__(self, prefix: bytes, zero_styles: dict[int, int]) -> None:
        p = re.escape(prefix)
        self.prefix = prefix
        self._p = p
        self._rows_and_references(prefix, p)
        self._strings_and_columns(prefix, p)
        self._cells_and_formulas(prefix, p)
        self._zero_padded(p, zero_styles)

    def _rows_and_references(self, prefix: bytes, p: bytes) -> None:
        self.row_end = b"</" + prefix + b"row>"
        self.row_start = b"<" + prefix + b"row "
        self.row_numbers = re.compile(rb"<" + p + rb'row\b[^>]*?\br="(\d+)"')
        # A "normal" cell starts <c r="B12": anything else is measured exactly.
        self.odd_cells = re.compile(rb"<" + p + rb'c(?:>|\s(?!r="[A-Z]{1,2}\d{1,6}"))')
        # Lower-case references (r="a1", from some writers) are read by Excel and calamine alike.
        self.all_refs = re.compile(rb"<" + p + rb'c\b[^>]*?\br="([A-Za-z]+)(\d+)"')
        self.bad_refs = re.compile(
            rb"<" + p + rb'c\b[^>]*?\br="(?![A-Za-z]{1,3}[1-9]\d{0,6}")([^"]*)"'
        )

    def _strings_and_columns(self, prefix: bytes, p: bytes) -> None:
        self.negative_value = b"<" + prefix + b"v>-"
        self.string_cell = b't="s"'
        # Possessive (*+): these never need to give back, and not trying is ~20% faster.
        self._string_value = rb't="s"[^>]*+>\s*+<' + p + rb"v>\s*+"
        self.string_index = re.compile(self._string_value + rb"0*(\d+)")
        # From t="s" (a literal: ten times faster than from <c, over every cell of a sheet
        # with negative numbers); the attribute's own start is checked on a match.
        self.negative_string = re.compile(rb't="s"[^>]*+>\s*+<' + p + rb"v>\s*+-")
        self.two_letter = re.compile(rb"<" + p + rb'c r="([A-Z]{2})\d')
        # Any cell that is not <c r="B12" with one letter: an odd cell or a two-letter one.
        # Sheets up to column Z (most) find none, and that one search answers both questions.
        self.not_narrow = re.compile(rb"<" + p + rb'c(?:>|\s(?!r="[A-Z]\d{1,6}"))')
        self._longer: dict[int, re.Pattern[bytes]] = {}
        self._zero_columns: dict[tuple[bytes, bytes], re.Pattern[bytes]] = {}

    def _cells_and_formulas(self, prefix: bytes, p: bytes) -> None:
        self.refless = re.compile(rb"<" + p + rb"c(?:>|\s(?![^>]*\br=)[^>]*>)")
        self.cell = re.compile(rb"<" + p + rb"c\b([^>]*?)(?:/>|>(.*?)</" + p + rb"c>)", re.DOTALL)
        self.error_marker = b't="e"'
        # Not self-closing (?<!/): <c t="e"/> holds no error, and would run on to the next
        # cell's </c> and take its value.
        self.error_cells = re.compile(
            rb"<" + p + rb'c\b([^>]*?\bt="e"[^>]*?)(?<!/)>(.*?)</' + p + rb"c>", re.DOTALL
        )
        f_end, v_empty = b"</" + prefix + b"f>", b"<" + prefix + b"v"
        self.formula_end = b"<" + prefix + b"f"
        self.uncached_markers = (
            f_end + b"</" + prefix + b"c>",
            b"/></" + prefix + b"c>",
            v_empty + b"/>",
            v_empty + b" />",
            v_empty + b"></" + prefix + b"v>",
        )
        self.uncached = re.compile(
            rb"(?:</"
            + p
            + rb"f>|<"
            + p
            + rb"f\b[^>]*/>)(?:<"
            + p
            + rb"v\s*/>|<"
            + p
            + rb"v></"
            + p
            + rb"v>)?</"
            + p
            + rb"c>"
        )
        self.cell_start = b"<" + prefix + b"c"
        self.value_tag = b"<" + prefix + b"v"
        self.value = re.compile(rb"<" + p + rb"v>([^<]*)</" + p + rb"v>")
        self.formula = re.compile(rb"<" + p + rb"f\b[^>]*?(?:/>|>([^<]*)</" + p + rb"f>)")

    def _zero_padded(self, p: bytes, zero_styles: dict[int, int]) -> None:
        self.zero_cells = None
        self.zero_uses: list[bytes] = []
        self.zero_empties: list[bytes] = []
        self.zero_plain: re.Pattern[bytes] | None = None
        if zero_styles:
            ids = b"|".join(str(i).encode() for i in sorted(zero_styles))
            self.zero_cells = re.compile(
                rb"<" + p + rb'c\b([^>]*?\bs="(?:' + ids + rb')"[^>]*)>(.*?)</' + p + rb"c>",
                re.DOTALL,
            )
            # The cells written the usual way (reference, style, a plain number): when they
            # are every use of these styles but for empty cells, one findall gives them all.
            self.zero_uses = [b' s="%d"' % i for i in sorted(zero_styles)]
            self.zero_empties = [b' s="%d"/>' % i for i in sorted(zero_styles)]
            self.zero_plain = re.compile(
                rb"<" + p + rb'c r="([A-Z]{1,3})(\d{1,7})" s="(' + ids + rb')"(?: t="n")?>'
                rb"<" + p + rb"v>([^<]+)</" + p + rb"v></" + p + rb"c>"
            )

    def zero_column(self, letters: bytes, style: bytes) -> re.Pattern[bytes]:
        """zero_plain's cells of one column and style, their row numbers alone."""
        found = self._zero_columns.get((letters, style))
        if found is None:
            p, letters = re.escape(self.prefix), re.escape(letters)
            found = self._zero_columns[(letters, style)] = re.compile(
                rb"<" + p + rb'c r="' + letters + rb'(\d{1,7})" s="' + style + rb'"(?: t="n")?>'
                rb"<" + p + rb"v>[^<]+</" + p + rb"v></" + p + rb"c>"
            )
        return found

    def string_index_above(self, index: int) -> re.Pattern[bytes]:
        """Text cells whose shared-string number is larger than `index` (one search)."""
        if index < 0:
            return self.string_index
        number = str(index)
        width = len(number)
        larger = [rb"[1-9]\d{%d,}" % width]  # more digits
        for at, digit in enumerate(number):  # same digits, first larger digit at `at`
            if digit != "9":
                tail = width - at - 1
                larger.append(number[:at].encode() + rb"[%d-9]\d{%d}" % (int(digit) + 1, tail))
        return re.compile(self._string_value + b"0*+(" + b"|".join(larger) + rb")(?!\d)")

    def longer_refs(self, digits: int) -> re.Pattern[bytes]:
        """Cell references whose row number has more than `digits` digits."""
        if digits not in self._longer:
            self._longer[digits] = re.compile(
                rb"<" + self._p + rb'c r="[A-Z]{1,2}\d{' + str(digits + 1).encode() + rb"}"
            )
        return self._longer[digits]


_ATTR = re.compile(rb'\b([rts])="([^"]*)"')
_PREFIX = re.compile(rb"<(?:(\w+):)?worksheet\b")


def _attrs(raw: bytes) -> dict[bytes, bytes]:
    return dict(_ATTR.findall(raw))


def scan_sheet(
    archive: zipfile.ZipFile,
    part: str,
    name: str,
    zero_styles: dict[int, int],
    *,
    bounds: bool = True,
    special: bool = True,
) -> SheetScan:
    """One pass over the sheet XML: `bounds` measures the used area (for safety),
    `special` collects error cells, uncalculated formulas and zero-padded numbers."""
    scan = SheetScan()
    try:
        handle = archive.open(part)
    except KeyError:
        raise InputError(
            f"{name}: the workbook is damaged (sheet part {part} is missing)"
        ) from None
    pats: _Patterns | None = None
    carry = b""
    try:
        with handle:
            while True:
                data = handle.read(CHUNK)
                if pats is None:
                    match = _PREFIX.search(data[:65536])
                    prefix = (match.group(1) + b":") if match and match.group(1) else b""
                    pats = _Patterns(prefix, zero_styles)
                scan.xml_bytes += len(data)
                if not data:
                    if carry:
                        _scan_chunk(carry, pats, scan, zero_styles, bounds, special)
                    break
                buffer = carry + data if carry else data
                cut = buffer.rfind(pats.row_end)
                if cut < 0:
                    carry = buffer
                    if len(carry) > MAX_ROW_BYTES:
                        raise InputError(
                            f"{name}: a single row of sheet {part} is larger than "
                            f"{MAX_ROW_BYTES >> 20} MB; refusing an unreasonable file"
                        )
                    continue
                cut += len(pats.row_end)
                _scan_chunk(buffer[:cut], pats, scan, zero_styles, bounds, special)
                carry = buffer[cut:]
    except zipfile.BadZipFile as exc:
        raise InputError(f"{name}: the file is damaged ({exc})") from None
    except UNPACK_ERRORS as exc:
        raise InputError(f"{name}: the file is damaged or truncated ({exc})") from None
    return scan


class RowsScanner:
    """The special cells of whole rows of a sheet's XML given as bytes (a piece's)."""

    def __init__(self, prefix: bytes, zero_styles: dict[int, int]) -> None:
        self._pats = _Patterns(prefix, zero_styles)
        self._zero = zero_styles

    def scan(self, rows_xml: Xml) -> SheetScan:
        scan = SheetScan(xml_bytes=len(rows_xml))
        _scan_chunk(rows_xml, self._pats, scan, self._zero, False, True)
        return scan

    def measure(self, rows_xml: Xml, scan: SheetScan) -> None:
        """The safety pass's measures (scan_sheet's bounds) taken over these rows too."""
        scan.xml_bytes += len(rows_xml)
        _measure(rows_xml, self._pats, scan)


def _scan_chunk(
    chunk: Xml,
    pats: _Patterns,
    scan: SheetScan,
    zero_styles: dict[int, int],
    bounds: bool,
    special: bool,
) -> None:
    if bounds:
        _measure(chunk, pats, scan)
    if special:
        if pats.error_marker in chunk:
            _error_cells(chunk, pats, scan)
        if pats.formula_end in chunk and any(m in chunk for m in pats.uncached_markers):
            _uncached_formulas(chunk, pats, scan)
        if pats.zero_cells is not None:
            _zero_padded_cells(chunk, pats, scan, zero_styles)


def _measure(chunk: Xml, pats: _Patterns, scan: SheetScan) -> None:
    """Largest row and column: two C-speed searches per chunk, exact work only when odd.

    calamine positions cells by their own reference, so normal cells (<c r="B12" ...)
    with at most 6 digits and 2 letters bound the area to 999,999 x 702; anything else
    (no reference, reference not first, column AAA+, row 1,000,000+) is measured exactly.
    """
    last = chunk.rfind(pats.row_start)
    if last >= 0:
        found = pats.row_numbers.match(chunk, last)
        if found:
            scan.max_row = max(scan.max_row, int(found.group(1)))
    if pats.string_cell in chunk:
        if pats.negative_value in chunk and _negative_string(chunk, pats):
            scan.bad_string_index = True
        scan.max_string_index = _largest_string_index(chunk, pats, scan.max_string_index)
    if not pats.not_narrow.search(chunk):
        scan.max_col = max(scan.max_col, 26)  # single-letter columns only: at most Z
        return
    if pats.odd_cells.search(chunk):
        if pats.refless.search(chunk):
            scan.positional = True
        bad = pats.bad_refs.search(chunk)
        if bad:
            scan.bad_ref = bad.group(1).decode("utf-8", "replace")[:40]
        for letters, digits in pats.all_refs.findall(chunk):
            scan.max_col = max(scan.max_col, column_index(letters.decode()))
            scan.max_row = max(scan.max_row, int(digits))
        return
    if pats.two_letter.search(chunk):
        # Rows are not necessarily in order: with wide rows, take every row number.
        rows = pats.row_numbers.findall(chunk)
        if rows:
            scan.max_row = max(scan.max_row, max(map(int, rows)))
        twos = set(pats.two_letter.findall(chunk))
        scan.max_col = max(scan.max_col, max(column_index(t.decode()) for t in twos))
        # A cell may name a row beyond its row tag: any reference with more digits than the
        # largest row tag is measured exactly (so the area is off by less than 10x).
        digits = len(str(scan.max_row))
        if digits < 6 and pats.longer_refs(digits).search(chunk):
            for _letters, number in pats.all_refs.findall(chunk):
                scan.max_row = max(scan.max_row, int(number))
    else:
        scan.max_col = max(scan.max_col, 26)  # single-letter columns only: at most Z


def _negative_string(chunk: Xml, pats: _Patterns) -> bool:
    """A text cell whose shared-string number is negative (t="s" as an attribute)."""
    return any(
        chunk[m.start() - 1 : m.start()].isspace() for m in pats.negative_string.finditer(chunk)
    )


def _largest_string_index(chunk: Xml, pats: _Patterns, largest: int) -> int:
    """The largest shared-string number the chunk's text cells use, or `largest` if larger.

    Writers number strings in order of first use, so the last rows usually hold the largest:
    taking theirs first leaves one failing C-speed search to prove it, instead of turning
    every text cell into a Python int.
    """
    for digits in pats.string_index.findall(chunk, max(len(chunk) - 8192, 0)):
        largest = max(largest, _index(digits))
    start = 0
    for _ in range(8):
        larger = pats.string_index_above(largest).search(chunk, start)
        if larger is None:
            return largest
        largest, start = _index(larger.group(1)), larger.end()
    # Numbers out of order: read the rest of the chunk at once.
    return max([largest, *map(_index, pats.string_index.findall(chunk, start))])


def _index(digits: bytes) -> int:
    # int() refuses more than 4,300 digits; any such number is past every table anyway.
    return int(digits) if len(digits) <= 18 else 10**18


def _position(attrs: dict[bytes, bytes], scan: SheetScan) -> tuple[int, int] | None:
    ref = attrs.get(b"r")
    if not ref:
        scan.positional = True
        return None
    match = re.fullmatch(rb"([A-Za-z]+)(\d+)", ref)
    if not match:
        return None
    return int(match.group(2)), column_index(match.group(1).decode()) - 1


def _error_cells(chunk: Xml, pats: _Patterns, scan: SheetScan) -> None:
    """The error cells: each t="e" found by a C-level search, its cell matched from the
    tag it stands in (a regex search from every cell took 80 ms a piece of 8 MB with a
    lookup column of #N/A, ten times as long)."""
    marker, at = pats.error_marker, 0
    while (found := chunk.find(marker, at)) >= 0:
        at = found + len(marker)
        match = pats.error_cells.match(chunk, chunk.rfind(b"<", 0, found))
        if match is None or match.end(1) < found:
            continue  # not a cell's attribute (a text holding t="e", another tag's)
        at = match.end()
        value = pats.value.search(match.group(2))
        code = xml_unescape(value.group(1).decode()).strip() if value else ""
        where = _position(_attrs(match.group(1)), scan)
        if where is not None:
            scan.overrides[where] = CellError(code or "#VALUE!")


def _uncached_formulas(chunk: Xml, pats: _Patterns, scan: SheetScan) -> None:
    """Formula cells with no saved value (no <v>, or an empty one outside text results)."""
    for hit in pats.uncached.finditer(chunk):
        start = chunk.rfind(pats.cell_start, 0, hit.start())
        cell = pats.cell.match(chunk, start) if start >= 0 else None
        if cell is None:
            continue
        attrs = _attrs(cell.group(1))
        body = cell.group(2) or b""
        saved = pats.value.search(body)
        if saved is not None and saved.group(1):
            continue  # a calculated value
        if attrs.get(b"t") == b"e" or (attrs.get(b"t") == b"str" and pats.value_tag in body):
            continue  # an error (handled above) or a formula whose result is empty text
        formula = pats.formula.search(body)
        text = formula.group(1) if formula and formula.group(1) else b""
        where = _position(attrs, scan)
        if where is not None:
            scan.overrides[where] = CellError("", xml_unescape(text.decode()) or None)


def _zero_padded_cells(
    chunk: Xml, pats: _Patterns, scan: SheetScan, zero_styles: dict[int, int]
) -> None:
    assert pats.zero_cells is not None and pats.zero_plain is not None
    # Counting the style's every use (bytes.count, C speed); a row-level style or a cell in
    # another form makes the counts differ, and the chunk takes the exact path below.
    uses = sum(map(chunk.count, pats.zero_uses)) - sum(map(chunk.count, pats.zero_empties))
    if uses == 0:
        return
    first = pats.zero_plain.search(chunk)
    if first is not None:
        # Usually one padded column in one style: its rows alone, a third of the time of
        # every cell's four groups.
        rows = pats.zero_column(first[1], first[3]).findall(chunk)
        if len(rows) == uses:
            col = column_index(first[1].decode()) - 1
            scan.padded += runs_of(col, zero_styles[int(first[3])], _ascending(rows))
            return
    plain = pats.zero_plain.findall(chunk)
    if len(plain) == uses:
        _plain_zero_padded(plain, scan, zero_styles)
        return
    for match in pats.zero_cells.finditer(chunk):
        attrs = _attrs(match.group(1))
        if attrs.get(b"t", b"n") != b"n":
            continue
        value = pats.value.search(match.group(2))
        if value is None or not value.group(1):
            continue
        style = re.search(rb'\bs="(\d+)"', match.group(1))
        width = zero_styles.get(int(style.group(1))) if style else None
        try:
            number = float(value.group(1))
        except ValueError:
            continue
        where = _position(attrs, scan)
        if where is None or width is None:
            continue
        scan.overrides[where] = number_with_format(number, width)


def _plain_zero_padded(
    cells: list[tuple[bytes, bytes, bytes, bytes]], scan: SheetScan, zero_styles: dict[int, int]
) -> None:
    """The usual cells of a zero-padded style (``<c r="E2" s="3"><v>501</v></c>``), found
    by one C-level search, as runs of rows per column and style: calamine's number for such
    a cell is float(value), so what it shows follows from that number (number_with_format)
    when its rows are read. No attribute parsing, no Python step per cell."""
    letters = set(map(itemgetter(0), cells))
    styles = set(map(itemgetter(2), cells))
    groups: dict[tuple[bytes, bytes], list[bytes]]
    if len(letters) == 1 and len(styles) == 1:  # one padded column: the usual case
        groups = {(letters.pop(), styles.pop()): list(map(itemgetter(1), cells))}
    else:
        groups = {}
        for column, row, style, _value in cells:
            groups.setdefault((column, style), []).append(row)
    widths = {str(style).encode(): width for style, width in zero_styles.items()}
    for (column, style), rows in groups.items():
        col = column_index(column.decode()) - 1
        scan.padded += runs_of(col, widths[style], _ascending(rows))


def _ascending(rows: list[bytes]) -> list[int]:
    numbers = list(map(int, rows))
    if any(map(gt, numbers, numbers[1:])):
        numbers.sort()  # rows out of order (runs_of wants them ascending)
    return numbers
