"""Every read path on every book, in the same run: `importer submit` as it chooses its path,
the same command forced onto the row path (``IMPORTER_TEST_COLUMNAR=0``) and onto the
columnar path (``=1``), beside the minimal calamine + COPY pipeline and polars + ADBC
(bench/peers.py). Wall clock of each command as typed, interleaved, best of N.

The books: the import bench's own (bench/workbooks.py, ~5% invalid, one cell in ten of
another type per mixed column) and the mixed books (bench/mixed_books.py: types change row
by row, half and half, in several columns) with 2%, 10% and 30% invalid rows, at 200,000
rows and (unless ``--big-rows 0``) at 1,000,000.

Targets (on the mixed books): at 200,000 rows and 10% invalid, the import at >= 1.2x the
minimal pipeline and >= 0.6x polars + ADBC; at 1,000,000 rows >= 0.5x polars + ADBC within
400 MB; on every book, the path the import chose no slower than the other by more than 5%.
``--baseline DIR``: the same command from another tree of the tool (an earlier commit
unpacked there) beside it on every book, and its figures as a target on the bench's own
book (no regression over 5%).

Run alone: ``python -m bench.paths [--rows N] [--big-rows N] [--repeats N]
[--big-repeats N] [--baseline DIR] [--only NAME ...]``.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import psycopg

from bench import mixed_books, workbooks
from bench.imports import IMPORTER, PEER, Check, Run, best, target, timed
from bench.peers import JSONB_TABLE, JSONB_TABLE_DDL
from bench.scratch import scratch_database

ROWS = 200_000
BIG_ROWS = 1_000_000
REPEATS = 5
BIG_REPEATS = 2
SHARES = (0.02, 0.10, 0.30)
TARGET_SHARE = 0.10

# Targets (issue: "fast on sheets whose cells change type from row to row").
VS_MINIMAL = 1.2
VS_POLARS = 0.6
BIG_VS_POLARS = 0.5
BIG_PEAK_MB = 400
CHOSEN_SLACK = 1.05  # the chosen path's time over the other's, at most
SLACK = 1.05  # the bench book's time over the earlier tree's, at most

_PATH_LINE = re.compile(r"^job \d+: read by the ((?:columnar|row) path: .*)$", re.MULTILINE)


@dataclass(frozen=True)
class Book:
    name: str
    path: Path
    form: str
    rows: int
    mixed: bool
    invalid: float


def books(rows: int, big_rows: int) -> list[Book]:
    """The bench's own book, then the mixed ones (made once, kept under .bench/)."""
    found = []
    if rows:
        own = workbooks.excel_like(rows)
        found.append(Book("bench book", own, workbooks.FORM_NAME, rows, False, workbooks.INVALID))
    for size in (rows, big_rows):
        for share in SHARES if size else ():
            name = f"mixed {_count(size)} {share:.0%}"
            path = mixed_books.mixed(size, share)
            found.append(Book(name, path, mixed_books.FORM_NAME, size, True, share))
    return found


def _count(rows: int) -> str:
    return f"{rows // 1_000_000}M" if rows % 1_000_000 == 0 else f"{rows // 1000}k"


