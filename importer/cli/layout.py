"""Fitting what the CLI shows to the console's width.

Tables drop their least important columns, or shorten their flexible ones (file names,
owners, errors), instead of wrapping or cutting every column a little; a header is never cut.
Also: text cut with an ellipsis, a text progress bar, and local times with their zone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from rich.cells import cell_len, set_cell_size
from rich.text import Text

ELLIPSIS = "…"
GAP = 2  # spaces between table columns


def shorten(text: str, width: int, *, middle: bool = False) -> str:
    """``text`` in at most ``width`` cells, an ellipsis marking the cut (in the middle, for
    names whose end tells them apart: owners, ``host…:pid:id``)."""
    if cell_len(text) <= width:
        return text
    if width <= 1:
        return ELLIPSIS[:width]
    if not middle:
        return set_cell_size(text, width - 1) + ELLIPSIS
    head = (width - 1) // 2  # the end is the larger part: it tells names apart
    tail = width - 1 - head
    return set_cell_size(text, head) + ELLIPSIS + _last_cells(text, tail)


def _last_cells(text: str, width: int) -> str:
    kept = ""
    for char in reversed(text):
        if cell_len(char + kept) > width:
            break
        kept = char + kept
    return kept


def plain_table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: set[int]) -> str:
    """Aligned columns without box drawing: for pipes and logs, never truncated."""
    widths = [max(len(str(c)) for c in column) for column in zip(headers, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        parts = [
            str(c).rjust(w) if i in right else str(c).ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    return "\n".join([line(headers), *(line(r) for r in rows)])


def local_time(moment: datetime | None, *, seconds: bool = True) -> str:
    """A moment in this machine's time zone, with the zone: ``2026-12-01 14:05:09 CET``."""
    if moment is None:
        return "-"
    local = moment.astimezone()
    zone = local.strftime("%Z")
    if not zone or zone.startswith(("+", "-")):
        zone = "UTC" + local.strftime("%z")[:3] + ":" + local.strftime("%z")[3:]
    return local.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M") + " " + zone


def local_clock(moment: datetime) -> str:
    """The time of day in this machine's time zone, with the zone: ``14:05:09 CET``."""
    return local_time(moment).split(" ", 1)[1]


def bar(completed: int, total: int | None, width: int) -> Text:
    """A progress bar of ``width`` cells (all dim while the total is not known)."""
    if width <= 0:
        return Text()
    if not total:
        return Text("━" * width, style="bar.back")
    filled = min(width, round(width * min(completed, total) / total))
    return Text.assemble(("━" * filled, "bar.complete"), ("━" * (width - filled), "bar.back"))


@dataclass(frozen=True)
class BarCell:
    """A table cell drawn as a progress bar as wide as its column."""

    completed: int
    total: int | None


Cell = str | BarCell


@dataclass(frozen=True)
class Column:
    """A table column. ``drop``: 0 always shown; others are dropped when the table does not
    fit, 1 first, then 2, ... ``soft`` / ``least``: a flexible column is cut down to ``soft`` cells
    before any column is dropped, and to ``least`` only once every optional column is gone
    (0: never cut). ``bar_width``: the natural width of a column of bars."""

    header: str
    right: bool = False
    drop: int = 0
    soft: int = 0
    least: int = 0
    middle: bool = False
    bar_width: int = 0
    # Shown only where a row has something in it, in a pipe too (what most rows lack: a
    # correction's counts, the sheet of a file that gave several).
    when_filled: bool = False


def _natural(column: Column, cells: Sequence[Cell]) -> int:
    widths = [column.bar_width if isinstance(cell, BarCell) else cell_len(cell) for cell in cells]
    return max([cell_len(column.header), *widths])


EMPTY_CELLS = frozenset({"", "-", "?"})  # cells that say nothing: blank, none, not known


def _empty(cells: Sequence[Cell]) -> bool:
    return bool(cells) and all(isinstance(c, str) and c.strip() in EMPTY_CELLS for c in cells)


