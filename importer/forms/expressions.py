"""The expression language of forms: ``compute``, ``check`` and ``when``.

    compute = "quantity * unit_price"      check = "ship_date >= order_date"
    when = "country == 'US' and total > 100"

Parsed here (never by Python's eval, exec or compile) against the kinds of the form's
fields, so that ``forms add`` refuses an unknown field, a type mismatch or bad syntax with
its position. Precedence, lowest first: ``or``, ``and``, ``not``, comparisons (``== != <
<= > >=``, ``=`` and ``<>`` too, ``in (...)``, ``not in (...)``, ``is [not] empty``), ``+
-``, ``* /``, unary ``-``, then calls, literals, fields and parentheses. Keywords are
case-insensitive and name no field; field names are case-sensitive.

Each node is checked and compiled as it is parsed, into a closure over whole columns
(forms/expression_eval.py): evaluating a batch runs one closure per node, not one per row.
"""

from __future__ import annotations

import difflib
import operator
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, localcontext
from typing import Literal, NoReturn, cast

from importer.forms import expression_eval as ev

Kind = Literal["number", "text", "date", "datetime", "boolean"]
KINDS: tuple[Kind, ...] = ("number", "text", "date", "datetime", "boolean")

_DESCRIBED: dict[Kind, str] = {
    "number": "a number",
    "text": "a text",
    "date": "a date",
    "datetime": "a date and time",
    "boolean": "true or false",
}
KEYWORDS = frozenset({"and", "or", "not", "in", "is", "empty", "true", "false"})
# date() and datetime() are literals, not functions: date('2026-01-31').
FUNCTIONS = (
    *("len", "lower", "upper", "abs", "round", "year", "month", "day", "today", "coalesce"),
    *("date", "datetime"),
)
# Past these a tree would recurse too deeply to parse or evaluate; no real rule comes near.
MAX_DEPTH = 100  # nodes from the root to a leaf
MAX_NESTING = 30  # parentheses, calls and prefix operators within each other


def describe_kind(kind: Kind) -> str:
    """'a number', 'a text', 'a date', 'a date and time', 'true or false'."""
    return _DESCRIBED[kind]


class ExpressionError(ValueError):
    """An expression refused at compile time: ``position`` is the 0-based column of the
    offending token, ``expected`` what would have fitted there (or None)."""

    def __init__(self, text: str, position: int, problem: str, expected: str | None = None):
        self.text = text
        self.position = position
        self.problem = problem
        self.expected = expected
        super().__init__(f"at {position}: {problem}")


@dataclass(frozen=True)
class Expression:
    """A compiled expression: ``evaluate`` gives one value per row of a batch."""

    text: str
    kind: Kind
    names: tuple[str, ...]  # the fields it reads, in order of first appearance
    _run: ev.Run = field(repr=False, compare=False)

    def evaluate(
        self, columns: Mapping[str, Sequence[object]], count: int, *, today: date
    ) -> list[object]:
        """The value of each of ``count`` rows (None where undecided). ``columns`` holds a
        list per name read; numbers may be int, Decimal or float (read exactly: 0.1 is
        Decimal('0.1')); ``today`` is what today() gives (the job's date, so that a resumed
        job decides alike)."""
        env = ev.Env(columns, count, today)
        with localcontext(ev.DECIMALS):
            out = self._run(env)
        # Never hand back a caller's own list (a bare field): the result is the caller's.
        return list(out) if any(out is c for c in env.read.values()) else out


def compile_expression(
    text: str, kinds: Mapping[str, Kind], *, expect: Kind | None = None
) -> Expression:
    """Parse and check ``text`` against the fields' kinds; with ``expect``, its kind must be
    that one (``"boolean"`` for a rule). Raises ExpressionError."""
    parser = _Parser(text, kinds)
    node = parser.parse()
    if expect is not None and node.kind != expect:
        what = (
            "a rule must be true or false"
            if expect == "boolean"
            else f"the field takes {describe_kind(expect)}"
        )
        parser.fail(
            parser.tokens[0].pos,
            f"{what}, this is {describe_kind(node.kind)}",
            describe_kind(expect),
        )
    return Expression(text, node.kind, tuple(parser.names), node.run)


