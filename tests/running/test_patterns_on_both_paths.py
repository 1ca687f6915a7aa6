"""A form's patterns as `importer submit` runs them (fields/patterns.py): the same engine on
the row path and the columnar path, so a table of patterns and cells is decided alike on
both and as that engine's dialect says; cells that would keep a backtracking engine busy
for hours are rejected at once on either path, and in a skip_rows_where column too."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from importer.columnar import SWITCH
from importer.database import Connection
from tests.conftest import Cli
from tests.running.test_columnar_path import opened, run_both, same_outcome
from tests.support.jobs import add_form, write_book

STUCK = "a" * 64 + "!"  # 2**64 steps for a backtracking engine on the first two patterns

# (pattern, cell, whether the pattern matches the cell's text)
TABLE: list[tuple[str, Any, bool]] = [
    ("(a+)+$", STUCK, False),
    ("(a+)+$", "baaa", True),
    (r"^(\w+\s?)+$", STUCK, False),
    (r"^(\w+\s?)+$", "Ann Lee", True),
    (r"^(\w+\s?)+$", "José Ñúñez", True),  # \w is Unicode
    (r"^[A-Z]{2}\d{4}$", "AB1234", True),
    (r"^[A-Z]{2}\d{4}$", "ab1234", False),
    (r"^[A-Z]{2}\d{4}$", "AB12345", False),
    (r"^\d+$", "٣٤٥", True),  # Arabic-Indic digits: \d is Unicode (as in Python's re)
    (r"^\d+$", 12345, True),  # a number cell: the text it shows
    (r"^\d+$", 1.5, False),
    (r"(?i)^straße$", "STRAßE", True),
    (r"(?i)^straße$", "STRASSE", False),  # simple case folding: ß is not SS
    (r"^.{3}$", "日本語", True),  # a character, not a byte
    (r"^[a-z&&[^aeiou]]+$", "xyz", True),  # a class intersection (Rust's dialect)
    (r"^[a-z&&[^aeiou]]+$", "xaz", False),
    (r"\bend\b", "the end.", True),
    (r"\bend\b", "endless", False),
    (r"^\p{Lu}", "Émile", True),
    (r"^\p{Lu}", "émile", False),
    (r"(?m)^b$", "a\nb", True),
    (r"^b$", "a\nb", False),
    (r"^a.c$", "a\nc", False),  # '.' stops at a newline ...
    (r"(?s)^a.c$", "a\nc", True),  # ... unless (?s)
    (r"^\S+$", "a\u00a0b", False),  # a no-break space is a space
    (r"^\S+$", "a-b", True),
]
PATTERNS = list(dict.fromkeys(p for p, _, _ in TABLE))
HEADERS = [f"P{i}" for i in range(len(PATTERNS))]


def table_form() -> str:
    fields = "".join(
        f'[[fields]]\nname = "p{i}"\nheader = "P{i}"\npattern = \'{p}\'\n'
        for i, p in enumerate(PATTERNS)
    )
    return f'name = "patterns"\n{fields}'


def table_book(path: Path) -> None:
    """A row per cell of the table, the cell in its pattern's column, the others empty."""
    rows = []
    for pattern, cell, _ in TABLE:
        row: list[Any] = [None] * len(PATTERNS)
        row[PATTERNS.index(pattern)] = cell
        rows.append(row)
    write_book(path, rows, HEADERS)


def test_a_table_of_patterns_and_cells_is_decided_alike_on_both_paths(
    cli: Cli, conn: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = tmp_path / "patterns.xlsx"
    table_book(book)
    add_form(conn, table_form())
    jobs = run_both(cli, monkeypatch, book, "patterns", detach=False)
    columns = ", ".join(f"p{i}" for i in range(len(PATTERNS)))
    same_outcome(conn, "forms.patterns", columns, jobs)
    for job in jobs:
        refused = conn.execute(
            "SELECT row_number, column_name, message FROM import_row_errors"
            " WHERE import_job_id = %s ORDER BY row_number",
            (job,),
        ).fetchall()
        expected = [
            (row, f"P{PATTERNS.index(pattern)}")
            for row, (pattern, _, matches) in enumerate(TABLE, start=2)
            if not matches
        ]
        assert [(r["row_number"], r["column_name"]) for r in refused] == expected
        assert all(r["message"].endswith("is not in the expected format") for r in refused)
        stored = conn.execute(
            "SELECT count(*) AS n FROM forms.patterns WHERE import_job_id = %s", (job,)
        ).fetchone()
        assert stored is not None and stored["n"] == sum(m for _, _, m in TABLE)


# skip_rows_where leaves the columnar path out: that path runs the form without it.
SKIP_LINE = r"""skip_rows_where = { column = "Label", matches = '^(\w+\s?)+:$' }"""
STUCK_FORM = r"""
name = "names"
[[fields]]
name = "label"
header = "Label"
[[fields]]
name = "code"
header = "Code"
pattern = "(a+)+$"
message = "a code is letters a"
[[fields]]
name = "name"
header = "Name"
pattern = '^(\w+\s?)+$'
"""


@pytest.mark.parametrize("columnar", [False, True], ids=["rows", "columns"])
def test_cells_a_backtracking_engine_never_finishes_are_rejected_at_once(
    cli: Cli, conn: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, columnar: bool
) -> None:
    longest = "a" * 32_766 + "!"  # the longest text a cell holds
    rows = [
        [STUCK, STUCK, "Ann Lee"],
        ["Total:", "aaa", "Sum Row"],  # skip_rows_where: not data
        ["x", longest, longest],
        ["y", "aaa", STUCK],
        ["z", "aaa", "Ann Lee"],
    ]
    book = tmp_path / "names.xlsx"
    write_book(book, rows, ["Label", "Code", "Name"])
    add_form(conn, STUCK_FORM if columnar else f"{SKIP_LINE}\n{STUCK_FORM}")
    seen = opened(monkeypatch)
    if columnar:
        monkeypatch.setenv(SWITCH, "1")
    started = time.perf_counter()
    done = cli("submit", str(book), "--form", "names", "--quiet")
    took = time.perf_counter() - started
    assert done.exit_code == 3, done.stderr
    assert took < 5.0  # a backtracking engine: 2**64 steps on the first row alone
    assert seen == ([True] if columnar else [])
    refused = conn.execute(
        "SELECT row_number, column_name, message FROM import_row_errors ORDER BY row_number, id"
    ).fetchall()
    stuck = "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' is not in the expected"
    assert [(r["row_number"], r["column_name"], r["message"]) for r in refused] == [
        (2, "Code", "a code is letters a"),
        (4, "Code", "a code is letters a"),
        (4, "Name", f"{stuck} format"),
        (5, "Name", f"{stuck} format"),
    ]
    job = conn.execute("SELECT success_rows, failed_rows FROM import_jobs").fetchone()
    assert job is not None
    assert (job["success_rows"], job["failed_rows"]) == ((2, 3) if columnar else (1, 3))
