"""Damaged copies of real workbooks of every format (bytes changed at random, seeded) are
read or refused with an InputError: never another exception, never a panic, in bounded
time. Zipped formats are damaged inside their parts (a damaged zip is caught by its CRC)."""

from __future__ import annotations

import io
import random
import time
import zipfile
from pathlib import Path

import pytest

from importer.errors import InputError
from importer.excel import open_sheet

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
CASES = [
    (SAMPLES / "orders.xls", None),
    (SAMPLES / "libreoffice" / "orders.xls", None),
    (SAMPLES / "libreoffice" / "orders.ods", "content.xml"),
    (SAMPLES / "xlsb" / "base.xlsb", "xl/worksheets/sheet1.bin"),
    (SAMPLES / "xlsb" / "base.xlsb", "xl/styles.bin"),
    (SAMPLES / "orders.xlsx", "xl/worksheets/sheet1.xml"),
]
MUTANTS = 40


def _damaged(path: Path, part: str | None, rng: random.Random) -> bytes:
    def damage(data: bytes) -> bytes:
        changed = bytearray(data)
        for _ in range(rng.choice([1, 2, 4, 8, 16])):
            at = rng.randrange(len(changed))
            changed[at] = rng.choice([rng.randrange(256), ord(rng.choice("0123456789"))])
        return bytes(changed)

    if part is None:
        return damage(path.read_bytes())
    out = io.BytesIO()
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(out, "w") as copy:
        for info in source.infolist():
            data = source.read(info)
            copy.writestr(info.filename, damage(data) if info.filename == part else data)
    return out.getvalue()


@pytest.mark.slow
@pytest.mark.parametrize(("path", "part"), CASES, ids=lambda c: getattr(c, "name", str(c)))
def test_damaged_files_are_read_or_refused(path: Path, part: str | None) -> None:
    rng = random.Random(f"{path.name}:{part}")
    outcomes = {"read": 0, "refused": 0}
    for _ in range(MUTANTS):
        data = _damaged(path, part, rng)
        started = time.monotonic()
        try:
            with open_sheet(data, file_name=path.name) as reader:
                sum(1 for _ in reader.rows())
            outcomes["read"] += 1
        except InputError as refused:
            assert "\n" not in str(refused)
            outcomes["refused"] += 1
        assert time.monotonic() - started < 10
    assert sum(outcomes.values()) == MUTANTS
