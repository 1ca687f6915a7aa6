"""The tool against the labels: figures per sheet, their totals, and the recorded baseline.

Per sheet:
- header right: the header rows the job used are the labelled ones (a sheet that holds no
  table: the tool refused it, or kept nothing from it, and not by a refusal of its own
  making);
- rows exact: the Excel rows stored or rejected are exactly the labelled data rows;
- not-data stored: labelled rows that are not data (the header's too) stored as data;
- silently left: labelled data rows neither stored nor rejected, outside every span the
  job said it did not read (a refusal is not silent);
- own refusal: the tool refused its own proposal (forms add refused the form infer wrote;
  submit refused that form's header as ambiguous, or refused what infer accepted).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from tests.corpus.labelled.harness import Observed
from tests.corpus.labelled.labels import HERE, Label, rows_of, shown

BASELINE = HERE / "baseline.json"
# What the issue asks of the tool.
TARGETS = {"header_right": 0.95, "rows_exact": 0.90}


@dataclass(frozen=True)
class Figures:
    header_right: bool
    rows_exact: bool
    not_data_stored: int
    silently_left: int
    own_refusal: bool


@dataclass(frozen=True)
class Compared:
    label: Label
    observed: Observed
    figures: Figures


def figures_of(label: Label, seen: Observed) -> Figures:
    own = seen.outcome == "own refusal"
    kept = seen.stored | seen.rejected
    if seen.outcome != "imported":
        nothing_right = not label.table and seen.outcome == "refused"
        return Figures(nothing_right, nothing_right, 0, 0, own)
    said = rows_of(seen.not_read)
    left = label.data_rows - kept - said
    return Figures(
        header_right=seen.header == label.header if label.table else not kept,
        rows_exact=kept == label.data_rows,
        not_data_stored=len(seen.stored & label.not_data_rows),
        silently_left=len(left),
        own_refusal=own,
    )


def compare(label: Label, seen: Observed) -> Compared:
    return Compared(label, seen, figures_of(label, seen))


@dataclass(frozen=True)
class Totals:
    sheets: int
    header_right: int
    rows_exact: int
    not_data_stored: int
    silently_left: int
    own_refusals: int
    broken: int

    def share(self, count: int) -> float:
        return count / self.sheets if self.sheets else 1.0

    @property
    def targets_met(self) -> bool:
        return (
            self.share(self.header_right) >= TARGETS["header_right"]
            and self.share(self.rows_exact) >= TARGETS["rows_exact"]
            and self.not_data_stored == 0
            and self.silently_left == 0
            and self.own_refusals == 0
            and self.broken == 0
        )

    def line(self) -> str:
        return (
            f"labelled: {self.sheets} sheets, header right {self.header_right} "
            f"({self.share(self.header_right):.0%}), rows exact {self.rows_exact} "
            f"({self.share(self.rows_exact):.0%}), not-data rows stored {self.not_data_stored}, "
            f"data rows silently left {self.silently_left}, "
            f"own-making refusals {self.own_refusals}, broken {self.broken}"
        )


def totals(results: Sequence[Compared]) -> Totals:
    figures = [r.figures for r in results]
    return Totals(
        sheets=len(figures),
        header_right=sum(f.header_right for f in figures),
        rows_exact=sum(f.rows_exact for f in figures),
        not_data_stored=sum(f.not_data_stored for f in figures),
        silently_left=sum(f.silently_left for f in figures),
        own_refusals=sum(f.own_refusal for f in figures),
        broken=sum(r.observed.outcome == "broken" for r in results),
    )


def _header(label: Label, seen: Observed) -> str:
    def span(h: tuple[int, int] | None) -> str:
        return "-" if h is None else (f"{h[0]}" if h[0] == h[1] else f"{h[0]}-{h[1]}")

    return f"{span(label.header)}/{span(seen.header)}"


def _row(r: Compared) -> str:
    f, seen, label = r.figures, r.observed, r.label
    kept = seen.stored | seen.rejected
    what = seen.outcome if seen.outcome != "imported" else f"stored {len(seen.stored)}"
    if seen.rejected:
        what += f", rejected {len(seen.rejected)}"
    return (
        f"  {label.sheet[:22]:22s} {_header(label, seen):>9s}  "
        f"{'yes' if f.header_right else 'NO':3s}  {'yes' if f.rows_exact else 'NO':3s}  "
        f"{f.not_data_stored:5d}  {f.silently_left:5d}  "
        f"{len(label.data_rows):6d} {len(kept):6d}  {what}"
    )


def report(results: Sequence[Compared]) -> list[str]:
    """A table per file (label/tool header rows, the figures, rows labelled and kept), then
    the totals and, for each sheet the tool gets wrong, what a person sees and what it did."""
    lines: list[str] = []
    head = "  sheet                    header  hdr  rows  ndata   left    data   kept  outcome"
    for file in dict.fromkeys(r.label.file for r in results):
        lines += [file, head] + [_row(r) for r in results if r.label.file == file]
    lines.append(totals(results).line())
    wrong = [r for r in results if not _all_right(r.figures)]
    if wrong:
        lines.append("wrong:")
        lines += [f"  {wrong_line(r)}" for r in wrong]
    return lines


def _all_right(f: Figures) -> bool:
    return (
        f.header_right
        and f.rows_exact
        and not f.not_data_stored
        and not f.silently_left
        and not f.own_refusal
    )


def wrong_line(r: Compared) -> str:
    """What a person sees against what the tool did, in one line."""
    label, seen = r.label, r.observed
    if seen.outcome != "imported":
        did = f"{seen.outcome}: {seen.reason[:160]}"
    else:
        kept = seen.stored | seen.rejected
        h = seen.header
        did = f"header row {h[0] if h and h[0] == h[1] else h}, kept rows {shown(kept)}"
        if extra := kept - label.data_rows:
            did += f" (not data: {shown(extra)})"
        if missed := label.data_rows - kept:
            did += f" (data missed: {shown(missed)})"
    return f"{label.key}: a person sees {label.sees}; the tool: {did}"


def baseline_json(results: Iterable[Compared]) -> str:
    """One line a sheet, in the order of its key."""
    figures = sorted((r.label.key, asdict(r.figures)) for r in results)
    lines = [f" {json.dumps(key, ensure_ascii=False)}: {json.dumps(f)}" for key, f in figures]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def load_baseline(path: Path = BASELINE) -> dict[str, Figures]:
    if not path.is_file():
        return {}
    raw = json.loads(path.read_text(encoding="utf-8"))
    return {key: Figures(**value) for key, value in raw.items()}


def worse_than(baseline: dict[str, Figures], results: Iterable[Compared]) -> list[str]:
    """Each sheet whose figures got worse than the recorded ones, and why (a sheet with no
    recorded figures is one: record them deliberately)."""
    found: list[str] = []
    for r in results:
        was, now = baseline.get(r.label.key), r.figures
        if was is None:
            found.append(f"{r.label.key}: no recorded figures (--write-baseline)")
            continue
        why = [
            *(["header no longer right"] if was.header_right and not now.header_right else []),
            *(["rows no longer exact"] if was.rows_exact and not now.rows_exact else []),
            *([f"not-data stored {was.not_data_stored} -> {now.not_data_stored}"]
              if now.not_data_stored > was.not_data_stored else []),
            *([f"silently left {was.silently_left} -> {now.silently_left}"]
              if now.silently_left > was.silently_left else []),
            *(["a refusal of its own making"] if now.own_refusal and not was.own_refusal else []),
        ]  # fmt: skip
        if why:
            found.append(f"{r.label.key}: {', '.join(why)}")
    return found