# --- tokens -----------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""(?P<space>\s+)
    |(?P<number>(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)
    |(?P<name>[A-Za-z_][A-Za-z0-9_]*)
    |(?P<text>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")
    |(?P<op>==|!=|<>|<=|>=|[-+*/(),<>=])""",
    re.VERBOSE | re.DOTALL,
)
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_WORD = re.compile(r"[\w.]*")  # what runs on after a number: "12abc" is one mistake
_COMPARISONS: dict[str, ev.Binary] = {
    "==": operator.eq,
    "=": operator.eq,
    "!=": operator.ne,
    "<>": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


@dataclass(frozen=True, slots=True)
class _Token:
    type: str  # number, text, name, keyword (lower-cased), op, end
    value: object
    pos: int
    raw: str

    def shown(self) -> str:
        return "end of expression" if self.type == "end" else repr(self.raw)


def _tokens(text: str, fail: Callable[[int, str], NoReturn]) -> list[_Token]:
    out: list[_Token] = []
    pos = 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            char = text[pos]
            if char in "'\"":
                fail(pos, f"text not closed: add the closing {char}")
            fail(pos, f"unexpected character {char!r}")
        kind, raw, start, pos = match.lastgroup or "", match.group(), pos, match.end()
        if kind == "space":
            continue
        value: object = raw
        if kind == "number":
            if pos < len(text) and (text[pos].isalnum() or text[pos] in "_."):
                end = _WORD.match(text, pos)
                fail(start, f"malformed number {text[start : end.end() if end else pos]!r}")
            value = int(raw) if raw.isdigit() else Decimal(raw)
        elif kind == "text":
            for escape in _ESCAPE.finditer(raw, 1, len(raw) - 1):
                if escape.group(1) not in "\\'\"":
                    known = "only \\\\, \\' and \\\" are known"
                    fail(start + escape.start(), f"unknown escape '{escape.group()}' ({known})")
            value = _ESCAPE.sub(r"\1", raw[1:-1])
        elif kind == "name" and raw.lower() in KEYWORDS:
            kind, value = "keyword", raw.lower()
        out.append(_Token(kind, value, start, raw))
    out.append(_Token("end", None, len(text), ""))
    return out


# --- parsing, checking and compiling in one pass ----------------------------------------------

_NOT_LITERAL = object()


@dataclass(frozen=True, slots=True)
class _Node:
    kind: Kind
    run: ev.Run
    pos: int  # where it starts: an error about it points there
    depth: int = 1
    literal: object = _NOT_LITERAL  # its value, when it is one written out


class _Parser:
    def __init__(self, text: str, kinds: Mapping[str, Kind]) -> None:
        self.text = text
        self.kinds = kinds
        self.names: dict[str, None] = {}  # an ordered set
        self.nesting = 0
        self.tokens = _tokens(text, self.fail)
        self.at = 0

    def fail(self, pos: int, problem: str, expected: str | None = None) -> NoReturn:
        raise ExpressionError(self.text, pos, problem, expected)

    @property
    def token(self) -> _Token:
        return self.tokens[self.at]

    def take(self) -> _Token:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def is_(self, type_: str, *values: str) -> bool:
        return self.token.type == type_ and (not values or self.token.value in values)

    def expect(self, op: str) -> _Token:
        if not self.is_("op", op):
            self.fail(self.token.pos, f"expected {op!r}, found {self.token.shown()}", repr(op))
        return self.take()

    def node(self, kind: Kind, run: ev.Run, pos: int, *parts: _Node) -> _Node:
        depth = 1 + max((p.depth for p in parts), default=0)
        if depth > MAX_DEPTH:
            self.fail(pos, "the expression is nested too deeply")
        return _Node(kind, run, pos, depth)

    def parse(self) -> _Node:
        node = self.or_()
        if not self.is_("end"):
            if self.is_("op", ")"):
                self.fail(self.token.pos, "')' has no matching '('", "end of expression")
            self.fail(
                self.token.pos,
                f"expected end of expression, found {self.token.shown()}",
                "end of expression",
            )
        return node

    def nested(self, parse: Callable[[], _Node]) -> _Node:
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            self.fail(self.token.pos, "the expression is nested too deeply")
        try:
            return parse()
        finally:
            self.nesting -= 1

    def boolean(self, node: _Node, what: str) -> None:
        if node.kind != "boolean":
            self.fail(
                node.pos,
                f"{what} needs true or false, this is {describe_kind(node.kind)}",
                "true or false",
            )

    # or -> and -> not -> comparison -> sum -> product -> unary -> atom

    def or_(self) -> _Node:
        node = self.and_()
        while self.is_("keyword", "or"):
            self.take()
            right = self.and_()
            self.boolean(node, "'or'")
            self.boolean(right, "'or'")
            node = self.node("boolean", ev.or_(node.run, right.run), node.pos, node, right)
        return node

    def and_(self) -> _Node:
        node = self.not_()
        while self.is_("keyword", "and"):
            self.take()
            right = self.not_()
            self.boolean(node, "'and'")
            self.boolean(right, "'and'")
            node = self.node("boolean", ev.and_(node.run, right.run), node.pos, node, right)
        return node

    def not_(self) -> _Node:
        if not self.is_("keyword", "not"):
            return self.comparison()
        pos = self.take().pos
        operand = self.nested(self.not_)
        self.boolean(operand, "'not'")
        return self.node("boolean", ev.not_(operand.run), pos, operand)

    def comparison(self) -> _Node:
        left = self.sum_()
        token = self.token
        if token.type == "op" and token.value in _COMPARISONS:
            self.take()
            node = self.compare(token, left, self.sum_())
        elif self.is_("keyword", "in") or (
            self.is_("keyword", "not") and self.tokens[self.at + 1].value == "in"
        ):
            negate = self.take().value == "not"
            if negate:
                self.take()
            node = self.member(left, negate)
        elif self.is_("keyword", "is"):
            self.take()
            negate = self.is_("keyword", "not")
            if negate:
                self.take()
            if not self.is_("keyword", "empty"):
                self.fail(
                    self.token.pos, f"expected 'empty', found {self.token.shown()}", "'empty'"
                )
            self.take()
            node = self.node("boolean", ev.is_empty(left.run, negate), left.pos, left)
        else:
            return left
        if self.is_("op", *_COMPARISONS) or self.is_("keyword", "in", "is"):
            self.fail(self.token.pos, "comparisons cannot be chained: join them with 'and'")
        return node

    def compare(self, token: _Token, left: _Node, right: _Node) -> _Node:
        op = str(token.value)
        fn = _COMPARISONS[op]
        kinds = {left.kind, right.kind}
        if kinds == {"date", "datetime"}:
            fn = ev.compare_mixed(fn)
        elif len(kinds) != 1:
            self.fail(token.pos, f"cannot compare {left.kind} and {right.kind}")
        elif left.kind == "boolean" and op not in ("==", "=", "!=", "<>"):
            self.fail(token.pos, f"true or false cannot be compared with {op}: use == or !=")
        return self.node("boolean", ev.binary(fn, left.run, right.run), left.pos, left, right)

    def member(self, left: _Node, negate: bool) -> _Node:
        self.expect("(")
        items: list[object] = []
        while True:
            item = self.nested(self.unary)
            if item.literal is _NOT_LITERAL:
                self.fail(item.pos, "the list after 'in' holds only values written out", "a value")
            if item.kind != left.kind:
                self.fail(
                    item.pos,
                    f"the list holds {describe_kind(item.kind)}, "
                    f"the left side is {describe_kind(left.kind)}",
                    describe_kind(left.kind),
                )
            items.append(item.literal)
            if not self.is_("op", ","):
                break
            self.take()
        self.expect(")")
        return self.node("boolean", ev.member(left.run, frozenset(items), negate), left.pos, left)

    def sum_(self) -> _Node:
        node = self.product()
        while self.is_("op", "+", "-"):
            token = self.take()
            right = self.product()
            kind, fn = self.arithmetic(token, node, right)
            node = self.node(kind, ev.binary(fn, node.run, right.run), node.pos, node, right)
        return node

    def product(self) -> _Node:
        node = self.unary()
        while self.is_("op", "*", "/"):
            token = self.take()
            right = self.unary()
            kind, fn = self.arithmetic(token, node, right)
            node = self.node(kind, ev.binary(fn, node.run, right.run), node.pos, node, right)
        return node

    def arithmetic(self, token: _Token, left: _Node, right: _Node) -> tuple[Kind, ev.Binary]:
        a, b, op = left.kind, right.kind, token.value
        if a == b == "number":
            return "number", _ARITHMETIC[str(op)]
        dated = ("date", "datetime")
        if op == "+" and a == b == "text":
            return "text", operator.add
        if op == "+" and a in dated and b == "number":
            return a, ev.add_days
        if op == "+" and a == "number" and b in dated:
            return b, lambda n, day: ev.add_days(day, n)
        if op == "-" and a in dated and b == "number":
            return a, ev.subtract_days
        if op == "-" and a in dated and b in dated:
            return "number", ev.days_between
        verb = {"+": "add {a} and {b}", "-": "subtract {b} from {a}", "*": "multiply {a} by {b}"}
        what = verb.get(str(op), "divide {a} by {b}").format(a=a, b=b)
        self.fail(token.pos, f"cannot {what}")

    def unary(self) -> _Node:
        if not self.is_("op", "-"):
            return self.atom()
        pos = self.take().pos
        operand = self.nested(self.unary)
        if operand.kind != "number":
            self.fail(pos, f"'-' needs a number, this is {describe_kind(operand.kind)}", "a number")
        if operand.literal is not _NOT_LITERAL:  # -1 is a value written out (for 'in')
            value = -cast(Decimal, operand.literal)  # or an int: both negate
            return _Node("number", ev.constant(value), pos, 1, value)
        return self.node("number", ev.unary(operator.neg, operand.run), pos, operand)

    def atom(self) -> _Node:
        token = self.token
        if token.type in ("number", "text") or token.value in ("true", "false"):
            self.take()
            kind: Kind = "number" if token.type == "number" else "text"
            value = token.value
            if token.type == "keyword":
                kind, value = "boolean", token.value == "true"
            return _Node(kind, ev.constant(value), token.pos, 1, value)
        if token.type == "name":
            self.take()
            if self.is_("op", "("):
                return self.call(token)
            return self.field(token)
        if self.is_("op", "("):
            self.take()
            node = self.nested(self.or_)
            self.expect(")")
            return node
        if token.type == "keyword" and token.value in {k.lower() for k in self.kinds}:
            self.fail(token.pos, f"{token.raw!r} is a keyword: it cannot name a field")
        self.fail(token.pos, f"expected a value, found {token.shown()}", "a value")

    def field(self, token: _Token) -> _Node:
        name = str(token.value)
        kind = self.kinds.get(name)
        if kind is None:
            self.fail(token.pos, f"unknown field {name!r}{_did_you_mean(name, self.kinds)}")
        if kind not in KINDS:
            raise ValueError(f"field {name!r}: unknown kind {kind!r}")
        self.names[name] = None
        return _Node(kind, ev.field(name, kind == "number"), token.pos)

    def call(self, token: _Token) -> _Node:
        name = str(token.value).lower()
        if name not in FUNCTIONS:
            self.fail(token.pos, f"unknown function {token.raw!r}{_did_you_mean(name, FUNCTIONS)}")
        self.take()  # (
        if name in ("date", "datetime"):
            return self.literal_date(token, name)
        args: list[_Node] = []
        while not args or self.is_("op", ","):
            if args:
                self.take()  # ,
            elif self.is_("op", ")"):
                break
            args.append(self.nested(self.or_))
        self.expect(")")
        return self.node(*self.check_call(token, name, args), token.pos, *args)

    def check_call(self, token: _Token, name: str, args: list[_Node]) -> tuple[Kind, ev.Run]:
        least, most, takes = _ARITY.get(name, (1, 1, "1 argument"))
        if not least <= len(args) <= most:
            self.fail(token.pos, f"{name}() takes {takes}, not {len(args)}")

        def needs(arg: _Node, *kinds: Kind) -> None:
            if arg.kind not in kinds:
                wanted = " or ".join(describe_kind(k) for k in kinds)
                self.fail(
                    arg.pos, f"{name}() needs {wanted}, this is {describe_kind(arg.kind)}", wanted
                )

        if name == "today":
            return "date", ev.today()
        if name == "coalesce":
            for arg in args[1:]:
                needs(arg, args[0].kind)
            return args[0].kind, ev.coalesce([a.run for a in args])
        if name in ("len", "lower", "upper"):
            needs(args[0], "text")
            fn = {"len": len, "lower": str.lower, "upper": str.upper}[name]
            return ("number" if name == "len" else "text"), ev.unary(fn, args[0].run)
        needs(args[0], *(("date", "datetime") if name in ("year", "month", "day") else ("number",)))
        if name == "round":
            if len(args) == 2:
                needs(args[1], "number")
                return "number", ev.binary(ev.round_half_up, args[0].run, args[1].run)
            return "number", ev.unary(ev.round_half_up, args[0].run)
        if name == "abs":
            return "number", ev.unary(abs, args[0].run)
        return "number", ev.unary(operator.attrgetter(name), args[0].run)

    def literal_date(self, token: _Token, name: str) -> _Node:
        kind: Kind = "date" if name == "date" else "datetime"
        example = "'2026-01-31'" if kind == "date" else "'2026-01-31T10:00:00'"
        text = self.token
        if text.type != "text":
            self.fail(
                text.pos, f"{name}() takes a date written out, like {name}({example})", "a text"
            )
        self.take()
        try:
            value: date = (date if kind == "date" else datetime).fromisoformat(str(text.value))
        except ValueError:
            self.fail(text.pos, f"{text.raw} is not {describe_kind(kind)}: write it like {example}")
        self.expect(")")
        return _Node(kind, ev.constant(value), token.pos, 1, value)


_ARITY = {
    "today": (0, 0, "no arguments"),
    "round": (1, 2, "1 or 2 arguments"),
    "coalesce": (2, 1000, "2 or more arguments"),
}
_ARITHMETIC: dict[str, ev.Binary] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": ev.divide,
}


def _did_you_mean(name: str, known: Sequence[str] | Mapping[str, object]) -> str:
    candidates = list(known)
    folded = [c for c in candidates if c.lower() == name.lower()]
    close = folded or difflib.get_close_matches(name, candidates, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
