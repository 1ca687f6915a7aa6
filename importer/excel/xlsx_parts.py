"""The small parts of an .xlsx package, read safely: sheets, date system, number formats."""

from __future__ import annotations

import contextlib
import io
import posixpath
import re
import shutil
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
_OFFICE_DOCUMENT = "/officeDocument"  # the end of its Type, transitional or strict
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


def part_named(archive: zipfile.ZipFile, part: str) -> zipfile.ZipInfo | None:
    """The zip entry of a part name, matched without regard to case, as Excel does (OPC part
    names are case-insensitive)."""
    info = archive.NameToInfo.get(part)
    if info is not None:
        return info
    wanted = part.casefold()
    return next((i for i in archive.infolist() if i.filename.casefold() == wanted), None)


def _parse(archive: zipfile.ZipFile, part: str, name: str) -> Element | None:
    info = part_named(archive, part)
    if info is None:
        return None
    part = info.filename
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


def _resolve(source: str, target: str) -> str:
    """A relationship's target as a part name: absolute, or relative to its source's folder."""
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    return posixpath.normpath(posixpath.join(posixpath.dirname(source), target))


def rels_of(part: str) -> str:
    """The name of the part holding ``part``'s relationships."""
    folder, base = posixpath.split(part)
    return posixpath.join(folder, "_rels", base + ".rels")


def workbook_part(archive: zipfile.ZipFile) -> str:
    """The workbook part: the target of the package's officeDocument relationship
    (_rels/.rels), as the zip names it; xl/workbook.xml when the package does not say."""
    try:
        root = _parse(archive, "_rels/.rels", "")
    except InputError:
        root = None  # what follows refuses the package with its own words
    for rel in root if root is not None else []:
        if rel.get("Type", "").endswith(_OFFICE_DOCUMENT) and rel.get("TargetMode") != "External":
            info = part_named(archive, _resolve("", rel.get("Target", "")))
            if info is not None:
                return info.filename
    return "xl/workbook.xml"


def read_xlsx_info(archive: zipfile.ZipFile, name: str) -> XlsxInfo:
    part = workbook_part(archive)
    workbook = _parse(archive, part, name)
    if workbook is None:
        raise InputError(f"{name}: the workbook has no {part} part")
    rels_root = _parse(archive, rels_of(part), name)
    targets: dict[str, str] = {}
    not_cells: set[str] = set()  # relationships to chart, dialog and macro sheets
    styles = "xl/styles.xml"
    for rel in rels_root if rels_root is not None else []:
        path = _resolve(part, rel.get("Target", ""))
        info = part_named(archive, path)
        path = info.filename if info is not None else path  # as the zip names it
        targets[rel.get("Id", "")] = path
        kind = rel.get("Type", "").rsplit("/", 1)[-1].lower()
        if kind in _NOT_WORKSHEETS:
            not_cells.add(rel.get("Id", ""))
        elif kind == "styles":
            styles = path

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
        zero_padded_styles=_zero_styles(archive, styles, name),
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


def _zero_styles(archive: zipfile.ZipFile, part: str, name: str) -> dict[int, int]:
    styles = _parse(archive, part, name)
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


# --- a package laid out where the engines look ----------------------------------------------
# Excel finds the workbook part through the package's relationships and matches part names
# without regard to case. calamine reads xl/workbook.xml's relationships, styles and shared
# strings at their usual names; openpyxl matches names exactly and reads xl/styles.xml. A
# package laid out otherwise is rewritten, parts renamed, relationships pointed at the new
# names, before any engine sees it.

_WORKBOOK_ROOT = re.compile(rb"<(?:[\w.-]+:)?workbook[\s>/]")
_RELATIONSHIP = re.compile(r"<(?:[\w.-]+:)?Relationship\b[^>]*>")
_TARGET = re.compile(r"""(\bTarget\s*=\s*)(["'])(.*?)\2""", re.DOTALL)
_PART_NAME = re.compile(r"""(\bPartName\s*=\s*)(["'])(.*?)\2""", re.DOTALL)
# The parts calamine and openpyxl read at fixed names, by the workbook's relationship type.
_FIXED_NAMES = {"styles": "xl/styles.xml", "sharedStrings": "xl/sharedStrings.xml"}
_MAX_RELS = 2000  # relationship parts followed (a workbook has a few per sheet)


def xml_unescape(text: str) -> str:
    """The five entities XML predefines (what attribute and text values escape)."""
    return (
        text.replace("&quot;", '"')
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
    )


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def _rels_targets(archive: zipfile.ZipFile, rels: str) -> list[tuple[str, str]]:
    """(type's last segment, target) of each internal relationship in a rels part."""
    root = _parse(archive, rels, "")
    out = []
    for rel in root if root is not None else []:
        if rel.get("TargetMode") != "External" and rel.get("Target"):
            out.append((rel.get("Type", "").rsplit("/", 1)[-1], rel.get("Target", "")))
    return out


