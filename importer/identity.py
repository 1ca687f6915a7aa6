"""Lease owner identities: ``host:pid:random``, unique per process (and per claim loop)."""

from __future__ import annotations

import os
import secrets
import socket


def new_owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def owner_host_pid(owner: str) -> tuple[str, int] | None:
    host, sep, rest = owner.rpartition(":")
    host, sep2, pid = host.rpartition(":")
    if not sep or not sep2 or not pid.isdigit():
        return None
    del rest
    return host, int(pid)


def owner_is_gone(owner: str | None) -> bool:
    """True when the owner is a process on this host that no longer exists.

    An owner on another host (or one we cannot judge) is never declared gone: its lease
    must expire instead.
    """
    if not owner:
        return True
    parsed = owner_host_pid(owner)
    if parsed is None or parsed[0] != socket.gethostname():
        return False
    try:
        os.kill(parsed[1], 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False
