"""Settings: built-in defaults < importer.toml < IMPORTER_* environment < command-line flags.

Every key has a dotted name (``jobs.import.lease_seconds``); its environment
variable is ``IMPORTER_`` + the name upper-cased with dots as underscores
(``IMPORTER_JOBS_IMPORT_LEASE_SECONDS``). Every number must be positive.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import platformdirs

from importer.errors import ConfigError

ENGINES = ("auto", "calamine", "openpyxl")


@dataclass(frozen=True)
class TimerSettings:
    poll_interval_seconds: float = 5.0
    startup_delay_seconds: float = 5.0
    batch_size: int = 20
    lease_seconds: float = 60.0
    max_attempts: int = 5
    retry_delay_seconds: float = 30.0


@dataclass(frozen=True)
class ImportSettings:
    poll_interval_seconds: float = 5.0
    startup_delay_seconds: float = 5.0
    batch_size: int = 5
    lease_seconds: float = 300.0
    max_attempts: int = 5
    rows_per_transaction: int = 1000
    retry_delay_seconds: float = 30.0
    concurrency: int = 2


@dataclass(frozen=True)
class ReaderSettings:
    engine: str = "auto"
    # `auto` switches to the streaming engine above this budget (estimated sheet size).
    memory_budget_mb: int = 512


@dataclass(frozen=True)
class RetentionSettings:
    # `importer timers` purges what finished longer ago than this, daily; 0: never.
    older_than_days: float = 0.0


@dataclass(frozen=True)
class Settings:
    database_url: str | None = None
    home: Path = field(default_factory=lambda: Path(platformdirs.user_data_dir("importer")))
    timer: TimerSettings = field(default_factory=TimerSettings)
    import_: ImportSettings = field(default_factory=ImportSettings)
    reader: ReaderSettings = field(default_factory=ReaderSettings)
    retention: RetentionSettings = field(default_factory=RetentionSettings)


# dotted key -> (section attribute on Settings, field name)
_SECTIONS = {
    "jobs.timer": "timer",
    "jobs.import": "import_",
    "reader": "reader",
    "retention": "retention",
}
# Numbers that may also be 0, which turns their feature off.
_ZERO_MEANS_OFF = frozenset({"retention.older_than_days"})


def _known_keys() -> dict[str, tuple[str, str, type]]:
    keys: dict[str, tuple[str, str, type]] = {}
    defaults = Settings()
    for prefix, attr in _SECTIONS.items():
        section = getattr(defaults, attr)
        for f in fields(section):
            keys[f"{prefix}.{f.name}"] = (attr, f.name, type(getattr(section, f.name)))
    return keys


KNOWN_KEYS = _known_keys()


def env_name(key: str) -> str:
    return "IMPORTER_" + key.upper().replace(".", "_")


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for name, value in table.items():
        key = f"{prefix}.{name}" if prefix else name
        if isinstance(value, Mapping):
            flat.update(_flatten(value, key))
        else:
            flat[key] = value
    return flat


def _coerce(key: str, value: object, kind: type) -> object:
    if kind is str:
        if key == "reader.engine" and value not in ENGINES:
            raise ConfigError(key, value, f"must be one of {', '.join(ENGINES)}")
        return str(value)
    if isinstance(value, bool):
        raise ConfigError(key, value, "must be a positive number" + _or_zero(key))
    try:
        number = kind(value) if not isinstance(value, str) else kind(value.strip())
    except (TypeError, ValueError):
        raise ConfigError(key, value, "must be a positive number" + _or_zero(key)) from None
    if kind is int and isinstance(value, float) and not value.is_integer():
        raise ConfigError(key, value, "must be a whole number")
    if key in _ZERO_MEANS_OFF and number == 0:
        return number
    if number != number or number <= 0 or number == float("inf"):  # NaN, <= 0, inf
        raise ConfigError(key, value, "must be a positive number" + _or_zero(key))
    return number


def _or_zero(key: str) -> str:
    return " (or 0: off)" if key in _ZERO_MEANS_OFF else ""


def _read_file(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError("config", str(path), "file not found") from None
    except OSError as exc:
        raise ConfigError("config", str(path), exc.strerror or str(exc)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("config", str(path), f"not valid TOML ({exc})") from None
    flat = _flatten(data)
    for key in flat:
        if key not in KNOWN_KEYS and key not in ("database.url", "home"):
            raise ConfigError(key, flat[key], "unknown setting")
    return flat


def load_settings(
    config_path: Path | None = None,
    environ: Mapping[str, str] | None = None,
    overrides: Mapping[str, object] | None = None,
) -> Settings:
    """Build the settings from every source; raise ConfigError naming the key at fault."""
    env = os.environ if environ is None else environ
    if config_path is None and env.get("IMPORTER_CONFIG"):
        config_path = Path(env["IMPORTER_CONFIG"])
    elif config_path is None and Path("importer.toml").is_file():
        config_path = Path("importer.toml")

    values: dict[str, object] = {}
    if config_path is not None:
        values.update(_read_file(config_path))
    for key in KNOWN_KEYS:
        if env_name(key) in env:
            values[key] = env[env_name(key)]
    for key, value in (overrides or {}).items():
        if value is not None:
            values[key] = value

    settings = Settings()
    url = env.get("IMPORTER_DATABASE_URL") or values.get("database.url") or env.get("DATABASE_URL")
    home = env.get("IMPORTER_HOME") or values.get("home")
    settings = replace(
        settings,
        database_url=str(url) if url else None,
        home=Path(str(home)).expanduser() if home else settings.home,
    )
    sections: dict[str, dict[str, object]] = {}
    for key, value in values.items():
        if key in ("database.url", "home"):
            continue
        if key not in KNOWN_KEYS:
            raise ConfigError(key, value, "unknown setting")
        attr, name, kind = KNOWN_KEYS[key]
        sections.setdefault(attr, {})[name] = _coerce(key, value, kind)
    for attr, changes in sections.items():
        settings = replace(settings, **{attr: replace(getattr(settings, attr), **changes)})
    return settings
