"""A role the server does not know is said as such, not as an unreachable server."""

from __future__ import annotations

import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from tests.conftest import Cli


@pytest.mark.parametrize("role", ["nobody", "Mixed Case"])
def test_a_missing_role_says_the_role_does_not_exist(
    cli: Cli,
    cli_env: dict[str, str],
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
    role: str,
) -> None:
    monkeypatch.setenv("IMPORTER_DATABASE_URL", make_conninfo(database_url, user=role))
    info = conninfo_to_dict(database_url)
    result = cli("jobs")
    assert result.exit_code == 1
    quoted = role if role == "nobody" else f'"{role}"'
    assert result.stderr == (
        f"error: PostgreSQL at {info.get('host') or 'localhost'}:{info.get('port') or 5432}"
        f"/{info['dbname']} has no role {role!r}: connect as an existing user, or create it"
        f" (CREATE ROLE {quoted} LOGIN)\n"
    )
    assert "cannot reach" not in result.stderr
