"""What `--help` says besides the options: a one-line summary for the command list and
examples, for every command (a test checks that none is missing)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

# command -> (summary shown in the parent's command list, example lines)
HELP: dict[str, tuple[str, tuple[str, ...]]] = {
    "submit": (
        "Validate, store and import a workbook (form chosen by its header).",
        (
            "importer submit orders.xlsx",
            "importer submit orders.xlsx --form orders --sheet 'March 2026'",
            "importer submit big.xlsx --detach           # let the workers import it",
            "importer submit orders.xlsx --in 10m        # schedule it",
        ),
    ),
    "resume": (
        "Continue interrupted jobs from their last committed row.",
        (
            "importer resume          # every job that can be continued",
            "importer resume 12 13",
        ),
    ),
    "check": (
        "Validate a workbook as an import would, writing nothing.",
        (
            "importer check orders.xlsx",
            "importer check orders.xlsx --form orders -o problems.xlsx",
        ),
    ),
    "status": ("Show one job: status, rows, attempts, lease, last error.", ("importer status 12",)),
    "jobs": (
        "List import jobs (newest last).",
        ("importer jobs", "importer jobs --status failed,running --json"),
    ),
    "errors": (
        "A job's rejected rows: shown, or written to fix and resubmit.",
        (
            "importer errors 12",
            "importer errors 12 -o rejected.xlsx   # the rows still open, to fix and send back",
            "importer errors 12 --all              # every rejected row, and what became of it",
        ),
    ),
    "cancel": ("Cancel a job (a running one at its next batch boundary).", ("importer cancel 12",)),
    "retry": (
        "Put failed jobs back to pending (one line per job).",
        (
            "importer retry 12 13",
            "importer retry --all-failed",
            "importer retry --all-failed --form orders --since 2h --json",
        ),
    ),
    "undo": (
        "Take a job's rows back: new ones removed, overwritten ones restored.",
        (
            "importer undo 12 --dry-run",
            "importer undo 12",
            "importer undo 12 --cascade      # with the later jobs that changed its rows",
        ),
    ),
    "history": (
        "A keyed row's versions: what each job wrote and which job replaced it.",
        ("importer history orders 1001", "importer history ledger 2026 17 --json"),
    ),
    "correct": (
        "Correct a rejected row at the terminal: a correction of its import.",
        (
            'importer correct 41 --row 4812 --set "Qty=12"',
            'importer correct 41 --row 7 --set "Email=ann@example.com" --set "Country=FR"',
        ),
    ),
    "export": (
        "Write a form's rows, typed, to Parquet, CSV or Excel.",
        (
            "importer export orders -o orders.parquet",
            "importer export orders --job 12 -o job12.xlsx",
            "importer export orders --since 2d -o recent.csv --json",
        ),
    ),
    "purge": (
        "Remove old finished jobs' workbooks, rejected rows, errors, timers.",
        (
            "importer purge --older-than 30d --dry-run",
            "importer purge --older-than 30d --json",
            "importer purge --history-older-than 180d   # what undo could restore",
        ),
    ),
    "worker": (
        "Run queued import jobs until stopped.",
        (
            "importer worker",
            "importer worker --concurrency 4",
            "importer worker --once",
            "importer worker --log-format json --metrics-port 9108",
        ),
    ),
    "watch": ("A live dashboard of jobs, workers and timers.", ("importer watch",)),
    "stats": (
        "Queue statistics, for people and monitoring.",
        ("importer stats --json", "importer stats --format openmetrics"),
    ),
    "db": ("The database: schema, URL, the embedded server.", ("importer db migrate",)),
    "db migrate": ("Apply pending schema migrations.", ("importer db migrate",)),
    "db url": ("Print the connection URL in use (password masked).", ("importer db url",)),
    "db stop": ("Stop the embedded PostgreSQL server.", ("importer db stop",)),
    "db info": ("Where the embedded server's data lives, and its size.", ("importer db info",)),
    "db remove": (
        "Stop the embedded server and delete its data.",
        ("importer db remove", "importer db remove --yes"),
    ),
    "forms": ("Form definitions: the fields a workbook must provide.", ("importer forms list",)),
    "forms add": (
        "Create a form, or a new version when it changed.",
        ("importer forms add orders.form.toml",),
    ),
    "forms list": ("List the forms with their current version.", ("importer forms list --json",)),
    "forms show": (
        "Print a form's definition as TOML.",
        ("importer forms show orders", "importer forms show orders --version 1"),
    ),
    "forms remove": (
        "Retire a form (its table and rows stay; forms add brings it back).",
        ("importer forms remove orders", "importer forms remove orders --yes"),
    ),
    "forms infer": (
        "Propose a form definition from a sheet.",
        ("importer forms infer orders.xlsx -o orders.form.toml",),
    ),
    "timers": (
        "The timer scheduler (scheduled imports, retries); list, cancel.",
        (
            "importer timers",
            "importer timers --log-format json --metrics-port 9109",
            "importer timers list",
            "importer timers cancel 3",
        ),
    ),
    "users": (
        "Accounts of the web page and the API: roles, forms, tokens.",
        ("importer users list",),
    ),
    "users add": (
        "Add an account: a sender, an operator or an admin.",
        (
            "importer users add ana@example.com --role sender --forms orders,customers",
            "importer users add ops@example.com --role operator --forms '*'",
            'echo "$PASSWORD" | importer users add me@example.com --role admin --password-stdin',
        ),
    ),
    "users list": ("List the accounts: role, forms, password, tokens.", ("importer users list",)),
    "users remove": (
        "Remove an account (the jobs it submitted stay).",
        ("importer users remove ana@example.com --yes",),
    ),
    "users password": (
        "Set an account's password (asked twice on a terminal).",
        (
            "importer users password ana@example.com",
            "importer users password ana@example.com --password-stdin < password.txt",
        ),
    ),
    "users token": (
        "Make an API token for an account (shown once).",
        ("importer users token ci@example.com --name ci",),
    ),
    "users revoke": ("Revoke an API token.", ("importer users revoke 3",)),
    "serve": (
        "The web page and the JSON API, with a worker.",
        (
            "importer serve",
            "importer serve --host 0.0.0.0 --port 8080 --no-worker",
        ),
    ),
    "timers list": ("List timers: live ones first.", ("importer timers list --status pending",)),
    "timers cancel": ("Cancel a pending timer.", ("importer timers cancel 3",)),
}


def help_for(command: str) -> dict[str, Any]:
    """Keyword arguments for typer's command()/add_typer(): summary, examples, and the class
    that shows its arguments and options as a person reads them (METAVARS)."""
    summary, examples = HELP[command]
    # "\b" keeps click from re-wrapping the example lines into one paragraph.
    epilog = "\b\nExamples:\n" + "\n".join(f"  {line}" for line in examples)
    group = any(other.startswith(f"{command} ") for other in HELP)
    return {
        "short_help": summary,
        "epilog": epilog,
        "cls": ReadableGroup if group else ReadableCommand,
    }


# What a value is called in --help and usage lines, by parameter name: the framework's own
# ("<list[str]>", "{file}") names Python types. A parameter given its own metavar keeps it.
METAVARS: dict[str, str] = {
    "file": "FILE",
    "workbook": "WORKBOOK",
    "config": "FILE",
    "output": "FILE",
    "job_id": "JOB_ID",
    "job_ids": "JOB_ID...",
    "job": "JOB_ID",
    "timer_id": "TIMER_ID",
    "token_id": "TOKEN_ID",
    "email": "EMAIL",
    "role": "ROLE",
    "forms": "FORMS",
    "host": "HOST",
    "port": "PORT",
    "name": "NAME",
    "form": "FORM",
    "sheet": "SHEET",
    "map_": '"HEADER=FIELD"',
    "ignore": "HEADER",
    "engine": "ENGINE",
    "at": "TIME",
    "in_": "DELAY",
    "since": "DURATION",
    "older_than": "DURATION",
    "status": "STATUS",
    "limit": "N",
    "concurrency": "N",
    "version": "N",
    "interval": "SECONDS",
    "log_format": "FORMAT",
    "output_format": "FORMAT",
    "metrics_port": "PORT",
    "metrics_host": "HOST",
}


class _ReadableArgument(TyperArgument):
    """An argument shown by its metavar alone: `FILE`, `[JOB_ID...]`, not `{file}` and
    `job_ids... <list[int]>`."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def get_usage_pieces(self, ctx: Any) -> list[str]:
        name = self.metavar or (self.name or "").upper()
        if self.nargs != 1 and not name.endswith("..."):
            name += "..."
        return [name if self.required else f"[{name}]"]


