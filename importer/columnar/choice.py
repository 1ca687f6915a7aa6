"""Which path reads an .xlsx sheet, by what each will cost: a pure function of what is known
before the sheet is read (its XML's size, and a sample of its first rows, sample.py).

The row path's time grows with the sheet's rows, about alike whatever the cells hold. The
columnar path's has three parts: a fixed one (polars and fastexcel loaded, the split's
worker processes started, the pieces' workbook written), one per row it settles as columns,
and one more per row its checks leave to the row path's Validator, its cells rebuilt as the
row path's reader gives them (an invalid row; a cell its checks cannot settle, such as a
date typed in a format it does not parse or a boolean cell in a text field; an error cell
in a column the form reads). How many rows that is ("read again" below, as the sample
counts them) is known from the sample, before anything else is read; the path whose
estimate is lower runs. The constants are fit on `make bench` (bench/paths.py: every path on every
book of the bench, their times measured in the same run).

``IMPORTER_TEST_COLUMNAR=1`` / ``=0`` forces the columnar / row path (tests and the bench).
"""

from __future__ import annotations

from dataclasses import dataclass

SWITCH = "IMPORTER_TEST_COLUMNAR"

# The row path's time per row is the unit. Fit on bench/paths.py's books (200,000 and
# 1,000,000 rows, 2% to 32% of the rows read again), between two runs: the machine busy
# with other work (75,000, 0.50, 0.59) and idle (93,000, 0.23, 1.06). Since the rows left
# to the Validator are rebuilt from their texts rather than read again, a run of the
# 200,000-row books gave a slope of 0.58 where that idle run gave 1.31: READ_AGAIN is
# the earlier fit's, scaled so. See docs/ARCHITECTURE.md, "Which path reads a sheet".
FIXED_ROWS = 84_000  # the columnar path's fixed costs, in rows of the row path
SETTLED = 0.37  # a row the columnar checks settle, against a row of the row path
READ_AGAIN = 0.36  # a row left to the Validator, over one the checks settle
# Below this much sheet XML (~70,000 rows of ten columns) the fixed costs are never won
# back, whatever the rows hold: the row path, without a sample.
SAMPLE_FROM_BYTES = 24 << 20


@dataclass(frozen=True)
class Sample:
    """The sheet's first rows as the columnar path would take them (sample.py)."""

    rows: int  # rows holding values after the header
    xml_bytes: int  # the XML they take
    read_again: int  # of them, rows the columnar path would read again exactly
    references: int = 0  # the row numbers written in them (r="12", r="B12")
    last_row: int = 0  # the Excel row of the sample's last row

    def sheet_rows(self, sheet_bytes: int) -> int:
        """The sheet's rows, estimated from its XML's size at the sample's bytes a row,
        each row's number written longer further down (r="999999": 1,000,000 rows of
        eleven columns take 12% more bytes a row than their first thousand)."""
        if not self.rows:
            return 0
        per_row = self.xml_bytes / self.rows
        per_digit = self.references / self.rows  # bytes a row for each digit more
        sampled = _mean_digits(self.last_row - self.rows + 1, self.last_row)
        rows = sheet_bytes / per_row
        for _ in range(3):  # a fixed point: the longer numbers of that many rows
            longer = per_digit * max(_mean_digits(1, round(rows)) - sampled, 0.0)
            rows = sheet_bytes / (per_row + longer)
        return round(rows)

    @property
    def share(self) -> float:
        return self.read_again / self.rows if self.rows else 1.0


def _mean_digits(first: int, last: int) -> float:
    """The mean count of digits of the numbers first..last."""
    first, last = max(first, 1), max(last, first, 1)
    total, low = 0, first
    while low <= last:
        high = min(last, 10 ** len(str(low)) - 1)
        total += (high - low + 1) * len(str(low))
        low = high + 1
    return total / (last - first + 1)


@dataclass(frozen=True)
class PathChoice:
    columnar: bool
    reason: str

    def __str__(self) -> str:
        return f"{'columnar' if self.columnar else 'row'} path: {self.reason}"


def _rounded(rows: int) -> int:
    """Two significant digits: what an estimate is good for."""
    return round(rows, 1 - len(str(rows))) if rows >= 100 else rows


def small_sheet(sheet_bytes: int) -> str:
    """Why a sheet under SAMPLE_FROM_BYTES is read row by row."""
    return (
        f"a small sheet ({sheet_bytes / (1 << 20):.1f} MB of XML, under"
        f" {SAMPLE_FROM_BYTES >> 20} MB): the columnar path's fixed costs are not won back"
    )


def estimate(rows: int, share: float) -> float:
    """The columnar path's time over the row path's, for ``rows`` rows of which ``share``
    is read again exactly."""
    return (FIXED_ROWS + rows * (SETTLED + share * READ_AGAIN)) / max(rows, 1)


def choose_path(
    *,
    switch: str | None,
    not_covered: str | None,
    sheet_bytes: int,
    sample: Sample | None,
) -> PathChoice:
    """The path that reads the sheet, and why. ``not_covered``: why the columnar checks do
    not cover the form (None: they do); ``sheet_bytes``: the sheet's XML as the package
    declares it; ``sample``: its first rows (None: none taken)."""
    if switch == "0":
        return PathChoice(False, f"{SWITCH}=0")
    if not_covered is not None:
        return PathChoice(False, f"the columnar checks do not cover the form ({not_covered})")
    if switch == "1":
        return PathChoice(True, f"{SWITCH}=1")
    if sheet_bytes < SAMPLE_FROM_BYTES:
        return PathChoice(False, small_sheet(sheet_bytes))
    size = f"{sheet_bytes / (1 << 20):.0f} MB of sheet XML"
    if sample is None or not sample.rows:
        return PathChoice(False, f"{size}, its first rows could not be sampled")
    rows = sample.sheet_rows(sheet_bytes)
    ratio = estimate(rows, sample.share)
    said = (
        f"~{_rounded(rows):,} rows ({size}), {sample.share:.0%} of the first {sample.rows:,}"
        f" to read again exactly: the columnar path estimated at {ratio:.2f}x the row path's"
        " time"
    )
    return PathChoice(ratio < 1.0, said)
