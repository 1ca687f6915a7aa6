"""Lease owner identities, and proof that an owner's process is gone.

An owner reads ``host:pid:random:place.start``, for example
``myhost:4242:1a2b3c4d:c6cc1275570b4cd6-4026531836.987654``:

- ``host:pid`` first, for people;
- ``random``: unique per process and claim loop;
- ``place``: the kernel boot (``/proc/sys/kernel/random/boot_id``, new at every boot of every
  machine) and the PID namespace (``/proc/self/ns/pid``): containers share their host's boot
  id, so the boot alone would let two containers judge each other's pids;
- ``start``: the process's start time (clock ticks since boot, ``/proc/PID/stat``), which
  tells a live process from a later one that got the same pid.

An owner is gone only when that is proven: same place as this process, and no process with
that pid and start time. An owner from another machine, boot or container — or one whose
place cannot be read (an older owner string, a system without /proc) — is never declared gone
by pid: its lease must expire instead.
"""

from __future__ import annotations

import getpass
import os
import re
import secrets
import socket
from dataclasses import dataclass
from pathlib import Path

_PROC = Path("/proc")
_OWNER = re.compile(
    r"^(?P<host>.*):(?P<pid>\d+):(?P<token>[0-9a-f]+)"
    r"(?::(?P<boot>[0-9a-f]+)-(?P<ns>\d+)\.(?P<start>\d+))?$"
)
_NAMESPACE = re.compile(r"^pid:\[(\d+)\]$")


@dataclass(frozen=True)
class Owner:
    host: str
    pid: int
    place: str | None  # "boot-pidns": where the pid means something; None when unknown
    start: int | None  # the process's start time, in clock ticks since boot


def this_place(proc: Path = _PROC) -> str | None:
    """This kernel boot and PID namespace (``boot-ns``); None when they cannot be read."""
    try:
        boot = (proc / "sys/kernel/random/boot_id").read_text().strip().replace("-", "")
        namespace = _NAMESPACE.match(os.readlink(proc / "self/ns/pid"))
    except OSError:
        return None
    if not re.fullmatch(r"[0-9a-f]{16,}", boot) or namespace is None:
        return None
    return f"{boot[:16]}-{namespace.group(1)}"


def process_start(pid: int, proc: Path = _PROC) -> int | None:
    """When process ``pid`` started (clock ticks since boot); None: there is no such process
    (or it cannot be read)."""
    try:
        stat = (proc / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: fields start after the last ')'.
    fields = stat.rpartition(")")[2].split()
    try:
        return int(fields[19])  # field 22 of proc_pid_stat(5): starttime
    except (IndexError, ValueError):
        return None


def os_user() -> str:
    """The operating system's user of this process (kept with the jobs a command line
    submits); "unknown" where it cannot be told."""
    try:
        return getpass.getuser() or "unknown"
    except (KeyError, OSError):  # no such uid in the password database, no USER/LOGNAME
        return "unknown"


def new_owner() -> str:
    pid = os.getpid()
    owner = f"{socket.gethostname()}:{pid}:{secrets.token_hex(4)}"
    place, start = this_place(), process_start(pid)
    return owner if place is None or start is None else f"{owner}:{place}.{start}"


def parse_owner(owner: str) -> Owner | None:
    found = _OWNER.match(owner)
    if found is None:
        return None
    start = found.group("start")
    return Owner(
        host=found.group("host"),
        pid=int(found.group("pid")),
        place=f"{found.group('boot')}-{found.group('ns')}" if found.group("boot") else None,
        start=int(start) if start is not None else None,
    )


def owner_is_gone(owner: str | None) -> bool:
    """True only when the owner is proven gone: a process of this boot and PID namespace
    whose pid no longer runs the process that started at that time. None (no owner) is
    gone."""
    if not owner:
        return True
    parsed = parse_owner(owner)
    if parsed is None or parsed.place is None or parsed.place != this_place():
        return False
    start = process_start(parsed.pid)
    if start is not None:
        return start != parsed.start  # another start time: the pid was reused
    try:  # not readable: gone, or hidden from us (another user's, /proc mounted hidepid)
        os.kill(parsed.pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False
