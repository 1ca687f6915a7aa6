"""What a file really is, decided from its bytes (never from its name), and zip-bomb caps.

Every refusal is an InputError with one line a person can act on.
"""

from __future__ import annotations

import csv
import io
import itertools
import shutil
import stat
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Literal

from importer.errors import InputError
from importer.excel.xlsx_parts import arranged_package, arrangement

Format = Literal["xlsx", "xlsb", "xls", "ods", "csv"]

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")
_ODS_MIME = b"application/vnd.oasis.opendocument.spreadsheet"

# Caps on what a workbook may unpack to: a real sheet compresses 5-30x; a bomb ~1000x.
MAX_ENTRIES = 10_000
MAX_PART_BYTES = 4 << 30
MAX_TOTAL_BYTES = 8 << 30
MAX_RATIO = 200
RATIO_FLOOR_BYTES = 64 << 20  # small parts may be as compressible as they like


@dataclass
class Source:
    """The file, opened once: a path on disk or bytes in memory. For an .xlsx whose parts
    are not where the engines look (found through its relationships, named in another
    case), sniff gives it the same package laid out so, in memory."""

    path: Path | None
    data: bytes | None
    name: str

    def open(self) -> BinaryIO:
        if self.data is not None:
            return io.BytesIO(self.data)
        assert self.path is not None
        return self.path.open("rb")

    def head(self, size: int = 8192) -> bytes:
        if self.data is not None:
            return self.data[:size]
        with self.open() as handle:
            return handle.read(size)

    def size(self) -> int:
        if self.data is not None:
            return len(self.data)
        assert self.path is not None
        return self.path.stat().st_size


def make_source(source: Path | bytes, file_name: str | None) -> Source:
    if isinstance(source, bytes | bytearray | memoryview):
        return Source(None, bytes(source), file_name or "workbook")
    path = Path(source)
    try:
        mode = path.stat().st_mode  # follows symlinks: what would be read
    except FileNotFoundError:
        raise InputError(f"{path}: file not found") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if stat.S_ISDIR(mode):
        raise InputError(f"{path}: is a folder, not a workbook")
    if not stat.S_ISREG(mode):
        # A pipe would block the read forever, a device (/dev/zero) never ends.
        raise InputError(f"{path}: is not a regular file (a pipe, device or socket)")
    try:
        with path.open("rb"):
            pass
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    return Source(path, None, file_name or path.name)


def sniff(source: Source) -> Format:
    """The real format of the file; InputError for anything that is not a readable sheet."""
    name = source.name
    head = source.head()
    if not head:
        raise InputError(f"{name}: the file is empty")
    if head.startswith(_ZIP_MAGIC):
        return _sniff_zip(source)
    if head.startswith(_OLE_MAGIC):
        return _sniff_ole(source, head)
    if _is_biff_stream(head):
        return "xls"  # BIFF2-5 saved without the OLE container (Excel 2.x-4.x, old tools)
    text = head.lstrip(b"\xef\xbb\xbf\xff\xfe\xfe\xff \t\r\n").lower()
    text16 = head.decode("utf-16", "ignore").lstrip("\ufeff \t\r\n").lower().encode()
    for probe in (text, text16 if head[:2] in (b"\xff\xfe", b"\xfe\xff") else b""):
        if probe.startswith((b"<!doctype html", b"<html", b"<table", b"<head", b"<body")):
            raise InputError(
                f"{name}: this is a web page (HTML), not a workbook; open it in Excel and "
                "save it as .xlsx"
            )
        if probe.startswith(b"<?xml"):
            if b"urn:schemas-microsoft-com:office:spreadsheet" in probe:
                raise InputError(
                    f"{name}: this is an Excel 2003 XML spreadsheet; open it in Excel and "
                    "save it as .xlsx"
                )
            raise InputError(f"{name}: this is an XML file, not a workbook")
    if head.startswith(b"%PDF"):
        raise InputError(f"{name}: this is a PDF document, not a workbook")
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        # UTF-16 text: Excel's "Unicode Text" export
        return _text_table(name, head.decode("utf-16", "ignore"))
    if b"\x00" in head:
        raise InputError(f"{name}: unrecognised file format (not a workbook or CSV text)")
    try:
        text_head = head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 4:  # a multibyte character cut at the end is fine
            raise InputError(
                f"{name}: the text is not UTF-8; save the CSV as 'CSV UTF-8' (or as .xlsx)"
            ) from None
        text_head = head[: exc.start].decode("utf-8")
    return _text_table(name, text_head)


