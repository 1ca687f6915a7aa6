"""Durations as typed on the command line: 90s, 10m, 1h30m, 2d, 0s."""

from __future__ import annotations

import re
from datetime import timedelta

from importer.errors import UsageError

_PART = re.compile(r"(\d+(?:\.\d+)?)([smhd])")
_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(text: str, option: str) -> timedelta:
    """A duration of zero or more; anything else is one clear line naming the option."""
    compact = text.strip().replace(" ", "").lower()
    parts = _PART.findall(compact)
    if not parts or "".join(number + unit for number, unit in parts) != compact:
        raise UsageError(f"{option} {text!r}: use a duration such as 90s, 10m, 1h30m or 30d")
    return timedelta(seconds=sum(float(number) * _SECONDS[unit] for number, unit in parts))
