"""A form's patterns run in time linear in the text (importer/fields/patterns.py): cells that
keep a backtracking engine busy for hours are decided at once, on the row path's coercers
and on the row filter alike; what the engine cannot run is refused when a form is parsed,
naming it; a batch's column is matched in one call into the engine."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from importer.errors import FormError
from importer.excel.layout import HeaderLayout
from importer.excel.row_filter import FilteredReader
from importer.excel.values import Row
from importer.fields import patterns
from importer.fields.cells import Invalid, build_coercer
from importer.fields.columns import column_coercer
from importer.fields.field import Field
from importer.fields.patterns import PatternError, compiled, unsupported
from importer.forms.definition import Form, parse_form_text

# Each doubles a backtracking engine's work with every 'a' (2**64 steps: never done).
PATHOLOGICAL = [
    ("(a+)+$", "a" * 64 + "!"),
    (r"^(\w+\s?)+$", "a" * 64 + "!"),
    (r"^(\w+\s?)+$", "ab " * 40 + "!"),
    ("(a|aa)+$", "a" * 64 + "!"),
    ("(a+)+$", "a" * 32_766 + "!"),  # the longest text a cell holds
    (r"^(\w+\s?)+$", ("word " * 6_600)[:32_766] + "!"),
]


@pytest.mark.parametrize(
    ("pattern", "text"), PATHOLOGICAL, ids=[f"{p}-{len(t)}" for p, t in PATHOLOGICAL]
)
def test_a_pathological_cell_is_decided_at_once(pattern: str, text: str) -> None:
    field = Field(name="code", header="Code", type="string", pattern=pattern)
    coerce = build_coercer(field)
    started = time.perf_counter()
    with pytest.raises(Invalid, match="is not in the expected format"):
        coerce(text)
    assert time.perf_counter() - started < 0.5
    started = time.perf_counter()
    values, failed = column_coercer(field, coerce)([text, "aaa", text])
    assert time.perf_counter() - started < 0.5
    assert [i for i, _ in failed] == [0, 2]
    assert values[1] == "aaa"


def form_with(pattern: str) -> str:
    return f'name = "codes"\n[[fields]]\nname = "code"\npattern = \'{pattern}\'\n'


@pytest.mark.parametrize(
    ("pattern", "named"),
    [
        (r"^(\d)\1$", r"uses a backreference (\1), which is not supported"),
        (r"(?P<x>a)(?P=x)", "uses a named backreference (?P=name)"),
        (r"^(?=\d)\w+$", "uses look-around ((?=...), (?!...), (?<=...), (?<!...))"),
        (r"(?<!-)\d+", "uses look-around"),
        (r"(?>a+)b", "uses an atomic group (?>...)"),
        (r"(a)?(?(1)b|c)", "uses a conditional group"),
        (r"\d++", "uses a possessive quantifier"),
        (r"x{2}+", "uses a possessive quantifier"),
        (r"abc\Z", r"uses \Z (\z is the end of the text)"),
        (r"\w{1000}{100}", "is too large once compiled (over 10 MB)"),
        (r"([a-z]", "is not a valid regular expression (unclosed group)"),
    ],
)
def test_a_pattern_the_engine_cannot_run_is_refused_naming_what(pattern: str, named: str) -> None:
    with pytest.raises(FormError) as refused:
        parse_form_text(form_with(pattern), source="codes.toml")
    message = str(refused.value)
    assert message.startswith("codes.toml: field 'code': 'pattern' ")
    assert named in message
    assert "\n" not in message
    with pytest.raises(PatternError):
        compiled(pattern)


@pytest.mark.parametrize(
    "pattern",
    [
        r"^[A-Z]{2}\d{4}$",
        r"[+]+",  # '+' in a class, then a quantifier: not possessive
        r"\++",  # an escaped '+', repeated
        r"\p{Lu}+",
        r"\x{41}+",
        r"[[:alpha:]]+",
        r"[a-z&&[^aeiou]]+",
        r"(?i)^total\b",
        r"a+?b",
        r"(?P<year>\d{4})-(?<month>\d{2})",
    ],
)
def test_what_the_engine_runs_is_accepted(pattern: str) -> None:
    assert unsupported(pattern) is None
    form = parse_form_text(form_with(pattern))
    assert form.fields[0].pattern == pattern


def test_a_stored_form_is_refused_as_a_new_one_is() -> None:
    # A version stored before patterns ran in linear time: Python's dialect, not Rust's.
    stored = {"name": "codes", "fields": [{"name": "code", "pattern": "(a)\\1"}]}
    with pytest.raises(FormError, match="stored form: field 'code': 'pattern' uses a back"):
        Form.from_json(stored)


def test_skip_rows_where_is_refused_as_a_pattern_is() -> None:
    text = (
        'name = "codes"\nskip_rows_where = { column = "Code", matches = \'(?<=x)total\' }\n'
        '[[fields]]\nname = "code"\nheader = "Code"\n'
    )
    with pytest.raises(FormError, match=r"skip_rows_where: 'matches' uses look-around"):
        parse_form_text(text)


def counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The size of each batch handed to the engine."""
    calls: list[int] = []
    original = patterns.search_all

    def search_all(source: str, texts: Any) -> list[bool]:
        calls.append(len(texts))
        return original(source, texts)

    monkeypatch.setattr(patterns, "search_all", search_all)
    return calls


def test_a_column_is_matched_in_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    field = Field(name="code", header="Code", type="string", pattern=r"^[A-Z]{2}\d+$")
    bulk = column_coercer(field, build_coercer(field))
    calls = counting(monkeypatch)
    cells: list[object] = [f"AB{i}" for i in range(5_000)] + ["ab1", 12.0, None, "  "]
    values, failed = bulk(cells)
    assert calls == [5_002]  # the distinct texts: the blank cells have none to match
    assert [i for i, _ in failed] == [5_000, 5_001]
    assert values[:2] == ["AB0", "AB1"] and values[5_002:] == [None, None]
    email = Field(name="mail", header="Mail", type="email", pattern=r"@example\.com$")
    mails = column_coercer(email, build_coercer(email))  # its pattern checked: one call
    calls.clear()
    refused = [(1, "'b@other.org' is not in the expected format")]
    assert mails([" a@example.com ", "b@other.org"])[1] == refused
    assert calls == [2]


class Rows:
    """A reader's header, for FilteredReader."""

    def __init__(self) -> None:
        self.header = ["Code", "Amount"]
        self.header_row = 1
        self.merges: list[Any] = []


def test_the_row_filter_matches_its_rows_a_chunk_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    layout = HeaderLayout(skip_column="Code", skip_matches=r"^(\w+\s?)+$")
    reader = FilteredReader(Rows(), layout)  # type: ignore[arg-type]
    calls = counting(monkeypatch)

    def rows() -> Iterator[Row]:
        for number in range(2, 3_002):
            code = "a" * 64 + "!" if number % 2 else "Total sum"
            yield Row(number, (code, number))

    started = time.perf_counter()
    kept = [row.number for row in reader.rows(rows())]
    assert time.perf_counter() - started < 1.0
    assert kept == list(range(3, 3_002, 2))
    assert reader.not_read["skip_rows_where"].rows == 1_500
    assert calls == [2, 2, 2]  # 1,024 rows a call, two distinct texts in each


def test_a_text_no_utf8_holds_is_matched_all_the_same() -> None:
    assert compiled("^a.b$").search("a\ud800b")  # a lone surrogate reads as U+FFFD
    assert not compiled(r"^\d+$").search("1\udfff")