# Names a spreadsheet program gives its own (binary or zipped) files.
WORKBOOK_SUFFIXES = frozenset(
    {".xlsx", ".xlsm", ".xltx", ".xltm", ".xlam", ".xls", ".xlt", ".xla", ".xlsb", ".ods", ".ots"}
)
# Names that say the text is a table: read as CSV whatever it holds (one column too).
TABLE_SUFFIXES = frozenset({".csv", ".tsv", ".tab"})
_DELIMITERS = ",;\t|"
_TABLE_PROBE_RECORDS = 10


def _text_table(name: str, text: str) -> Format:
    """Text is read as CSV under a table's name (.csv); under any other (a workbook's, as
    many systems export CSV named .xls, .txt, or none) only when its first lines are a
    delimited table, else it is a text file (a script, notes) given by mistake."""
    suffix = Path(name).suffix.lower()
    if suffix in TABLE_SUFFIXES or _looks_delimited(text):
        return "csv"
    if suffix in WORKBOOK_SUFFIXES:
        advice = "ask the sender for the real file"
    else:
        advice = "give a workbook (.xlsx, .xls, .xlsb, .ods) or a .csv file"
    raise InputError(
        f"{name}: this is a plain text file, not a workbook (nor a table of "
        f"comma-, semicolon- or tab-separated values); {advice}"
    )


def _looks_delimited(text: str) -> bool:
    """The first non-blank line holds a delimiter, and each of the first records (a quoted
    cell may span lines) splits by it into two cells or more: prose and code do not."""
    lines = text.lstrip("\ufeff").splitlines()
    first = next((line for line in lines if line.strip()), "")
    if not text.endswith(("\n", "\r")) and len(lines) > 1:
        lines = lines[:-1]  # the head may end inside a record
    for delimiter in (d for d in _DELIMITERS if d in first):
        records = (r for r in csv.reader(lines, delimiter=delimiter) if any(c.strip() for c in r))
        try:
            probe = list(itertools.islice(records, _TABLE_PROBE_RECORDS))
        except csv.Error:
            continue
        if probe and all(len(record) >= 2 for record in probe):
            return True
    return False


def _is_biff_stream(head: bytes) -> bool:
    """A bare BIFF stream: a BOF record (0x0009, 0x0209, 0x0409 or 0x0809) of a plausible
    length, for workbook globals or a worksheet."""
    if len(head) < 8 or head[0] != 0x09 or head[1] not in (0x00, 0x02, 0x04, 0x08):
        return False
    length = int.from_bytes(head[2:4], "little")
    kind = int.from_bytes(head[6:8], "little")
    return length in (4, 6, 8, 16) and kind in (0x0005, 0x0010)


def _first_directory_sector(handle: BinaryIO, head: bytes) -> bytes:
    """The compound file's first directory sector (header: sector size at 0x1E as a power
    of two, first directory sector at 0x30), or b"" when the header is not plausible."""
    if len(head) < 0x34:
        return b""
    shift = int.from_bytes(head[0x1E:0x20], "little")
    first = int.from_bytes(head[0x30:0x34], "little")
    if shift not in (9, 12) or first >= 0xFFFFFFFA:
        return b""
    size = 1 << shift
    try:
        handle.seek((first + 1) * size)
        return handle.read(size)
    except (OSError, ValueError, OverflowError):
        return b""


def _sniff_ole(source: Source, head: bytes) -> Format:
    name = source.name
    with source.open() as handle:
        blob = handle.read(1 << 20)
        # The stream names live in the directory, which a big file keeps past its first MB.
        blob += _first_directory_sector(handle, head)
    if (
        "EncryptedPackage".encode("utf-16-le") in blob
        or "EncryptionInfo".encode("utf-16-le") in blob
    ):
        raise InputError(
            f"{name}: the workbook is password-protected (encrypted); remove the password in "
            "Excel and try again"
        )
    if "Workbook".encode("utf-16-le") in blob or "Book".encode("utf-16-le") in blob:
        return "xls"
    if "WordDocument".encode("utf-16-le") in blob:
        raise InputError(f"{name}: this is a Word document, not a workbook")
    # Stream names are matched ignoring case, as Excel does ("WORKBOOK" is a workbook too).
    if "book".encode("utf-16-le") in blob.lower():
        return "xls"
    raise InputError(f"{name}: an Office file that is not a workbook")


