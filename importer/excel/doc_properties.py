"""An .xlsx workbook's custom document properties (File > Properties > Custom in Excel and
LibreOffice, ``docProps/custom.xml``): where an error workbook says which imports its sheets
came from (report/row_keys.py). Excel and LibreOffice keep them when they save the file.

Read without loading the workbook: the package's relationships name the part; it is small,
read within a bound and parsed by defusedxml. Anything unreadable is no properties at all.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
from pathlib import Path
from xml.etree.ElementTree import Element

from defusedxml import ElementTree as SafeET

_CUSTOM = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties"
_RELS_NS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_LIMIT = 1 << 20  # bytes: a few properties need a few hundred


def custom_properties(source: bytes | Path) -> dict[str, str]:
    """Name -> text of the workbook's custom properties (its bytes, or its path: then only
    the parts needed are read); {} for a file that is no .xlsx package or has none."""
    try:
        if isinstance(source, bytes):
            if not source.startswith(b"PK"):
                return {}
            opened = zipfile.ZipFile(io.BytesIO(source))
        elif not source.is_file():  # a pipe or a device: opening it could block forever
            return {}
        else:
            with source.open("rb") as handle:
                if handle.read(2) != b"PK":
                    return {}
            opened = zipfile.ZipFile(source)
        with opened as archive:
            part = _custom_part(archive)
            if part is None:
                return {}
            root = _parse(archive, part)
    except Exception:  # a damaged package, a refused XML: the reader says so, not this
        return {}
    if root is None:
        return {}
    found: dict[str, str] = {}
    for prop in root:
        name = prop.get("name")
        if name and len(prop):
            found[name] = "".join(prop[0].itertext())
    return found


def _custom_part(archive: zipfile.ZipFile) -> str | None:
    """The part the package's relationships name as its custom properties."""
    names = {name.lower(): name for name in archive.namelist()}
    rels = names.get("_rels/.rels")
    root = _parse(archive, rels) if rels else None
    for rel in root if root is not None else ():
        if rel.tag == f"{_RELS_NS}Relationship" and rel.get("Type") == _CUSTOM:
            target = posixpath.normpath((rel.get("Target") or "").lstrip("/"))
            return names.get(target.lower())
    return names.get("docprops/custom.xml")


def _parse(archive: zipfile.ZipFile, name: str) -> Element | None:
    info = archive.getinfo(name)
    if info.file_size > _LIMIT:
        return None
    with archive.open(info) as handle:
        data = handle.read(_LIMIT + 1)
    if len(data) > _LIMIT:
        return None
    root: Element = SafeET.fromstring(data)
    return root
