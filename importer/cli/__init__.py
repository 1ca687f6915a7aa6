"""Command-line entry point with the one error boundary.

Expected errors (ImporterError) print one red line on stderr and exit with their code;
anything else prints one line too, with the traceback only under --debug.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Sequence

from rich.text import Text

from importer.cli.app import app
from importer.cli.output import stderr_console
from importer.errors import ImporterError

__all__ = ["app", "main", "run"]


def _report(message: str) -> None:
    # The message holds user text (paths, headers, form names): never read it as markup.
    stderr_console().print(Text.assemble(("error:", "red"), " ", message), highlight=False)


def run(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the process exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    try:
        # Standalone mode: typer itself reports usage errors (exit 2), --help, Exit.
        app(args=args, prog_name="importer")
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except ImporterError as exc:
        if debug:
            traceback.print_exc()
        _report(str(exc).replace("\n", " "))
        return exc.exit_code
    except KeyboardInterrupt:
        _report("interrupted")
        return 130
    except Exception as exc:
        if debug:
            traceback.print_exc()
        _report(f"unexpected {type(exc).__name__}: {exc} (run with --debug for details)")
        return 1
    return 0


def main() -> None:
    sys.exit(run())
