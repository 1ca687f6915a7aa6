"""Named SQL statements from sql/queries/*.sql (shipped as importer.sql), loaded once.

A file holds blocks introduced by a line ``-- name: some_query``; the block runs until the
next such line. Parameters use psycopg's ``%(name)s`` style.
"""

from __future__ import annotations

import re
from importlib import resources

_NAME = re.compile(r"^--\s*name:\s*([a-z_][a-z0-9_]*)\s*$", re.MULTILINE)


class Queries:
    def __init__(self) -> None:
        self._queries: dict[str, str] = {}
        folder = resources.files("importer.sql") / "queries"
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(".sql"):
                self._parse(entry.read_text(encoding="utf-8"), entry.name)

    def _parse(self, text: str, origin: str) -> None:
        matches = list(_NAME.finditer(text))
        for index, match in enumerate(matches):
            end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
            body = text[match.end() : end].strip()
            name = match.group(1)
            if name in self._queries:
                raise ValueError(f"query {name} defined twice ({origin})")
            self._queries[name] = body

    def __getattr__(self, name: str) -> str:
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
