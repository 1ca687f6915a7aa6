"""What the commands' arguments mean: ids, delays, times, --map/--ignore. Anything else is one
clear line (UsageError, exit 2)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import typer

from importer.cli.durations import parse_duration
from importer.errors import UsageError

if TYPE_CHECKING:
    from importer.api import Importer

# The options `submit` and `check` share: how the file is read and matched to a form.
FORM_OPTION = typer.Option(
    None, "--form", "-f", help="The form the rows must fit (default: the one the header fits)."
)
SHEET_OPTION = typer.Option(None, "--sheet", help="Sheet name (default: the first).")
MAP_OPTION = typer.Option(
    [], "--map", help='Pair a sheet header with a field: "Qty=quantity" (repeatable).'
)
IGNORE_OPTION = typer.Option(
    [], "--ignore", help="Skip a column that looks like a field but is not (repeatable)."
)
ENGINE_OPTION = typer.Option(
    None, "--engine", help="auto | calamine (fast) | openpyxl (streaming, constant memory)."
)


def header_row_option(default: str) -> Any:  # typer.Option is typed as its default
    """--header-row N, its help saying what the command does without it."""
    return typer.Option(
        None, "--header-row", min=1, metavar="N", help=f"The header's row (default: {default})."
    )


# Each command's own words: only submit makes a job, which keeps the row for every run.
SUBMIT_HEADER_ROW_OPTION = header_row_option(
    "the row among the first that fits the form; kept with the job, so every run reads it there"
)
CHECK_HEADER_ROW_OPTION = header_row_option("the row among the first that fits, as submit finds it")
INFER_HEADER_ROW_OPTION = header_row_option(
    "the row of column names over the values below it, among the first rows"
)


def column_map(pairs: list[str], ignore: list[str]) -> dict[str, str]:
    """--map "Header=field" and --ignore HEADER as one mapping ("" = skip the column)."""
    from importer.forms.header_match import parse_mapping

    mapping = parse_mapping(pairs)
    mapping.update({text.strip(): "" for text in ignore if text.strip()})
    return mapping


def parse_job_id(text: str) -> int:
    """A job id as typed; anything but a positive whole number is one clear line (exit 2)."""
    return _parse_id(text, "job")


def parse_job_ref(text: str) -> str:
    """A job id (12) or a group's (g3: several sheets submitted together), as typed."""
    value = text.strip()
    number = value[1:]
    if value[:1] in ("g", "G") and number.isascii() and number.isdigit() and int(number) > 0:
        return f"g{int(number)}"
    return str(_parse_id(text, "job"))


def job_ids_of(importer: Importer, refs: Iterable[str]) -> list[int]:
    """The jobs the refs name: a job, or a group's jobs in the order they run."""
    ids: list[int] = []
    for ref in refs:
        ids += importer.group_jobs(int(ref[1:])) if ref.startswith("g") else [int(ref)]
    return list(dict.fromkeys(ids))


def _parse_id(text: str, what: str) -> int:
    value = text.strip()
    if not value.isascii() or not value.isdigit():
        raise UsageError(f"{what} ids are whole numbers such as 12, not {text!r}")
    if int(value) == 0:
        raise UsageError(f"{what} ids are whole numbers such as 12 and start at 1, not {text!r}")
    return int(value)


def parse_timer_id(text: str) -> int:
    return _parse_id(text, "timer")


def parse_delay(text: str) -> timedelta:
    """'10m', '90s', '1h30m', '2d' -> a positive duration."""
    delay = parse_duration(text, "--in")
    if delay.total_seconds() <= 0:
        raise UsageError(f"--in {text!r}: the delay must be positive")
    return delay


def parse_at(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(f"--at {text!r}: use ISO 8601, e.g. 2030-01-31T22:00 or +01:00") from None
    return moment if moment.tzinfo else moment.astimezone()  # naive: this machine's time zone
