"""Real Excel-written .xlsb files (sample_data/xlsb) with one part edited, for the tests."""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from pathlib import Path

BASE = Path(__file__).resolve().parents[2] / "sample_data" / "xlsb" / "base.xlsb"


def patched_xlsb(
    tmp_path: Path, name: str, part: str, edit: Callable[[bytearray], None], source: Path = BASE
) -> Path:
    """`source` with `part` edited in place by `edit`, every other part as it was."""
    with zipfile.ZipFile(source) as original:
        parts = {info.filename: original.read(info) for info in original.infolist()}
    data = bytearray(parts[part])
    edit(data)
    parts[part] = bytes(data)
    path = tmp_path / name
    with zipfile.ZipFile(path, "w") as out:
        for member, content in parts.items():
            out.writestr(member, content)
    return path