def fit_widths(
    columns: Sequence[Column], rows: Sequence[Sequence[Cell]], width: int | None
) -> list[int | None]:
    """Each column's width, None for a dropped one; ``width`` None: no limit.

    When the table does not fit: columns that are empty in every row go first (any column
    but the first), then the flexible columns are cut to their ``soft`` width, then the
    optional ones go in their ``drop`` order; a dropped column comes back when the cuts left
    room for it. Still too wide at every column's least: whole columns go from the right,
    never a header cut."""
    natural = [_natural(c, [row[i] for row in rows]) for i, c in enumerate(columns)]
    kept = list(range(len(columns)))

    def floor(index: int, limit: int) -> int:
        # A header is never cut; a column without a limit keeps its natural width.
        if not limit:
            return natural[index]
        return min(natural[index], max(limit, cell_len(columns[index].header)))

    def attempt(limits: dict[int, int]) -> list[int | None] | None:
        assert width is not None
        widths = {i: natural[i] for i in kept}
        excess = sum(widths.values()) + GAP * (len(kept) - 1) - width
        while excess > 0:
            # Take a cell from the widest column that may still give one.
            givers = [i for i in kept if widths[i] > limits.get(i, widths[i])]
            if not givers:
                return None
            widest = max(givers, key=lambda i: (widths[i] - limits[i], -i))
            widths[widest] -= 1
            excess -= 1
        return [widths.get(i) for i in range(len(columns))]

    def soft_limits() -> dict[int, int]:
        return {i: floor(i, columns[i].soft or columns[i].least) for i in kept}

    if width is None:
        return list(natural)
    if sum(natural) + GAP * (len(natural) - 1) <= width:
        return list(natural)
    dropped: list[int] = []
    # Something must give: a column with nothing in it tells nothing, so it goes before
    # anything is cut or dropped (and comes back only where nothing need be cut for it).
    empty = [i for i in kept[1:] if _empty([row[i] for row in rows])]
    for index in empty:
        kept.remove(index)
    while True:
        soft = soft_limits()
        fitted = attempt(soft)
        if fitted is not None:
            fitted = _bring_back(list(reversed(dropped)), kept, attempt, soft_limits) or fitted
            # The others keep the widths they have; an empty column takes only what is left.
            held = {**dict(enumerate(natural)), **{i: w for i, w in enumerate(fitted) if w}}
            return _bring_back(empty, kept, attempt, held.copy) or fitted
        optional = [i for i in kept if columns[i].drop]
        if not optional:
            break
        going = min(optional, key=lambda i: (columns[i].drop, -i))
        if columns[going].least:  # cut to its least, rather than lose it
            fitted = attempt({**soft, going: floor(going, columns[going].least)})
            if fitted is not None:
                return fitted
        kept.remove(going)
        dropped.append(going)
    while True:
        least = {i: floor(i, columns[i].least or columns[i].soft) for i in kept}
        fitted = attempt(least)
        if fitted is not None or len(kept) == 1:
            break
        kept.pop()  # the rightmost goes whole: a header is never cut
    if fitted is not None:
        return fitted
    return [least[i] if i in kept else None for i in range(len(columns))]


def _bring_back(
    back: list[int],
    kept: list[int],
    attempt: Callable[[dict[int, int]], list[int | None] | None],
    limits: Callable[[], dict[int, int]],
) -> list[int | None] | None:
    """Once the table fits with its flexible columns cut, the dropped columns that still fit
    come back, in the order of ``back`` (the most needed first)."""
    fitted = None
    for index in back:
        kept.append(index)
        kept.sort()
        again = attempt(limits())
        if again is None:
            kept.remove(index)
        else:
            fitted = again
    return fitted


def _cell_text(cell: Cell, column: Column, width: int) -> Text:
    if isinstance(cell, BarCell):
        return bar(cell.completed, cell.total, width)
    text = shorten(cell, width, middle=column.middle)
    pad = " " * (width - cell_len(text))
    return Text(pad + text if column.right else text + pad)


def fitted_table(
    columns: Sequence[Column],
    rows: Sequence[Sequence[Cell]],
    width: int | None,
    *,
    title: str | None = None,
    rule: bool = True,
) -> Text:
    """The table as lines of at most ``width`` cells (no limit: None): a bold header, a rule
    under it (``rule``), one line per row; text only, so it prints the same anywhere."""
    kept = [
        i
        for i, column in enumerate(columns)
        if not column.when_filled or not _empty([row[i] for row in rows])
    ]
    if len(kept) < len(columns):
        columns = [columns[i] for i in kept]
        rows = [[row[i] for i in kept] for row in rows]
    widths = fit_widths(columns, rows, width)
    shown = [(i, w) for i, w in enumerate(widths) if w is not None]
    lines: list[Text] = []
    if title is not None:
        lines.append(Text(title, style="bold"))
    header = Text(" " * GAP).join(_cell_text(columns[i].header, columns[i], w) for i, w in shown)
    header.stylize("bold")
    lines.append(header)
    total = sum(w for _, w in shown) + GAP * (len(shown) - 1)
    if rule:
        lines.append(Text("─" * total, style="dim"))
    for row in rows:
        lines.append(Text(" " * GAP).join(_cell_text(row[i], columns[i], w) for i, w in shown))
    for line in lines:
        line.rstrip()
        if width is not None:
            line.truncate(width, overflow="ellipsis")
    return Text("\n").join(lines)
