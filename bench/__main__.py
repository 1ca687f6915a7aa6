"""`make bench`: every benchmark section in turn, each printing its figures and targets.

A section is a module of this package with ``run(report=None) -> bool``: it prints its lines
through ``report`` (a callable taking one line) and returns True when its targets are met.
Add a section by appending its module name to SECTIONS; name sections on the command line
to run only those (``python -m bench reading``).
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import time

SECTIONS = [
    "bench.reading",
    "bench.imports",
    "bench.paths",
    "bench.rules",
    "bench.fleet",
    "bench.queue",
    "bench.export",
    "bench.corrections",
    "bench.web",
]


def report(line: str) -> None:
    print(line, flush=True)


def main(argv: list[str] | None = None) -> int:
    wanted = sys.argv[1:] if argv is None else argv
    chosen = [s for s in SECTIONS if not wanted or s.rsplit(".", 1)[-1] in wanted]
    unknown = set(wanted) - {s.rsplit(".", 1)[-1] for s in SECTIONS}
    if unknown:
        print(f"unknown section(s): {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    if len(chosen) > 1:
        # Each section in a process of its own, so that one section's memory never counts
        # in the next one's figures (a child's ru_maxrss starts at its parent's size).
        codes = [
            subprocess.run([sys.executable, "-m", "bench", name.rsplit(".", 1)[-1]]).returncode
            for name in chosen
        ]
        return 0 if not any(codes) else 1
    ok = True
    for name in chosen:
        started = time.monotonic()
        module = importlib.import_module(name)
        met = bool(module.run(report))
        report(
            f"  ({name.rsplit('.', 1)[-1]}: {'targets met' if met else 'TARGET MISSED'}, "
            f"{time.monotonic() - started:.0f} s)"
        )
        report("")
        ok = met and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
