"""Reading benchmark: rows/s and peak memory of reading + validation with each engine, next
to plain python-calamine and plain openpyxl read-only iteration, measured in the same run.

Workbooks come from `python -m sample_data.generate big` (200,000 x 10, 5% invalid rows; and
1,000,000 x 10 for the streaming engine's memory), generated once into .bench/.
Every measurement runs in its own child process and reports its own peak RSS (getrusage
RUSAGE_SELF at its end), so measurements never share memory. The machine is shared with
other work: rates use each child's CPU time (wall time is printed too), and the short
calamine cases run five times, interleaved, keeping their best.

Targets: calamine read + validate >= 0.7x plain calamine iteration; streaming engine
< 150 MB peak on the 1,000,000-row sheet.
Run alone: ``python -m bench.reading [--rows N] [--big-rows N]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".bench"
ROWS = 200_000
BIG_ROWS = 1_000_000
INVALID = 0.05
BATCH = 1000
TARGET_RATIO = 0.7
TARGET_STREAMING_MB = 150.0
REPEATS = 5


def workbook(rows: int, invalid: float = INVALID) -> Path:
    """The generated workbook for `rows` (made once, kept under .bench/; every section
    that reads one shares it)."""
    CACHE.mkdir(exist_ok=True)
    path = CACHE / f"big-{rows}x10-invalid{invalid}.xlsx"
    if not path.exists():
        partial = path.with_suffix(".partial.xlsx")
        subprocess.run(
            [
                sys.executable,
                "-m",
                "sample_data.generate",
                "big",
                str(partial),
                "--rows",
                str(rows),
                "--cols",
                "10",
                "--invalid",
                str(invalid),
            ],
            check=True,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
        )
        partial.replace(path)
    return path


# --- the cases, each run in a child process ------------------------------------------------------


def _plain_calamine(path: Path) -> int:
    import python_calamine as pc

    workbook = pc.CalamineWorkbook.from_path(str(path))
    sheet = workbook.get_sheet_by_index(0)
    return sum(1 for _ in sheet.iter_rows()) - 1  # minus the header


def _plain_openpyxl(path: Path) -> int:
    import openpyxl

    workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
    rows = sum(1 for _ in workbook.worksheets[0].iter_rows(values_only=True)) - 1
    workbook.close()
    return rows


def _read_validate(path: Path, engine: str, checked: bool) -> int:
    from importer.excel import open_sheet
    from importer.forms.definition import parse_form_text
    from importer.forms.validation import Validator
    from sample_data.generate import big_form_text

    form = parse_form_text(big_form_text(10))
    seen = 0
    with open_sheet(path, engine=engine, checked=checked) as reader:
        validator = Validator(form, reader.header, date1904=reader.date1904)
        for batch in reader.batches(BATCH):  # as an import reads them
            result = validator.validate(batch)
            seen += len(result.valid) + len(result.rejected)
    return seen


CASES: dict[str, Callable[[Path], int]] = {
    "plain_calamine": _plain_calamine,
    "plain_openpyxl": _plain_openpyxl,
    "calamine": lambda p: _read_validate(p, "calamine", checked=True),
    "calamine_submit": lambda p: _read_validate(p, "calamine", checked=False),
    "openpyxl": lambda p: _read_validate(p, "openpyxl", checked=True),
}


def _child(case: str, path: Path) -> None:
    import resource

    # Imports are paid once per process, not per workbook: leave them out of the timing.
    import openpyxl  # noqa: F401
    import python_calamine  # noqa: F401

    import sample_data.generate  # noqa: F401

    started, cpu_started = time.perf_counter(), time.process_time()
    rows = CASES[case](path)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(json.dumps({"rows": rows, "seconds": seconds, "cpu": cpu, "peak_mb": peak}))


@dataclass
class Measure:
    label: str
    rows: int
    seconds: float  # wall clock
    cpu: float  # CPU time of the child: what the rates and ratios use (the machine is shared)
    peak_mb: float

    @property
    def rate(self) -> float:
        return self.rows / self.cpu if self.cpu else 0.0

    def line(self) -> str:
        return (
            f"  {self.label:<46} {self.rate:>9,.0f} rows/s  cpu {self.cpu:>6.2f} s  "
            f"wall {self.seconds:>6.2f} s  peak {self.peak_mb:>5.0f} MB"
        )


def measure(case: str, path: Path, label: str) -> Measure:
    done = subprocess.run(
        [sys.executable, "-m", "bench.reading", "--child", case, str(path)],
        check=True,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    data = json.loads(done.stdout.strip().splitlines()[-1])
    return Measure(
        label, int(data["rows"]), float(data["seconds"]), float(data["cpu"]), float(data["peak_mb"])
    )


def run(
    report: Callable[[str], None] | None = None,
    *,
    rows: int = ROWS,
    big_rows: int = BIG_ROWS,
    streaming: bool = True,
) -> bool:
    """Print the reading figures and targets; True when every target is met."""
    say = report or (lambda text: print(text, flush=True))
    say(f"reading: {rows:,} x 10 workbook, {INVALID:.0%} invalid rows, batches of {BATCH:,}")
    path = workbook(rows)
    fast: dict[str, Measure] = {}
    for _ in range(REPEATS):  # interleaved, so a busy moment does not hit one case only
        for case, label in (
            ("plain_calamine", "plain python-calamine iter_rows"),
            ("calamine", "calamine engine: read + validate"),
            ("calamine_submit", "  same, with the safety pass (as submit reads)"),
        ):
            m = measure(case, path, label)
            if case not in fast or m.cpu < fast[case].cpu:
                fast[case] = m
    for m in fast.values():
        say(m.line())
    ratio = fast["calamine"].rate / fast["plain_calamine"].rate
    submit_ratio = fast["calamine_submit"].rate / fast["plain_calamine"].rate
    ok_ratio = ratio >= TARGET_RATIO
    say(
        f"  calamine read + validate / plain calamine: {ratio:.2f}x "
        f"(target >= {TARGET_RATIO}x) {'OK' if ok_ratio else 'MISSED'}; "
        f"with the safety pass {submit_ratio:.2f}x"
    )
    if not streaming:
        return ok_ratio
    plain_openpyxl = measure("plain_openpyxl", path, "plain openpyxl read-only iteration")
    stream = measure("openpyxl", path, "openpyxl engine: read + validate")
    say(plain_openpyxl.line())
    say(stream.line())

    stream_ratio = stream.rate / plain_openpyxl.rate
    say(f"  openpyxl engine read + validate / plain openpyxl: {stream_ratio:.2f}x")

    big = measure("openpyxl", workbook(big_rows), f"openpyxl engine on {big_rows:,} rows")
    say(big.line())
    ok_memory = big.peak_mb < TARGET_STREAMING_MB
    say(
        f"  streaming peak on {big_rows:,} rows: {big.peak_mb:.0f} MB "
        f"(target < {TARGET_STREAMING_MB:.0f} MB) {'OK' if ok_memory else 'MISSED'}"
    )
    return ok_ratio and ok_memory


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.reading")
    parser.add_argument("--child", nargs=2, metavar=("CASE", "FILE"), help=argparse.SUPPRESS)
    parser.add_argument("--rows", type=int, default=ROWS)
    parser.add_argument("--big-rows", type=int, default=BIG_ROWS)
    parser.add_argument("--calamine-only", action="store_true", help="skip the streaming cases")
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child[0], Path(args.child[1]))
        return 0
    met = run(rows=args.rows, big_rows=args.big_rows, streaming=not args.calamine_only)
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
