"""A database URL that is no connection string names its variable and the form wanted."""

from __future__ import annotations

import pytest

from tests.conftest import Cli


@pytest.mark.parametrize("variable", ["IMPORTER_DATABASE_URL", "DATABASE_URL"])
def test_a_url_that_is_not_one_names_the_variable_and_the_expected_form(
    cli: Cli, cli_env: dict[str, str], monkeypatch: pytest.MonkeyPatch, variable: str
) -> None:
    monkeypatch.delenv("IMPORTER_DATABASE_URL")
    monkeypatch.setenv(variable, "notaurl")
    result = cli("jobs")
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: invalid setting {variable} = 'notaurl': not a PostgreSQL URL; expected"
        " postgresql://user@host:5432/dbname\n"
    )


def test_the_password_of_a_broken_url_is_not_shown(
    cli: Cli, cli_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IMPORTER_DATABASE_URL", "host=db password=hunter2 oops")
    result = cli("jobs")
    assert result.exit_code == 2 and "IMPORTER_DATABASE_URL" in result.stderr
    assert "hunter2" not in result.stderr
