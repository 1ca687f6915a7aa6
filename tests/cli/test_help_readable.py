"""--help names values as a person reads them, and completion offers forms and statuses."""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from importer.database import Connection
from tests.conftest import IMPORTER_CMD, Cli
from tests.support.jobs import add_form


def test_submit_help_reads_like_the_readme(cli: Cli, cli_env: dict[str, str]) -> None:
    shown = cli("submit", "--help").stdout
    assert "Usage: importer submit [OPTIONS] FILE\n" in shown
    assert re.search(
        r"\n  FILE +The workbook \(\.xlsx, \.xlsm, \.xls, \.xlsb, \.ods, \.csv\)", shown
    )
    for option in ('--map "HEADER=FIELD"', "--ignore HEADER", "-f, --form FORM", "--in DELAY"):
        assert option in shown, option
    resume = cli("resume", "--help").stdout
    assert "Usage: importer resume [OPTIONS] [JOB_ID...]\n" in resume
    assert re.search(r"\n  JOB_ID\.\.\. +Jobs to continue", resume)


def _all_help(cli: Cli) -> str:
    import typer.main

    from importer.cli.app import app

    texts: list[str] = []

    def walk(cmd: object, words: list[str]) -> None:
        texts.append(cli(*words, "--help").stdout)
        for name, sub in sorted(getattr(cmd, "commands", {}).items()):
            walk(sub, [*words, name])

    walk(typer.main.get_command(app), [])
    return "\n".join(texts)


def test_no_help_shows_a_python_type(cli: Cli, cli_env: dict[str, str]) -> None:
    shown = _all_help(cli)
    assert "Usage: importer errors [OPTIONS] JOB_ID" in shown
    assert "--config FILE" in shown and "--limit N" in shown
    found = re.findall(r"<[a-z\[\], ]+>|\{[a-z_]+\}", shown)
    assert found == [], found


def _complete(words: str, env: dict[str, str]) -> list[str]:
    done = subprocess.run(
        IMPORTER_CMD,
        env={
            **env,
            "_IMPORTER_COMPLETE": "complete_bash",
            "COMP_WORDS": words,
            "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1)),
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout.split()


def test_completion_offers_form_names_and_statuses(
    conn: Connection, cli_env: dict[str, str]
) -> None:
    add_form(conn)
    add_form(conn, "name = 'people'\n[[fields]]\nname = 'name'\ntype = 'string'\n")
    assert _complete("importer submit x.xlsx --form ", cli_env) == ["orders", "people"]
    assert _complete("importer check x.xlsx --form pe", cli_env) == ["people"]
    assert _complete("importer jobs --status failed,p", cli_env) == [
        "failed,pending",
        "failed,partially_succeeded",
    ]
    assert _complete("importer timers list --status p", cli_env) == ["pending", "processing"]


@pytest.mark.parametrize("url", ["postgresql://nobody@127.0.0.1:1/none", "notaurl"])
def test_form_completion_fails_silently(cli_env: dict[str, str], url: str) -> None:
    env = {**cli_env, "IMPORTER_DATABASE_URL": url}
    assert _complete("importer submit x.xlsx --form o", env) == []
    assert os.environ["IMPORTER_DATABASE_URL"] != url  # the test's own database untouched