class Bench:
    def __init__(self, url: str, baseline: Path | None) -> None:
        import os

        self.url = url
        self.env = {**os.environ, "IMPORTER_DATABASE_URL": url, "NO_COLOR": "1"}
        self.baseline = baseline

    def setup(self) -> None:
        from importer.database import connect
        from importer.forms.definition import parse_form_text
        from importer.repositories.forms import save_form

        with connect(self.url, autocommit=True) as conn:
            for text in (workbooks.FORM, mixed_books.FORM):
                save_form(conn, parse_form_text(text))  # creates forms.<name>
        with psycopg.connect(self.url, autocommit=True) as raw:
            raw.execute(JSONB_TABLE_DDL)

    def clear(self) -> None:
        """Each case starts from empty tables (same indexes, no bloat from the last one)."""
        targets = [f"forms.{workbooks.FORM_NAME}", f"forms.{mixed_books.FORM_NAME}", JSONB_TABLE]
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"TRUNCATE import_rejected_rows, import_row_errors, {', '.join(targets)}")
            conn.execute("DROP TABLE IF EXISTS peer_polars")
            for name in targets:
                conn.execute(f"VACUUM ANALYZE {name}")

    def cases(self, book: Book) -> dict[str, list[str]]:
        submit = ["submit", str(book.path), "--form", book.form, "--force"]
        found = {
            # --debug: a line says which path read the rows and why.
            "import": [*IMPORTER, "--debug", *submit],
            "row": ["env", "IMPORTER_TEST_COLUMNAR=0", *IMPORTER, *submit, "--quiet"],
            "columnar": ["env", "IMPORTER_TEST_COLUMNAR=1", *IMPORTER, *submit, "--quiet"],
            "minimal": [*PEER, "minimal", self.url, str(book.path)],
            "polars": [*PEER, "polars", self.url, str(book.path)],
        }
        if self.baseline is not None and not book.mixed:  # the bench book's figures
            found["baseline"] = [
                "env",
                "-C",
                str(self.baseline),
                *IMPORTER,
                *submit,
                "--quiet",
            ]
        return found

    def run(self, command: Sequence[str]) -> Run:
        self.clear()
        result = timed(command, self.env)
        if result.code not in (0, 3):
            raise RuntimeError(f"bench: {' '.join(command)} exited {result.code}: {result.output}")
        return result


def measure(bench: Bench, chosen: list[Book], repeats: int) -> dict[str, dict[str, list[Run]]]:
    """Each book's cases, interleaved: in each round the books in a shuffled order, each
    book's cases one after the other in a shuffled order (a case never always follows the
    same one: a server still writing out the last import's pages hits whichever comes
    next), so that a round's cases of one book ran close in time (paired())."""
    runs: dict[str, dict[str, list[Run]]] = {}
    order = random.Random(repeats)
    for _ in range(repeats):
        for book in order.sample(chosen, len(chosen)):
            cases = list(bench.cases(book).items())
            for case, command in order.sample(cases, len(cases)):
                runs.setdefault(book.name, {}).setdefault(case, []).append(bench.run(command))
    return runs


def spread(runs: list[Run]) -> str:
    """The runs' times in the order they ran: how far a busy machine moved them."""
    return " ".join(f"{r.seconds:.2f}" for r in runs)


def paired(runs: list[Run], others: list[Run]) -> float:
    """The median over rounds of one case's time over another's in the same round: on a
    machine whose load comes and goes, steadier than the ratio of two best times."""
    return statistics.median(a.seconds / b.seconds for a, b in zip(runs, others, strict=True))


def path_said(run: Run) -> str:
    """What the import said of its path under --debug (``job N: read by the ...``)."""
    found = _PATH_LINE.search(run.output)
    return found[1].strip() if found else "(not said)"


