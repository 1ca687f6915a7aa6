"""`importer errors JOB` without -o: the first rejected rows as a table (row, column, value,
problem), laid out for the console's width; aligned plain lines when not a terminal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from importer.cli.layout import plain_table
from importer.cli.output import is_terminal

if TYPE_CHECKING:
    from importer.repositories.corrections import RowFate
    from importer.repositories.jobs import Job
    from importer.repositories.rejected_rows import RowProblem

COLUMNS = ("Row", "Column", "Value", "Problem")
_NARROW = 16  # Column and Value give way first (an ellipsis); the problem wraps, never cut


def _cells(problems: Sequence[RowProblem]) -> list[list[str]]:
    """One line per problem; a row's number on its first line only."""
    lines = []
    previous: int | None = None
    for problem in problems:
        shown = "" if problem.row == previous else str(problem.row)
        value = "(empty)" if problem.raw is None or problem.raw == "" else problem.raw
        lines.append([shown, problem.column or "(row)", value, problem.message])
        previous = problem.row
    return lines


def problems_table(problems: Sequence[RowProblem], *, rich: bool) -> Table | str:
    cells = _cells(problems)
    if not rich:
        return plain_table(COLUMNS, cells, {0})
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=False)
    table.add_column("Row", justify="right", no_wrap=True)
    for name in ("Column", "Value"):
        table.add_column(name, no_wrap=True, overflow="ellipsis", max_width=_NARROW)
    table.add_column("Problem", overflow="fold", ratio=1, min_width=20)
    for line in cells:
        table.add_row(*line)
    return table


def with_fates(
    problems: Sequence[RowProblem], fates: Mapping[int, RowFate] | None, job_id: int
) -> list[RowProblem]:
    """``errors --all``: after each row's problems, what became of it (a line of its own)."""
    if fates is None:
        return list(problems)
    from importer.repositories.rejected_rows import RowProblem

    lines: list[RowProblem] = []
    for index, problem in enumerate(problems):
        lines.append(problem)
        last = index + 1 == len(problems) or problems[index + 1].row != problem.row
        fate = fates.get(problem.row)
        if not last or fate is None:
            continue
        if fate.fixed_by is not None:
            said = f"fixed later: imported by job {fate.fixed_by}"
        elif fate.last_tried is not None and fate.last_tried != job_id:
            said = f"still open: rejected again by job {fate.last_tried}"
        else:
            said = "still open"
        lines.append(RowProblem(problem.row, None, None, f"-> {said}"))
    return lines


def footer(job: Job, shown_rows: int, rows: int, *, every: bool = False) -> RenderableType:
    """What was shown, and how to get every row with its values to fix and resubmit. On a
    terminal it wraps at words to the console's width (the console's soft wrap would break
    words at its edge); in a pipe its lines stay whole. ``rows``: the rows there are (still
    open; ``every``: rejected)."""
    command = f"  importer errors {job.id} -o rejected.xlsx"
    what = "rejected rows" if every or rows == job.failed_rows else "rejected rows still open"
    if shown_rows < rows:
        said = (
            f"the first {shown_rows:,} of {rows:,} {what};"
            f" all of them, with every value, to fix and resubmit:"
        )
    else:
        said = f"{rows:,} {what}; to fix and resubmit them:"
    if not is_terminal():
        return f"{said}\n{command}"
    # In a Group: printed alone, a Text's own wrapping would give way to the soft wrap.
    return Group(Text(said, no_wrap=False, overflow="fold"), Text(command))
