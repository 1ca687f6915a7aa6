"""The quick slice of the crash and fault campaign (python -m tests.chaos --quick) under pytest.

It starts its own embedded PostgreSQL (scenarios restart and kill it), real workers,
schedulers and foreground imports on test hosts (network namespaces), and kills, freezes,
disconnects and partitions them, skews their clocks, fills the disk and the server's
connection slots. The slice must stay under 3 minutes.
"""

from __future__ import annotations

import io
import os
import random

import pytest

from tests.chaos import run_campaign

# The crash and fault campaign's slice takes minutes: the full suite only.
pytestmark = pytest.mark.slow


def test_chaos_quick_slice(capsys: pytest.CaptureFixture[str]) -> None:
    seed = int(os.environ.get("CHAOS_SEED") or random.randrange(1_000_000))
    report = io.StringIO()
    # Not under tmp_path: as root the server runs as its own user, and a concurrent pytest
    # session resets pytest's base folder to 0700, locking that user out of pg_ctl.
    outcomes = run_campaign(quick=True, seed=seed, out=report)
    with capsys.disabled():
        print(f"\nchaos quick slice, seed {seed} (CHAOS_SEED={seed} repeats it)")
        print(report.getvalue().rstrip())
    failed = [o for o in outcomes if not o.ok]
    assert len(outcomes) == 11  # every scenario but many_jobs (tests.chaos.NOT_QUICK)
    assert not failed, "\n".join(f"{o.full_line}: {'; '.join(o.problems[:5])}" for o in failed)
