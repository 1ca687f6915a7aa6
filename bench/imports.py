"""Import benchmark, on the wall clock as a user waits for it: `importer submit FILE --quiet`
from process start to exit, next to what a user would write instead (bench/peers.py), all in
the same run, on workbooks as Excel writes them (bench/workbooks.py). Rows go to the form's
typed table ``forms.<name>``.

200,000 x 10 (the ratios): the import; (a) the minimal calamine + COPY pipeline into a JSONB
table; (a2) the same loop writing the same typed table by binary COPY; (c) polars + ADBC;
the same import on the row path where the default reads the sheet as columns (no target); the
resume of a job killed half-way; the time to the first progress line; the import into a table
of the user's (a FOREIGN KEY and a CHECK) with 1% of its rows breaking them, against the same
import with none, and whether each breaking row was rejected naming its constraint; the bytes
per row of the typed table against the same rows as JSONB; the import of a copy re-saved by
LibreOffice when it is installed.
1,000,000 x 10 (a unique text per row): the default import against (c), and its peak memory.

Every case is its own process; peak memory is its process tree's (wait4's ru_maxrss, or
the sum over the process and its children, a split's workers, sampled every 50 ms, whichever
is larger). Interleaved
repeats, best of N: a busy moment on a shared machine then hits one run, not one case.
Run alone: ``python -m bench.imports [--rows N] [--big-rows N] [--repeats N] [--only own]``;
``--only own`` runs the user's-table case alone (clean and violating, interleaved).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import psycopg

from bench import tables, workbooks
from bench.peers import JSONB_TABLE, JSONB_TABLE_DDL
from bench.scratch import scratch_database
from importer.config import ImportSettings

ROWS = 200_000
BIG_ROWS = 1_000_000
REPEATS = 3
VIOLATING = 0.01  # the share of rows breaking the user table's constraints
IMPORTER = [sys.executable, "-m", "importer"]
PEER = [sys.executable, "-m", "bench.peers"]

# Targets (issue: "typed tables").
VS_MINIMAL = 1.2
VS_POLARS = 0.6
BIG_VS_POLARS = 0.5
BIG_PEAK_MB = 512
VIOLATING_VS_CLEAN = 0.8
RESUME_SHARE = 0.55
FIRST_LINE_SECONDS = 0.5


@dataclass(frozen=True)
class Run:
    seconds: float
    peak_mb: float
    cpu: float
    code: int
    first_line: float | None  # seconds to the first line of output
    output: str


def tree_rss_kb(pid: int) -> int:
    """The resident memory of a process and all its descendants (a split's workers), in KB."""
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            total += next(
                int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")
            )
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += map(int, (task / "children").read_text().split())
        except (OSError, StopIteration, ValueError):
            continue
    return total


def timed(command: Sequence[str], env: dict[str, str]) -> Run:
    """Run a command; wall clock from start to exit, its peak memory (its own, or its
    process tree's sampled every 50 ms, whichever is larger) and CPU."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        list(command), env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    first: list[float] = []
    lines: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            if not first:
                first.append(time.perf_counter() - started)
            lines.append(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    tree_peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.05):
            tree_peak[0] = max(tree_peak[0], tree_rss_kb(proc.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    done.set()
    proc.returncode = os.waitstatus_to_exitcode(status)
    reader.join()
    sampler.join()
    return Run(
        seconds,
        max(usage.ru_maxrss, tree_peak[0]) / 1024,
        usage.ru_utime + usage.ru_stime,
        proc.returncode,
        first[0] if first else None,
        "".join(lines),
    )


class Bench:
    def __init__(self, url: str, say: Callable[[str], None]) -> None:
        self.url = url
        self.say = say
        self.env = {**os.environ, "IMPORTER_DATABASE_URL": url, "NO_COLOR": "1"}
        self.own_failure: str | None = None  # why the user's-table case could not run
        self.typed = "forms." + workbooks.FORM_NAME

    def setup(self) -> None:
        """The forms, their tables, the peers' JSONB table and the user's own table."""
        from importer.database import connect
        from importer.errors import ImporterError
        from importer.forms.definition import parse_form_text
        from importer.repositories.forms import save_form

        with connect(self.url, autocommit=True) as conn:
            save_form(conn, parse_form_text(workbooks.FORM))  # creates forms.<name>
        with psycopg.connect(self.url, autocommit=True) as raw:
            raw.execute(JSONB_TABLE_DDL)
            tables.create_own_table(raw)
        try:
            with connect(self.url, autocommit=True) as conn:
                save_form(conn, parse_form_text(workbooks.OWN_FORM))
        except ImporterError as error:
            self.own_failure = f"forms add refused its form: {error}"

    def clear(self) -> None:
        """Each case starts from empty tables (same indexes, no bloat from the last one)."""
        with psycopg.connect(self.url, autocommit=True) as conn:
            targets = [self.typed, workbooks.OWN_TABLE, JSONB_TABLE]
            conn.execute(f"TRUNCATE import_rejected_rows, import_row_errors, {', '.join(targets)}")
            conn.execute("DROP TABLE IF EXISTS peer_polars")
            for name in targets:
                conn.execute(f"VACUUM ANALYZE {name}")

    def run(self, command: Sequence[str], *, codes: tuple[int, ...] = (0, 3)) -> Run:
        self.clear()
        result = timed(command, self.env)
        if result.code not in codes:
            raise RuntimeError(f"bench: {' '.join(command)} exited {result.code}: {result.output}")
        return result

    def submit(self, path: Path, *extra: str, form: str = workbooks.FORM_NAME) -> list[str]:
        return [*IMPORTER, "submit", str(path), "--form", form, "--force", *extra]

    def peer(self, case: str, path: Path) -> list[str]:
        return [*PEER, case, self.url, str(path)]

    def killed_half_way(self, path: Path, rows: int) -> str:
        """A foreground import SIGKILLed right after the batch that reaches half the rows."""
        import psutil

        self.clear()
        env = {**self.env, "IMPORTER_TEST_PAUSE_AT": f"rows:{rows // 2}"}
        child = subprocess.Popen(
            self.submit(path, "--quiet"),
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        handle = psutil.Process(child.pid)
        while handle.status() != psutil.STATUS_STOPPED:
            if child.poll() is not None:
                raise RuntimeError("bench: the import to kill ended early")
            time.sleep(0.01)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        with psycopg.connect(self.url) as conn:
            return str(tables.last_job(conn, workbooks.FORM_NAME))

    def resume(self, path: Path, rows: int) -> Run:
        job_id = self.killed_half_way(path, rows)
        return timed([*IMPORTER, "resume", job_id, "--quiet"], self.env)


Check = tuple[str, float, str, bool]


def target(name: str, value: float, op: str, goal: float) -> Check:
    met = {">=": value >= goal, "<=": value <= goal, "<": value < goal}[op]
    return name, value, f"{op} {goal:g}", met


def best(runs: list[Run]) -> Run:
    return min(runs, key=lambda r: r.seconds)


def line(name: str, rows: int | None, run: Run) -> str:
    rate = f"{rows / run.seconds:>10,.0f} rows/s" if rows else " " * 17
    return (
        f"  {name:<50} {rate}  {run.seconds:>7.2f} s  cpu {run.cpu:>6.2f} s"
        f"  peak {run.peak_mb:>6.0f} MB"
    )


def ratio(name: str, value: float) -> str:
    return f"  {name:<50} {value:>10.2f}x"


def run(
    report: Callable[[str], None] | None = None,
    *,
    rows: int = ROWS,
    big_rows: int = BIG_ROWS,
    repeats: int = REPEATS,
) -> bool:
    """Print the figures, the ratios and the targets; True when every target is met."""
    from importer.config import load_settings
    from importer.database import resolve_url

    say = report or (lambda text: print(text, flush=True))
    server = resolve_url(load_settings())
    path = workbooks.excel_like(rows)
    clean = workbooks.excel_like(rows, invalid=0.0)
    violating = workbooks.excel_like(rows, invalid=0.0, violating=VIOLATING)
    office = workbooks.libreoffice_copy(path)
    say(
        f"imports: {rows:,} x 10 workbook as Excel writes it (shared strings, styles, 00000"
        f" ZIPs beside texts, date cells beside ISO texts, booleans beside yes/no, an ignored"
        f" column, ~{workbooks.INVALID:.0%} invalid; {path.stat().st_size >> 20} MB),"
        f" into forms.{workbooks.FORM_NAME}; wall clock, best of {repeats}"
    )
    checks: list[Check] = []
    with scratch_database(server, "imports") as url:
        bench = Bench(url, say)
        bench.setup()
        cases: dict[str, list[str]] = {
            "import": bench.submit(path, "--quiet"),
            "minimal": bench.peer("minimal", path),
            "minimal_typed": bench.peer("minimal_typed", path),
            "polars": bench.peer("polars", path),
            # The same command on the row path (the default reads a sheet this big as columns).
            "rows": ["env", "IMPORTER_TEST_COLUMNAR=0", *bench.submit(path, "--quiet")],
        }
        own = bench.own_failure is None
        if own:
            cases["own_clean"] = bench.submit(clean, "--quiet", form=workbooks.OWN_FORM_NAME)
            cases["own_violating"] = bench.submit(
                violating, "--quiet", form=workbooks.OWN_FORM_NAME
            )
        runs: dict[str, list[Run]] = {}
        outcomes: list[tables.Outcome] = []
        for _ in range(repeats):
            for name, command in cases.items():
                if name.startswith("own_") and bench.own_failure is not None:
                    continue
                try:
                    runs.setdefault(name, []).append(bench.run(command))
                except RuntimeError as error:
                    if not name.startswith("own_"):
                        raise
                    # The user's table's case fails alone: its targets are then missed.
                    bench.own_failure = f"the import failed: {str(error)[-300:].strip()}"
                    continue
                if name == "own_violating":
                    with psycopg.connect(url) as conn:
                        outcomes.append(tables.check_own_import(conn, rows, VIOLATING))
            runs.setdefault("resume", []).append(bench.resume(path, rows))
            # Last: the typed table then holds one whole import, for its storage figures.
            runs.setdefault("first", []).append(bench.run(bench.submit(path)))
        got = {name: best(found) for name, found in runs.items()}
        imp, a, a2, c = got["import"], got["minimal"], got["minimal_typed"], got["polars"]

        say(line(f"importer submit FILE --quiet ({_how(path)})", rows, imp))
        say(line("(a) calamine + COPY raw JSON into JSONB, 1,000/txn", rows, a))
        say(line("(a2) calamine + binary COPY into the typed table", rows, a2))
        say(line("(c) polars read_excel + write_database(adbc)", rows, c))
        say(line("the same command, row path (IMPORTER_TEST_COLUMNAR=0)", rows, got["rows"]))
        say(ratio("    row path vs (a) (no target)", a.seconds / got["rows"].seconds))
        say(ratio("    row path vs (c) (no target)", c.seconds / got["rows"].seconds))
        say(ratio("    import vs (a2) (no target)", a2.seconds / imp.seconds))
        say(line("importer resume of a job killed half-way", None, got["resume"]))
        firsts = [r.first_line for r in runs["first"] if r.first_line is not None]
        first = min(firsts, default=None)
        shown = f"{first:.2f} s" if first is not None else "no output"
        say(f"  {'first progress line of importer submit FILE':<50} {shown:>12}")
        with psycopg.connect(url, autocommit=True) as conn:
            sizes = tables.storage(conn, tables.typed_table(workbooks.FORM_NAME))
        if sizes.rows:
            typed_b, jsonb_b = sizes.per_row(sizes.typed_bytes), sizes.per_row(sizes.jsonb_bytes)
            say(
                f"  {'storage, bytes per row (table + indexes)':<50} typed {typed_b:>6.0f}"
                f"  JSONB {jsonb_b:>6.0f}  ({typed_b / jsonb_b:.2f} of JSONB, {sizes.rows:,} rows)"
            )
        else:
            say(f"  storage: {bench.typed} is empty: the import did not write it")
        checks += [
            target("import vs (a) minimal pipeline", a.seconds / imp.seconds, ">=", VS_MINIMAL),
            target("import vs (c) polars + ADBC", c.seconds / imp.seconds, ">=", VS_POLARS),
            target("import peak memory vs (c)", imp.peak_mb / c.peak_mb, "<=", 1.0),
            target(
                "resume / full import time", got["resume"].seconds / imp.seconds, "<=", RESUME_SHARE
            ),
            target(
                "seconds to the first progress line",
                first or float("inf"),
                "<=",
                FIRST_LINE_SECONDS,
            ),
        ]
        checks += _own(got, outcomes, bench.own_failure, say)
        if office is not None:
            mine = best([bench.run(bench.submit(office, "--quiet")) for _ in range(repeats)])
            base = best([bench.run(bench.peer("minimal", office)) for _ in range(repeats)])
            say(line("importer submit, re-saved by LibreOffice", rows, mine))
            say(line("(a) minimal, re-saved by LibreOffice", rows, base))
            say(ratio("    import vs (a)", base.seconds / mine.seconds))
        else:
            say("  (LibreOffice copy skipped: soffice is not installed)")
        if big_rows:
            checks += _big(bench, big_rows, say)
    for name, value, goal, met in checks:
        say(f"  {name:<50} {value:>10.2f}   target {goal:<8} {'ok' if met else 'MISSED'}")
    return all(met for *_, met in checks)


def _own(
    got: dict[str, Run],
    outcomes: list[tables.Outcome],
    refused: str | None,
    say: Callable[[str], None],
) -> list[Check]:
    """The user's table: the violating import against the clean one, and what it left."""
    if refused is not None:
        say(f"  user's table case failed: {refused}")
        return [target("user's table: the case ran", 0, ">=", 1)]
    clean, broken = got["own_clean"], got["own_violating"]
    say(line("user's table (FK + CHECK), no violations", None, clean))
    say(line(f"user's table, {VIOLATING:.0%} of rows violating", None, broken))
    wrong = [w for outcome in outcomes for w in outcome.wrong]
    for outcome in outcomes[:1]:
        named = ", ".join(f"{n:,} naming {c}" for c, n in outcome.rejected.items())
        say(f"    rejected: {named}; stored {outcome.stored:,} of {outcome.expected_stored:,}")
    for description in sorted(set(wrong)):
        say(f"    WRONG: {description}")
    return [
        target(
            "user's table: violating vs clean import",
            clean.seconds / broken.seconds,
            ">=",
            VIOLATING_VS_CLEAN,
        ),
        target("user's table: runs with rows not as expected", len(wrong), "<=", 0),
    ]


def run_own(
    report: Callable[[str], None] | None = None, *, rows: int = ROWS, repeats: int = REPEATS
) -> bool:
    """The user's-table case alone: the clean import and the violating one, interleaved."""
    from importer.config import load_settings
    from importer.database import resolve_url

    say = report or (lambda text: print(text, flush=True))
    clean = workbooks.excel_like(rows, invalid=0.0)
    violating = workbooks.excel_like(rows, invalid=0.0, violating=VIOLATING)
    say(f"user's table alone: {rows:,} x 10, wall clock, best of {repeats}")
    with scratch_database(resolve_url(load_settings()), "imports") as url:
        bench = Bench(url, say)
        bench.setup()
        if bench.own_failure is not None:
            checks = _own({}, [], bench.own_failure, say)
        else:
            cases = {
                "own_clean": bench.submit(clean, "--quiet", form=workbooks.OWN_FORM_NAME),
                "own_violating": bench.submit(violating, "--quiet", form=workbooks.OWN_FORM_NAME),
            }
            runs: dict[str, list[Run]] = {}
            outcomes: list[tables.Outcome] = []
            for _ in range(repeats):
                for name, command in cases.items():
                    runs.setdefault(name, []).append(bench.run(command))
                    if name == "own_violating":
                        with psycopg.connect(url) as conn:
                            outcomes.append(tables.check_own_import(conn, rows, VIOLATING))
            got = {name: best(found) for name, found in runs.items()}
            checks = _own(got, outcomes, None, say)
    for name, value, goal, met in checks:
        say(f"  {name:<50} {value:>10.2f}   target {goal:<8} {'ok' if met else 'MISSED'}")
    return all(met for *_, met in checks)


def _how(path: Path) -> str:
    """Which path the default import of this workbook takes, and its transactions' rows."""
    import zipfile

    from importer.columnar import columnar_may_read, weigh
    from importer.forms.definition import parse_form_text

    content = path.read_bytes()
    columnar = columnar_may_read(path.name, content)
    if columnar:
        with zipfile.ZipFile(path) as archive:
            size = archive.getinfo("xl/worksheets/sheet1.xml").file_size
        form = parse_form_text(workbooks.FORM)
        columnar = weigh(content, path.name, "Orders", form, None, size).columnar
    which = "columnar" if columnar else "row path"
    return f"{which}, {ImportSettings().rows_per_transaction:,}/txn"


def _big(bench: Bench, rows: int, say: Callable[[str], None]) -> list[Check]:
    """1,000,000 rows: the default import against polars, once each."""
    path = workbooks.excel_like(rows)
    size = path.stat().st_size >> 20
    say(f"imports at {rows:,} x 10 (Excel-like, a unique text per row; {size} MB), once each")
    default = bench.run(bench.submit(path, "--quiet"))
    row_path = bench.run(["env", "IMPORTER_TEST_COLUMNAR=0", *bench.submit(path, "--quiet")])
    polars = bench.run(bench.peer("polars", path))
    say(line(f"importer submit FILE --quiet ({_how(path)})", rows, default))
    say(line("the same command, row path (IMPORTER_TEST_COLUMNAR=0)", rows, row_path))
    say(line("(c) polars read_excel + write_database(adbc)", rows, polars))
    return [
        target("1M: default import vs (c)", polars.seconds / default.seconds, ">=", BIG_VS_POLARS),
        target("1M: default import peak MB", default.peak_mb, "<=", BIG_PEAK_MB),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.imports")
    parser.add_argument("--rows", type=int, default=ROWS)
    parser.add_argument("--big-rows", type=int, default=BIG_ROWS, help="0 skips the big cases")
    parser.add_argument("--repeats", type=int, default=REPEATS)
    parser.add_argument("--only", choices=["own"], help="own: the user's-table case alone")
    options = parser.parse_args(argv)
    if options.only == "own":
        return 0 if run_own(rows=options.rows, repeats=options.repeats) else 1
    met = run(rows=options.rows, big_rows=options.big_rows, repeats=options.repeats)
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
