"""Named SQL statements from sql/queries/*.sql (shipped as importer.sql), loaded once.

A file holds blocks introduced by a line ``-- name: some_query``; the block runs until the
next such line. Parameters use psycopg's ``%(name)s`` style.

A named query is a ``LiteralString``, as psycopg's ``execute`` and ``sql.SQL`` ask: a type
checker that enforces PEP 675 then refuses a statement formatted from values (an f-string,
``%`` or ``+`` of a ``str``); what varies is a parameter, or composed with
``psycopg.sql.SQL``/``Identifier``/``Literal``.
"""

from __future__ import annotations

import re
from importlib import resources
from importlib.resources.abc import Traversable
from typing import LiteralString, cast

_NAME = re.compile(r"^--\s*name:\s*([a-z_][a-z0-9_]*)\s*$", re.MULTILINE)


def shipped_sql(entry: Traversable) -> LiteralString:
    """The text of a .sql file shipped in importer.sql (a query file or a migration).

    The one place text read at run time becomes a LiteralString: these files are part of
    the package, written like the source and never built from input, so their text is as
    fixed as a literal in a .py file. Nothing else may be cast to LiteralString."""
    text = entry.read_text(encoding="utf-8")
    # mypy reads LiteralString as str (it does not implement PEP 675), so it calls this
    # cast redundant; checkers that do (pyright) need it.
    return cast(LiteralString, text)  # type: ignore[redundant-cast]


class Queries:
    def __init__(self) -> None:
        self._queries: dict[str, LiteralString] = {}
        folder = resources.files("importer.sql") / "queries"
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(".sql"):
                self._parse(shipped_sql(entry), entry.name)

    def _parse(self, text: LiteralString, origin: str) -> None:
        matches = list(_NAME.finditer(text))
        for index, match in enumerate(matches):
            end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
            body = text[match.end() : end].strip()
            name = match.group(1)
            if name in self._queries:
                raise ValueError(f"query {name} defined twice ({origin})")
            self._queries[name] = body

    def __getattr__(self, name: str) -> LiteralString:
        try:
            return self._queries[name]
        except KeyError:
            raise AttributeError(f"no query named {name}") from None

    def __contains__(self, name: str) -> bool:
        return name in self._queries


_queries: Queries | None = None


def queries() -> Queries:
    global _queries
    if _queries is None:
        _queries = Queries()
    return _queries
