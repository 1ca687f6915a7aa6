"""Settings: defaults < importer.toml < IMPORTER_* env < flags; every number positive."""

from __future__ import annotations

from pathlib import Path

import pytest

from importer.config import KNOWN_KEYS, env_name, load_settings
from importer.errors import ConfigError
from importer.retry_policy import RetryPolicy
from tests.conftest import Cli


def test_defaults_match_the_design() -> None:
    s = load_settings(environ={})
    assert (s.timer.poll_interval_seconds, s.timer.batch_size, s.timer.lease_seconds) == (5, 20, 60)
    assert s.timer.max_attempts == 5
    assert s.jobs.retry_delays_seconds == (2, 10, 30)
    assert s.import_.retry == s.timer.retry == RetryPolicy((2, 10, 30), 0.2, timer_max_attempts=5)
    assert s.warnings == ()
    assert (s.import_.batch_size, s.import_.lease_seconds, s.import_.max_attempts) == (5, 300, 5)
    assert s.import_.rows_per_transaction == 1000
    assert s.database_url is None


def test_precedence_file_then_env_then_flags(tmp_path: Path) -> None:
    cfg = tmp_path / "importer.toml"
    cfg.write_text(
        "[jobs.import]\nlease_seconds = 100\nbatch_size = 7\nrows_per_transaction = 50\n"
        "[jobs.timer]\nbatch_size = 3\n"
    )
    env = {
        "IMPORTER_JOBS_IMPORT_BATCH_SIZE": "8",
        "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "60",
    }
    s = load_settings(cfg, environ=env, overrides={"jobs.import.rows_per_transaction": 70})
    assert s.import_.lease_seconds == 100  # file beats default
    assert s.import_.batch_size == 8  # env beats file
    assert s.import_.rows_per_transaction == 70  # flag beats env
    assert s.timer.batch_size == 3


def test_config_path_from_environment(tmp_path: Path) -> None:
    cfg = tmp_path / "elsewhere.toml"
    cfg.write_text("[jobs.timer]\nlease_seconds = 9\n")
    assert load_settings(environ={"IMPORTER_CONFIG": str(cfg)}).timer.lease_seconds == 9


def test_database_url_order() -> None:
    assert (
        load_settings(environ={"DATABASE_URL": "postgresql://b"}).database_url == "postgresql://b"
    )
    both = {"DATABASE_URL": "postgresql://b", "IMPORTER_DATABASE_URL": "postgresql://a"}
    assert load_settings(environ=both).database_url == "postgresql://a"


@pytest.mark.parametrize("value", ["0", "-1", "abc", "nan", "inf", ""])
@pytest.mark.parametrize("key", sorted(k for k in KNOWN_KEYS if k != "reader.engine"))
def test_every_number_must_be_positive(key: str, value: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_settings(environ={env_name(key): value})
    assert key in str(info.value) and repr(value) in str(info.value)
    assert info.value.exit_code == 2


def test_whole_numbers_for_counts(tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text("[jobs.import]\nbatch_size = 2.5\n")
    with pytest.raises(ConfigError, match=r"jobs\.import\.batch_size"):
        load_settings(cfg, environ={})


def test_unknown_key_and_bad_toml_are_named(tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text("[jobs.import]\nlease_secnds = 5\n")
    with pytest.raises(ConfigError, match=r"jobs\.import\.lease_secnds.*unknown"):
        load_settings(cfg, environ={})
    cfg.write_text("[jobs.import\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(cfg, environ={})
    with pytest.raises(ConfigError, match="file not found"):
        load_settings(tmp_path / "missing.toml", environ={})


def test_engine_choice_is_checked() -> None:
    assert load_settings(environ={"IMPORTER_READER_ENGINE": "openpyxl"}).reader.engine == "openpyxl"
    with pytest.raises(ConfigError, match=r"reader\.engine"):
        load_settings(environ={"IMPORTER_READER_ENGINE": "pandas"})


def test_invalid_setting_stops_cli_with_exit_2(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IMPORTER_JOBS_TIMER_LEASE_SECONDS", "-5")
    result = cli("db", "migrate")
    assert result.exit_code == 2
    assert "jobs.timer.lease_seconds" in result.stderr and "'-5'" in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
