"""A minimal SpreadsheetML package writer for files that real libraries refuse to produce.

Only what the hostile corpus needs: worksheets given as raw XML (or as rows of cells),
optional shared strings and styles, hidden sheets, and any part replaced or added verbatim.
Cells are ``(ref, xml_inner, attrs)`` so a test can write anything, even nonsense.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
DOC_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

# cellXfs index 1 formats a number as a date (built-in format 14), index 2 is a fill only.
STYLES = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="{NS}">
<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>
<fills count="3"><fill><patternFill patternType="none"/></fill>
<fill><patternFill patternType="gray125"/></fill>
<fill><patternFill patternType="solid"><fgColor rgb="FFFFFF00"/></patternFill></fill></fills>
<borders count="1"><border/></borders>
<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>
<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>
<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>
<xf numFmtId="0" fontId="0" fillId="2" borderId="0" xfId="0" applyFill="1"/></cellXfs>
<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>
</styleSheet>"""

# Characters XML 1.0 cannot hold (and CR, which XML would normalise): Excel writes _xHHHH_.
_XML_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\ufffe\uffff]|_(?=x[0-9A-Fa-f]{4}_)")


def excel_escape(value: str) -> str:
    """Escape a string the way Excel does inside <t>: _xHHHH_ for unsafe characters."""

    def one(match: re.Match[str]) -> str:
        char = match.group(0)
        return "_x005F_" if char == "_" else f"_x{ord(char):04X}_"

    return escape(_XML_UNSAFE.sub(one, value))


def col_letters(index: int) -> str:
    """1 -> A, 16384 -> XFD."""
    letters = ""
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def text_cell(ref: str, value: str) -> str:
    keep = ' xml:space="preserve"' if value != value.strip() else ""
    return f'<c r="{ref}" t="inlineStr"><is><t{keep}>{excel_escape(value)}</t></is></c>'


def number_cell(ref: str, value: str, style: int = 0) -> str:
    s = f' s="{style}"' if style else ""
    return f'<c r="{ref}"{s}><v>{value}</v></c>'


def row_xml(number: int, cells: Iterable[str], attrs: str = "") -> str:
    return f'<row r="{number}"{attrs}>{"".join(cells)}</row>'


def rows_xml(rows: Iterable[tuple[int, Sequence[object]]]) -> Iterator[str]:
    """Rows of plain values (str -> inline string, int/float -> number, None -> no cell)."""
    for number, values in rows:
        cells = []
        for col, value in enumerate(values, start=1):
            ref = f"{col_letters(col)}{number}"
            if value is None:
                continue
            if isinstance(value, str):
                cells.append(text_cell(ref, value))
            else:
                cells.append(number_cell(ref, repr(value)))
        yield row_xml(number, cells)


def sheet_xml(body: Iterable[str], dimension: str | None = None, prolog: str = "") -> Iterator[str]:
    yield f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n{prolog}'
    yield f'<worksheet xmlns="{NS}" xmlns:r="{REL_NS}">'
    if dimension:
        yield f'<dimension ref="{dimension}"/>'
    yield "<sheetData>"
    yield from body
    yield "</sheetData></worksheet>"


@dataclass
class Sheet:
    name: str
    xml: Iterable[str] | bytes
    state: str = "visible"  # visible | hidden | veryHidden


