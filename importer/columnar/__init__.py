"""The columnar path: an .xlsx sheet's rows checked as columns (see batches.py).

It stores exactly what the row path stores. Which of the two reads a sheet is chosen by
what each will cost (choice.py): the columnar path's fixed costs and the rows it must read
again exactly (invalid rows, cells its checks leave to the row path), weighed on a sample
of the sheet's first rows (sample.py) against the row path's time for the sheet's rows. A
sheet under choice.SAMPLE_FROM_BYTES of XML is read row by row unweighed.
``IMPORTER_TEST_COLUMNAR=1`` turns it on for every .xlsx sheet, whatever its size, and
``=0`` off: the tests and the bench run it so. Either way it reads only sheets of a form
its checks cover, its header where the row path finds it by itself; ``open_columnar``
gives None when the row path must read the sheet after all (the choice says so, a sheet
that cannot be cut, a header not among its first rows).
"""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # polars, fastexcel and numpy load only where a sheet is read so
    from importer.columnar.sheet import ColumnarSheet
    from importer.forms.definition import Form

__all__ = [
    "SWITCH",
    "PathChoice",
    "Safety",
    "columnar_may_read",
    "form_not_covered",
    "not_as_columns",
    "open_columnar",
    "runs_as_columns",
    "weigh",
]


from importer.columnar.choice import (
    SAMPLE_FROM_BYTES,
    SWITCH,
    PathChoice,
    choose_path,
    small_sheet,
)


def _switch() -> str | None:
    return os.environ.get(SWITCH)


def not_as_columns(file_name: str, content: bytes | None = None) -> str | None:
    """Why a job of this file is read row by row whatever its form (None: it may run as
    columns): not an .xlsx, the path turned off, or (given the ``content``) no sheet big
    enough to weigh the paths for."""
    if _switch() == "0":
        return f"{SWITCH}=0"
    if not file_name.lower().endswith((".xlsx", ".xlsm")):
        return "not an .xlsx workbook"
    if content is None or _switch() == "1":
        return None
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            largest = max(
                (i.file_size for i in archive.infolist() if _is_sheet(i.filename)), default=0
            )
    except (zipfile.BadZipFile, OSError):
        return "not a readable .xlsx package"
    if largest >= SAMPLE_FROM_BYTES:
        return None
    return small_sheet(largest)


def _is_sheet(name: str) -> bool:
    return name.lower().startswith("xl/worksheets/")


def columnar_may_read(file_name: str, content: bytes | None = None) -> bool:
    """Whether a job of this file may run as columns (not_as_columns says why not). Its
    form decides (runs_as_columns), then its sheet (open_columnar)."""
    return not_as_columns(file_name, content) is None


def form_not_covered(form: Form, sheet_layout: object) -> str | None:
    """Why the columnar checks cannot read a job of this form, its header where
    ``sheet_layout`` (the job's) says (None: they can)."""
    from importer.columnar.shapes import unsupported

    if sheet_layout is not None:
        return "the header is not in the sheet's first row with values"
    if form.layout.excel(None).filters:
        return "the form leaves rows out or fills merged cells"
    return unsupported(form)


def runs_as_columns(form: Form, file_name: str, sheet_layout: object) -> bool:
    """Whether a job of this form and file, its header where ``sheet_layout`` (the job's)
    says, runs as columns when no sheet is handed to its run."""
    return columnar_may_read(file_name) and form_not_covered(form, sheet_layout) is None


def open_columnar(
    content: bytes,
    *,
    sheet: str,
    file_name: str,
    form: Form,
    after_row: int,
    mapping: Mapping[str, str] | None = None,
    safety: Safety | None = None,
    on_progress: Callable[[float], None] | None = None,
    on_choice: Callable[[PathChoice], None] | None = None,
) -> ColumnarSheet | None:
    """The job's sheet as pieces of columns, or None when the row path must read it (the
    caller checked runs_as_columns; ``mapping``: the job's --map). ``safety``: bytes whose
    safety pass is still to come (a peek measured only their first rows): the split takes
    its measures and the pass's verdict follows, an InputError as the pass's own; None when
    the row path must read them (with checked=False). ``on_progress``: how much of the
    sheet's XML the split has read (0 to 1), as each piece is written. ``on_choice``: the
    path that reads the sheet and why (the choice of choice.py, or what overruled it)."""
    from importer.errors import InputError
    from importer.excel.sniff import make_source
    from importer.excel.xlsx_parts import read_xlsx_info
    from importer.excel.xlsx_pieces import CannotCut

    told = on_choice or (lambda choice: None)
    source = make_source(content, file_name)
    try:
        with source.open() as handle, zipfile.ZipFile(handle) as archive:
            info = read_xlsx_info(archive, file_name)
            part = next((s.path for s in info.sheets if s.name == sheet), None)
            held = archive.NameToInfo.get(part) if part is not None else None
        if held is None or part is None:
            return None  # the row path's reader says what is wrong with it
        choice = weigh(content, file_name, sheet, form, mapping, held.file_size)
        if not choice.columnar:
            told(choice)
            return None
        from importer.columnar.sheet import ColumnarSheet  # polars: only for a sheet it reads

        size = max(held.file_size, 1)  # as the package declares it: a lie is only shown
        columns = ColumnarSheet(
            source,
            info,
            part,
            sheet_name=sheet,
            after_row=after_row,
            measured=safety is not None,
            on_piece=None if on_progress is None else lambda done: on_progress(min(done / size, 1)),
        )
    except (CannotCut, InputError, zipfile.BadZipFile, OSError) as exc:
        told(PathChoice(False, f"the sheet cannot be read as columns ({exc})"))
        return None
    if safety is not None and not _calamine_reads(content, sheet, file_name, columns, safety):
        told(PathChoice(False, "calamine may not read the sheet whole: it is streamed"))
        return None
    columns.read_ahead()
    columns.choice = choice
    told(choice)
    return columns


def weigh(
    content: bytes,
    file_name: str,
    sheet: str,
    form: Form,
    mapping: Mapping[str, str] | None,
    sheet_bytes: int,
) -> PathChoice:
    """The choice of path for a sheet of a form the columnar checks cover, its first rows
    sampled where the sheet is big enough for the choice to depend on them."""
    switch = _switch()
    sample = None
    if switch not in ("0", "1") and sheet_bytes >= SAMPLE_FROM_BYTES:
        from importer.columnar.sample import sample_sheet

        sample = sample_sheet(content, file_name=file_name, sheet=sheet, form=form, mapping=mapping)
    return choose_path(switch=switch, not_covered=None, sheet_bytes=sheet_bytes, sample=sample)


def _calamine_reads(
    content: bytes, sheet: str, file_name: str, columns: ColumnarSheet, safety: Safety
) -> bool:
    """The safety pass's verdict on the split sheet (its measures the split's): an
    InputError as open_sheet's; False (the sheet closed) when calamine would not read it."""
    from importer.excel.reader import calamine_may_read

    if columns.measures is None:
        return True
    try:
        reads = calamine_may_read(
            content,
            sheet=sheet,
            measured=columns.measures,
            engine=safety.engine,
            memory_budget_mb=safety.memory_budget_mb,
            file_name=file_name,
        )
    except BaseException:
        columns.close()
        raise
    if not reads:
        columns.close()
    return reads


@dataclass(frozen=True)
class Safety:
    """How open_sheet would have been asked for bytes not checked yet (open_columnar)."""

    engine: str = "auto"
    memory_budget_mb: int = 512
