"""The hostile-input corpus: broken, malicious and extreme workbooks, each with its expectation.

    python -m tests.hostile.generate OUTDIR

writes every file (plus `hostile.form.toml` and `manifest.json`) into OUTDIR. Files are made
at test time, never committed. Every case is submitted against the form below:

    Name (string, required) | Qty (integer, required) | Note (string) | When (date)

An expectation is one of:
- ``refused``: exit 2, exactly one line on stderr, no traceback, no job and no stored file;
- ``imported``: exit 0 (no rejected rows) or 3, exactly `good` rows stored and `bad` rows
  rejected, and the listed values stored verbatim;
- ``refused_or_failed``: refused as above, or a job that ends `failed` (exit 1) with its
  committed rows intact: for damage a reader may only meet half-way through a sheet.
"""

from __future__ import annotations

import io
import json
import os
import sys
import warnings
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import xlsxwriter

from tests.hostile import xls_files
from tests.hostile.ooxml import (
    NS,
    Package,
    Sheet,
    col_letters,
    excel_escape,
    number_cell,
    row_xml,
    rows_xml,
    sheet_xml,
    text_cell,
    write_zip_bomb,
)

Kind = Literal["refused", "imported", "refused_or_failed"]
HEADER = ["Name", "Qty", "Note", "When"]
FORM_NAME = "hostile"
FORM_TOML = """\
name = "hostile"
trim = false  # the cells exactly as written, outer spaces and tabs too

[[fields]]
name = "name"
header = "Name"
type = "string"
required = true

[[fields]]
name = "qty"
header = "Qty"
type = "integer"
required = true

[[fields]]
name = "note"
header = "Note"
type = "string"

[[fields]]
name = "when"
header = "When"
type = "date"
"""

ZIP_BOMB_BYTES = 1 << 30  # the one worksheet inflates to 1 GiB of whitespace


@dataclass
class Case:
    name: str  # file name inside OUTDIR
    kind: Kind
    build: Callable[[Path], None]
    why: str
    good: int = 0
    bad: int = 0
    sheet: str | None = None  # passed as --sheet
    # Excel row number -> {field: value} that must be stored exactly.
    verbatim: dict[int, dict[str, object]] = field(default_factory=dict)
    # Text that must appear in no stored value (formula source, expanded entities, ...).
    absent: tuple[str, ...] = ()

    def manifest(self) -> dict[str, object]:
        return {
            "file": self.name,
            "kind": self.kind,
            "why": self.why,
            "good": self.good,
            "bad": self.bad,
            "sheet": self.sheet,
            "verbatim": {str(k): v for k, v in self.verbatim.items()},
            "absent": list(self.absent),
        }


# --- helpers ---------------------------------------------------------------------------------


def _write_bytes(data: bytes) -> Callable[[Path], None]:
    def build(path: Path) -> None:
        path.write_bytes(data)

    return build


def _package(*sheets: Sheet, **kwargs: object) -> Callable[[Path], None]:
    def build(path: Path) -> None:
        Package(list(sheets), **kwargs).write(path)  # type: ignore[arg-type]

    return build


def _rows(rows: Sequence[Sequence[object]], first_row: int = 1) -> list[str]:
    return list(rows_xml((first_row + i, r) for i, r in enumerate(rows)))


def _simple(rows: Sequence[Sequence[object]], name: str = "Sheet1") -> Sheet:
    return Sheet(name, sheet_xml(_rows([HEADER, *rows])))


def _good_workbook_bytes(rows: int = 200) -> bytes:
    buffer = io.BytesIO()
    Package([_simple([[f"name {i}", i, f"note {i}", None] for i in range(rows)])]).write(
        buffer  # type: ignore[arg-type]
    )
    return buffer.getvalue()


