"""`importer export`: a form's rows written to a .parquet, .csv or .xlsx file.

Parquet and CSV stream: the batches (exporting/frames.py) are a polars IO source
(``register_io_source``) that ``sink_parquet`` / ``sink_csv`` pull from, a batch at a time,
so memory stays bounded whatever the table's size. An .xlsx is written row by row in
constant memory (exporting/xlsx.py) after the rows are counted: more than a sheet holds is
refused before anything is written.

The file appears at exactly the path given, whole or not at all: it is written to a
temporary file beside it (in a folder of its own, see _write_atomically; its mode 0o666
less the umask, as any new file), flushed to disk and renamed over the target, which an
earlier file of that name is replaced by; a failure removes the temporary file. As
``importer errors -o`` does (report/error_file.py).
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import polars as pl
from polars.io.plugins import register_io_source

from importer.database import Connection
from importer.errors import UsageError
from importer.exporting.frames import ExportPlan, FrameStream, export_frames
from importer.exporting.xlsx import MAX_ROWS, write_sheet
from importer.repositories.exports import RowFilter

FORMATS = {".parquet": "parquet", ".csv": "csv", ".xlsx": "xlsx"}
_DISCARD_TRIES = 20


@dataclass(frozen=True)
class ExportedFile:
    form: str
    path: Path
    format: str  # parquet | csv | xlsx
    rows: int
    bytes: int
    seconds: float
    columns: tuple[tuple[str, str], ...]  # (name, polars type) in the file's order

    def to_json(self) -> dict[str, object]:
        return {
            "form": self.form,
            "path": str(self.path),
            "format": self.format,
            "rows": self.rows,
            "bytes": self.bytes,
            "seconds": round(self.seconds, 3),
            "columns": [{"name": name, "type": kind} for name, kind in self.columns],
        }


def check_target(path: Path) -> str:
    """The format the target's name asks for; UsageError (nothing written) otherwise."""
    kind = FORMATS.get(path.suffix.lower())
    if kind is None:
        raise UsageError(f"cannot write {path}: the file name must end in .parquet, .csv or .xlsx")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"cannot write {path}: folder {folder} does not exist")
    if path.is_dir():
        raise UsageError(f"cannot write {path}: it is a folder")
    return kind


def export_form_rows(
    conn: Connection, form_name: str, target: Path, rows: RowFilter
) -> ExportedFile:
    """Write the form's rows (those ``rows`` picks) to ``target``, atomically."""
    kind = check_target(target)
    started = time.monotonic()
    with export_frames(conn, form_name, rows, count=kind == "xlsx") as stream:
        plan = stream.plan
        if kind == "xlsx" and plan.rows is not None and plan.rows > MAX_ROWS:
            raise UsageError(
                f"cannot write {target}: {plan.rows:,} rows do not fit in one Excel sheet "
                f"(at most {MAX_ROWS:,} below the header); write .parquet or .csv, or export "
                "fewer with --job or --since"
            )
        if kind == "xlsx":
            count = _write_atomically(target, lambda temp: write_sheet(temp, plan, stream.frames()))
        else:
            count = _write_atomically(target, lambda temp: _sink(temp, kind, stream))
    return ExportedFile(
        form=plan.form,
        path=target,
        format=kind,
        rows=count,
        bytes=target.stat().st_size,
        seconds=time.monotonic() - started,
        columns=tuple((name, str(dtype)) for name, dtype in plan.schema.items()),
    )


def _sink(temp: str, kind: str, stream: FrameStream) -> int:
    """Stream the batches into ``temp`` through polars' lazy sink; the rows written."""
    plan: ExportPlan = stream.plan
    counted = 0
    # An error raised into polars ends the sink before its writer has finished (it may create
    # the file after the caller removed it): the source ends the stream instead, and the
    # error is raised here once the sink has closed the file.
    failed: list[Exception] = []

    def source(
        with_columns: list[str] | None,
        predicate: pl.Expr | None,
        n_rows: int | None,
        batch_size: int | None,
    ) -> Iterator[pl.DataFrame]:
        nonlocal counted
        left = n_rows
        frames = stream.frames()
        while (left is None or left > 0) and not stopped:
            try:
                frame = next(frames)
            except StopIteration:
                return
            except Exception as exc:
                failed.append(exc)
                return
            if predicate is not None:
                frame = frame.filter(predicate)
            if with_columns is not None:
                frame = frame.select(with_columns)
            if left is not None:
                frame = frame.head(left)
                left -= frame.height
            counted += frame.height
            yield frame

    lazy = register_io_source(source, schema=plan.schema)
    with _stop_on_signals() as stopped:
        if kind == "parquet":
            _waiting(lambda: lazy.sink_parquet(temp))
        else:
            _waiting(lambda: lazy.sink_csv(temp))
    if stopped:
        # As Python would have stopped, once the file is closed (and then removed).
        raise KeyboardInterrupt if stopped[0] == signal.SIGINT else SystemExit(128 + stopped[0])
    if failed:
        raise failed[0]
    return counted


def _waiting(run: Callable[[], object]) -> None:
    """``run()`` on a thread of its own, this one waiting in Python, where a signal's handler
    runs at once (blocked in polars' engine, it would run only when polars next looks)."""
    raised: list[BaseException] = []

    def target() -> None:
        try:
            run()
        except BaseException as exc:
            raised.append(exc)

    worker = threading.Thread(target=target, name="export-sink")
    worker.start()
    while worker.is_alive():
        worker.join(0.1)
    if raised:
        raise raised[0]


@contextmanager
def _stop_on_signals() -> Iterator[list[int]]:
    """SIGINT and SIGTERM noted (the source then ends the stream at the next batch) instead
    of acted on while polars' sink runs: a KeyboardInterrupt raised into polars ends the sink
    before its writer is done, and polars may stop the process itself, with no chance to
    remove the temporary file. Only the main thread can take signals; elsewhere they are
    left as they are."""
    caught: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield caught
        return

    def note(signum: int, frame: object) -> None:
        caught.append(signum)

    previous = {s: signal.signal(s, note) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield caught
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)


def _flush(name: Path) -> None:
    fd = os.open(name, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_atomically(target: Path, write: Callable[[str], int]) -> int:
    """``write(temp file)`` then the temp file moved over ``target``: whole, or not at all.

    The temporary file is in a folder of its own beside the target (``.name.xxxx.tmp/``),
    removed whatever happens: a writer interrupted before it opened its file (polars' sink,
    stopped by Ctrl-C, returns before its writer has) can no longer create it there."""
    work = _create_work_folder(target.parent if str(target.parent) else Path("."), target.name)
    temp = work / target.name
    try:
        count = write(str(temp))
        _flush(temp)
        os.replace(temp, target)
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from exc
    finally:
        _discard(work)
    return count


def _create_work_folder(folder: Path, name: str) -> Path:
    """A new folder beside the target (mode 0o777 less the umask: the file made in it gets
    the modes any new file would)."""
    for _ in range(tempfile.TMP_MAX):
        path = folder / f".{name}.{secrets.token_hex(4)}.tmp"
        try:
            path.mkdir(mode=0o777)
            return path
        except FileExistsError:
            continue
    raise FileExistsError(f"no unused temporary name for {name} in {folder}")


def _discard(work: Path) -> None:
    # A file created while the folder is emptied keeps it from going: empty it again.
    for _ in range(_DISCARD_TRIES):
        shutil.rmtree(work, ignore_errors=True)
        if not work.exists():
            return
        time.sleep(0.05)
