"""Every real-world spreadsheet of the corpus (tests/corpus/files) through the real CLI.

For each file, as a new user would: `importer forms infer FILE -o FORM.toml`, then
`importer forms add FORM.toml`, then `importer submit FILE --form NAME`, each a child
process measured by the kernel (wait4: peak resident memory, interpreter included).

A file is
- imported: infer proposed a form, it was added, and submit imported the sheet (exit 0,
  3 with rejected rows, 4 with every row rejected);
- refused: infer refused it with one line (exit 2), or submit refused it only because of
  how its header matches the form's fields (repeated or near-miss headers) or because the
  sheet has no rows under its header: counted under its reason, which the summary lists;
- broken: anything else: a traceback, an exit code the README does not list, more than
  one line of error, a child stopped for time or memory, a form infer wrote that cannot
  be added, or a sheet infer accepts and submit refuses.

`python -m tests.corpus` runs the whole set and prints
`real-world: N files, imported I, refused R, broken B`, the refusal reasons, the slowest
file and the peak memory; it exits 1 when anything broke.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.chaos.procs import Measured, run_measured

FILES = Path(__file__).resolve().parent / "files"
SUFFIXES = frozenset({".xlsx", ".xlsm", ".xls", ".xlsb", ".ods", ".csv"})
BOUND_SECONDS = 60.0
BOUND_RSS_MB = 1024.0
# Refusals of `submit` that come from matching the header to the inferred form's fields
# (repeated headers, near misses): counted as refusals under their reason, and reported.
HEADER_MATCHING = ("duplicate columns", "did you mean", "both match field")
NO_ROWS = "has a header but no rows to import"


@dataclass(frozen=True)
class Outcome:
    path: Path
    status: str  # "imported" | "refused" | "broken"
    reason: str  # the refusal's or the breakage's one line ("" when imported)
    seconds: float  # infer + add + submit
    peak_rss_mb: float  # the largest of the three children

    @property
    def label(self) -> str:
        return (
            str(self.path.relative_to(FILES)) if self.path.is_relative_to(FILES) else str(self.path)
        )


def corpus_files(folder: Path = FILES) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES)


def _problem(step: str, run: Measured, allowed: tuple[int, ...]) -> str | None:
    """Why a child's run counts as broken, or None."""
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    if run.stopped_for is not None:
        return (
            f"{step}: stopped for {run.stopped_for} ({run.seconds:.1f} s, {run.peak_rss_mb:.0f} MB)"
        )
    if "Traceback" in run.stderr or run.exit_code < 0:
        last = lines[-1] if lines else f"signal {-run.exit_code}"
        return f"{step}: crashed ({last[:160]})"
    if run.exit_code not in allowed:
        return f"{step}: exit code {run.exit_code} ({(lines or [''])[-1][:160]})"
    if run.exit_code != 0 and len(lines) != 1 and step != "submit":
        return f"{step}: {len(lines)} lines of error instead of one"
    return None


def error_line(run: Measured) -> str:
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def reason_of(line: str, path: Path) -> str:
    """A refusal's line without what is particular to the file, to group refusals by."""
    text = line.removeprefix("error: ").strip()
    if text.endswith("[header matching]"):
        return text.split(":", 1)[0] + " (repeated headers) [header matching]"
    for prefix in (f"{path}: ", f"{path.name}: "):
        text = text.removeprefix(prefix)
    text = re.sub(r"'[^']*'", "'...'", text)
    text = re.sub(r"\([^()]*\)$", "", text).strip()
    return re.sub(r"\d[\d,]*", "N", text)


Step = Callable[..., Measured]  # step("forms", "infer", ...): one `importer` command, measured


def child_step(env: dict[str, str], cwd: Path) -> Step:
    """Each command a child process, measured by the kernel and stopped past the bounds."""

    def step(*args: str) -> Measured:
        return run_measured(
            list(args), env=env, cwd=cwd, timeout=BOUND_SECONDS, rss_limit_mb=BOUND_RSS_MB
        )

    return step


def run_file(path: Path, index: int, step: Step, folder: Path) -> Outcome:
    """infer -> add -> submit for one file; the form is written into `folder`."""
    name = f"corpus_{index}"
    form = folder / f"{name}.form.toml"
    runs: list[Measured] = []

    def outcome(status: str, reason: str) -> Outcome:
        return Outcome(
            path,
            status,
            reason,
            sum(r.seconds for r in runs),
            max((r.peak_rss_mb for r in runs), default=0.0),
        )

    infer = step("forms", "infer", str(path), "--name", name, "-o", str(form), "--force")
    runs.append(infer)
    if (problem := _problem("infer", infer, (0, 2))) is not None:
        return outcome("broken", problem)
    if infer.exit_code == 2:
        return outcome("refused", error_line(infer))
    added = step("forms", "add", str(form))
    runs.append(added)
    if (problem := _problem("forms add", added, (0,))) is not None:
        return outcome("broken", problem)
    submit = step("submit", str(path), "--form", name, "--quiet")
    runs.append(submit)
    if (problem := _problem("submit", submit, (0, 2, 3, 4))) is not None:
        return outcome("broken", problem)
    if submit.exit_code == 2:
        line = error_line(submit)
        if any(marker in line for marker in HEADER_MATCHING):
            return outcome("refused", f"{line} [header matching]")
        if NO_ROWS in line:  # a header alone: nothing to import is said before any job
            return outcome("refused", f"{line} [no rows]")
        return outcome("broken", f"infer accepted it, submit refused it: {line[:200]}")
    return outcome("imported", "")


def summary(outcomes: list[Outcome]) -> list[str]:
    counts = Counter(o.status for o in outcomes)
    lines = [
        f"real-world: {len(outcomes)} files, imported {counts['imported']}, "
        f"refused {counts['refused']}, broken {counts['broken']}"
    ]
    reasons = Counter(reason_of(o.reason, o.path) for o in outcomes if o.status == "refused")
    if reasons:
        lines.append("refused because:")
        lines += [f"  {n:4d}  {reason}" for reason, n in reasons.most_common()]
    for broken in (o for o in outcomes if o.status == "broken"):
        lines.append(f"BROKEN {broken.label}: {broken.reason}")
    if outcomes:
        slowest = max(outcomes, key=lambda o: o.seconds)
        largest = max(outcomes, key=lambda o: o.peak_rss_mb)
        lines.append(f"slowest: {slowest.label} ({slowest.seconds:.2f} s for infer + add + submit)")
        lines.append(f"peak memory: {largest.peak_rss_mb:.0f} MB ({largest.label})")
    return lines
