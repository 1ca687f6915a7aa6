"""What a form says about its imports as a whole, beyond its rows: the reject threshold
(``max_rejected``) and where the end of a job is announced (``[notify]``). Parsed here; the
threshold is applied by running/job_run.py, the notices by the notify timers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from importer.config import DEFAULT_NOTIFY_EVENTS, NOTIFY_EVENTS
from importer.errors import FormError, UsageError

Fail = Callable[[str], FormError]
OPERATION_KEYS = frozenset({"max_rejected", "notify"})
# The statuses a notice may be sent for (the ends of a job, and an undo): config.py names
# them, for a setting (notify.events) does too.
DEFAULT_EVENTS = DEFAULT_NOTIFY_EVENTS
_LIMIT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$")


@dataclass(frozen=True)
class RejectLimit:
    """At most ``rows`` rejected rows, or at most ``percent`` of the sheet's rows."""

    rows: int | None = None
    percent: float | None = None

    def __str__(self) -> str:
        if self.percent is not None:
            return f"{self.percent:g}%"
        return str(self.rows)

    def crossed(
        self, rejected: int, total_rows: int | None, read: int, *, final: bool = False
    ) -> str | None:
        """Why an import must stop (its rejected rows are over the limit), else None.

        A percentage is of the sheet's rows, counted before the first row is imported, so
        an early batch stops the job only once its rejected rows alone exceed that share of
        the whole sheet: no later row could bring the share back under it. ``final``: the
        rows read are the count (the end of a sheet whose count was not known or not exact).
        """
        total = read if final or total_rows is None else total_rows
        if not final and self.percent is not None and total_rows is None:
            return None
        allowed = self.allowed(total)
        if allowed is None or rejected <= allowed:
            return None
        share = f" ({rejected / total:.1%})" if total else ""
        return (
            f"{rejected:,} of {total:,} rows rejected{share}, over the limit of {self.describe()}"
        )

    def describe(self) -> str:
        """As a message says it: "2%", "1,000"."""
        return str(self) if self.percent is not None else f"{self.rows:,}"

    def to_json(self) -> str | int:
        return f"{self.percent:g}%" if self.percent is not None else int(self.rows or 0)

    def allowed(self, total_rows: int | None) -> int | None:
        """The most rejected rows allowed; None while a percentage has no row count."""
        if self.rows is not None:
            return self.rows
        if total_rows is None:
            return None
        assert self.percent is not None
        # 2% of 1,000 rows allows 20: the 21st crosses it.
        return math.floor(total_rows * self.percent / 100 + 1e-9)


def parse_reject_limit(value: object, named: str = "max_rejected") -> RejectLimit:
    """``50`` / ``"50"`` (rows) or ``"2%"`` / ``"0.5%"``; UsageError says how to write it."""
    how = "write a number of rows (50) or a percentage of the sheet's rows (2%)"
    if isinstance(value, bool):
        raise UsageError(f"{named} {value!r}: {how}")
    if isinstance(value, int):
        if value < 0:
            raise UsageError(f"{named} {value}: {how}")
        return RejectLimit(rows=value)
    if not isinstance(value, str):
        raise UsageError(f"{named} {value!r}: {how}")
    found = _LIMIT.match(value)
    if found is None:
        raise UsageError(f"{named} {value!r}: {how}")
    number, percent = found.groups()
    if percent:
        share = float(number)
        if not 0 <= share < 100:
            raise UsageError(f"{named} {value!r}: a percentage from 0% up to under 100%")
        return RejectLimit(percent=share)
    if "." in number:
        raise UsageError(f"{named} {value!r}: a number of rows is a whole number")
    return RejectLimit(rows=int(number))


@dataclass(frozen=True)
class NotifyTarget:
    """A form's ``[notify]``: each key it sets overrides the settings' (None: not set).
    Built from the settings too (ImporterBase.notify_defaults), which alone give the last
    two: what the notice's timer and each of its deliveries are allowed."""

    url: str | None = None
    secret_env: str | None = None
    events: tuple[str, ...] | None = None
    enabled: bool = True  # notify = false: this form's jobs send no notices
    max_attempts: int | None = None  # the notify timer's attempts (jobs.timer.max_attempts)
    timeout_seconds: float | None = None  # connect / read timeout of one attempt

    def to_json(self) -> dict[str, Any] | bool:
        if not self.enabled:
            return False
        out: dict[str, Any] = {}
        if self.url is not None:
            out["url"] = self.url
        if self.secret_env is not None:
            out["secret_env"] = self.secret_env
        if self.events is not None:
            out["events"] = list(self.events)
        return out