def _sniff_zip(source: Source) -> Format:
    name = source.name
    try:
        with source.open() as handle, zipfile.ZipFile(handle) as archive:
            infos = archive.infolist()
            check_zip_caps(infos, name)
            names = {i.filename.replace("\\", "/") for i in infos}
            if len({n.casefold() for n in names}) != len(infos):  # OPC: part names are unique
                raise InputError(f"{name}: two parts of the archive have the same name")
            if any("\\" in info.filename for info in infos):
                # Written on Windows with its separator (xl\workbook.xml): Excel and
                # LibreOffice read the names with "/", as the engines are given them here.
                source.data, source.path = _forward_slashes(archive, name), None
                return _sniff_zip(source)
            plan = arrangement(archive)
            if plan is not None and plan.renames:
                # Engines look for the parts at their usual names: they read the package
                # laid out so (the same parts, renamed), from memory.
                source.data, source.path = arranged_package(archive, plan, name), None
                return "xlsx"
            if plan is not None or "xl/workbook.xml" in names:
                return "xlsx"
            if "xl/workbook.bin" in names:
                return "xlsb"
            if "mimetype" in names or "content.xml" in names:
                mime = archive.read("mimetype").strip() if "mimetype" in names else b""
                if mime == _ODS_MIME or (not mime and "content.xml" in names):
                    return "ods"
                raise InputError(
                    f"{name}: an OpenDocument file that is not a spreadsheet ({mime.decode()})"
                )
            if "word/document.xml" in names:
                raise InputError(f"{name}: this is a Word document, not a workbook")
            if "ppt/presentation.xml" in names:
                raise InputError(f"{name}: this is a PowerPoint file, not a workbook")
    except zipfile.BadZipFile:
        raise InputError(
            f"{name}: the file is damaged or truncated (not a readable zip archive); "
            "ask the sender for a fresh copy"
        ) from None
    except (zipfile.LargeZipFile, NotImplementedError) as exc:
        raise InputError(f"{name}: unsupported zip archive ({exc})") from None
    raise InputError(f"{name}: a zip archive that is not a workbook")


def _forward_slashes(archive: zipfile.ZipFile, name: str) -> bytes:
    """The archive again, each entry named with "/" where it had "\\" (its bytes as they
    were, copied a megabyte at a time)."""
    out = io.BytesIO()
    try:
        with zipfile.ZipFile(out, "w") as renamed:
            for info in archive.infolist():
                entry = zipfile.ZipInfo(info.filename.replace("\\", "/"), info.date_time)
                entry.compress_type = (
                    info.compress_type
                    if info.compress_type in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
                    else zipfile.ZIP_DEFLATED
                )
                if entry.filename.endswith("/"):
                    renamed.writestr(entry, b"")
                    continue
                with archive.open(info) as part, renamed.open(entry, "w") as copy:
                    shutil.copyfileobj(part, copy, 1 << 20)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
        raise InputError(f"{name}: the file is damaged or truncated ({exc})") from None
    return out.getvalue()


def check_zip_caps(infos: list[zipfile.ZipInfo], name: str) -> None:
    """Refuse archives that would unpack to absurd sizes (zip bombs)."""
    if len(infos) > MAX_ENTRIES:
        raise InputError(f"{name}: the archive has {len(infos)} parts; a workbook has far fewer")
    total = 0
    for info in infos:
        total += info.file_size
        if info.file_size > MAX_PART_BYTES:
            raise InputError(
                f"{name}: part {info.filename} would unpack to {info.file_size >> 20} MB "
                f"(limit {MAX_PART_BYTES >> 20} MB)"
            )
        if info.file_size > RATIO_FLOOR_BYTES and info.file_size > MAX_RATIO * max(
            info.compress_size, 1
        ):
            ratio = info.file_size // max(info.compress_size, 1)
            raise InputError(
                f"{name}: part {info.filename} is compressed {ratio} times "
                f"(limit {MAX_RATIO}); refusing a possible zip bomb"
            )
    if total > MAX_TOTAL_BYTES:
        raise InputError(
            f"{name}: the workbook would unpack to {total >> 20} MB "
            f"(limit {MAX_TOTAL_BYTES >> 20} MB)"
        )