@dataclass
class Package:
    sheets: list[Sheet]
    shared_strings: str | bytes | None = None
    styles: str | None = STYLES
    extra_parts: dict[str, bytes] = field(default_factory=dict)
    drop_parts: set[str] = field(default_factory=set)

    def parts(self) -> Iterator[tuple[str, Iterable[bytes]]]:
        overrides = [
            '<Override PartName="/xl/workbook.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        ]
        rels = []
        entries = []
        for index, sheet in enumerate(self.sheets, start=1):
            overrides.append(
                f'<Override PartName="/xl/worksheets/sheet{index}.xml" ContentType="application/'
                'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
            )
            rels.append(
                f'<Relationship Id="rId{index}" Type="{DOC_REL}/worksheet" '
                f'Target="worksheets/sheet{index}.xml"/>'
            )
            state = f' state="{sheet.state}"' if sheet.state != "visible" else ""
            entries.append(
                f"<sheet name={quoteattr(sheet.name)} sheetId={quoteattr(str(index))}"
                f'{state} r:id="rId{index}"/>'
            )
        n = len(self.sheets)
        if self.styles is not None:
            overrides.append(
                '<Override PartName="/xl/styles.xml" ContentType="application/'
                'vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
            )
            rels.append(
                f'<Relationship Id="rId{n + 1}" Type="{DOC_REL}/styles" Target="styles.xml"/>'
            )
        if self.shared_strings is not None:
            overrides.append(
                '<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
                'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
            )
            rels.append(
                f'<Relationship Id="rId{n + 2}" Type="{DOC_REL}/sharedStrings" '
                'Target="sharedStrings.xml"/>'
            )
        content_types = (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/'
            'vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            + "".join(overrides)
            + "</Types>"
        )
        yield "[Content_Types].xml", [content_types.encode()]
        yield (
            "_rels/.rels",
            [
                (
                    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                    f'<Relationships xmlns="{PKG_REL}"><Relationship Id="rId1" '
                    f'Type="{DOC_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>'
                ).encode()
            ],
        )
        yield (
            "xl/workbook.xml",
            [
                (
                    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                    f'<workbook xmlns="{NS}" xmlns:r="{REL_NS}"><sheets>'
                    + "".join(entries)
                    + "</sheets></workbook>"
                ).encode()
            ],
        )
        yield (
            "xl/_rels/workbook.xml.rels",
            [
                (
                    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                    f'<Relationships xmlns="{PKG_REL}">' + "".join(rels) + "</Relationships>"
                ).encode()
            ],
        )
        if self.styles is not None:
            yield "xl/styles.xml", [self.styles.encode()]
        if self.shared_strings is not None:
            sst = self.shared_strings
            yield "xl/sharedStrings.xml", [sst if isinstance(sst, bytes) else sst.encode()]
        for index, sheet in enumerate(self.sheets, start=1):
            if isinstance(sheet.xml, bytes):
                yield f"xl/worksheets/sheet{index}.xml", [sheet.xml]
            else:
                yield f"xl/worksheets/sheet{index}.xml", (s.encode() for s in sheet.xml)
        for name, data in self.extra_parts.items():
            yield name, [data]

    def write(self, path: Path) -> None:
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
            for name, chunks in self.parts():
                if name in self.drop_parts:
                    continue
                # Streamed: some parts are hundreds of megabytes uncompressed.
                with archive.open(name, "w", force_zip64=True) as handle:
                    buffer: list[bytes] = []
                    size = 0
                    for chunk in chunks:
                        buffer.append(chunk)
                        size += len(chunk)
                        if size > 1 << 20:
                            handle.write(b"".join(buffer))
                            buffer, size = [], 0
                    handle.write(b"".join(buffer))


def write_zip_bomb(path: Path, inflated_bytes: int) -> None:
    """A valid package whose one worksheet inflates to `inflated_bytes` of XML whitespace.

    Whitespace deflates about 1000:1, so the file stays around a megabyte per gigabyte.
    """
    package = Package(sheets=[Sheet("Sheet1", b"")])
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, chunks in package.parts():
            if name == "xl/worksheets/sheet1.xml":
                continue
            archive.writestr(name, b"".join(chunks))
        head = f'<?xml version="1.0"?><worksheet xmlns="{NS}"><sheetData>'.encode()
        tail = b'<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row>'
        tail += b"</sheetData></worksheet>"
        pad = inflated_bytes - len(head) - len(tail)
        block = b" " * (1 << 24)
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as handle:
            handle.write(head)
            while pad > 0:
                piece = block if pad >= len(block) else block[:pad]
                handle.write(piece)
                pad -= len(piece)
            handle.write(tail)
