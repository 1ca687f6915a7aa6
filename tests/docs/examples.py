"""The documentation's examples, run: every ```console block of a tutorial or how-to page
holds commands (lines starting "$ ") each followed by what the tool prints (standard output
and error as a terminal interleaves them). They run in
order, page by page, in a scratch folder holding a copy of sample_data/, against a scratch
database; what they print is compared with what the page shows, the volatile parts (times,
dates, rates, digests) normalised alike on both sides. A block preceded by a line
``<!-- not run: why -->`` is left alone, saying why.

    python -m tests.docs.examples capture docs/tutorial.md   # rewrite the shown outputs

The outputs on the pages are captured so, never typed by hand.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DOCS = ROOT / "docs"
BLOCK = re.compile(r"(?P<skip><!-- not run: [^>]+-->\n+)?```console\n(?P<body>.*?)```", re.S)
_TIME = r"\b\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}"
# What changes from run to run, replaced on both sides before they are compared.
VOLATILE = [
    (re.compile(_TIME + r"(?:\.\d+)?(?:[+-]\d{2}:?\d{2}| ?[A-Z]{2,5})?"), "<time>"),
    (re.compile(r"\b\d+:\d{2}(?::\d{2})?\b"), "<duration>"),
    (re.compile(r"\b\d[\d,]*(?:\.\d+)? ?(?:rows/s|s|ms|KB|MB|B)\b"), "<measure>"),
    (re.compile(r"\b[0-9a-f]{64}\b"), "<sha256>"),
    (re.compile(r"by \S+ \(command line, OS user\)"), "by <user> (command line, OS user)"),
]


@dataclass
class Example:
    """One command of a page and the output shown under it."""

    page: Path
    line: int
    command: str
    shown: str
    skipped: str | None = None


@dataclass
class Page:
    path: Path
    examples: list[Example] = field(default_factory=list)


_RATE = re.compile(r"\s+\d[\d,]*$")


def normalise(text: str) -> str:
    lines, rates = [], False
    for line in text.strip("\n").splitlines():
        line = line.rstrip()
        if rates and line:  # a row of a table whose last column is Rows/s
            line = _RATE.sub(" <rate>", line)
        rates = line.endswith("Rows/s") or (rates and bool(line))
        lines.append(line)
    text = "\n".join(lines)
    for pattern, replacement in VOLATILE:
        text = pattern.sub(replacement, text)
    return text


def read_page(path: Path) -> Page:
    text = path.read_text(encoding="utf-8")
    page = Page(path)
    for match in BLOCK.finditer(text):
        skip = match.group("skip")
        line = text.count("\n", 0, match.start("body")) + 1
        for command, shown, offset in _commands(match.group("body")):
            why = skip.split("not run:", 1)[1].rsplit("-->", 1)[0].strip() if skip else None
            page.examples.append(Example(path, line + offset, command, shown, why))
    return page


def _commands(body: str) -> Iterator[tuple[str, str, int]]:
    command: str | None = None
    start = 0
    output: list[str] = []
    for index, line in enumerate(body.splitlines()):
        if line.startswith("$ "):
            if command is not None:
                yield command, "\n".join(output), start
            command, start, output = line[2:], index, []
        else:
            output.append(line)
    if command is not None:
        yield command, "\n".join(output), start


def scratch_folder(folder: Path) -> Path:
    shutil.copytree(
        ROOT / "sample_data",
        folder / "sample_data",
        ignore=shutil.ignore_patterns("__pycache__", "*.py"),
        dirs_exist_ok=True,
    )
    return folder


def run(command: str, folder: Path, env: dict[str, str]) -> str:
    """A command as a shell runs it, ``importer`` being this checkout's; stdout and stderr
    as a terminal shows them, one after the other."""
    bin_dir = str(Path(sys.executable).parent)
    full = {**env, "PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"}
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=folder,
        env=full,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # in the order a terminal shows them (unbuffered)
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    return done.stdout


def environment(database_url: str, folder: Path) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("IMPORTER_") and k != "DATABASE_URL"
    }
    env.update(
        IMPORTER_DATABASE_URL=database_url,
        IMPORTER_HOME=str(folder / ".home"),
        NO_COLOR="1",
        COLUMNS="80",
        TZ="UTC",
        PYTHONUNBUFFERED="1",
    )
    return env


def capture(path: Path, database_url: str, folder: Path) -> None:
    """Run the page's commands and write what they print under each of them."""
    env = environment(database_url, scratch_folder(folder))
    text = path.read_text(encoding="utf-8")

    def rewrite(match: re.Match[str]) -> str:
        if match.group("skip"):
            return match.group(0)
        lines = []
        for command, _shown, _offset in _commands(match.group("body")):
            lines += [f"$ {command}", *run(command, folder, env).rstrip("\n").splitlines()]
        return "```console\n" + "\n".join(lines) + "\n```"

    path.write_text(BLOCK.sub(rewrite, text), encoding="utf-8")


def fresh_database(server_url: str, name: str) -> str:
    """An empty database of that name on the server (dropped first if it is there)."""
    import psycopg
    from psycopg import sql
    from psycopg.conninfo import make_conninfo

    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return make_conninfo(server_url, dbname=name)


if __name__ == "__main__":
    import tempfile

    if len(sys.argv) < 3 or sys.argv[1] != "capture":
        sys.exit("usage: python -m tests.docs.examples capture PAGE.md ...")
    # The server of the tests (its pages run each on an empty database of their own).
    server = os.environ.get("IMPORTER_TEST_DATABASE_URL")
    if not server:
        sys.exit("set IMPORTER_TEST_DATABASE_URL to a server the pages' databases may be made on")
    for name in sys.argv[2:]:
        url = fresh_database(server, "importer_docs_capture")
        with tempfile.TemporaryDirectory() as scratch:
            capture(Path(name), url, Path(scratch))