def _xlsxwriter(
    rows: list[list[object]], sheet: str = "Sheet1", header: list[str] = HEADER
) -> Callable[[Path], None]:
    def build(path: Path) -> None:
        with xlsxwriter.Workbook(str(path), {"strings_to_numbers": False}) as book:
            ws = book.add_worksheet(sheet)
            ws.write_row(0, 0, header)
            for i, row in enumerate(rows, start=1):
                for j, value in enumerate(row):
                    if isinstance(value, str):
                        ws.write_string(i, j, value)
                    elif value is not None:
                        ws.write(i, j, value)

    return build


def _zip(entries: dict[str, bytes]) -> Callable[[Path], None]:
    def build(path: Path) -> None:
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in entries.items():
                archive.writestr(name, data)

    return build


def _sst(strings: list[str], prolog: str = "", count: str | None = None) -> str:
    n = count or str(len(strings))
    items = "".join(f"<si><t>{s}</t></si>" for s in strings)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n{prolog}'
        f'<sst xmlns="{NS}" count="{n}" uniqueCount="{n}">{items}</sst>'
    )


def _sst_sheet(first_name_index: int = 0) -> Sheet:
    """Header inline; row 2's Name is shared string `first_name_index`."""
    body = [
        *_rows([HEADER]),
        row_xml(2, [f'<c r="A2" t="s"><v>{first_name_index}</v></c>', number_cell("B2", "1")]),
    ]
    return Sheet("Sheet1", sheet_xml(body))


# --- the cases ---------------------------------------------------------------------------


def _billion_laughs() -> str:
    entities = ['<!ENTITY lol0 "lol">']
    for level in range(1, 10):
        ref = f"&lol{level - 1};" * 10
        entities.append(f'<!ENTITY lol{level} "{ref}">')
    prolog = "<!DOCTYPE sst [" + "".join(entities) + "]>"
    return _sst(["&lol9;"], prolog=prolog)


def _quadratic_blowup() -> str:
    prolog = '<!DOCTYPE sst [<!ENTITY a "' + "A" * 100_000 + '">]>'
    return _sst(["&a;" * 50_000], prolog=prolog)


def _xxe() -> str:
    prolog = '<!DOCTYPE sst [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
    return _sst(["&xxe;"], prolog=prolog)


def _encrypted(path: Path) -> None:
    import msoffcrypto.format.ooxml as ooxml

    plain = io.BytesIO(_good_workbook_bytes(5))
    target = io.BytesIO()
    ooxml.OOXMLFile(plain).encrypt("secret", target)
    path.write_bytes(target.getvalue())


