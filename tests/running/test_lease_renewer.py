"""The lease renewer stops a run before its lease runs out when the database stops answering."""

from __future__ import annotations

import time

from importer.running.lease_renewer import LeaseRenewer


def test_a_renewer_that_cannot_reach_the_database_gives_up_within_the_lease() -> None:
    # Port 1 on loopback refuses at once: every renewal fails, as during a partition.
    lease = 1.5
    began = time.monotonic()
    with LeaseRenewer("postgresql://postgres@127.0.0.1:1/none", 1, "me:1", lease) as renewer:
        assert renewer.lost.wait(lease + 1)
        noticed = time.monotonic() - began
    assert renewer.gave_up
    assert noticed < lease  # stopped before another owner could take the job over
