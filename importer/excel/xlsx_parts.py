"""The small parts of an .xlsx package, read safely: sheets, date system, number formats."""

from __future__ import annotations

import contextlib
import posixpath
import re
import zipfile
import zlib
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from defusedxml import ElementTree as SafeET

from importer.errors import InputError
from importer.excel.values import zero_padded_width

_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_STRICT = "{http://purl.oclc.org/ooxml/spreadsheetml/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_PKG_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_SMALL_PART_LIMIT = 64 << 20
# What reading a damaged part raises: CRC or header errors, a corrupt deflate stream.
UNPACK_ERRORS = (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError)


@dataclass(frozen=True)
class SheetEntry:
    name: str
    state: str  # "visible" | "hidden" | "veryHidden"
    path: str | None  # part name inside the zip (None if the relationship is broken)


@dataclass
class XlsxInfo:
    sheets: list[SheetEntry]  # worksheets only, in workbook order
    charts: list[str]  # names of the chart (and dialog, macro) sheets: no cells to read
    date1904: bool
    # cellXfs index -> digits the number is zero-padded to (formats like "00000")
    zero_padded_styles: dict[int, int] = field(default_factory=dict)
    # The shared-strings table claims far more strings than it can hold: calamine
    # reserves memory for the claim up front and aborts the process on a big lie.
    strings_claim_absurd: bool = False


def _cannot_unpack(name: str, part: str) -> InputError:
    return InputError(f"{name}: the file is damaged (part {part} cannot be unpacked)")


def _parse(archive: zipfile.ZipFile, part: str, name: str) -> Element | None:
    try:
        info = archive.getinfo(part)
    except KeyError:
        return None
    if info.file_size > _SMALL_PART_LIMIT:
        raise InputError(f"{name}: part {part} is unreasonably large ({info.file_size >> 20} MB)")
    try:
        root: Element = SafeET.fromstring(archive.read(part))
    except zipfile.BadZipFile:
        raise _cannot_unpack(name, part) from None
    except Exception as exc:  # defusedxml's refusals and ParseError
        raise InputError(
            f"{name}: the workbook is damaged or unsafe ({part}: {type(exc).__name__})"
        ) from None
    return root


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


# Sheet relationship types (their last path segment) that hold no worksheet cells.
_NOT_WORKSHEETS = frozenset({"chartsheet", "dialogsheet", "xlmacrosheet", "xlintlmacrosheet"})


def read_xlsx_info(archive: zipfile.ZipFile, name: str) -> XlsxInfo:
    workbook = _parse(archive, "xl/workbook.xml", name)
    if workbook is None:
        raise InputError(f"{name}: the workbook has no xl/workbook.xml part")
    rels_root = _parse(archive, "xl/_rels/workbook.xml.rels", name)
    targets: dict[str, str] = {}
    not_cells: set[str] = set()  # relationships to chart, dialog and macro sheets
    if rels_root is not None:
        for rel in rels_root:
            target = rel.get("Target", "")
            if target.startswith("/"):
                path = target.lstrip("/")
            else:
                path = posixpath.normpath(posixpath.join("xl", target))
            targets[rel.get("Id", "")] = path
            if rel.get("Type", "").rsplit("/", 1)[-1].lower() in _NOT_WORKSHEETS:
                not_cells.add(rel.get("Id", ""))

    date1904 = False
    sheets: list[SheetEntry] = []
    charts: list[str] = []
    for child in workbook:
        tag = _local(child.tag)
        if tag == "workbookPr":
            date1904 = child.get("date1904", "false").lower() in ("1", "true")
        elif tag == "sheets":
            for sheet in child:
                rid = sheet.get(f"{_REL}id") or sheet.get(
                    "{http://purl.oclc.org/ooxml/officeDocument/relationships}id"
                )
                if (rid or "") in not_cells:
                    charts.append(sheet.get("name", ""))
                    continue
                sheets.append(
                    SheetEntry(
                        name=sheet.get("name", ""),
                        state=sheet.get("state", "visible"),
                        path=targets.get(rid or ""),
                    )
                )
    return XlsxInfo(
        sheets=sheets,
        charts=charts,
        date1904=date1904,
        zero_padded_styles=_zero_styles(archive, name),
        strings_claim_absurd=_strings_claim_absurd(archive, name),
    )


_UNIQUE_COUNT = re.compile(rb'<(?:\w+:)?sst\b[^>]*?\buniqueCount="\s*(\d+)')
_SST_PREFIX = re.compile(rb"<(?:(\w+):)?sst\b")
_SST_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
_CHUNK = 4 << 20


