"""The number formats of an .ods: which cell styles change what a number cell is.

A cell style (style:style, family table-cell) names a data style (number:number-style,
number:date-style, ...), possibly through its parent style. The styles come from styles.xml
and from content.xml's automatic styles, both small and parsed with defusedxml.
"""

from __future__ import annotations

import re
import zipfile
from xml.etree.ElementTree import Element

from defusedxml import ElementTree as SafeET

from importer.errors import InputError

MAX_PROLOG_BYTES = 64 << 20  # styles.xml, or content.xml's part before the tables

_NS = {
    "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
    "number": "urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0",
}
_STYLE = "{" + _NS["style"] + "}"
_NUMBER = "{" + _NS["number"] + "}"


def _data_style_kinds(root: Element) -> dict[str, tuple[str, int]]:
    """Data style name -> ("zero", digits) | ("date", 0) | ("boolean", 0), for the styles
    that change what a number cell is."""
    kinds: dict[str, tuple[str, int]] = {}
    for element in root.iter():
        tag = element.tag
        if not isinstance(tag, str) or not tag.startswith(_NUMBER):
            continue
        name = element.get(f"{_STYLE}name")
        if name is None:
            continue
        local = tag[len(_NUMBER) :]
        if local == "date-style":
            kinds[name] = ("date", 0)
        elif local == "boolean-style":
            kinds[name] = ("boolean", 0)
        elif local == "number-style":
            children = list(element)
            if len(children) != 1 or children[0].tag != f"{_NUMBER}number":
                continue  # text, conditions or more parts: not plain zero padding
            number = children[0]
            digits = _whole(number.get(f"{_NUMBER}min-integer-digits"), 1)
            decimals = _whole(number.get(f"{_NUMBER}decimal-places"), 0)
            grouping = number.get(f"{_NUMBER}grouping") == "true"
            if digits >= 2 and decimals == 0 and not grouping:
                kinds[name] = ("zero", digits)
    return kinds


def _whole(text: str | None, default: int) -> int:
    try:
        return int(text) if text else default
    except ValueError:  # a damaged attribute: the style is taken as plain
        return default


def _cell_style_kinds(roots: list[Element]) -> dict[str, tuple[str, int]]:
    """Cell style name -> its data style's kind, following parent styles."""
    data_kinds: dict[str, tuple[str, int]] = {}
    for root in roots:
        data_kinds.update(_data_style_kinds(root))
    data_style: dict[str, str] = {}
    parent: dict[str, str] = {}
    for root in roots:
        for element in root.iter(f"{_STYLE}style"):
            name = element.get(f"{_STYLE}name")
            if name is None or element.get(f"{_STYLE}family") != "table-cell":
                continue
            if (data := element.get(f"{_STYLE}data-style-name")) is not None:
                data_style[name] = data
            if (above := element.get(f"{_STYLE}parent-style-name")) is not None:
                parent[name] = above
    kinds: dict[str, tuple[str, int]] = {}
    for name in set(data_style) | set(parent):
        style: str | None = name
        for _ in range(16):  # a parent chain is short; a loop is a damaged file
            if style is None or style in data_style:
                break
            style = parent.get(style)
        kind = data_kinds.get(data_style.get(style, "")) if style is not None else None
        if kind is not None:
            kinds[name] = kind
    return kinds


def _parse_small(data: bytes, name: str, part: str) -> Element | None:
    try:
        root: Element = SafeET.fromstring(data)
    except Exception as exc:  # defusedxml's refusals and ParseError
        raise InputError(
            f"{name}: the workbook is damaged or unsafe ({part}: {type(exc).__name__})"
        ) from None
    return root


def cell_style_kinds(
    archive: zipfile.ZipFile, prolog: bytes, name: str
) -> dict[str, tuple[str, int]]:
    """Cell style name -> what its number format makes of a number cell, from styles.xml
    and the automatic styles in `prolog` (content.xml up to its body)."""
    roots: list[Element] = []
    if "styles.xml" in archive.NameToInfo:
        info = archive.getinfo("styles.xml")
        if info.file_size > MAX_PROLOG_BYTES:
            raise InputError(f"{name}: styles.xml is unreasonably large")
        root = _parse_small(archive.read("styles.xml"), name, "styles.xml")
        if root is not None:
            roots.append(root)
    start = prolog.find(b"<office:automatic-styles")
    end = prolog.find(b"</office:automatic-styles>")
    root_tag = re.search(rb"<office:document-content\b[^>]*>", prolog)
    if start >= 0 and end > start and root_tag is not None:
        document = (
            root_tag.group(0)
            + prolog[start : end + len(b"</office:automatic-styles>")]
            + b"</office:document-content>"
        )
        root = _parse_small(document, name, "content.xml")
        if root is not None:
            roots.append(root)
    return _cell_style_kinds(roots)
