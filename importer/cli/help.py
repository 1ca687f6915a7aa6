"""What `--help` says besides the options: a one-line summary for the command list and
examples, for every command (a test checks that none is missing)."""

from __future__ import annotations

from typing import Any

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
        ("importer errors 12", "importer errors 12 -o rejected.xlsx"),
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
    "purge": (
        "Remove old finished jobs' workbooks, rejected rows, errors, timers.",
        (
            "importer purge --older-than 30d --dry-run",
            "importer purge --older-than 30d --json",
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
    "timers list": ("List timers: live ones first.", ("importer timers list --status pending",)),
    "timers cancel": ("Cancel a pending timer.", ("importer timers cancel 3",)),
}


def help_for(command: str) -> dict[str, Any]:
    """Keyword arguments for typer's command()/add_typer(): summary and examples."""
    summary, examples = HELP[command]
    # "\b" keeps click from re-wrapping the example lines into one paragraph.
    epilog = "\b\nExamples:\n" + "\n".join(f"  {line}" for line in examples)
    return {"short_help": summary, "epilog": epilog}
