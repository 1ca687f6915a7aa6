"""The choice of a sheet's path (importer/columnar/choice.py): a pure function of the
switch, the form's coverage, the sheet's size and a sample of its first rows."""

from __future__ import annotations

import pytest

from importer.columnar.choice import (
    SAMPLE_FROM_BYTES,
    SWITCH,
    PathChoice,
    Sample,
    choose_path,
    estimate,
)

MB = 1 << 20
ROW_BYTES = 350  # a row of ten or eleven columns as Excel writes it (the bench's books)


def sample(share: float, rows: int = 800) -> Sample:
    return Sample(rows=rows, xml_bytes=rows * ROW_BYTES, read_again=round(rows * share))


def sheet(rows: int) -> int:
    return rows * ROW_BYTES


@pytest.mark.parametrize(
    ("switch", "not_covered", "sheet_bytes", "taken", "columnar", "said"),
    [
        # forced either way, but never onto checks that do not cover the form
        ("0", None, sheet(1_000_000), sample(0.0), False, f"{SWITCH}=0"),
        ("1", None, 1_000, None, True, f"{SWITCH}=1"),
        ("1", "the form has a key", sheet(1_000_000), None, False, "do not cover the form"),
        (None, "the form has a key", sheet(1_000_000), sample(0.0), False, "has a key"),
        # small sheets: the row path, unsampled
        (None, None, 10 * MB, None, False, "a small sheet (10.0 MB of XML"),
        (None, None, SAMPLE_FROM_BYTES - 1, sample(0.0), False, "small sheet"),
        # a big sheet whose first rows could not be sampled
        (None, None, sheet(500_000), None, False, "could not be sampled"),
        (None, None, sheet(500_000), Sample(0, 0, 0), False, "could not be sampled"),
        # 200,000 rows: few rows read again, the columnar path; many, the row path
        (None, None, sheet(200_000), sample(0.02), True, "~200,000 rows (67 MB of sheet XML)"),
        (None, None, sheet(200_000), sample(0.05), True, "5% of the first 800"),
        (None, None, sheet(200_000), sample(0.40), True, "40% of the first 800"),
        (None, None, sheet(200_000), sample(0.70), False, "70% of the first 800"),
        # 1,000,000 rows: the fixed costs weigh less
        (None, None, sheet(1_000_000), sample(0.02), True, "~1,000,000 rows"),
        (None, None, sheet(1_000_000), sample(0.10), True, "10% of the first 800"),
        (None, None, sheet(1_000_000), sample(0.50), True, "50% of the first 800"),
        (None, None, sheet(1_000_000), sample(0.95), True, "95% of the first 800"),
        # under the threshold's rows, even a clean sheet
        (None, None, SAMPLE_FROM_BYTES, sample(0.0), False, "estimated at"),
    ],
)
def test_the_path_chosen_and_why(
    switch: str | None,
    not_covered: str | None,
    sheet_bytes: int,
    taken: Sample | None,
    columnar: bool,
    said: str,
) -> None:
    choice = choose_path(
        switch=switch, not_covered=not_covered, sheet_bytes=sheet_bytes, sample=taken
    )
    assert choice.columnar is columnar
    assert said in choice.reason
    assert str(choice).startswith("columnar path: " if columnar else "row path: ")


def test_the_reason_gives_the_estimate_the_choice_follows() -> None:
    choice = choose_path(
        switch=None, not_covered=None, sheet_bytes=sheet(400_000), sample=sample(0.1)
    )
    ratio = estimate(400_000, 0.1)
    assert f"{ratio:.2f}x the row path's time" in choice.reason
    assert choice == PathChoice(ratio < 1, choice.reason)


@pytest.mark.parametrize("rows", [80_000, 200_000, 500_000, 1_000_000, 1_048_575])
def test_more_rows_read_again_never_turn_the_row_path_into_the_columnar_one(rows: int) -> None:
    chosen = [
        choose_path(
            switch=None, not_covered=None, sheet_bytes=sheet(rows), sample=sample(share / 100)
        ).columnar
        for share in range(0, 101, 2)
    ]
    assert chosen == sorted(chosen, reverse=True)  # columnar first, then the row path


@pytest.mark.parametrize("share", [0.0, 0.05, 0.1, 0.15, 0.2, 0.3])
def test_more_rows_never_turn_the_columnar_path_into_the_row_one(share: float) -> None:
    chosen = [
        choose_path(
            switch=None, not_covered=None, sheet_bytes=sheet(rows), sample=sample(share)
        ).columnar
        for rows in range(70_000, 1_048_576, 20_000)
    ]
    assert chosen == sorted(chosen)  # the row path first, then the columnar one


def test_the_sheets_rows_are_estimated_from_the_samples_bytes_a_row() -> None:
    taken = Sample(rows=700, xml_bytes=700 * 400, read_again=70)
    assert taken.sheet_rows(400 * 300_000) == 300_000
    assert taken.share == pytest.approx(0.1)


def test_the_rows_further_down_are_counted_with_their_longer_numbers() -> None:
    # 800 rows of 340 bytes each below row 1 (r="2" .. r="801"), each row's number written
    # twelve times (the row's and eleven cells'): row n takes 12 bytes a digit more.
    def size(rows: int) -> int:
        return sum(340 + 12 * (len(str(n)) - 3) for n in range(2, rows + 2))

    taken = Sample(rows=800, xml_bytes=size(800), read_again=0, references=12 * 800, last_row=801)
    for rows in (200_000, 1_000_000):
        assert taken.sheet_rows(size(rows)) == pytest.approx(rows, rel=0.01)
    assert Sample(rows=800, xml_bytes=size(800), read_again=0).sheet_rows(size(1_000_000)) > (
        1_080_000  # at the first rows' bytes a row, 10% too many
    )
