"""A form's regular expressions, matched in time linear in the text they are given.

A field's ``pattern`` and ``skip_rows_where.matches`` run on text a sender wrote. A
backtracking engine (Python's ``re``) can take time exponential in that text: ``(a+)+$`` on
28 a's and a '!' keeps a process busy for seconds, each character more doubling it. Every
such pattern runs instead on the Rust regex crate, as polars runs it (``str.contains``, what
the columnar path uses): finite automata, time linear in the text, the compiled pattern at
most 10 MB. One engine on both paths, so a cell is decided alike on either.

Its dialect is Rust's. What it cannot run is refused when a form is parsed, naming it
(``unsupported``): backreferences, look-around, atomic groups, conditionals, and the
quantifiers Python reads as possessive (``a++``, which Rust would read as ``(a+)+``).

A call into polars costs ~50 us whatever it matches: a column or a chunk of rows is matched
at once (``Pattern.primed``), a text alone only where no batch was. polars loads on first
use: a command that matches nothing starts without it.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache

# Python's constructs that Rust refuses with no word for them ("unrecognized flag").
_PYTHON_ONLY = (
    ("(?P=", "a named backreference (?P=name)"),
    ("(?>", "an atomic group (?>...)"),
    ("(?(", "a conditional group (?(...)...)"),
    ("(?#", "a comment group (?#...)"),
    ("\\Z", "\\Z (\\z is the end of the text)"),
)
# Rust's words for what it does not run, and how the refusal names them.
_RUST_REFUSALS = (
    ("backreferences are not supported", "a backreference (\\1)"),
    ("look-around", "look-around ((?=...), (?!...), (?<=...), (?<!...))"),
)
_TOO_BIG = "is too large once compiled (over 10 MB): use smaller repetition counts"
_WHY = "patterns run in linear time, in Rust's regex dialect"
# A counted repetition, {2} or {2,5}: a '+' after it is possessive in Python.
_COUNTED = re.compile(r"\{\d+(?:,\d*)?\}")
# Escapes whose {...} is part of them (\p{Greek}, \x{2713}): no repetition.
_BRACED_ESCAPES = frozenset("pPxuU")


class PatternError(ValueError):
    """A pattern the engine refuses; the message completes "'pattern' ..." in one line."""


def unsupported(source: str) -> str | None:
    """Why ``source`` cannot be a form's pattern (the end of a sentence), or None."""
    if _possessive(source):
        return f"uses a possessive quantifier (a++, a*+, a{{2}}+), which is not supported: {_WHY}"
    try:
        search_all(source, [""])
    except PatternError as exc:
        return str(exc)
    return None


def _refusal(source: str, detail: str) -> str:
    """The sentence for Rust's refusal of ``source`` (polars' error text, several lines)."""
    lines = [line.strip() for line in detail.splitlines() if line.strip()]
    said = next((line[len("error:") :].strip() for line in lines if line.startswith("error:")), "")
    said = said or (lines[0].removeprefix("regex error:").strip() if lines else detail)
    if "exceeds size limit" in detail:
        return _TOO_BIG
    what = next((name for words, name in _RUST_REFUSALS if words in detail), None)
    if what is None and said in ("unrecognized flag", "unrecognized escape sequence"):
        what = next((name for text, name in _PYTHON_ONLY if text in source), None)
    if what is None:
        return f"is not a valid regular expression ({said})"
    return f"uses {what}, which is not supported: {_WHY}"


def _class_end(source: str, at: int) -> int:
    """The index after the character class opening at ``at`` (classes nest in Rust)."""
    depth, i = 0, at
    while i < len(source):
        c = source[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            depth += 1
            i += 1
            if source.startswith("^", i):
                i += 1
            if source.startswith("]", i):  # a ']' first is one of the class's characters
                i += 1
            continue
        i += 1
        if c == "]":
            depth -= 1
            if depth == 0:
                return i
    return i


def _possessive(source: str) -> bool:
    """Whether a quantifier is followed by '+' (Python: possessive), outside classes and
    escapes."""
    i, quantified = 0, False
    while i < len(source):
        c = source[i]
        if c == "+" and quantified:
            return True
        if c == "\\":
            braced = source[i + 1 : i + 2] in _BRACED_ESCAPES and source.startswith("{", i + 2)
            i = source.find("}", i) + 1 if braced else i + 2
            quantified = False
            if i == 0:
                return False  # an escape left open: Rust says what is wrong
            continue
        if c == "[":
            i, quantified = _class_end(source, i), False
            continue
        counted = _COUNTED.match(source, i) if c == "{" else None
        if counted is not None:
            i, quantified = counted.end(), True
            continue
        quantified = c in "*+?" and source[i - 1 : i] != "("
        i += 1
    return False


def search_all(source: str, texts: Sequence[str]) -> list[bool]:
    """Whether ``source`` matches somewhere in each text, in one call into the engine."""
    import polars as pl

    try:
        column = pl.Series(texts, dtype=pl.String)
    except UnicodeEncodeError:  # a lone surrogate: no UTF-8 text has it
        column = pl.Series([_utf8(t) for t in texts], dtype=pl.String)
    try:
        found: list[bool] = column.str.contains(source).to_list()
    except pl.exceptions.ComputeError as exc:
        raise PatternError(_refusal(source, str(exc))) from None
    return found


def _utf8(text: str) -> str:
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


class Pattern:
    """One form's pattern. ``primed(texts)`` matches a batch at once, in this thread; each
    ``search`` of one of them is then a look-up, any other text a call of its own."""

    def __init__(self, source: str) -> None:
        reason = unsupported(source)
        if reason is not None:
            raise PatternError(reason)
        self.source = source
        self._local = threading.local()

    def search(self, text: str) -> bool:
        known: dict[str, bool] | None = getattr(self._local, "known", None)
        if known is not None:
            found = known.get(text)
            if found is not None:
                return found
        return search_all(self.source, [text])[0]

    @contextmanager
    def primed(self, texts: Iterable[str]) -> Iterator[None]:
        before: dict[str, bool] | None = getattr(self._local, "known", None)
        distinct = list(dict.fromkeys(texts))
        self._local.known = dict(zip(distinct, search_all(self.source, distinct), strict=True))
        try:
            yield
        finally:
            self._local.known = before


@lru_cache(maxsize=256)
def compiled(source: str) -> Pattern:
    """The Pattern of ``source``, shared by a field's coercers (PatternError: refused)."""
    return Pattern(source)
