"""A worker or scheduler is a live process from its start: `stats` (and so /metrics and
`watch`) count it during its start-up delay, not only once the delay is over."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Cli
from tests.support.fleet import children, wait_for

pytestmark = pytest.mark.slow  # real daemon processes


@pytest.mark.parametrize(("command", "key", "delay"), [
    ("worker", "live_workers", "IMPORTER_JOBS_IMPORT_STARTUP_DELAY_SECONDS"),
    ("timers", "live_schedulers", "IMPORTER_JOBS_TIMER_STARTUP_DELAY_SECONDS"),
])  # fmt: skip
def test_a_daemon_is_live_during_its_startup_delay(
    cli: Cli, cli_env: dict[str, str], tmp_path: Path, command: str, key: str, delay: str
) -> None:
    assert json.loads(cli("stats", "--json").stdout)[key] == 0
    with children(cli_env, tmp_path) as start:
        daemon = start(command, extra_env={delay: "60"})  # a minute of delay: never over here

        def counted() -> bool:
            return bool(json.loads(cli("stats", "--json").stdout)[key] == 1)

        wait_for(counted, timeout=20, what=f"the {command} to count as live during its delay")
        assert "stopped" not in daemon.output()
