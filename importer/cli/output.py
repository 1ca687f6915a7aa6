"""Consoles for the CLI: colour only on a terminal and never with NO_COLOR."""

from __future__ import annotations

import os
import re
import sys
import textwrap

from rich.console import Console, Group, RenderableType
from rich.text import Text


def _color_allowed(stream: object) -> bool:
    return "NO_COLOR" not in os.environ and bool(getattr(stream, "isatty", lambda: False)())


def stdout_console() -> Console:
    # Built per call: tests swap sys.stdout, and TTY-ness decides live view vs plain lines.
    return Console(
        file=sys.stdout,
        no_color=not _color_allowed(sys.stdout),
        highlight=False,
        soft_wrap=True,
        markup=False,  # printed text holds user text (headers, paths): never markup
    )


def stderr_console() -> Console:
    return Console(
        file=sys.stderr,
        no_color=not _color_allowed(sys.stderr),
        highlight=False,
        soft_wrap=True,
        markup=False,  # printed text holds user text (headers, paths): never markup
    )


def is_terminal() -> bool:
    return bool(sys.stdout.isatty()) and os.environ.get("TERM") != "dumb"


_LABEL = re.compile(r"^ *[a-z][a-z ]*: +(?=\S)")  # "  created:   " of a status block


def said_lines(console: Console, text: str) -> str:
    """Lines of ``label: value`` (a job's status) as a person reads them: on a terminal each
    line wrapped at words under its value's start, whole in a pipe or a log."""
    width = console.width if console.is_terminal else None
    if width is None or width < 30:
        return text
    out: list[str] = []
    for line in text.splitlines():
        label = _LABEL.match(line)
        indent = len(label.group()) if label else len(line) - len(line.lstrip()) + 4
        if indent > width // 2:
            indent = 4
        out += textwrap.wrap(
            line, width, subsequent_indent=" " * indent, break_on_hyphens=False
        ) or [line]
    return "\n".join(out)


def said(console: Console, text: str) -> RenderableType:
    """``text`` as a person reads it: wrapped at words on a terminal (the consoles soft-wrap,
    which the terminal does at its edge, mid-word), whole in a pipe or a log."""
    if console.is_terminal:
        return Group(Text(text, no_wrap=False, overflow="fold"))
    return Text(text)
