"""The labelled corpus (tests/corpus/labelled): real sheets from other projects' test and
example data, each labelled as a person sees it, and the tool compared with the labels
through the real CLI (forms infer -> forms add -> submit, then the database).

The targets hold (header right >= 95%, rows exact >= 90%, no not-data row stored, no data
row silently left, no refusal of the tool's own making), and the figures of each sheet must
never get worse than the recorded baseline (labelled/baseline.json, written deliberately by
`python -m tests.corpus.labelled --write-baseline`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from tests.corpus.labelled.figures import (
    Compared,
    load_baseline,
    report,
    totals,
    worse_than,
)
from tests.corpus.labelled.labels import FILES, HERE, load_labels
from tests.corpus.labelled.run import run_labelled

LABELS = load_labels()


def test_the_labelled_corpus_is_large_small_and_licensed() -> None:
    assert len(LABELS) >= 40
    assert sum(label.table and label.business_like for label in LABELS) >= 25
    files = {label.path for label in LABELS}
    assert all(f.is_file() for f in files)
    assert sum(f.stat().st_size for f in FILES.rglob("*") if f.is_file()) < 15 << 20
    notice = (HERE / "NOTICE").read_text(encoding="utf-8")
    for source in {f.relative_to(FILES).parts[0] for f in files}:
        assert (FILES / source / "LICENSE").is_file(), source
        assert f"| {source} " in notice, source


def test_each_label_says_one_thing_of_each_row() -> None:
    assert not [key for key, n in Counter(label.key for label in LABELS).items() if n > 1]
    for label in LABELS:
        kinds = [*label.not_data.values(), label.data, (label.header,) if label.header else ()]
        rows = [n for ranges in kinds for first, last in ranges for n in range(first, last + 1)]
        assert len(rows) == len(set(rows)), label.key  # header, data, not-data: apart
        assert all(first <= last for ranges in kinds for first, last in ranges), label.key
        if label.table:
            assert label.header is not None and label.data_rows, label.key
            assert min(label.data_rows) > label.header[1], label.key
        else:
            assert label.header is None and not label.data, label.key
            assert list(label.not_data) == ["not a table"], label.key


def test_every_labelled_sheet_has_recorded_figures() -> None:
    assert sorted(load_baseline()) == sorted(label.key for label in LABELS)


@pytest.fixture(scope="module")
def labelled(server_url: str) -> Iterator[list[Compared]]:
    yield run_labelled(server_url, LABELS)


@pytest.mark.slow
def test_the_tool_reads_the_sheets_as_a_person_does(labelled: list[Compared]) -> None:
    assert totals(labelled).targets_met, "\n".join(report(labelled))


@pytest.mark.slow
def test_no_sheet_reads_worse_than_recorded(labelled: list[Compared]) -> None:
    worse = worse_than(load_baseline(), labelled)
    assert not worse, "\n".join(["figures worse than baseline.json:", *worse])
