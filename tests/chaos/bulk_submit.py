"""`python -m tests.chaos.bulk_submit FORM [--at ISO] FILE...`: `importer submit --detach
--force [--at ISO]` for each file through the real CLI entry point, in one process (hundreds
of jobs in seconds)."""

from __future__ import annotations

import sys

from importer.cli import run


def main(argv: list[str]) -> int:
    form, files = argv[0], argv[1:]
    at: list[str] = []
    if files[:1] == ["--at"]:
        at, files = files[:2], files[2:]
    failed = 0
    for path in files:
        code = run(["submit", path, "--form", form, "--detach", "--force", "--quiet", *at])
        failed += code != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
