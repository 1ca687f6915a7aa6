from tests.conftest import CliResult


def test_db_migrate_reports_latest_version(cli) -> None:  # type: ignore[no-untyped-def]
    result: CliResult = cli("db", "migrate")
    assert result.exit_code == 0, result.stderr
    assert "schema at version" in result.stdout