def _is_workbook(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bool:
    if not info.filename.lower().endswith(".xml") or info.file_size > _SMALL_PART_LIMIT:
        return False
    with archive.open(info) as handle:
        return _WORKBOOK_ROOT.search(handle.read(8192)) is not None


@dataclass(frozen=True)
class Arrangement:
    """How a package's parts are renamed (zip name -> new name), and the rels and content
    types parts whose text must then say the new names."""

    renames: dict[str, str]
    rels_sources: dict[str, str]  # rels part (zip name) -> the part it describes (zip name)


def arrangement(archive: zipfile.ZipFile) -> Arrangement | None:
    """How to lay the package out as the engines read it: None when it is no SpreadsheetML
    package by its relationships (or its parts would clash once renamed); no renames when
    it is laid out so already. Damaged relationship parts count as no relationships: what
    reads the package next says what is wrong."""
    try:
        return _arrangement(archive)
    except (InputError, *UNPACK_ERRORS):
        return None


def _arrangement(archive: zipfile.ZipFile) -> Arrangement | None:
    root = part_named(archive, "_rels/.rels")
    if root is None:
        return None
    office = [t for kind, t in _rels_targets(archive, root.filename) if kind == "officeDocument"]
    book = part_named(archive, _resolve("", office[0])) if office else None
    if book is None or not _is_workbook(archive, book):
        return None
    spelled = _resolve("", office[0])  # the name as the relationship spells it
    folder = posixpath.dirname(spelled).casefold()

    def placed(path: str) -> str:
        """A part's new name: under xl/ where it was beside the workbook, spelled as its
        relationship spells it."""
        if folder != "xl" and (not folder or path.casefold().startswith(folder + "/")):
            return "xl/" + path[len(folder) + 1 if folder else 0 :]
        return path

    new: dict[str, str] = {root.filename: "_rels/.rels", book.filename: "xl/workbook.xml"}
    types = part_named(archive, "[Content_Types].xml")
    if types is not None:
        new[types.filename] = "[Content_Types].xml"
    rels_sources = {root.filename: ""}
    queue: list[tuple[str, str]] = [(book.filename, spelled)]  # (zip name, spelling)
    for _kind, target in _rels_targets(archive, root.filename):
        found = part_named(archive, _resolve("", target))
        if found is not None and found.filename not in new:
            new[found.filename] = placed(_resolve("", target))
            queue.append((found.filename, _resolve("", target)))
    while queue and len(rels_sources) < _MAX_RELS:
        part, spelling = queue.pop(0)
        rels = part_named(archive, rels_of(part))
        if rels is None or rels.filename in rels_sources:
            continue
        rels_sources[rels.filename] = part
        new[rels.filename] = rels_of(new[part])
        for kind, target in _rels_targets(archive, rels.filename):
            path = _resolve(spelling, target)
            found = part_named(archive, path)
            if found is None or found.filename in new:
                continue
            fixed = _FIXED_NAMES.get(kind) if part == book.filename else None
            new[found.filename] = fixed or placed(path)
            queue.append((found.filename, path))
    for info in archive.infolist():
        if info.filename not in new and not info.is_dir():
            new[info.filename] = placed(info.filename)
    if len({n.casefold() for n in new.values()}) != len(new):
        return None  # two parts would share a name: refused as the package is
    renames = {old: name for old, name in new.items() if old != name}
    return Arrangement(renames, rels_sources if renames else {})


def _retargeted(archive: zipfile.ZipFile, rels: str, source: str, new: dict[str, str]) -> bytes:
    """A rels part's text with each internal target pointing at its part's new name,
    relative to the new place of the part it describes."""
    text = archive.read(rels).decode("utf-8-sig")
    base = posixpath.dirname(new.get(source, source)) if source else ""

    def target(match: re.Match[str]) -> str:
        old = xml_unescape(match.group(3))
        found = part_named(archive, _resolve(source, old))
        if found is None or found.filename not in new:
            return match.group(0)
        moved = posixpath.relpath(new[found.filename], base or ".")
        return f"{match.group(1)}{match.group(2)}{_escape(moved)}{match.group(2)}"

    def relationship(match: re.Match[str]) -> str:
        if re.search(r"""TargetMode\s*=\s*["']External""", match.group(0)):
            return match.group(0)
        return _TARGET.sub(target, match.group(0), count=1)

    return _RELATIONSHIP.sub(relationship, text).encode()


def _renamed_types(archive: zipfile.ZipFile, part: str, new: dict[str, str]) -> bytes:
    text = archive.read(part).decode("utf-8-sig")

    def part_name(match: re.Match[str]) -> str:
        found = part_named(archive, xml_unescape(match.group(3)).lstrip("/"))
        if found is None or found.filename not in new:
            return match.group(0)
        return f"{match.group(1)}{match.group(2)}/{_escape(new[found.filename])}{match.group(2)}"

    return _PART_NAME.sub(part_name, text).encode()


def arranged_package(archive: zipfile.ZipFile, plan: Arrangement, name: str) -> bytes:
    """The package rewritten with its parts renamed as ``plan`` says (each part's bytes as
    they were, but the relationships' and content types' names)."""
    new = {info.filename: plan.renames.get(info.filename, info.filename)
           for info in archive.infolist() if not info.is_dir()}  # fmt: skip
    texts: dict[str, bytes] = {}
    out = io.BytesIO()
    current = ""
    try:
        for rels, source in plan.rels_sources.items():
            current = rels
            texts[rels] = _retargeted(archive, rels, source, new)
        types = part_named(archive, "[Content_Types].xml")
        if types is not None:
            current = types.filename
            texts[types.filename] = _renamed_types(archive, types.filename, new)
        with zipfile.ZipFile(out, "w") as package:
            for info in archive.infolist():
                if info.is_dir():
                    continue
                current = info.filename
                entry = zipfile.ZipInfo(new[info.filename], info.date_time)
                entry.compress_type = (
                    info.compress_type
                    if info.compress_type in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
                    else zipfile.ZIP_DEFLATED
                )
                if info.filename in texts:
                    package.writestr(entry, texts[info.filename])
                    continue
                with archive.open(info) as part, package.open(entry, "w") as copy:
                    shutil.copyfileobj(part, copy, 1 << 20)
    except UNPACK_ERRORS:  # a UnicodeDecodeError is a ValueError
        raise _cannot_unpack(name, current) from None
    return out.getvalue()