def sheet_part(archive: zipfile.ZipFile, sheet: str) -> str | None:
    """The part holding worksheet ``sheet``'s cells; None if the package has no such part."""
    info = read_xlsx_info(archive, "workbook")
    part = next((s.path for s in info.sheets if s.name == sheet), None)
    return part if part is not None and part in archive.NameToInfo else None


def calamine_strings_part(archive: zipfile.ZipFile) -> zipfile.ZipInfo | None:
    """The shared strings calamine reads: xl/sharedStrings.xml in any letter case (it does not
    follow relationships)."""
    for info in archive.infolist():
        if info.filename.lower() == "xl/sharedstrings.xml":
            return info
    return None


def _strings_parts(archive: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    """Every part an engine may take the shared strings from: calamine's, and the one
    [Content_Types].xml declares, which is openpyxl's."""
    parts = [p for p in [calamine_strings_part(archive)] if p is not None]
    try:
        types = _parse(archive, "[Content_Types].xml", "")
    except InputError:
        types = None  # openpyxl refuses such a file itself; calamine ignores the part
    for override in types if types is not None else []:
        if _local(override.tag) == "Override" and override.get("ContentType") == _SST_TYPE:
            with contextlib.suppress(KeyError):
                parts.append(archive.getinfo(override.get("PartName", "")[1:]))
    return list({p.filename: p for p in parts}.values())


def shared_strings_bytes(archive: zipfile.ZipFile) -> int:
    """Unpacked size of the largest shared-strings part an engine may read (0: none)."""
    return max((p.file_size for p in _strings_parts(archive)), default=0)


def count_shared_strings(archive: zipfile.ZipFile, name: str, enough: int) -> int:
    """How many strings the shared-strings table holds (0 without one), counting its <si>
    elements in the bytes: the count and uniqueCount attributes may lie. Counting stops at
    `enough`. When engines would read different parts, the larger table counts."""
    parts = _strings_parts(archive)
    return max((_count_items(archive, part, name, enough) for part in parts), default=0)


def _count_items(archive: zipfile.ZipFile, part: zipfile.ZipInfo, name: str, enough: int) -> int:
    count = 0
    tail = b""
    try:
        with archive.open(part) as handle:
            first = handle.read(_CHUNK)
            match = _SST_PREFIX.search(first[:65536])
            # <si>, and <x:si> when the table uses a namespace prefix. No other element of
            # the table starts with "si", and text cannot hold a "<".
            starts = [b"<si"]
            if match and match.group(1):
                starts.append(b"<" + match.group(1) + b":si")
            keep = max(map(len, starts)) - 1  # a tag cut by a chunk's end starts in its tail
            data = first
            while data and count < enough:
                buffer = tail + data
                # Tags wholly inside the tail were counted with the previous chunk.
                count += sum(buffer.count(start) - tail.count(start) for start in starts)
                tail = buffer[-keep:]
                data = handle.read(_CHUNK)
    except UNPACK_ERRORS:
        raise _cannot_unpack(name, part.filename) from None
    return count


def _strings_claim_absurd(archive: zipfile.ZipFile, name: str) -> bool:
    """uniqueCount larger than the part could hold (each <si> takes at least 5 bytes)."""
    info = calamine_strings_part(archive)
    if info is None:
        return False
    try:
        with archive.open(info) as handle:
            head = handle.read(4096)
    except UNPACK_ERRORS:
        raise _cannot_unpack(name, info.filename) from None
    match = _UNIQUE_COUNT.search(head)
    return match is not None and int(match.group(1)) > info.file_size // 5 + 1000


def _zero_styles(archive: zipfile.ZipFile, name: str) -> dict[int, int]:
    styles = _parse(archive, "xl/styles.xml", name)
    if styles is None:
        return {}
    custom: dict[int, int] = {}
    xfs: list[Element] = []
    for child in styles:
        tag = _local(child.tag)
        if tag == "numFmts":
            for fmt in child:
                width = zero_padded_width(fmt.get("formatCode", ""))
                if width:
                    try:
                        custom[int(fmt.get("numFmtId", "-1"))] = width
                    except ValueError:
                        continue
        elif tag == "cellXfs":
            xfs = list(child)
    if not custom:
        return {}
    out: dict[int, int] = {}
    for index, xf in enumerate(xfs):
        try:
            fmt_id = int(xf.get("numFmtId", "0"))
        except ValueError:
            continue
        if fmt_id in custom:
            out[index] = custom[fmt_id]
    return out