def _truncated(path: Path) -> None:
    data = _good_workbook_bytes(2000)
    path.write_bytes(data[: len(data) * 6 // 10])


def _malformed_xml(path: Path) -> None:
    body = "".join(_rows([HEADER] + [[f"n{i}", i, None, None] for i in range(3000)]))
    cut = body[: len(body) * 2 // 3] + '<row r="99999"><c r="A99999" t="inlineStr"><is><t>unterm'
    head = f'<?xml version="1.0"?><worksheet xmlns="{NS}"><sheetData>'
    Package([Sheet("Sheet1", [head, cut])]).write(path)


def _formatted_empty_rows(path: Path) -> None:
    def body() -> object:
        yield from _rows([HEADER, ["a", 1, None, None], ["b", 2, None, None], ["c", 3, None, None]])
        for r in range(5, 1_048_577):
            cells = f'<c r="A{r}" s="2"/><c r="D{r}" s="1"/>'
            yield f'<row r="{r}" s="2" customFormat="1">{cells}</row>'

    Package([Sheet("Sheet1", sheet_xml(body(), dimension="A1:D1048576"))]).write(path)  # type: ignore[arg-type]


def _wide(path: Path) -> None:
    extra = [f"Extra {c}" for c in range(len(HEADER) + 1, 16_385)]

    def body() -> object:
        yield from _rows([HEADER + extra])
        for r in range(2, 7):
            yield from _rows([[f"wide {r}", r, f"note {r}", None] + [f"v{r}"] * len(extra)], r)

    Package([Sheet("Sheet1", sheet_xml(body()))]).write(path)  # type: ignore[arg-type]


def _far_corner(path: Path) -> None:
    body = [
        row_xml(
            1,
            [
                *(text_cell(f"{col_letters(i + 1)}1", h) for i, h in enumerate(HEADER)),
                text_cell("XFD1", "Far"),
            ],
        ),
        *_rows([["a", 1, None, None], ["b", 2, None, None], ["c", 3, None, None]], 2),
        row_xml(
            1_048_576,
            [
                text_cell("A1048576", "last"),
                number_cell("B1048576", "4"),
                text_cell("XFD1048576", "corner"),
            ],
        ),
    ]
    Package([Sheet("Sheet1", sheet_xml(body))]).write(path)


def _error_cells(path: Path) -> None:
    errors = ["#N/A", "#DIV/0!", "#REF!", "#VALUE!", "#NAME?", "#NUM!", "#NULL!"]
    body = list(_rows([HEADER]))
    for r in range(2, 22):
        cells = []
        for c in range(1, 5):
            code = excel_escape(errors[(r + c) % len(errors)])
            cells.append(f'<c r="{col_letters(c)}{r}" t="e"><v>{code}</v></c>')
        body.append(row_xml(r, cells))
    Package([Sheet("Sheet1", sheet_xml(body))]).write(path)


def _getting_data(path: Path) -> None:
    body = [
        *_rows([HEADER, ["a", 1, None, None]]),
        row_xml(
            3,
            [
                text_cell("A3", "b"),
                number_cell("B3", "2"),
                '<c r="C3" t="e"><v>#GETTING_DATA</v></c>',
            ],
        ),
        *_rows([["c", 3, None, None]], 4),
    ]
    Package([Sheet("Sheet1", sheet_xml(body))]).write(path)


def _formulas_without_cache(path: Path) -> None:
    body = [
        *_rows([HEADER]),
        row_xml(2, ['<c r="A2" t="str"><f>CONCAT("a","b")</f></c>', number_cell("B2", "1")]),
        row_xml(3, [text_cell("A3", "x"), '<c r="B3"><f>1+1</f></c>']),
        row_xml(
            4,
            [
                text_cell("A4", "y"),
                number_cell("B4", "4"),
                '<c r="C4" t="str"><f>HYPERLINK("http://example.invalid","click")</f></c>',
            ],
        ),
    ]
    Package([Sheet("Sheet1", sheet_xml(body))]).write(path)


def _weird_numbers(path: Path) -> None:
    body = [
        *_rows([HEADER]),
        row_xml(
            2, [text_cell("A2", "ok"), number_cell("B2", "2"), number_cell("D2", "45000", style=1)]
        ),
        row_xml(3, [text_cell("A3", "nan"), number_cell("B3", "NaN")]),
        row_xml(4, [text_cell("A4", "inf"), number_cell("B4", "inf")]),
        row_xml(5, [text_cell("A5", "huge"), number_cell("B5", "1e999")]),
        row_xml(6, [text_cell("A6", "fraction"), number_cell("B6", "1.5")]),
        row_xml(
            8,
            [text_cell("A8", "date-neg"), number_cell("B8", "8"), number_cell("D8", "-5", style=1)],
        ),
        row_xml(
            9,
            [
                text_cell("A9", "date-far"),
                number_cell("B9", "9"),
                number_cell("D9", "1e10", style=1),
            ],
        ),
        row_xml(
            10,
            [
                text_cell("A10", "date-nan"),
                number_cell("B10", "10"),
                number_cell("D10", "NaN", style=1),
            ],
        ),
        row_xml(11, [text_cell("A11", "ok2"), number_cell("B11", "11")]),
    ]
    Package([Sheet("Sheet1", sheet_xml(body))]).write(path)


def _sst_reference(index: str) -> Callable[[Path], None]:
    """Row 3's Name points at shared string `index` of a one-string table."""
    body = [
        *_rows([HEADER, ["a", 1, None, None]]),
        row_xml(3, [f'<c r="A3" t="s"><v>{index}</v></c>', number_cell("B3", "2")]),
        *_rows([["c", 3, None, None]], 4),
    ]
    return _package(Sheet("Sheet1", sheet_xml(body)), shared_strings=_sst(["only"]))


def _parts(package: Package) -> dict[str, bytes]:
    return {name: b"".join(chunks) for name, chunks in package.parts()}


def _rel_traversal(path: Path) -> None:
    parts = _parts(Package([_simple([["a", 1, None, None]])]))
    rels = "xl/_rels/workbook.xml.rels"
    parts[rels] = parts[rels].replace(
        b'Target="worksheets/sheet1.xml"', b'Target="../../../../etc/passwd"'
    )
    _zip(parts)(path)


def _duplicate_entries(path: Path) -> None:
    first = _parts(Package([_simple([["first", 1, None, None]])]))
    second = _parts(Package([_simple([["second", 2, None, None], ["third", 3, None, None]])]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about the duplicate name: the point
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in first.items():
                archive.writestr(name, data)
            archive.writestr("xl/worksheets/sheet1.xml", second["xl/worksheets/sheet1.xml"])


def _laughs_in_sheet(path: Path) -> None:
    entities = '<!ENTITY a "aaaaaaaaaa">' + "".join(
        f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(8)
    )
    body = [
        *_rows([HEADER]),
        row_xml(2, ['<c r="A2" t="inlineStr"><is><t>&i;</t></is></c>', number_cell("B2", "1")]),
    ]
    prolog = f"<!DOCTYPE worksheet [{entities}]>"
    Package([Sheet("Sheet1", sheet_xml(body, prolog=prolog))]).write(path)


def _hidden_only(path: Path) -> None:
    Package(
        [
            Sheet("Hidden1", sheet_xml(_rows([HEADER, ["h", 1, None, None]])), state="hidden"),
            Sheet("Hidden2", sheet_xml(_rows([HEADER, ["v", 2, None, None]])), state="veryHidden"),
        ]
    ).write(path)


def _many_sheets(path: Path) -> None:
    sheets = [_simple([["first", 1, None, None], ["second", 2, None, None]], "Data")]
    sheets += [Sheet(f"S{i}", sheet_xml(_rows([["junk"]]))) for i in range(2, 301)]
    Package(sheets).write(path)


def _symlink_to(target: str) -> Callable[[Path], None]:
    def build(path: Path) -> None:
        os.symlink(target, path)

    return build


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _directory(path: Path) -> None:
    path.mkdir()


# Values that break naive SQL, COPY text format, shells, format strings and terminals.
SQL_VALUES = [
    "'; DROP TABLE form_data; --",
    "Robert'); DELETE FROM import_jobs;--",
    '" OR 1=1 --',
    "\\.",
    "\\N",
    "C:\\new\\table\\x00",
    "a\tb\nc\\td",
    "%s %(name)s {0} {} %%",
    "$$ dollar $$ quoted $tag$",
    "E'\\x41'",
    "/* comment */ SELECT pg_sleep(10)",
    '\'; DROP TABLE forms.hostile; DROP TABLE "forms"."hostile"; --',
]
SHELL_VALUES = [
    "$(touch pwned)",
    "`touch pwned`",
    "; touch pwned",
    "| touch pwned",
    "&& touch pwned",
    "> pwned",
    "${IFS}touch${IFS}pwned",
    "\x1b[31mred\x1b[0m \x1b]0;title\x07",
]
CONTROL_VALUES = [
    "bell\x07 esc\x1b del\x7f",
    "soh\x01 stx\x02 us\x1f",
    "cr\r lf\n crlf\r\n tab\t",
    "nel\x85 ls\u2028 ps\u2029",
    "zero\u200bwidth\ufeffbom\u00a0nbsp",
    "literal _x0041_ stays",
    "lone surrogate-free \ufffd replacement",
]
RTL_EMOJI_VALUES = [
    "\u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645",
    "\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd",
    "abc\u202edcba\u202c rlo override",
    "\U0001f469\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466 family "
    "\U0001f3f3\ufe0f\u200d\U0001f308 flag",
    "\U0001d54f astral \U0002070e cjk-ext",
    "e\u0301 combining Z\u0351\u0352\u0353algo",
]
LONG_VALUE = ("0123456789€✓" * 3000)[:32_767]
SQL_SHEET = "'); DROP TABLE form_data;--"
SHELL_SHEET = "$(touch pwned)`id`|&;<>"
QUOTES_SHEET = '"' * 31
APOSTROPHES_SHEET = "'" * 31
RTL_SHEET = "עברית مرحبا 😀"


def _values_rows(values: list[str]) -> list[list[object]]:
    return [[f"row {i}", i, v, None] for i, v in enumerate(values, start=1)]


def _verbatim(values: list[str], first_row: int = 2) -> dict[int, dict[str, object]]:
    return {first_row + i: {"note": v} for i, v in enumerate(values)}


def _hostile_header_sheet(name: str, values: list[str]) -> Sheet:
    extras = [*SQL_VALUES[:3], *SHELL_VALUES[:2]]
    rows = [[*HEADER, *extras]] + [[*r, *extras] for r in _values_rows(values)]
    return Sheet(name, sheet_xml(_rows(rows)))


def cases() -> list[Case]:
    csv = b"Name,Qty,Note,When\nalpha,1,,\nbeta,2,,\n"
    html = (
        b"<html><body><table><tr><td>Name</td><td>Qty</td></tr>"
        b"<tr><td>a</td><td>1</td></tr></table></body></html>"
    )
    pdf = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
    docx = _zip(
        {
            "[Content_Types].xml": b'<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
            "word/document.xml": b'<?xml version="1.0"?><document/>',
        }
    )
    return [
        Case(
            "renamed_csv.xlsx",
            "imported",
            _write_bytes(csv),
            "CSV text named .xlsx: the format comes from the bytes, and CSV is supported",
            good=2,
            verbatim={2: {"name": "alpha", "qty": 1}, 3: {"name": "beta", "qty": 2}},
        ),
        Case("renamed_html.xlsx", "refused", _write_bytes(html), "HTML table named .xlsx"),
        Case("renamed_pdf.xlsx", "refused", _write_bytes(pdf), "PDF named .xlsx"),
        Case("empty.xlsx", "refused", _write_bytes(b""), "zero-byte file"),
        Case("docx_renamed.xlsx", "refused", docx, "a zip that is a Word document"),
        Case("plain_zip.xlsx", "refused", _zip({"readme.txt": b"hello"}), "a zip of text"),
        Case(
            "zero_byte_sheet.xlsx",
            "refused",
            _package(Sheet("Sheet1", b"")),
            "a valid package whose worksheet part is empty",
        ),
        Case("truncated_zip.xlsx", "refused", _truncated, "first 60% of a real workbook"),
        Case(
            "zip_bomb.xlsx",
            "refused",
            lambda p: write_zip_bomb(p, ZIP_BOMB_BYTES),
            "1 MB file whose sheet inflates to 1 GiB (header lacks Qty, so refused either way)",
        ),
        Case(
            "billion_laughs.xlsx",
            "refused",
            _package(_sst_sheet(), shared_strings=_billion_laughs()),
            "nested entities in sharedStrings: 10^9 'lol's if expanded",
            absent=("lollol",),
        ),
        Case(
            "quadratic_blowup.xlsx",
            "refused",
            _package(_sst_sheet(), shared_strings=_quadratic_blowup()),
            "one 100 kB entity referenced 50,000 times (5 GB if expanded)",
            absent=("AAAAAAAAAA",),
        ),
        Case(
            "xxe_external_entity.xlsx",
            "refused",
            _package(_sst_sheet(), shared_strings=_xxe()),
            "external entity pointing at /etc/passwd",
            absent=("root:",),
        ),
        Case("encrypted.xlsx", "refused", _encrypted, "password-protected (agile encryption)"),
        Case(
            "billion_laughs_in_sheet.xlsx",
            "refused",
            _laughs_in_sheet,
            "nested entities in the worksheet XML itself (10^9 characters if expanded)",
            absent=("aaaaaaaaaaaaaaaaaaaa",),
        ),
        Case(
            "sst_index_out_of_range.xlsx",
            "refused",
            _sst_reference("999"),
            "a cell points at shared string 999 of a one-string table",
        ),
        Case(
            "sst_index_negative.xlsx",
            "refused",
            _sst_reference("-1"),
            "a cell points at shared string -1: must not silently read the last string",
        ),
        Case(
            "rel_target_traversal.xlsx",
            "refused",
            _rel_traversal,
            "the sheet relationship targets ../../../../etc/passwd",
            absent=("root:",),
        ),
        Case(
            "duplicate_zip_entries.xlsx",
            "refused",
            _duplicate_entries,
            "two parts named xl/worksheets/sheet1.xml with different rows (OPC forbids equal "
            "part names; tools disagree on which one counts)",
        ),
        Case(
            "only_hidden_sheets.xlsx",
            "refused",
            _hidden_only,
            "every sheet hidden/veryHidden and no --sheet given: nothing visible to import",
        ),
        Case(
            "hidden_sheet_named.xlsx",
            "imported",
            _hidden_only,
            "the same workbook with --sheet naming the hidden sheet",
            good=1,
            sheet="Hidden1",
            verbatim={2: {"name": "h", "qty": 1}},
        ),
        Case(
            "missing_required_columns.xlsx",
            "refused",
            _xlsxwriter([["a", "n"]], header=["Name", "Note"]),
            "header lacks the required Qty",
        ),
        Case(
            "duplicate_headers.xlsx",
            "refused",
            _xlsxwriter([["a", 1, 2]], header=["Name", "Qty", "qty "]),
            "two columns match the field qty",
        ),
        Case(
            "malformed_sheet_xml.xlsx",
            "refused_or_failed",
            _malformed_xml,
            "worksheet XML cut off inside a cell after 2,000 rows",
        ),
        Case(
            "refs_beyond_limits.xlsx",
            "refused",
            _package(
                Sheet(
                    "Sheet1",
                    sheet_xml(
                        [
                            *_rows([HEADER, ["a", 1, None, None]]),
                            row_xml(
                                1_048_577,
                                [text_cell("A1048577", "b"), number_cell("B1048577", "2")],
                            ),
                        ]
                    ),
                )
            ),
            "a row numbered 1,048,577 (past Excel's last row)",
        ),
        Case(
            "refs_overflow.xlsx",
            "refused",
            _package(
                Sheet(
                    "Sheet1",
                    sheet_xml(
                        [
                            *_rows([HEADER]),
                            row_xml(2, [text_cell("A4294967297", "wrap"), number_cell("B2", "1")]),
                        ]
                    ),
                )
            ),
            "cell A4294967297: a row number that wraps a 32-bit counter onto the header",
        ),
        Case(
            "refs_garbage.xlsx",
            "refused",
            _package(
                Sheet(
                    "Sheet1",
                    sheet_xml([*_rows([HEADER]), row_xml(2, ['<c r="!!"><v>1</v></c>'])]),
                )
            ),
            "cell reference that is not a reference",
        ),
        Case(
            "far_corner_cell.xlsx",
            "imported",
            _far_corner,
            "a value in XFD1048576, Excel's last cell: a dense reader allocates 17 billion cells",
            good=4,
            verbatim={1_048_576: {"name": "last", "qty": 4}},
        ),
        Case(
            "cols_16384.xlsx",
            "imported",
            _wide,
            "16,384 columns, every one filled (extra columns are ignored)",
            good=5,
            verbatim={2: {"name": "wide 2", "qty": 2, "note": "note 2"}},
        ),
        Case(
            "rows_1048576_formatted.xlsx",
            "imported",
            _formatted_empty_rows,
            "3 data rows, then formatted empty rows down to row 1,048,576",
            good=3,
            verbatim={4: {"name": "c", "qty": 3}},
        ),
        Case(
            "error_cells.xlsx",
            "imported",
            _error_cells,
            "every data cell is an Excel error (#N/A, #DIV/0!, ...): every row rejected",
            bad=20,
        ),
        Case(
            "getting_data_error.xlsx",
            "imported",
            _getting_data,
            "one #GETTING_DATA error cell (Excel's newest error value): that row alone rejected",
            good=2,
            bad=1,
            verbatim={2: {"name": "a"}, 4: {"name": "c"}},
        ),
        Case(
            "long_cell_32767.xlsx",
            "imported",
            _xlsxwriter(_values_rows([LONG_VALUE, LONG_VALUE[::-1]])),
            "32,767-character cells (Excel's maximum), multi-byte",
            good=2,
            verbatim=_verbatim([LONG_VALUE, LONG_VALUE[::-1]]),
        ),
        Case(
            "control_characters.xlsx",
            "imported",
            _package(_simple(_values_rows(CONTROL_VALUES))),
            "C0/C1 controls, CR/LF, NEL, zero-width and BOM characters, a literal _x0041_",
            good=len(CONTROL_VALUES),
            verbatim=_verbatim(CONTROL_VALUES),
        ),
        Case(
            "nul_character.xlsx",
            "imported",
            _package(_simple(_values_rows(["before", "nul\x00inside", "after"]))),
            "a U+0000 in a cell: PostgreSQL text/jsonb cannot hold it, so that row is rejected",
            good=2,
            bad=1,
            verbatim={2: {"note": "before"}, 4: {"note": "after"}},
        ),
        Case(
            "rtl_emoji.xlsx",
            "imported",
            _xlsxwriter(_values_rows(RTL_EMOJI_VALUES), sheet=RTL_SHEET),
            "Arabic, Hebrew, RLO override, ZWJ emoji, astral planes, combining marks",
            good=len(RTL_EMOJI_VALUES),
            sheet=RTL_SHEET,
            verbatim=_verbatim(RTL_EMOJI_VALUES),
        ),
        Case(
            "formulas_without_cached_values.xlsx",
            "imported",
            _formulas_without_cache,
            "formulas never calculated: no value, so each such row is rejected (even in an "
            "optional column: the sender meant a value), never stored as formula text",
            bad=3,
            absent=("CONCAT", "1+1", "HYPERLINK"),
        ),
        Case(
            "weird_numbers.xlsx",
            "imported",
            _weird_numbers,
            "NaN, inf, 1e999, 1.5 as integers; dates at serial -5, 1e10, NaN",
            good=2,
            bad=7,
            verbatim={2: {"name": "ok", "qty": 2, "when": "2023-03-15"}, 11: {"qty": 11}},
        ),
        Case(
            "sst_count_lie.xlsx",
            "imported",
            _package(_sst_sheet(), shared_strings=_sst(["liar"], count="4294967295")),
            "sharedStrings claims 4,294,967,295 strings (pre-allocation bait)",
            good=1,
            verbatim={2: {"name": "liar"}},
        ),
        Case(
            "header_not_first_row.xlsx",
            "imported",
            _package(
                Sheet(
                    "Sheet1",
                    sheet_xml(_rows([HEADER, ["r5", 5, None, None], ["r6", 6, None, None]], 4)),
                )
            ),
            "rows 1-3 empty: the header is row 4, data rows keep their Excel numbers",
            good=2,
            verbatim={5: {"name": "r5", "qty": 5}, 6: {"name": "r6", "qty": 6}},
        ),
        Case("many_sheets.xlsx", "imported", _many_sheets, "300 sheets; data on the first", good=2),
        Case(
            "sql_metacharacters.xlsx",
            "imported",
            _package(_hostile_header_sheet(SQL_SHEET, SQL_VALUES)),
            "SQL/COPY metacharacters in the sheet name, extra headers and values",
            good=len(SQL_VALUES),
            sheet=SQL_SHEET,
            verbatim=_verbatim(SQL_VALUES),
        ),
        Case(
            "shell_metacharacters.xlsx",
            "imported",
            _package(_hostile_header_sheet(SHELL_SHEET, SHELL_VALUES)),
            "shell metacharacters and terminal escapes in the sheet name, headers and values",
            good=len(SHELL_VALUES),
            sheet=SHELL_SHEET,
            verbatim=_verbatim(SHELL_VALUES),
        ),
        Case(
            "sheet_31_quotes.xlsx",
            "imported",
            _xlsxwriter([["q", 1, '"', None]], sheet=QUOTES_SHEET),
            "a sheet named with 31 double quotes",
            good=1,
            sheet=QUOTES_SHEET,
            verbatim={2: {"note": '"'}},
        ),
        Case(
            "sheet_31_apostrophes.xlsx",
            "imported",
            _package(_simple([["a", 1, "'", None]], APOSTROPHES_SHEET)),
            "a sheet named with 31 apostrophes (the quote of sheet references)",
            good=1,
            sheet=APOSTROPHES_SHEET,
            verbatim={2: {"note": "'"}},
        ),
        Case(
            "$(touch pwned); 'name\".xlsx",
            "imported",
            _xlsxwriter([["f", 1, None, None]]),
            "shell and quote characters in the file name itself",
            good=1,
        ),
        Case("dev_zero.xlsx", "refused", _symlink_to("/dev/zero"), "a symlink to /dev/zero"),
        Case("fifo.xlsx", "refused", _fifo, "a named pipe nobody writes to (a read would block)"),
        Case("directory.xlsx", "refused", _directory, "a directory"),
        *_declared_sizes(),
    ]


def _backslashes(path: Path) -> None:
    """A good workbook whose zip entries are named with Windows' separator."""
    _xlsxwriter([["w", 1, "windows", None], ["x", 2, None, None]])(path)
    with zipfile.ZipFile(path) as archive:
        parts = {info.filename: archive.read(info) for info in archive.infolist()}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name.replace("/", "\\"), data)


def _declared_sizes() -> list[Case]:
    """Files whose declared sizes lie (tests/hostile/xls_files.py), and one whose zip
    entries are named with backslashes."""
    refused = [
        Case(name, "refused", _write_bytes(build()), f"an .xls: {why}")
        for name, (build, why) in xls_files.REFUSED.items()
    ]
    read = [
        Case(
            name,
            "imported",
            _write_bytes(build()),
            "an .xls whose declared sizes are wrong, read by what it holds",
            good=xls_files.ROWS,
            verbatim={2: {"name": "item 1", "qty": 1}, 601: {"name": "item 600", "qty": 600}},
        )
        for name, build in xls_files.READ.items()
    ]
    backslashes = Case(
        "backslash_entries.xlsx",
        "imported",
        _backslashes,
        "zip entries named xl\\worksheets\\sheet1.xml (Windows' separator)",
        good=2,
        verbatim={2: {"name": "w", "qty": 1, "note": "windows"}},
    )
    return [*refused, *read, backslashes]


def generate(outdir: Path) -> list[Case]:
    outdir.mkdir(parents=True, exist_ok=True)
    (outdir / "hostile.form.toml").write_text(FORM_TOML, encoding="utf-8")
    made = cases()
    for case in made:
        case.build(outdir / case.name)
    manifest = [case.manifest() for case in made]
    (outdir / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False))
    return made


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tests.hostile.generate OUTDIR", file=sys.stderr)
        return 2
    made = generate(Path(argv[0]))
    print(f"wrote {len(made)} hostile inputs to {argv[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
