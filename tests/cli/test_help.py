"""Every command's --help: a summary that fits one line at 80 columns, examples, and shell
completion offered."""

from __future__ import annotations

import os
import subprocess

from importer.cli.app import app
from importer.cli.help import HELP
from tests.conftest import IMPORTER_CMD, Cli


def _commands() -> list[str]:
    import typer.main

    found: list[str] = []

    def walk(cmd: object, prefix: list[str]) -> None:
        for name, sub in sorted(getattr(cmd, "commands", {}).items()):
            found.append(" ".join([*prefix, name]))
            walk(sub, [*prefix, name])

    walk(typer.main.get_command(app), [])
    return found


def test_every_command_has_a_summary_and_examples(cli: Cli, cli_env: dict[str, str]) -> None:
    commands = _commands()
    assert set(commands) <= set(HELP), set(commands) - set(HELP)
    for command in commands:
        result = cli(*command.split(), "--help")
        assert "Examples:" in result.stdout, command
        assert f"importer {command}" in result.stdout, command
        summary = HELP[command][0]
        assert len(f"  {command.split()[-1]:<8}{summary}") <= 80, command  # one line at 80


def test_shell_completion_is_offered(cli: Cli, cli_env: dict[str, str]) -> None:
    result = cli("--help")
    assert "--install-completion" in result.stdout and "--show-completion" in result.stdout
    shown = subprocess.run(
        [*IMPORTER_CMD, "--show-completion", "bash"],
        # Without a shell to detect (as here), typer takes the shell's name as the value.
        env={**os.environ, "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert shown.returncode == 0 and "complete" in shown.stdout
