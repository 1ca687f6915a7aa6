"""Where a form's sheet has its header and which rows are not data: the form's layout keys
(``header_row``, ``header_rows``, ``stop_at_blank_row``, ``skip_rows_where``), parsed here,
and the automatic choice of the header row among the sheet's first rows with values.

The choice (``header_row = "auto"``, the default): the row that holds all of a form's
required fields and matches the most of its columns; without --form, over every form. Rows
that fit equally are refused naming the best, unless they read alike (a header repeated
below: the first is it); where no row holds a form's required fields the first row with
values stays the header (and the usual refusal names what it lacks). Of rows that fit
equally, one right above another is not the header: the lower one sits on the data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from importer.errors import FormError, InputError
from importer.excel.layout import HeaderLayout, Leading, Merge, candidates
from importer.excel.row_filter import SKIP_KINDS
from importer.fields.field import normalize_header
from importer.fields.patterns import unsupported as unsupported_pattern

Fail = Callable[[str], FormError]
LAYOUT_KEYS = frozenset(
    {
        "header_row",
        "header_rows",
        "stop_at_blank_row",
        "skip_rows_where",
        "skip_rows",
        "fill_merged",
    }
)
_SHOWN_ROWS = 3


@dataclass(frozen=True)
class SheetLayout:
    header_row: int | None = None  # None: "auto"
    header_rows: int = 1
    stop_at_blank_row: bool = False
    skip_column: str | None = None
    skip_matches: str | None = None
    fill_merged: bool = False  # every column's merged cells fill the cells they cover
    fill_columns: tuple[str, ...] = ()  # or these columns' (fields with fill_merged = true)
    skip_rows: tuple[str, ...] = ()  # kinds of rows that are not data (row_filter.SKIP_KINDS)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.header_row is not None:
            out["header_row"] = self.header_row
        if self.header_rows != 1:
            out["header_rows"] = self.header_rows
        if self.stop_at_blank_row:
            out["stop_at_blank_row"] = True
        if self.skip_column is not None:
            out["skip_rows_where"] = {"column": self.skip_column, "matches": self.skip_matches}
        if self.fill_merged:
            out["fill_merged"] = True
        if self.skip_rows:
            out["skip_rows"] = list(self.skip_rows)
        return out

    def excel(self, row: int | None) -> HeaderLayout:
        """The reader's layout with the header at Excel ``row`` (None: the first row)."""
        return HeaderLayout(
            row=row,
            rows=self.header_rows,
            stop_at_blank_row=self.stop_at_blank_row,
            skip_column=self.skip_column,
            skip_matches=self.skip_matches,
            fill_columns=() if self.fill_merged else (self.fill_columns or None),
            skip_rows=self.skip_rows,
        )


def parse_layout(data: Mapping[str, Any], fail: Fail) -> SheetLayout:
    row = data.get("header_row", "auto")
    if row == "auto":
        row = None
    elif isinstance(row, bool) or not isinstance(row, int) or row < 1:
        raise fail("'header_row' must be \"auto\" or a row number (1 is the first row)")
    rows = data.get("header_rows", 1)
    if isinstance(rows, bool) or not isinstance(rows, int) or not 1 <= rows <= 5:
        raise fail("'header_rows' must be the number of rows the header is written over (1-5)")
    stop = data.get("stop_at_blank_row", False)
    if not isinstance(stop, bool):
        raise fail("'stop_at_blank_row' must be true or false")
    skip = data.get("skip_rows_where")
    column = matches = None
    if skip is not None:
        example = 'e.g. skip_rows_where = { column = "Order ID", matches = "^(Total|Sum)\\\\b" }'
        if not isinstance(skip, Mapping) or set(skip) != {"column", "matches"}:
            raise fail(f"'skip_rows_where' needs a column and what its text matches ({example})")
        column, matches = skip["column"], skip["matches"]
        if not isinstance(column, str) or not normalize_header(column):
            raise fail("skip_rows_where: 'column' must be a header text")
        if not isinstance(matches, str) or not matches:
            raise fail("skip_rows_where: 'matches' must be a regular expression")
        refused = unsupported_pattern(matches)
        if refused is not None:
            raise fail(f"skip_rows_where: 'matches' {refused}")
    fill = data.get("fill_merged", False)
    if not isinstance(fill, bool):
        raise fail("'fill_merged' must be true or false")
    kinds = data.get("skip_rows", [])
    if not isinstance(kinds, list) or not all(k in SKIP_KINDS for k in kinds):
        listed = ", ".join(f'"{k}"' for k in SKIP_KINDS)
        raise fail(f"'skip_rows' must be a list of: {listed} (e.g. skip_rows = [\"totals\"])")
    return SheetLayout(
        row, rows, stop, column, matches, fill, skip_rows=tuple(dict.fromkeys(kinds))
    )


