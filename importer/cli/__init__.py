"""Command-line entry point with the one error boundary.

Expected errors (ImporterError) print one red line on stderr and exit with their code;
anything else prints one line too, with the traceback only under --debug.
"""

from __future__ import annotations

import gc
import sys
import time
import traceback
from collections.abc import Sequence
from typing import Any

# When this process started, near enough: before the CLI's own imports (they load below, in
# run), so that a command's times include its start-up.
PROCESS_STARTED = time.monotonic()

__all__ = ["app", "main", "run"]


def __getattr__(name: str) -> Any:
    if name == "app":
        from importer.cli.app import app

        return app
    raise AttributeError(f"module 'importer.cli' has no attribute {name!r}")


def _report(message: str) -> None:
    from rich.text import Text

    from importer.cli.output import stderr_console

    # The message holds user text (paths, headers, form names): never read it as markup.
    # One line; at a terminal wrapped at words (it would break one mid-word at its edge).
    console = stderr_console()
    line = Text.assemble(("error:", "red"), " ", message)
    if console.is_terminal:
        from rich.console import Group

        line.no_wrap, line.overflow = False, "fold"
        console.print(Group(line), highlight=False)
        return
    console.print(line, highlight=False)


def run(argv: Sequence[str] | None = None, *, started: float | None = None) -> int:
    """Run the CLI; return the process exit code. ``started``: when the command started
    (default: now), where its times count from."""
    from importer.cli import exit_codes
    from importer.cli.app import app
    from importer.errors import ImporterError

    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    try:
        # Standalone mode: typer itself reports usage errors (exit 2), --help, Exit. The
        # start travels as the root context's obj (see app.root).
        app(args=args, prog_name="importer", obj=started or time.monotonic())
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except ImporterError as exc:
        if debug:
            traceback.print_exc()
        _report(str(exc).replace("\n", " "))
        return exit_codes.for_error(exc)
    except KeyboardInterrupt:
        _report("interrupted")
        return 130
    except Exception as exc:
        if debug:
            traceback.print_exc()
        _report(f"unexpected {type(exc).__name__}: {exc} (run with --debug for details)")
        return 1
    return 0


# The collector's thresholds for this process (the default is 700, 10, 10). An import makes
# a list per row and a tuple per zero-padded cell while a block or a piece of rows is alive,
# and the default collected young objects every 700 allocations and walked the older ones
# again and again. Measured in alternating pairs, user CPU fell in 8 of 9 (at 1,000,000 rows
# by 0.6-5.4 s of 31-41; at 200,000 by up to 0.8 s of 7), the peak grew by 0-17 MB.
# Nothing the tool does leans on cycles being collected soon.
GC_THRESHOLDS = (50_000, 20, 100)


def main() -> None:
    gc.set_threshold(*GC_THRESHOLDS)
    sys.exit(run(started=PROCESS_STARTED))
