"""Real `importer` child processes: spawn, signal, and measure (exit, time, peak memory).

Only processes started here are ever signalled, always by their own pid (or the process
group each child leads, since every child starts its own session).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil

IMPORTER_CMD = [sys.executable, "-m", "importer"]


@dataclass
class Measured:
    argv: list[str]
    exit_code: int  # negative: killed by that signal
    stdout: str
    stderr: str
    seconds: float
    peak_rss_mb: float
    stopped_for: str | None = None  # "time" | "memory" when the watchdog killed it


def _high_water_kb(pid: int) -> int:
    """The process's peak resident memory so far (VmHWM, kB); 0 when it cannot be read."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return 0


def run_measured(
    args: list[str],
    *,
    env: dict[str, str],
    cwd: Path,
    timeout: float,
    rss_limit_mb: float,
) -> Measured:
    """Run `importer ARGS` to the end; peak RSS comes from the kernel, not from sampling RSS:
    the high-water mark of the child's own memory (VmHWM), read until it exits.

    Not wait4's ru_maxrss alone: the kernel folds into it the memory of the process that
    forked the child, as it was before the exec, so a test process that has grown (an
    in-process command that loaded polars) made every later child report that size. VmHWM
    belongs to the child's memory after its exec; only what the last poll (10 ms) before
    its exit missed is lost, and ru_maxrss stays the answer for a child too quick to poll.

    A watchdog kills the child past `timeout` seconds or `rss_limit_mb` resident, so a
    hostile file can fail the test but never take the machine down with it.
    """
    argv = [*IMPORTER_CMD, *args]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        proc = subprocess.Popen(
            argv, env=env, cwd=cwd, stdout=out, stderr=err, stdin=subprocess.DEVNULL
        )
        watched = psutil.Process(proc.pid)
        stopped_for: str | None = None
        high_water_kb = 0
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            high_water_kb = max(high_water_kb, _high_water_kb(proc.pid))
            elapsed = time.monotonic() - started
            try:
                rss_mb = watched.memory_info().rss / 2**20
            except psutil.Error:
                rss_mb = 0.0
            if stopped_for is None and (elapsed > timeout or rss_mb > rss_limit_mb):
                stopped_for = "time" if elapsed > timeout else "memory"
                proc.kill()
            time.sleep(0.01)
        seconds = time.monotonic() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Measured(
            argv=argv,
            exit_code=proc.returncode,
            stdout=out.read().decode("utf-8", "replace"),
            stderr=err.read().decode("utf-8", "replace"),
            seconds=seconds,
            peak_rss_mb=(high_water_kb or usage.ru_maxrss) / 1024,
            stopped_for=stopped_for,
        )


@dataclass
class Child:
    """A long-running `importer` process (worker, timers, foreground submit)."""

    name: str
    args: list[str]
    proc: subprocess.Popen[bytes]
    log_dir: Path
    started: float = field(default_factory=time.monotonic)
    signalled: list[str] = field(default_factory=list)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def signal(self, sig: signal.Signals) -> bool:
        """Send `sig` to this child alone; False if it had already exited."""
        if not self.alive():
            return False
        try:
            os.kill(self.proc.pid, sig)
        except ProcessLookupError:
            return False
        self.signalled.append(sig.name)
        return True

    def kill9(self) -> bool:
        sent = self.signal(signal.SIGKILL)
        if sent:
            self.proc.wait(timeout=30)
        return sent

    def wait(self, timeout: float) -> int | None:
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def output(self) -> tuple[str, str]:
        out = (self.log_dir / f"{self.name}.out").read_text("utf-8", "replace")
        err = (self.log_dir / f"{self.name}.err").read_text("utf-8", "replace")
        return out, err

    def tail(self, lines: int = 5) -> str:
        out, err = self.output()
        text = (err.strip() or out.strip()).splitlines()
        return " | ".join(text[-lines:])


class Fleet:
    """Every child a scenario starts; `close()` stops what is left (its own pids only)."""

    def __init__(self, env: dict[str, str], log_dir: Path) -> None:
        self.env = env
        self.log_dir = log_dir
        self.children: list[Child] = []
        self._counter = 0
        log_dir.mkdir(parents=True, exist_ok=True)

    def start(
        self,
        name: str,
        args: list[str],
        extra_env: dict[str, str] | None = None,
        command: list[str] | None = None,
    ) -> Child:
        """Start `importer ARGS` (or `command + ARGS`) with its output in the log folder."""
        self._counter += 1
        label = f"{self._counter:04d}-{name}"
        env = {**self.env, **(extra_env or {})}
        with (
            open(self.log_dir / f"{label}.out", "wb") as out,
            open(self.log_dir / f"{label}.err", "wb") as err,
        ):
            proc = subprocess.Popen(
                [*(command or IMPORTER_CMD), *args],
                env=env,
                cwd=self.log_dir,
                stdout=out,
                stderr=err,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        child = Child(label, args, proc, self.log_dir)
        self.children.append(child)
        return child

    def run(self, name: str, args: list[str], timeout: float) -> tuple[int | None, Child]:
        """Start and wait; None as the code when it did not finish in time (then killed)."""
        child = self.start(name, args)
        code = child.wait(timeout)
        if code is None:
            child.kill9()
        return code, child

    def alive(self) -> list[Child]:
        return [c for c in self.children if c.alive()]

    def close(self, grace: float = 10.0) -> None:
        for child in self.alive():
            child.signal(signal.SIGCONT)
            child.signal(signal.SIGTERM)
        deadline = time.monotonic() + grace
        for child in self.children:
            remaining = max(0.1, deadline - time.monotonic())
            if child.wait(remaining) is None:
                child.kill9()
