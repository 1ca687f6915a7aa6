"""Lease owners: a process proven gone on this host is taken over at once; an owner from
another machine, boot or container (even with the same hostname) never is, by pid."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from importer.config import ImportSettings
from importer.database import Connection
from importer.identity import new_owner, owner_is_gone, parse_owner, process_start, this_place
from importer.intake.submission import Asked, submit_workbook
from importer.repositories import jobs
from tests.support.jobs import add_form, orders_book

PRINT_OWNER = (
    "import sys; from importer.identity import new_owner; print(new_owner(), flush=True);"
    " sys.stdin.read()"
)


@contextmanager
def owner_process(*prefix: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """A child that prints its owner string and lives until its stdin closes."""
    child = subprocess.Popen(
        [*prefix, sys.executable, "-c", PRINT_OWNER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        yield child, child.stdout.readline().strip()
    finally:
        if child.stdin is not None:
            child.stdin.close()
        child.wait(30)
        if child.stdout is not None:
            child.stdout.close()


def _elsewhere(owner: str, *, boot: str | None = None, namespace: str | None = None) -> str:
    """The same owner string as written by another boot (machine) or PID namespace."""
    head, _, tail = owner.rpartition(":")
    place, _, start = tail.partition(".")
    this_boot, _, this_ns = place.partition("-")
    return f"{head}:{boot or this_boot}-{namespace or this_ns}.{start}"


def test_an_owner_reads_host_and_pid_first_then_where_and_when_it_started() -> None:
    owner = new_owner()
    assert owner.startswith(f"{socket.gethostname()}:{os.getpid()}:")
    parsed = parse_owner(owner)
    assert parsed is not None and parsed.pid == os.getpid()
    assert parsed.place is not None and parsed.place == this_place()
    assert parsed.start == process_start(os.getpid()) is not None
    assert new_owner() != owner  # unique per call (per claim loop)
    assert not owner_is_gone(owner)


def test_a_process_of_this_host_is_gone_only_when_proven() -> None:
    with owner_process() as (child, owner):
        assert not owner_is_gone(owner)  # alive
    assert child.returncode is not None and owner_is_gone(owner)  # exited
    # The same pid running a later process (pid reuse): a different start time.
    parsed = parse_owner(new_owner())
    assert parsed is not None and parsed.start is not None
    reused = new_owner().rpartition(".")[0] + f".{parsed.start - 1}"
    assert owner_is_gone(reused)
    assert owner_is_gone(None) and owner_is_gone("")


def test_an_owner_from_another_machine_boot_or_container_is_never_gone_by_pid() -> None:
    with owner_process() as (_, owner):
        pass
    assert owner_is_gone(owner)  # here: gone
    # The very same string from another boot (another machine), or another PID namespace
    # of this kernel (another container with the same hostname): not ours to judge.
    assert not owner_is_gone(_elsewhere(owner, boot="0123456789abcdef"))
    assert not owner_is_gone(_elsewhere(owner, namespace="4026530000"))
    # Owners that say nothing of their place (older versions, systems without /proc).
    pid = parse_owner(owner).pid  # type: ignore[union-attr]
    assert not owner_is_gone(f"{socket.gethostname()}:{pid}:abcd1234")
    assert not owner_is_gone("not an owner")


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None, reason="needs root and unshare"
)
def test_a_live_process_in_another_pid_namespace_with_the_same_hostname_is_not_gone() -> None:
    # A container on this machine: same kernel (boot id) and hostname, its own pids. Its
    # process gets a pid that does not exist out here; `kill(pid, 0)` alone would say gone.
    container = [
        *("unshare", "--pid", "--fork", "--mount-proc", "sh", "-c"),
        'echo 29990 > /proc/sys/kernel/ns_last_pid && "$@"',  # "$@" forked: pid 29991
        "container",
    ]
    try:
        with owner_process(*container) as (_, owner):
            parsed = parse_owner(owner)
            assert parsed is not None and owner.startswith(f"{socket.gethostname()}:")
            if process_start(parsed.pid) is not None:
                pytest.skip(f"pid {parsed.pid} happens to exist out here too")
            assert parsed.place is not None and parsed.place != this_place()
            assert not owner_is_gone(owner)
    except AssertionError:
        raise
    except Exception as exc:  # no permission for namespaces here (an unprivileged container)
        pytest.skip(f"cannot create a PID namespace: {exc}")


def _running_job(conn: Connection, tmp_path: Path, owner: str, rows: int) -> jobs.Job:
    book = orders_book(tmp_path / f"{rows}.xlsx", rows)
    return submit_workbook(
        conn, book.path, Asked(form_name="orders", claim_owner=owner), settings=ImportSettings()
    ).job


def test_resume_takes_over_a_dead_local_owner_and_leaves_a_foreign_one_to_its_lease(
    conn: Connection, tmp_path: Path
) -> None:
    with owner_process() as (_, dead):
        pass
    foreign = _elsewhere(dead, boot="0123456789abcdef")  # same host name and pid, other machine
    add_form(conn)
    mine = _running_job(conn, tmp_path, dead, 3)
    theirs = _running_job(conn, tmp_path, foreign, 4)
    assert mine.lease_expires_at is not None and theirs.lease_expires_at is not None

    assert [job.id for job in jobs.resumable_jobs(conn)] == [mine.id]
    assert not jobs.expire_dead_owner(conn, theirs)
    assert jobs.expire_dead_owner(conn, mine)
    [taken] = jobs.claim_jobs(conn, owner=new_owner(), limit=5, lease_seconds=60)
    assert taken.id == mine.id
    assert jobs.get_job(conn, theirs.id).lease_owner == foreign  # live lease: left alone
