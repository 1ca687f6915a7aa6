"""The one boundary every reader call goes through: whatever a parsing library raises or
panics with becomes the tool's own refusal (an InputError, exit code 2, one line).

python-calamine reports a Rust panic as ``pyo3_runtime.PanicException``, which derives
from BaseException, not Exception: ``except Exception`` lets it through as a traceback.
It is told apart by its name (pyo3 creates the class at run time, with no stable import
path); KeyboardInterrupt, SystemExit and GeneratorExit always pass through untouched.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TypeVar

from importer.errors import ImporterError, InputError
from importer.excel.base import SheetReader
from importer.excel.layout import HeaderLayout
from importer.excel.row_filter import FilteredReader
from importer.excel.values import Row

T = TypeVar("T")


def is_reader_failure(exc: BaseException) -> bool:
    """An exception a parsing library raised about the file (not an interrupt, not ours)."""
    if isinstance(exc, ImporterError):
        return False
    return isinstance(exc, Exception) or type(exc).__name__ == "PanicException"


def failure_text(exc: BaseException) -> str:
    """The library's message, short and on one line."""
    text = str(exc).strip().splitlines()[0].strip() if str(exc).strip() else ""
    return (text or type(exc).__name__)[:200]


@contextmanager
def reading(name: str, what: str = "the workbook") -> Iterator[None]:
    """Turn a library error or panic inside the block into InputError about `name`."""
    try:
        yield
    except MemoryError:
        raise InputError(
            f"{name}: {what} is too large to read in the memory available; refusing it"
        ) from None
    except BaseException as exc:
        if not is_reader_failure(exc):
            raise
        raise InputError(f"{name}: {what} cannot be read ({failure_text(exc)})") from None


class GuardedReader(SheetReader):
    """A SheetReader whose every call goes through `reading` (what open_sheet returns)."""

    def __init__(self, inner: SheetReader, name: str) -> None:
        self.inner = inner
        self._name = name
        self.sheet_name = inner.sheet_name
        self.engine = inner.engine
        self.file_format = inner.file_format
        self.header = inner.header
        self.header_row = inner.header_row
        self.date1904 = inner.date1904
        self.sheet_names = inner.sheet_names
        self.reads_in_pieces = inner.reads_in_pieces
        self.safety_pending = inner.safety_pending
        self.notes = inner.notes
        self.leading = inner.leading
        self.merges = inner.merges
        self.above = inner.above
        self.header_rows = inner.header_rows
        self._filter: FilteredReader | None = None

    def rehead(self, number: int, rows: int = 1) -> None:
        with reading(self._name, self._what()):
            self.inner.rehead(number, rows)
        self.header, self.header_row = self.inner.header, self.inner.header_row
        self.above, self.header_rows = self.inner.above, self.inner.header_rows
        self.header_first_row = self.inner.header_first_row

    def lay_out(self, layout: HeaderLayout) -> None:
        """The header where ``layout`` says (its row, or the one ``choose`` picks among the
        candidates), then the filter of the rows that are not data, if it has one."""
        if layout.row is None and layout.choose is not None:
            layout = layout.choose(self.leading, self.merges) or HeaderLayout()
        number = layout.row
        if number is None and layout.rows > 1:
            number = self.header_row
        if number is not None and (number, layout.rows) != (self.header_row, self.header_rows):
            self.rehead(number, layout.rows)
        if layout.filters:
            self._filter = FilteredReader(self.inner, layout)

    def rows_not_read(self) -> list[dict[str, object]]:
        found = super().rows_not_read()
        return found + (self._filter.rows_not_read() if self._filter is not None else [])

    def _what(self) -> str:
        return f"sheet {self.sheet_name!r}"

    def _guard(self, make: Callable[[], Iterable[T]]) -> Iterator[T]:
        with reading(self._name, self._what()):
            yield from make()

    def rows(self) -> Iterator[Row]:
        if self._filter is not None:
            kept = self._filter
            return self._guard(lambda: kept.rows(iter(self.inner.rows())))
        return self._guard(self.inner.rows)

    def batches(self, size: int, *, skip: int = 0, after_row: int = 0) -> Iterator[Sequence[Row]]:
        if self._filter is not None:
            kept = self._filter
            return self._guard(lambda: kept.batches(size, skip=skip, after_row=after_row))
        return self._guard(lambda: self.inner.batches(size, skip=skip, after_row=after_row))

    def count_rows(self) -> int:
        with reading(self._name, self._what()):
            if self._filter is not None:
                return self._filter.count_after(self.header_row)
            return self.inner.count_rows()

    def count_rows_after(self, row: int) -> int:
        with reading(self._name, self._what()):
            if self._filter is not None:
                return self._filter.count_after(row)
            return self.inner.count_rows_after(row)

    def close(self) -> None:
        with reading(self._name, self._what()):
            self.inner.close()