def report_book(book: Book, runs: dict[str, list[Run]], say: Callable[[str], None]) -> list[Check]:
    got = {case: best(found) for case, found in runs.items()}
    imp, row, col, a, c = (got[k] for k in ("import", "row", "columnar", "minimal", "polars"))
    said = {path_said(r) for r in runs["import"]}
    which = "columnar" if all(s.startswith("columnar") for s in said) else "row"
    mine, theirs = ("columnar", "row") if which == "columnar" else ("row", "columnar")
    say(
        f"  {book.name:<14} import {imp.seconds:6.2f} s {imp.peak_mb:4.0f} MB | row"
        f" {row.seconds:6.2f} s {row.peak_mb:4.0f} MB | columnar {col.seconds:6.2f} s"
        f" {col.peak_mb:4.0f} MB | (a) {a.seconds:6.2f} s | (c) {c.seconds:6.2f} s"
        f" {c.peak_mb:4.0f} MB"
    )
    chosen, itself = paired(runs[mine], runs[theirs]), paired(runs["import"], runs[theirs])
    say(
        f"  {'':<14} import vs (a) {a.seconds / imp.seconds:5.2f}x, vs (c)"
        f" {c.seconds / imp.seconds:5.2f}x (best of {len(runs['import'])}); {mine} path"
        f" chosen: {got[mine].seconds / got[theirs].seconds:5.2f} of the {theirs} path's"
        f" best time, {chosen:5.2f} paired; the import itself {itself:5.2f} paired"
    )
    for text in sorted(said):
        say(f"  {'':<14} {text}")
    say(f"  {'':<14} runs, s: " + "; ".join(f"{k} {spread(v)}" for k, v in runs.items()))
    checks = [target(f"{book.name}: chosen path / other, paired", chosen, "<=", CHOSEN_SLACK)]
    if "baseline" in runs:
        base = paired(runs["import"], runs["baseline"])
        say(f"  {'':<14} earlier tree {got['baseline'].seconds:6.2f} s, import {base:.2f} paired")
        checks.append(target(f"{book.name}: import / earlier tree, paired", base, "<=", SLACK))
    if book.mixed and book.rows == ROWS and book.invalid == TARGET_SHARE:
        checks += [
            target(f"{book.name}: import vs (a)", a.seconds / imp.seconds, ">=", VS_MINIMAL),
            target(f"{book.name}: import vs (c)", c.seconds / imp.seconds, ">=", VS_POLARS),
        ]
    if book.mixed and book.rows >= BIG_ROWS:
        checks += [
            target(f"{book.name}: import vs (c)", c.seconds / imp.seconds, ">=", BIG_VS_POLARS),
            target(f"{book.name}: import peak MB", imp.peak_mb, "<=", BIG_PEAK_MB),
        ]
    return checks


def run(
    report: Callable[[str], None] | None = None,
    *,
    rows: int = ROWS,
    big_rows: int = BIG_ROWS,
    repeats: int = REPEATS,
    big_repeats: int = BIG_REPEATS,
    baseline: Path | None = None,
    only: Sequence[str] = (),
) -> bool:
    """Print each book's figures and the targets; True when every target is met."""
    from importer.config import load_settings
    from importer.database import resolve_url

    say = report or (lambda text: print(text, flush=True))
    every = [b for b in books(rows, big_rows) if not only or b.name in only]
    small = [b for b in every if b.rows < BIG_ROWS]
    big = [b for b in every if b.rows >= BIG_ROWS]
    say(
        f"paths: every path on every book, wall clock as typed, interleaved, best of {repeats}"
        f" ({big_repeats} at {_count(big_rows)} rows); (a) calamine + COPY, (c) polars + ADBC"
    )
    checks: list[Check] = []
    with scratch_database(resolve_url(load_settings()), "paths") as url:
        bench = Bench(url, baseline)
        bench.setup()
        for group, times in ((small, repeats), (big, big_repeats)):
            if not group:
                continue
            got = measure(bench, group, times)
            for book in group:
                checks += report_book(book, got[book.name], say)
    for name, value, goal, met in checks:
        say(f"  {name:<50} {value:>10.2f}   target {goal:<8} {'ok' if met else 'MISSED'}")
    return all(met for *_, met in checks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.paths")
    parser.add_argument("--rows", type=int, default=ROWS)
    parser.add_argument("--big-rows", type=int, default=BIG_ROWS, help="0 skips the big books")
    parser.add_argument("--repeats", type=int, default=REPEATS)
    parser.add_argument("--big-repeats", type=int, default=BIG_REPEATS)
    parser.add_argument("--baseline", type=Path, help="a tree of the tool to compare with")
    parser.add_argument("--only", nargs="*", default=[], help="books by name ('mixed 200k 10%%')")
    options = parser.parse_args(argv)
    met = run(
        rows=options.rows,
        big_rows=options.big_rows,
        repeats=options.repeats,
        big_repeats=options.big_repeats,
        baseline=options.baseline,
        only=options.only,
    )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