def parse_events(value: object, where: str) -> tuple[str, ...]:
    """A list of the statuses a notice is sent for; ValueError names the bad one."""
    if not isinstance(value, list) or not all(isinstance(e, str) for e in value):
        raise ValueError(
            f"{where}: 'events' must be a list of statuses ({', '.join(NOTIFY_EVENTS)})"
        )
    for event in value:
        if event not in NOTIFY_EVENTS:
            raise ValueError(f"{where}: event {event!r} is not one of {', '.join(NOTIFY_EVENTS)}")
    return tuple(dict.fromkeys(value))


def check_url(value: object, where: str) -> str:
    if not isinstance(value, str) or not re.match(r"^https?://[^\s/]+", value):
        raise ValueError(f"{where}: 'url' must be an http:// or https:// address")
    return value


@dataclass(frozen=True)
class FormOperations:
    max_rejected: RejectLimit | None = None
    notify: NotifyTarget | None = None  # None: the settings' [notify] as it is

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.max_rejected is not None:
            out["max_rejected"] = self.max_rejected.to_json()
        if self.notify is not None:
            out["notify"] = self.notify.to_json()
        return out


def parse_operations(data: Mapping[str, Any], fail: Fail) -> FormOperations:
    limit = None
    if "max_rejected" in data:
        try:
            limit = parse_reject_limit(data["max_rejected"])
        except UsageError as exc:
            raise fail(str(exc)) from None
    notify = None
    raw = data.get("notify")
    if raw is False:
        notify = NotifyTarget(enabled=False)
    elif raw is not None:
        if not isinstance(raw, Mapping):
            raise fail("'notify' must be a table ([notify] url = ..., events = [...]) or false")
        unknown = sorted(set(raw) - {"url", "secret_env", "events"})
        if unknown:
            raise fail(f"notify: unknown key {unknown[0]!r} (allowed: events, secret_env, url)")
        try:
            url = check_url(raw["url"], "notify") if "url" in raw else None
            events = parse_events(raw["events"], "notify") if "events" in raw else None
        except ValueError as exc:
            raise fail(str(exc)) from None
        secret = raw.get("secret_env")
        if secret is not None and (
            not isinstance(secret, str) or not re.fullmatch(r"[A-Z_][A-Z0-9_]*", secret)
        ):
            raise fail("notify: 'secret_env' must name an environment variable (in capitals)")
        notify = NotifyTarget(url=url, secret_env=secret, events=events)
    return FormOperations(max_rejected=limit, notify=notify)


@dataclass(frozen=True)
class Submitter:
    """Who submits: the name kept with the job (an account's email, or the operating
    system's user of a command line), the account (None: a command line), and the forms it
    may submit to (None: any; a form is then chosen among these alone)."""

    name: str
    account: int | None = None
    forms: frozenset[str] | None = None

    def may_use(self, form: str) -> bool:
        return self.forms is None or form in self.forms


@dataclass(frozen=True)
class JobOptions:
    """What a submit gives a new job beyond its rows: the submit's reject threshold (None:
    the form's), the settings' [notify] (the form's own keys override it) and who submits."""

    max_rejected: RejectLimit | None = None
    notify: NotifyTarget | None = None
    submitter: Submitter | None = None

    def reject_limit(self, form_operations: FormOperations) -> RejectLimit | None:
        return self.max_rejected or form_operations.max_rejected

    def notify_target(self, form_operations: FormOperations) -> dict[str, Any] | None:
        """The job's notice target ({"url", "secret_env", "events", "max_attempts",
        "timeout_seconds"}: what the trigger of migration 0014 and the delivery read; the
        secret's value is read by the delivering process); None: no notice."""
        own = form_operations.notify
        if own is not None and not own.enabled:
            return None
        base = self.notify or NotifyTarget()
        url = own.url if own is not None and own.url is not None else base.url
        if url is None:
            return None
        secret = own.secret_env if own is not None and own.secret_env is not None else None
        events = own.events if own is not None and own.events is not None else base.events
        target: dict[str, Any] = {
            "url": url,
            "secret_env": secret or base.secret_env,
            "events": list(events if events is not None else DEFAULT_EVENTS),
        }
        if base.max_attempts is not None:
            target["max_attempts"] = base.max_attempts
        if base.timeout_seconds is not None:
            target["timeout_seconds"] = base.timeout_seconds
        return target
