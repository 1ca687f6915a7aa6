"""python -m tests.corpus.labelled [-v] [--write-baseline] [FILE[:SHEET] ...]: the labelled
sheets (or those named) through the real CLI, compared with their labels; prints a table per
file, the totals and the sheets the tool gets wrong. Exits 1 when a sheet's figures are
worse than the recorded baseline (baseline.json); --write-baseline records today's.

The server is IMPORTER_TEST_DATABASE_URL when set (a throw-away database is created on it
and dropped afterwards), else an embedded server started in a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from tests.corpus.labelled.figures import (
    BASELINE,
    Compared,
    baseline_json,
    load_baseline,
    report,
    worse_than,
)
from tests.corpus.labelled.labels import Label, load_labels
from tests.corpus.labelled.run import run_labelled


def chosen(labels: list[Label], names: list[str]) -> list[Label]:
    """The labels named FILE (every sheet of it) or FILE:SHEET; all without names."""
    if not names:
        return labels
    return [label for label in labels if label.file in names or label.key in names]


def run_on_a_server(labels: list[Label], verbose: bool) -> list[Compared]:
    def progress(result: Compared) -> None:
        if verbose:
            f = result.figures
            print(
                f"{result.observed.outcome:11s} {result.observed.seconds:5.2f} s  "
                f"header {'right' if f.header_right else 'WRONG'}  {result.label.key}",
                flush=True,
            )

    url = os.environ.get("IMPORTER_TEST_DATABASE_URL")
    if url:
        return run_labelled(url, labels, progress)
    from importer.database.embedded import EmbeddedServer

    home = Path(tempfile.mkdtemp(prefix="importer-labelled-pg-"))
    server = EmbeddedServer(home)
    try:
        return run_labelled(server.ensure_running(), labels, progress)
    finally:
        server.stop()
        shutil.rmtree(home, ignore_errors=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.corpus.labelled")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per sheet")
    parser.add_argument("--write-baseline", action="store_true", help="record today's figures")
    parser.add_argument("names", nargs="*", help="FILE or FILE:SHEET under files/")
    args = parser.parse_args(argv)
    labels = chosen(load_labels(), args.names)
    results = run_on_a_server(labels, args.verbose)
    for line in report(results):
        print(line)
    if args.write_baseline:
        BASELINE.write_text(baseline_json(results), encoding="utf-8")
        print(f"recorded the figures of {len(results)} sheets in {BASELINE.name}")
        return 0
    worse = worse_than(load_baseline(), results)
    for line in worse:
        print(f"WORSE {line}")
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
