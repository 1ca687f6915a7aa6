"""The quick slice of the crash and fault campaign (python -m tests.chaos --quick) under pytest.

It starts its own embedded PostgreSQL (one scenario restarts the server), real workers,
schedulers and foreground imports, and kills, freezes and disconnects them.
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
    assert len(outcomes) == 6
    assert not failed, "\n".join(f"{o.line}: {'; '.join(o.problems[:5])}" for o in failed)
