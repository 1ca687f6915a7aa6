"""Settings: built-in defaults < importer.toml < IMPORTER_* environment < command-line flags.

Every key has a dotted name (``jobs.import.lease_seconds``); its environment
variable is ``IMPORTER_`` + the name upper-cased with dots as underscores
(``IMPORTER_JOBS_IMPORT_LEASE_SECONDS``). Every number must be positive.

Nothing here prints: what deserves a word but does not stop start-up (an ``IMPORTER_*``
variable that is no setting, a deprecated key) is returned in ``Settings.warnings``.
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

import platformdirs

from importer.errors import ConfigError, InputError
from importer.retry_policy import DEFAULT_DELAYS_SECONDS, RetryPolicy, check_delays


# The engines are named here, below the excel package that reads with them, because a
# setting (reader.engine) names one too.
class Engine(StrEnum):
    """What `--engine`, `reader.engine` and open_sheet(engine=...) accept."""

    AUTO = "auto"  # calamine, or streaming where calamine would not fit or cannot read
    CALAMINE = "calamine"  # the whole sheet parsed in Rust (fast)
    OPENPYXL = "openpyxl"  # streaming, in constant memory (.xlsx and .xlsm only)


ENGINES: tuple[str, ...] = tuple(engine.value for engine in Engine)
CHOOSE_AN_ENGINE = f"use one of {', '.join(ENGINES)}"


class UnknownEngine(InputError):
    """An engine name that is none of ENGINES. An InputError, as open_sheet has always
    raised for it; ``problem`` is the message without its subject (for ConfigError)."""

    def __init__(self, value: object, *, named: str) -> None:
        self.value = value
        self.problem = CHOOSE_AN_ENGINE
        super().__init__(f"{named} {value!r}: {CHOOSE_AN_ENGINE}")


def check_engine(value: object, *, named: str = "engine") -> Engine:
    """The Engine ``value`` names; UnknownEngine otherwise: the one check of an engine's
    name. ``named`` is how the user gave it, the start of the message (``--engine``)."""
    if isinstance(value, str):
        for engine in Engine:
            if value == engine.value:
                return engine
    raise UnknownEngine(value, named=named)


@dataclass(frozen=True)
class TimerSettings:
    poll_interval_seconds: float = 5.0
    startup_delay_seconds: float = 5.0
    batch_size: int = 20
    lease_seconds: float = 60.0
    max_attempts: int = 5
    # From jobs.retry_delays_seconds (and max_attempts); not a key of its own.
    retry: RetryPolicy = field(default_factory=RetryPolicy)


@dataclass(frozen=True)
class ImportSettings:
    poll_interval_seconds: float = 5.0
    startup_delay_seconds: float = 5.0
    batch_size: int = 5
    lease_seconds: float = 300.0
    max_attempts: int = 5
    # Not the design's first 1,000: at 200,000 rows 10,000 per transaction imported in
    # 8.1 s against 9.9 s (the commits' own cost), and a crash still redoes one of them.
    rows_per_transaction: int = 10_000
    concurrency: int = 2
    # From jobs.retry_delays_seconds and jobs.timer.max_attempts; not a key of its own.
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    # From forms.hooks_allowed (what a job's run may import); not a key of its own.
    hooks_allowed: tuple[str, ...] = ()


@dataclass(frozen=True)
class JobsSettings:
    """What import jobs and timers share: how a failed attempt is retried."""

    retry_delays_seconds: tuple[float, ...] = DEFAULT_DELAYS_SECONDS


@dataclass(frozen=True)
class ReaderSettings:
    engine: str = "auto"
    # Above this budget (estimated sheet size) calamine reads an .xlsx sheet in pieces.
    memory_budget_mb: int = 512


@dataclass(frozen=True)
class FormsSettings:
    # Modules (or packages) whose functions a form's `hook` may run on this host; a stored
    # form never makes a process import code by itself.
    hooks_allowed: tuple[str, ...] = ()


@dataclass(frozen=True)
class RetentionSettings:
    # `importer timers` purges what finished longer ago than this, daily; 0: never.
    older_than_days: float = 0.0
    # ... and the previous values of rows a keyed import overwrote (what `undo` restores):
    # kept apart, for a job's undo needs them as long as it may be taken back; 0: kept.
    history_older_than_days: float = 0.0


# The statuses a completion notice may be sent for (a job's ends, and an undo), and those
# sent when neither the settings nor the form say: named here, below the forms that use them
# too, because a setting (notify.events) names them.
NOTIFY_EVENTS: tuple[str, ...] = (
    "succeeded",
    "partially_succeeded",
    "failed",
    "cancelled",
    "reverted",
)
DEFAULT_NOTIFY_EVENTS: tuple[str, ...] = ("succeeded", "partially_succeeded", "failed", "reverted")


@dataclass(frozen=True)
class NotifySettings:
    """Completion notices (webhooks): where a job's end is announced, unless its form says
    otherwise. Resolved into the job when it is submitted (README "Completion notices")."""

    # "": no notices, unless a form's [notify] names a url.
    url: str = ""
    # The NAME of the environment variable holding the HMAC secret, read by the process that
    # delivers (the secret itself is never a setting); "": notices are not signed.
    secret_env: str = ""
    events: tuple[str, ...] = DEFAULT_NOTIFY_EVENTS
    # Connect and read timeouts of one delivery attempt.
    timeout_seconds: float = 10.0


@dataclass(frozen=True)
class WebSettings:
    """`importer serve`: the page and the JSON API."""

    # An upload larger than this is refused (413) as it arrives, before it is stored.
    max_upload_mb: int = 100
    # How long a browser stays signed in.
    session_hours: float = 12.0


@dataclass(frozen=True)
class Settings:
    database_url: str | None = None
    home: Path = field(default_factory=lambda: Path(platformdirs.user_data_dir("importer")))
    timer: TimerSettings = field(default_factory=TimerSettings)
    import_: ImportSettings = field(default_factory=ImportSettings)
    reader: ReaderSettings = field(default_factory=ReaderSettings)
    retention: RetentionSettings = field(default_factory=RetentionSettings)
    jobs: JobsSettings = field(default_factory=JobsSettings)
    forms: FormsSettings = field(default_factory=FormsSettings)
    notify: NotifySettings = field(default_factory=NotifySettings)
    web: WebSettings = field(default_factory=WebSettings)
    # One line each, for the CLI to show (see the module docstring).
    warnings: tuple[str, ...] = field(default=(), compare=False)


# dotted key -> (section attribute on Settings, field name)
_SECTIONS = {
    "jobs.timer": "timer",
    "jobs.import": "import_",
    "reader": "reader",
    "retention": "retention",
    "jobs": "jobs",
    "forms": "forms",
    "notify": "notify",
    "web": "web",
}
# Numbers that may also be 0, which turns their feature off.
_ZERO_MEANS_OFF = frozenset({"retention.older_than_days", "retention.history_older_than_days"})
# Keys that are no setting of a section.
_TOP_KEYS = ("database.url", "home")
# Old keys still read, with a warning: the retry delay was one fixed number per kind
# (key -> the section whose retries it sets). RETRY_DELAYS_KEY replaces both.
DEPRECATED_KEYS = {
    "jobs.import.retry_delay_seconds": "import_",
    "jobs.timer.retry_delay_seconds": "timer",
}
RETRY_DELAYS_KEY = "jobs.retry_delays_seconds"
# IMPORTER_* variables that are not settings: never warned about.
_OTHER_VARIABLES = ("IMPORTER_HOME", "IMPORTER_CONFIG", "IMPORTER_DATABASE_URL")
_OTHER_PREFIXES = ("IMPORTER_TEST_",)


# Section fields set from another key (see load_settings), not keys of their own.
_DERIVED = {"import_": ("hooks_allowed",)}


def _known_keys() -> dict[str, tuple[str, str, type]]:
    keys: dict[str, tuple[str, str, type]] = {}
    defaults = Settings()
    for prefix, attr in _SECTIONS.items():
        section = getattr(defaults, attr)
        for f in fields(section):
            kind = type(getattr(section, f.name))
            if f.name in _DERIVED.get(attr, ()):
                continue
            if kind in (int, float, str, tuple):  # the retry policy is derived, not a key
                keys[f"{prefix}.{f.name}"] = (attr, f.name, kind)
    return keys


KNOWN_KEYS = _known_keys()


ENV_PREFIX = "IMPORTER_"


def env_name(key: str) -> str:
    return ENV_PREFIX + key.upper().replace(".", "_")


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for name, value in table.items():
        key = f"{prefix}.{name}" if prefix else name
        if isinstance(value, Mapping):
            flat.update(_flatten(value, key))
        else:
            flat[key] = value
    return flat


def _nearest(name: str, candidates: Iterable[str]) -> str | None:
    found = difflib.get_close_matches(name, sorted(candidates), n=1, cutoff=0.6)
    return found[0] if found else None


def _coerce_delays(key: str, value: object) -> tuple[float, ...]:
    """A list in TOML; in the environment "2,10,30", "2 10 30" or "[2, 10, 30]"."""
    if isinstance(value, str):
        parts: list[object] = [p for p in re.split(r"[,\s]+", value.strip().strip("[]")) if p]
    elif isinstance(value, list | tuple):
        parts = list(value)
    else:
        parts = [value]
    try:
        return check_delays([float(str(p)) for p in parts])  # str: true/false are no delay
    except ValueError:
        raise ConfigError(
            key, value, "must be a list of positive numbers of seconds, e.g. [2, 10, 30]"
        ) from None


def _coerce_modules(key: str, value: object) -> tuple[str, ...]:
    """A list in TOML; in the environment "a.rules,b" or "a.rules b"."""
    parts = re.split(r"[,\s]+", value.strip().strip("[]")) if isinstance(value, str) else value
    if not isinstance(parts, list | tuple) or not all(isinstance(p, str) for p in parts):
        raise ConfigError(key, value, 'must be a list of module names, e.g. ["mypackage.rules"]')
    names = tuple(p.strip().strip("'\"") for p in parts if p.strip())
    if not all(re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", n) for n in names):
        raise ConfigError(key, value, 'must be a list of module names, e.g. ["mypackage.rules"]')
    return names


_LISTS_OF_MODULES = frozenset({"forms.hooks_allowed"})


def _coerce_notify(key: str, value: object) -> object:
    """notify.url (http:// or https://), notify.secret_env (a variable's name) and
    notify.events (a list of statuses; in the environment "succeeded,failed")."""
    if key == "notify.events":
        how = f"must be a list of statuses, some of {', '.join(NOTIFY_EVENTS)}"
        parts = re.split(r"[,\s]+", value.strip().strip("[]")) if isinstance(value, str) else value
        if not isinstance(parts, list | tuple) or not all(isinstance(p, str) for p in parts):
            raise ConfigError(key, value, how)
        events = tuple(dict.fromkeys(p.strip().strip("'\"") for p in parts if p.strip()))
        if not events or any(event not in NOTIFY_EVENTS for event in events):
            raise ConfigError(key, value, how)
        return events
    if not isinstance(value, str):
        raise ConfigError(key, value, "must be a text")
    if key == "notify.url" and not re.match(r"^https?://[^\s/]+\S*$", value.strip()):
        raise ConfigError(key, value, "must be an http:// or https:// address")
    # In capitals, as environment variables are written: a value ("abc", "0") is no name.
    if key == "notify.secret_env" and not re.fullmatch(r"[A-Z_][A-Z0-9_]*", value.strip()):
        raise ConfigError(
            key, value, "must name an environment variable in capitals, e.g. MY_NOTIFY_SECRET"
        )
    return value.strip()


def _coerce(key: str, value: object, kind: type) -> object:
    if key in _LISTS_OF_MODULES:
        return _coerce_modules(key, value)
    if key in _NOTIFY_TEXTS:
        return _coerce_notify(key, value)
    if kind is tuple:
        return _coerce_delays(key, value)
    if kind is str:
        if key == "reader.engine":
            try:
                return check_engine(value).value
            except UnknownEngine as unknown:
                raise ConfigError(key, value, unknown.problem) from None
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


_NOTIFY_TEXTS = frozenset({"notify.url", "notify.secret_env", "notify.events"})


def _or_zero(key: str) -> str:
    return " (or 0: off)" if key in _ZERO_MEANS_OFF else ""


def _unknown_setting(key: str, value: object) -> ConfigError:
    near = _nearest(key, [*KNOWN_KEYS, *_TOP_KEYS])
    return ConfigError(key, value, "unknown setting" + (f"; did you mean {near}?" if near else ""))


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
        if key not in KNOWN_KEYS and key not in _TOP_KEYS and key not in DEPRECATED_KEYS:
            raise _unknown_setting(key, flat[key])
    return flat


def unknown_variables(env: Mapping[str, str], secrets: Iterable[str] = ()) -> list[str]:
    """A warning for each IMPORTER_* variable that is no setting (a typo is otherwise
    ignored without a word), naming the nearest one. Values are never repeated: a
    misspelt database URL may hold a password. ``secrets``: variables a setting names
    (notify.secret_env), never warned about."""
    settings = {env_name(key): key for key in (*KNOWN_KEYS, *DEPRECATED_KEYS)}
    warnings = []
    for name in sorted(env):
        if (
            not name.startswith(ENV_PREFIX)
            or name in settings
            or name in secrets
            or name in _OTHER_VARIABLES
            or name.startswith(_OTHER_PREFIXES)
        ):
            continue
        # Compared without the prefix every candidate shares (it would make all look alike).
        cut = len(ENV_PREFIX)
        suffix = _nearest(name[cut:], [n[cut:] for n in (*settings, *_OTHER_VARIABLES)])
        near = None if suffix is None else ENV_PREFIX + suffix
        hint = ""
        if near is not None:
            key = f" ({settings[near]})" if near in settings else ""
            hint = f"; did you mean {near}{key}?"
        warnings.append(f"{name} is not a setting and is ignored{hint}")
    return warnings


def _retry_policies(
    settings: Settings,
    legacy: Mapping[str, tuple[str, object]],
    *,
    new_key_set: bool,
    warnings: list[str],
) -> Settings:
    """One schedule (jobs.retry_delays_seconds) for imports and timers; a deprecated
    per-kind retry_delay_seconds still sets a fixed delay for its kind, unless the new key
    is set too."""
    delays: dict[str, tuple[float, ...]] = {}
    for key, (where, value) in legacy.items():
        seconds = _coerce(key, value, float)
        assert isinstance(seconds, float)
        if new_key_set:
            warnings.append(f"{where} is deprecated and ignored: {RETRY_DELAYS_KEY} is set")
            continue
        delays[DEPRECATED_KEYS[key]] = (seconds,)
        warnings.append(
            f"{where} is deprecated: it still gives every retry the same {seconds:g} s;"
            f" use {RETRY_DELAYS_KEY} (one delay per attempt, e.g. [2, 10, 30])"
        )
    timer_max = settings.timer.max_attempts
    for attr in ("import_", "timer"):
        schedule = delays.get(attr, settings.jobs.retry_delays_seconds)
        policy = RetryPolicy(schedule, timer_max_attempts=timer_max)
        settings = replace(settings, **{attr: replace(getattr(settings, attr), retry=policy)})
    return settings


def load_settings(
    config_path: Path | None = None,
    environ: Mapping[str, str] | None = None,
    overrides: Mapping[str, object] | None = None,
) -> Settings:
    """Build the settings from every source; raise ConfigError naming the key at fault.
    Warnings (unknown IMPORTER_* variables, deprecated keys) come back in .warnings."""
    env = os.environ if environ is None else environ
    if config_path is None and env.get("IMPORTER_CONFIG"):
        config_path = Path(env["IMPORTER_CONFIG"])
    elif config_path is None and Path("importer.toml").is_file():
        config_path = Path("importer.toml")

    values: dict[str, object] = {}
    legacy: dict[str, tuple[str, object]] = {}  # deprecated key -> (where it was set, value)
    if config_path is not None:
        for key, value in _read_file(config_path).items():
            if key in DEPRECATED_KEYS:
                legacy[key] = (f"{key} in {config_path}", value)
            else:
                values[key] = value
    for key in KNOWN_KEYS:
        if env_name(key) in env:
            values[key] = env[env_name(key)]
    for key in DEPRECATED_KEYS:
        if env_name(key) in env:
            legacy[key] = (env_name(key), env[env_name(key)])
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
        if key in _TOP_KEYS:
            continue
        if key not in KNOWN_KEYS:
            raise _unknown_setting(key, value)
        attr, name, kind = KNOWN_KEYS[key]
        sections.setdefault(attr, {})[name] = _coerce(key, value, kind)
    for attr, changes in sections.items():
        settings = replace(settings, **{attr: replace(getattr(settings, attr), **changes)})
    warnings = unknown_variables(env, secrets=(settings.notify.secret_env,))
    settings = _retry_policies(
        settings, legacy, new_key_set=RETRY_DELAYS_KEY in values, warnings=warnings
    )
    hooks = settings.forms.hooks_allowed
    settings = replace(settings, import_=replace(settings.import_, hooks_allowed=hooks))
    return replace(settings, warnings=tuple(warnings))
