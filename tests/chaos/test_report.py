"""docs/RELIABILITY.md as a full campaign run writes it: the machine, each scenario's line,
its faults against its target, and the verdict of a scenario short of its target."""

from __future__ import annotations

from tests.chaos.campaign import Outcome
from tests.chaos.report import Machine, render


def test_the_published_page_shows_each_line_its_faults_and_what_failed() -> None:
    outcomes = [
        Outcome("network-partition", "network partition: 3 partitions", [], 40.0, 3, 3,
                {"jobs": 3, "lost": 0, "twice": 0, "takeover_s": [8.1, 8.2]}),
        Outcome("disk-full", "disk full: 1 imports filled", ["injected 1 of 2 disk-full"],
                9.0, 1, 2, {"jobs": 2, "lost": 0, "twice": 0}),
    ]  # fmt: skip
    machine = Machine(2, "Linux-6", "PostgreSQL 18.1", "3 hosts in network namespaces")
    page = render(outcomes, seed=42, seconds=900.0, machine=machine)
    assert "- Seed: 42 (repeat with `python -m tests.chaos --seed 42`)" in page
    assert "- Machine: 2 cores, Linux-6, PostgreSQL 18.1" in page
    assert "- Result: 1 of 2 scenarios passed in 900 s" in page
    assert "| network-partition | 3 / 3 | 3 | 0 | 0 | 40 | passed |" in page
    assert "| disk-full | 1 / 2 | 2 | 0 | 0 | 9 | FAILED |" in page
    assert "network partition: 3 partitions; faults 3/3" in page
    assert "- figures: takeover_s 8.10, 8.20" in page
    assert "- PROBLEM: injected 1 of 2 disk-full" in page
