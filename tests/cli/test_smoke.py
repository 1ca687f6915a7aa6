from tests.conftest import Cli, CliResult


def test_db_migrate_reports_latest_version(cli: Cli) -> None:
    result: CliResult = cli("db", "migrate")
    assert result.exit_code == 0, result.stderr
    assert "schema at version" in result.stdout