def readable(params: Sequence[Any]) -> None:
    """Give every argument and valued option a metavar, and completion where the values are
    known (form names, statuses)."""
    for param in params:
        flag = isinstance(param, TyperOption) and param.is_flag
        if param.metavar is None and not flag and param.name is not None:
            param.metavar = METAVARS.get(param.name, param.name.strip("_").upper())
        if isinstance(param, TyperArgument):
            param.__class__ = _ReadableArgument
        if param._custom_shell_complete is None:  # the framework keeps a completion here
            if param.name == "form":
                param._custom_shell_complete = complete_form
            elif param.name == "status":
                param._custom_shell_complete = complete_status


class ReadableCommand(TyperCommand):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        readable(self.params)


class ReadableGroup(TyperGroup):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        readable(self.params)


# Completions: plain strings (the framework makes them completion items) that start with what
# was typed so far.


def complete_form(ctx: Any, param: Any, incomplete: str) -> list[str]:
    """The registered forms' names; nothing at all when the database cannot say (a tab
    key must never print an error, or start a server)."""
    try:
        from importer.api import Importer
        from importer.config import load_settings

        settings = load_settings(None)
        if not settings.database_url:
            return []  # the embedded server: never started for a completion
        names = [summary.name for summary in Importer(settings=settings).forms()]
    except Exception:  # a completion fails silently, whatever the cause
        return []
    return [name for name in sorted(names) if name.startswith(incomplete)]


def complete_status(ctx: Any, param: Any, incomplete: str) -> list[str]:
    """Job statuses (timer statuses under `timers`); after a comma, the next one."""
    from importer.states import JobStatus, TimerStatus

    parent = getattr(ctx, "parent", None)
    under_timers = parent is not None and parent.info_name == "timers"
    statuses = [str(s) for s in (TimerStatus if under_timers else JobStatus)]
    done, _, last = incomplete.rpartition(",")
    prefix = f"{done}," if done else ""
    return [prefix + s for s in statuses if s.startswith(last)]
