"""Settings: defaults < importer.toml < IMPORTER_* env < flags; every number positive."""

from __future__ import annotations

from pathlib import Path

import pytest

from importer.cli import exit_codes
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
    assert s.import_.rows_per_transaction == 10_000
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
# retention.older_than_days and history_older_than_days may be 0 (off):
# tests/repositories/test_retention.py and test_undo.py check them.
@pytest.mark.parametrize(
    "key",
    sorted(
        k
        for k in KNOWN_KEYS
        if k
        not in (
            "reader.engine",
            "retention.older_than_days",
            "retention.history_older_than_days",
            "forms.hooks_allowed",
        )
    ),
)
def test_every_number_must_be_positive(key: str, value: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_settings(environ={env_name(key): value})
    assert key in str(info.value) and repr(value) in str(info.value)
    assert exit_codes.for_error(info.value) == 2


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


def test_a_mistyped_variable_is_named_with_the_nearest_setting(tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text("")
    quiet = {
        "IMPORTER_HOME": str(tmp_path),
        "IMPORTER_CONFIG": str(cfg),
        "IMPORTER_DATABASE_URL": "postgresql://a",
        "IMPORTER_TEST_PAUSE_AT": "claimed",
        "IMPORTER_TEST_DATABASE_URL": "postgresql://b",
        "IMPORTER_JOBS_IMPORT_LEASE_SECONDS": "5",
        "IMPORTER_JOBS_RETRY_DELAYS_SECONDS": "1,2",
        "IMPORTERS": "not ours",
        "PATH": "/bin",
    }
    assert load_settings(environ=quiet).warnings == ()

    typo = load_settings(environ={**quiet, "IMPORTER_JOBS_IMPORT_LEASSE_SECONDS": "5"})
    assert typo.warnings == (
        "IMPORTER_JOBS_IMPORT_LEASSE_SECONDS is not a setting and is ignored; did you mean"
        " IMPORTER_JOBS_IMPORT_LEASE_SECONDS (jobs.import.lease_seconds)?",
    )
    assert typo.import_.lease_seconds == 5  # the correctly spelt one still applies

    # A misspelt URL is named, never its value (it may hold a password).
    [url] = load_settings(environ={"IMPORTER_DATABSE_URL": "postgresql://u:s3cret@h/db"}).warnings
    assert "did you mean IMPORTER_DATABASE_URL" in url and "s3cret" not in url
    [far] = load_settings(environ={"IMPORTER_COLOUR": "1"}).warnings
    assert far == "IMPORTER_COLOUR is not a setting and is ignored"


def test_unknown_keys_in_the_file_name_the_nearest(tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text("[jobs]\nretry_delay_seconds = [1]\n")
    with pytest.raises(ConfigError, match=r"did you mean jobs\.retry_delays_seconds\?"):
        load_settings(cfg, environ={})


@pytest.mark.parametrize("value", ["[]", "1,0", "1,x", "true", "1,,inf"])
def test_the_retry_schedule_is_a_list_of_positive_seconds(value: str) -> None:
    with pytest.raises(ConfigError, match=r"jobs\.retry_delays_seconds.*list of positive"):
        load_settings(environ={"IMPORTER_JOBS_RETRY_DELAYS_SECONDS": value})


def test_the_cli_prints_each_warning_once_on_stderr(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IMPORTER_JOBS_IMPORT_LEASSE_SECONDS", "5")
    result = cli("jobs")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines() == [
        "warning: IMPORTER_JOBS_IMPORT_LEASSE_SECONDS is not a setting and is ignored; did you"
        " mean IMPORTER_JOBS_IMPORT_LEASE_SECONDS (jobs.import.lease_seconds)?"
    ]


def test_hooks_allowed_is_a_list_of_modules_and_reaches_the_runs() -> None:
    """forms.hooks_allowed from the environment (commas or spaces) or a file's list; a
    name that is no module name is refused naming the key."""
    settings = load_settings(environ={"IMPORTER_FORMS_HOOKS_ALLOWED": "acme.rules, other"})
    assert settings.forms.hooks_allowed == ("acme.rules", "other")
    assert settings.import_.hooks_allowed == ("acme.rules", "other")  # what a job's run sees
    assert load_settings(environ={}).import_.hooks_allowed == ()
    with pytest.raises(ConfigError, match=r"forms\.hooks_allowed"):
        load_settings(environ={"IMPORTER_FORMS_HOOKS_ALLOWED": "os;rm"})
