"""A bounded slice of the real-world corpus (tests/corpus, `make corpus` runs it all):
forms infer -> forms add -> submit, in-process, on a handful of files that each stood for
a way reading went wrong. The whole set, with every command a measured child process,
is `python -m tests.corpus`."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.chaos.procs import Measured
from tests.conftest import Cli
from tests.corpus.run import FILES, Step, corpus_files, run_file, summary

SLICE = {
    "agate_excel-0.4.2/test.xls": "imported",
    "agate_excel-0.4.2/test_sheets.xlsx": "imported",  # an empty first sheet: the next is read
    "pyexcel-ods-0.6.0/ods_formats.ods": "imported",
    "pyexcel-xlsbr-0.6.1/date_field.xlsb": "imported",
    "xlrd-1.2.0/biff4_no_format_no_window2.xls": "imported",  # BIFF4 without OLE container
    # white space between cells, read; a column of numbers without a name: no table
    "odfpy-1.4.1/pythagoras-kspread.ods": "refused",
    # r="a1": a row of numbers and nothing under it (refused: no table)
    "xlrd2-1.3.4/test_lower_case_cellnames.xlsx": "refused",
    "xlrd-1.2.0/test_comments_gdocs.xlsx": "refused",  # comments only: no table
}


def in_process(cli: Cli) -> Step:
    def step(*args: str) -> Measured:
        started = time.monotonic()
        result = cli(*args)
        return Measured(
            list(args),
            result.exit_code,
            result.stdout,
            result.stderr,
            time.monotonic() - started,
            0.0,
        )

    return step


def test_the_corpus_is_small_and_licensed() -> None:
    files = corpus_files()
    assert len(files) >= 100
    assert sum(f.stat().st_size for f in files) < 8 << 20
    for project in {f.relative_to(FILES).parts[0] for f in files}:
        assert (FILES / project / "LICENSE").is_file(), project
        assert project in (FILES.parent / "NOTICE").read_text(encoding="utf-8"), project


@pytest.mark.parametrize("label", sorted(SLICE))
def test_a_slice_of_the_corpus(cli: Cli, tmp_path: Path, label: str) -> None:
    outcome = run_file(FILES / label, 1, in_process(cli), tmp_path)
    assert (outcome.status, outcome.reason) == (SLICE[label], outcome.reason)
    if outcome.status == "refused":
        assert outcome.reason.count("\n") == 0
        assert any(
            why in outcome.reason for why in ("empty", "no rows to import", "no table to infer")
        )
    assert summary([outcome])[0].endswith(
        f"imported {int(outcome.status == 'imported')}, "
        f"refused {int(outcome.status == 'refused')}, broken 0"
    )
