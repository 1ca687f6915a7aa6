"""A workbook that is not there: the one line said, and nothing before it."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from importer.database import Connection
from importer.repositories import jobs
from tests.conftest import Cli
from tests.support.jobs import add_form, counts, orders_book


def test_a_missing_file_says_file_not_found_and_nothing_else(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    result = cli("submit", "nosuch.xlsx")
    assert result.exit_code == 2
    assert (result.stdout, result.stderr) == ("", "error: nosuch.xlsx: file not found\n")
    assert counts(conn)["jobs"] == 0


def test_a_submit_hashes_its_workbook_once(
    cli: Cli,
    conn: Connection,
    cli_env: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The job's key and the stored file share one sha256 (a 60 MB workbook takes ~0.1 s to
    hash), and the file is stored under it."""
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 12)
    hashed: list[int] = []
    real = jobs.file_sha256

    def counted(content: bytes) -> str:
        hashed.append(len(content))
        return real(content)

    monkeypatch.setattr(jobs, "file_sha256", counted)
    assert cli("submit", str(book.path), "--quiet").exit_code in (0, 3)
    content = book.path.read_bytes()
    assert hashed == [len(content)]
    stored = conn.execute("SELECT file FROM import_jobs").fetchone()
    assert stored is not None and stored["file"] == hashlib.sha256(content).hexdigest()
