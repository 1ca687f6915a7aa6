"""The command-line reference of the documentation, generated from the typer application
itself, so it cannot drift from what `--help` says: every command, its usage, what it does,
every option with its default, and its examples.

    python -m importer.cli.reference > docs/reference/cli.md

A test regenerates it and compares it with the committed page.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import typer.main

from importer.cli.app import app
from importer.cli.help import HELP

TITLE = "# Command-line reference"
INTRO = (
    "Every command of `importer`, as `importer COMMAND --help` shows it. This page is "
    "generated from the command-line application (`python -m importer.cli.reference`); a "
    "test fails when it differs from what the code says."
)


# typer carries its own copy of click: its commands and parameters are read by what they hold.
Command = Any
Context = Any


def _is_group(command: Command) -> bool:
    return isinstance(getattr(command, "commands", None), dict)


def _runs_itself(group: Command) -> bool:
    """A group that is a command too (``importer timers`` runs the scheduler, ``importer
    timers list`` lists): its own options are shown as a command's."""
    return getattr(group, "invoke_without_command", False) or any(
        getattr(p, "param_type_name", "") == "option" and not p.hidden
        for p in group.params
        if p.name != "help"
    )


def _commands(
    group: Command, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], Command]]:
    """Every command below ``group``, depth first, in the order --help lists them."""
    if not _is_group(group):
        return
    for name in sorted(group.commands):
        command = group.commands[name]
        if command.hidden:
            continue
        yield (*path, name), command
        yield from _commands(command, (*path, name))


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _option_row(param: Any, ctx: Context) -> str | None:
    if param.param_type_name != "option" or param.hidden:
        return None
    names = ", ".join(f"`{name}`" for name in [*param.opts, *param.secondary_opts])
    value = "" if param.is_flag else f" `{param.make_metavar(ctx)}`"
    default = param.default
    shown = ""
    if default not in (None, False, (), []) and param.show_default is not False:
        shown = f"`{default}`" if not callable(default) else ""
    help_text = _escape(param.help or "")
    return f"| {names}{value} | {help_text} | {shown} |"


def _arguments(command: Command, ctx: Context) -> list[str]:
    found = []
    for param in command.params:
        if param.param_type_name == "argument":
            kind = "required" if param.required else "optional"
            many = ", repeatable" if param.nargs == -1 else ""
            found.append(f"- `{param.make_metavar(ctx)}` ({kind}{many})")
    return found


def command_section(path: tuple[str, ...], command: Command) -> list[str]:
    """One command's section: heading, summary, usage, description, arguments, options and
    examples."""
    name = " ".join(path)
    ctx = command.context_class(command, info_name=f"importer {name}")
    summary, examples = HELP.get(name, (command.get_short_help_str(limit=200), ()))
    lines = [f"## importer {name}", "", summary, ""]
    usage = " ".join(command.collect_usage_pieces(ctx))
    lines += ["```", f"importer {name} {usage}".rstrip(), "```", ""]
    description = (command.help or "").split("\f")[0].strip()
    if description and description != summary:
        lines += [description, ""]
    arguments = _arguments(command, ctx)
    if arguments:
        lines += ["Arguments:", "", *arguments, ""]
    rows = [row for p in command.params if (row := _option_row(p, ctx)) is not None]
    if rows:
        lines += ["| option | what it does | default |", "|---|---|---|", *rows, ""]
    if examples:
        lines += ["Examples:", "", "```sh", *examples, "```", ""]
    return lines


def markdown() -> str:
    root = typer.main.get_command(app)
    lines = [TITLE, "", INTRO, ""]
    for path, command in _commands(root):
        if _is_group(command) and not _runs_itself(command):
            lines += [f"## importer {' '.join(path)} ...", "", command.get_short_help_str(200), ""]
            continue
        lines += command_section(path, command)
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":
    sys.stdout.write(markdown())
