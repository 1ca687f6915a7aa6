"""A workbook opened by python-calamine, whatever its name says, with a Rust panic's own
report kept off the process's stderr; its worksheets and chart sheets."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import threading
from collections.abc import Iterator
from typing import Any

import python_calamine as pc

from importer.errors import InputError
from importer.excel.sniff import Source

# calamine's from_path picks its parser by these extensions (it probes for any other): a file
# whose extension names another format than its bytes is read from a file object instead.
_PATH_SUFFIXES = {
    "xlsx": (".xlsx", ".xlsm", ".xlam"),
    "xlsb": (".xlsb",),
    "xls": (".xls", ".xla"),
    "ods": (".ods",),
}


def open_calamine_workbook(source: Source, file_format: str) -> Any:
    """The workbook as `file_format` (what sniff found in the bytes), whatever its name."""
    try:
        with panic_output_held():
            if source.path is None:
                return pc.CalamineWorkbook.from_filelike(source.open())
            if source.path.suffix in _PATH_SUFFIXES.get(file_format, ()):
                return pc.CalamineWorkbook.from_path(str(source.path))
            with source.open() as handle:  # calamine sniffs the bytes a file object gives
                return pc.CalamineWorkbook.from_filelike(handle)
    except pc.PasswordError:
        raise InputError(
            f"{source.name}: the workbook is password-protected; remove the password and try again"
        ) from None
    except (pc.CalamineError, ValueError, OSError) as exc:
        if "entity" in str(exc):
            raise InputError(
                f"{source.name}: the workbook declares XML entities, refused as unsafe "
                f"({short_error(exc)})"
            ) from None
        raise InputError(
            f"{source.name}: the workbook cannot be read ({short_error(exc)})"
        ) from None


# One window at a time: file descriptor 2 belongs to the whole process.
_STDERR_LOCK = threading.Lock()


@contextlib.contextmanager
def panic_output_held() -> Iterator[None]:
    """Run a calamine call with file descriptor 2 held aside: a Rust panic prints its
    message (and, with RUST_BACKTRACE set, a backtrace) straight to it before Python sees
    the PanicException, which then becomes our one-line refusal. What else was written to
    stderr meanwhile is passed on afterwards; only a panic's own report is dropped."""
    with _STDERR_LOCK:
        try:
            saved = os.dup(2)
        except OSError:  # no stderr to protect
            yield
            return
        panicked = False
        with tempfile.TemporaryFile() as held:
            sys.stderr.flush()
            os.dup2(held.fileno(), 2)
            try:
                yield
            except BaseException as exc:
                panicked = type(exc).__name__ == "PanicException"
                raise
            finally:
                with contextlib.suppress(Exception):
                    sys.stderr.flush()
                os.dup2(saved, 2)
                os.close(saved)
                if not panicked:
                    held.seek(0)
                    if written := held.read():
                        os.write(2, written)


def short_error(exc: BaseException) -> str:
    """The first line of an exception's message (its type without one), 200 characters at most."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:200]


def calamine_sheets(workbook: Any) -> list[tuple[str, bool]]:
    """(name, visible) of the workbook's worksheets (chart sheets and macros left out)."""
    out = []
    for meta in workbook.sheets_metadata:
        if meta.typ not in (pc.SheetTypeEnum.WorkSheet,):
            continue
        out.append((meta.name, meta.visible == pc.SheetVisibleEnum.Visible))
    return out


def calamine_charts(workbook: Any) -> list[str]:
    """Names of the workbook's chart sheets (no cells to read)."""
    return [
        meta.name for meta in workbook.sheets_metadata if meta.typ == pc.SheetTypeEnum.ChartSheet
    ]
