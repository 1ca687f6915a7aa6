"""The split's pieces looked at on worker processes (excel/piece_workers.py): the same cuts,
measures, special cells and pieces as looked at in the reading process; a worker killed
costs time, not a piece; a killed reader takes its workers with it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from bench.workbooks import _write
from importer.excel.sniff import make_source
from importer.excel.xlsx_parts import read_xlsx_info
from importer.excel.xlsx_pieces import CannotCut
from importer.excel.xlsx_scan import SheetScan, scan_sheet
from importer.excel.xlsx_split import first_rows, split_sheet
from tests.excel.test_pieces import _ragged, _rewrite_sheet
from tests.running.test_columnar_path import write_odd_book

PIECE_BYTES = 16 << 10  # ~50 rows a piece
WORKER_MODULE = b"importer.excel.piece_workers"


def workers_of(pid: int) -> list[int]:
    """The split's worker processes among ``pid``'s children."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            try:
                command = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if WORKER_MODULE in command:
                found.append(int(child))
    return found


def split(path: Path, after_row: int, workers: int, on_piece: object = None) -> object:
    """Everything a split gives: cuts, pieces (special cells included), measures, and the
    workbook's parts."""
    source = make_source(path, None)
    with zipfile.ZipFile(path) as archive:
        info = read_xlsx_info(archive, path.name)
    part = info.sheets[0].path
    assert part is not None
    plan, _ = first_rows(source, part, 1 << 12)
    measures = SheetScan()
    done = split_sheet(
        source,
        plan,
        piece_bytes=PIECE_BYTES,
        after_row=after_row,
        date1904=info.date1904,
        zero_styles=info.zero_padded_styles,
        measures=measures,
        on_piece=on_piece,  # type: ignore[arg-type]
        workers=workers,
    )
    try:
        with zipfile.ZipFile(done.path) as archive:
            parts = {name: archive.read(name) for name in archive.namelist()}
    finally:
        done.remove()
    return plan.cuts, done.pieces, measures, parts


@pytest.fixture(scope="module")
def orders(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Numbers in a 00000 format beside texts, dates beside ISO texts, a text per row."""
    path = tmp_path_factory.mktemp("orders") / "orders.xlsx"
    _write(path, 3_000, 0.05, 0.0)
    return path


@pytest.mark.parametrize("after_row", [1, 1_234], ids=["submitted", "resumed"])
def test_pieces_looked_at_on_workers_are_those_looked_at_here(orders: Path, after_row: int) -> None:
    seen: list[int] = []
    here = split(orders, after_row, 0)
    there = split(orders, after_row, 2, lambda _: seen.append(len(workers_of(os.getpid()))))
    assert there == here
    assert len(here[1]) > 20 and any(p.padded for p in here[1])  # type: ignore[index]
    assert seen and max(seen) == 2  # the pieces went to two workers
    with zipfile.ZipFile(orders) as archive:
        whole = scan_sheet(archive, "xl/worksheets/sheet1.xml", "orders.xlsx", {}, special=False)
    measured: SheetScan = here[2]  # type: ignore[index]
    # The safety pass's measures, had it read the sheet at once (the rows the split read).
    assert (measured.max_row, measured.max_col, measured.max_string_index) == (
        whole.max_row,
        whole.max_col,
        whole.max_string_index,
    )


def test_error_cells_and_formulas_found_on_workers_are_those_found_here(tmp_path: Path) -> None:
    book = tmp_path / "odd.xlsx"
    write_odd_book(book)
    here = split(book, 1, 0)
    assert split(book, 1, 2) == here
    assert any(p.special.overrides for p in here[1])  # type: ignore[index]


def test_rows_out_of_order_are_refused_from_a_worker(tmp_path: Path) -> None:
    path = _ragged(tmp_path / "ragged.xlsx")
    _rewrite_sheet(path, b'<row r="300"', b'<row r="30"')  # row 30 again, after row 299
    for workers in (0, 2):
        with pytest.raises(CannotCut, match="order"):
            split(path, 1, workers)


def test_a_killed_worker_costs_time_not_a_piece(orders: Path) -> None:
    def kill_workers(_: int) -> None:
        for pid in workers_of(os.getpid()):
            os.kill(pid, signal.SIGKILL)

    assert split(orders, 1, 2, kill_workers) == split(orders, 1, 0)


READER = """
import os, sys, time
from pathlib import Path
from tests.excel.test_piece_workers import split, workers_of

def stop(_):
    print(" ".join(map(str, workers_of(os.getpid()))), flush=True)
    time.sleep(60)

split(Path(sys.argv[1]), 1, 2, stop)
"""


def test_workers_leave_with_a_killed_reader(orders: Path) -> None:
    reader = subprocess.Popen(
        [sys.executable, "-c", READER, str(orders)],
        stdout=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert reader.stdout is not None
    with reader.stdout:
        workers = list(map(int, reader.stdout.readline().split()))
        assert len(workers) == 2
        os.kill(reader.pid, signal.SIGKILL)
        reader.wait()
    deadline = time.monotonic() + 10
    while any(map(_alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(map(_alive, workers))


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"  # a zombie has left; its new parent reaps it
