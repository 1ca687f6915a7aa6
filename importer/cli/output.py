"""Consoles for the CLI: colour only on a terminal and never with NO_COLOR."""

from __future__ import annotations

import os
import sys

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


def said(console: Console, text: str) -> RenderableType:
    """``text`` as a person reads it: wrapped at words on a terminal (the consoles soft-wrap,
    which the terminal does at its edge, mid-word), whole in a pipe or a log."""
    if console.is_terminal:
        return Group(Text(text, no_wrap=False, overflow="fold"))
    return Text(text)
