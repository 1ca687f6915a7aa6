"""A thread's Python name given to the operating system too (``top -H``, ``ps -L``,
``/proc/<pid>/task/*/comm``).

Python before 3.14 leaves every thread the process's name, alike with the threads native
libraries start themselves (polars' and fastexcel's pools keep theirs for the life of the
process). Named, a job's threads (``job-7``, ``lease-7``, ``job-7-writer``) can be told
from the rest, and seen to end when the job does.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import sys
import threading
from collections.abc import Callable
from functools import cache

_PR_SET_NAME = 15  # linux/prctl.h
_NAME_BYTES = 15  # the kernel keeps 16 bytes, the last a NUL


@cache
def _prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    with contextlib.suppress(OSError, AttributeError):
        prctl: Callable[..., int] = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True).prctl
        return prctl
    return None


def name_os_thread() -> None:
    """Give the calling thread's name to the system (best effort: a no-op elsewhere)."""
    prctl = _prctl()
    if prctl is not None:
        name = threading.current_thread().name.encode("utf-8", "replace")[:_NAME_BYTES]
        prctl(_PR_SET_NAME, ctypes.c_char_p(name), 0, 0, 0)


def os_named(run: Callable[[], None]) -> Callable[[], None]:
    """``run`` as a thread's target that names its thread first."""

    def named() -> None:
        name_os_thread()
        run()

    return named