# --- the automatic choice ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Fit:
    row: int
    matched: int
    of: int
    complete: bool  # every required field is there


def _fit(form: Any, texts: Sequence[str], mapping: Mapping[str, str], row: int) -> _Fit:
    keys = {normalize_header(t) for t in texts} - {""}
    mapped = {field for header, field in mapping.items() if normalize_header(header) in keys}
    fields = form.sheet_fields
    matched = {f.name for f in fields if f.name in mapped or keys & set(f.match_keys)}
    complete = all(f.name in matched for f in fields if f.required)
    return _Fit(row, len(matched), len(fields), complete)


def choose_layout(
    forms: Sequence[Any],  # Form: typed Any to keep this module free of the definition's cycle
    mapping: Mapping[str, str],
    *,
    row: int | None,
    where: str,
) -> HeaderLayout:
    """The reader's layout for a sheet that one of ``forms`` fits: at ``row`` (--header-row,
    or the form's header_row), or chosen among the leading rows."""

    def choose(leading: Leading, merges: Sequence[Merge]) -> HeaderLayout | None:
        fits: list[tuple[_Fit, Any]] = []
        for form in forms:
            wanted = row if row is not None else form.layout.header_row
            for number, texts in candidates(leading, form.layout.header_rows, merges):
                if wanted is None or number == wanted:
                    fits.append((_fit(form, texts, mapping, number), form))
        if row is not None:  # named on the command line: the header, whatever it matches
            if not forms:
                return HeaderLayout(row=row)
            form = max(fits, key=lambda pair: pair[0].matched)[1] if fits else forms[0]
            return form.layout.excel(row)  # type: ignore[no-any-return]
        fitting = sorted((p for p in fits if p[0].complete), key=lambda p: -p[0].matched)
        if not fitting:
            # The first row with values stays the header (the refusal says what it lacks),
            # or the one form's own header_row.
            if len(forms) == 1:
                layout: SheetLayout = forms[0].layout
                return layout.excel(layout.header_row)
            return None
        top = fitting[0][0]
        tied = [p for p in fitting if p[0].matched == top.matched]
        row_keys = {number: _keys(t) for number, t in candidates(leading, 1, merges)}
        if len({row_keys.get(p[0].row) for p in tied}) == 1:
            # The same header again below (a report's page headers, a row of data that
            # reads alike): the first is the header.
            first = min(tied, key=lambda pair: pair[0].row)
            return first[1].layout.excel(first[0].row)  # type: ignore[no-any-return]
        on_data = _on_the_data(sorted({p[0].row for p in tied}))
        if on_data is not None:
            tied = [p for p in tied if p[0].row == on_data]
        if len({p[0].row for p in tied}) > 1:
            ranked = sorted(fits, key=lambda pair: (-pair[0].matched, pair[0].row))
            shown = ", ".join(
                f"row {fit.row} matches {fit.matched} of {fit.of}"
                for fit, _ in _distinct_rows(ranked)[:_SHOWN_ROWS]
            )
            raise InputError(
                f"{where}: more than one row could be the header ({shown}); "
                "name it with --header-row N"
            )
        return tied[0][1].layout.excel(tied[0][0].row)  # type: ignore[no-any-return]

    return HeaderLayout(choose=choose)


def _on_the_data(rows: list[int]) -> int | None:
    """Of rows that fit a form equally, the one a person takes for the header: the only one
    with no other right under it (a stray copy of the header right above the real one
    sits on it, not on the data); None when several are left (two tables, each with the
    header)."""
    left = [row for row in rows if row + 1 not in rows]
    return left[0] if len(left) == 1 else None


def _keys(texts: Sequence[str]) -> tuple[str, ...]:
    """What a row says as a header, in any order (the same headers in another order read
    alike)."""
    return tuple(sorted(k for k in map(normalize_header, texts) if k))


def _distinct_rows(ranked: list[tuple[_Fit, Any]]) -> list[tuple[_Fit, Any]]:
    seen: set[int] = set()
    out = []
    for fit, form in ranked:
        if fit.row not in seen:
            seen.add(fit.row)
            out.append((fit, form))
    return out
