"""`importer users ...`: the accounts of the web page and the JSON API (`importer serve`):
add, list, remove, set a password, make and revoke API tokens."""

from __future__ import annotations

import getpass
import json
import sys
from typing import TYPE_CHECKING

import typer

from importer.cli.help import help_for
from importer.cli.layout import Column, fitted_table, local_time
from importer.cli.output import is_terminal, stderr_console, stdout_console
from importer.cli.state import state
from importer.errors import UsageError

if TYPE_CHECKING:
    from importer.repositories.accounts import Account, Token

users_app = typer.Typer(
    help="Accounts of the web page and the API: roles, forms, passwords, tokens.",
    no_args_is_help=True,
)

PASSWORD_STDIN_HELP = "Read the password from the first line of standard input (scripts)."


def read_password(from_stdin: bool) -> str:
    """The new password: the first line of stdin, or asked twice on a terminal."""
    if from_stdin:
        line = sys.stdin.readline()
        if not line:
            raise UsageError("--password-stdin: standard input is empty")
        return line.rstrip("\r\n")
    if not sys.stdin.isatty():
        raise UsageError("no terminal to ask for the password on: use --password-stdin")
    first = getpass.getpass("password: ")
    if getpass.getpass("again: ") != first:
        raise UsageError("the two passwords differ; nothing was changed")
    return first


@users_app.command("add", **help_for("users add"))
def add_command(
    ctx: typer.Context,
    email: str = typer.Argument(..., help="The account's e-mail address.", show_default=False),
    role: str = typer.Option(
        ..., "--role", "-r", help="sender | operator | admin.", show_default=False
    ),
    forms: str | None = typer.Option(
        None, "--forms", help="The forms it may use: orders,customers ('*': every form)."
    ),
    password_stdin: bool = typer.Option(False, "--password-stdin", help=PASSWORD_STDIN_HELP),
    no_password: bool = typer.Option(
        False, "--no-password", help="No password: the account uses API tokens only."
    ),
) -> None:
    """Add an account. A sender sees only the jobs it submits, of its forms; an operator
    every job of its forms; an admin every job. Asks for a password on a terminal."""
    from importer.api.accounts import parse_forms

    names = parse_forms(forms) if forms is not None else []
    if password_stdin and no_password:
        raise UsageError("--password-stdin and --no-password: choose one")
    password = None if no_password else read_password(password_stdin)
    account = state(ctx).importer().add_user(email, role, names, password)
    stdout_console().print(f"added {account.role} {account.email} ({_forms(account)})")


@users_app.command("list", **help_for("users list"))
def list_command(
    ctx: typer.Context,
    as_json: bool = typer.Option(False, "--json", help="One JSON object per account."),
) -> None:
    """List the accounts: role, forms, whether a password is set, API tokens."""
    importer = state(ctx).importer()
    found = importer.users()
    tokens = importer.api_tokens()
    out = stdout_console()
    if as_json:
        for account in found:
            mine = [t for t in tokens if t.email == account.email]
            out.out(json.dumps(_account_json(account, mine)), highlight=False)
        return
    if not found:
        out.print("no accounts (importer users add EMAIL --role admin)")
        return
    cells = [
        [
            account.email,
            account.role,
            _forms(account),
            "yes" if account.has_password else "no",
            ", ".join(f"{t.id} {t.name}" for t in tokens if t.email == account.email) or "-",
            local_time(account.created_at, seconds=False),
        ]
        for account in found
    ]
    width = out.width if is_terminal() else None
    out.print(fitted_table(USERS_COLUMNS, cells, width, rule=width is not None))


USERS_COLUMNS = (
    Column("Account", soft=24, least=12),
    Column("Role"),
    Column("Forms", soft=20, least=8),
    Column("Password"),
    Column("Tokens", soft=16, least=6, drop=2),
    Column("Created", drop=1),
)


def _forms(account: Account) -> str:
    return "every form" if account.every_form else "forms " + ", ".join(account.forms)


def _account_json(account: Account, tokens: list[Token]) -> dict[str, object]:
    return {
        "email": account.email,
        "role": account.role,
        "forms": ["*"] if account.every_form else list(account.forms),
        "password": account.has_password,
        "tokens": [{"id": t.id, "name": t.name} for t in tokens],
        "created_at": account.created_at.isoformat(),
    }


@users_app.command("remove", **help_for("users remove"))
def remove_command(
    ctx: typer.Context,
    email: str = typer.Argument(..., help="The account's e-mail address.", show_default=False),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
) -> None:
    """Remove an account, its API tokens and sessions; the jobs it submitted stay."""
    if not yes:
        if not sys.stdin.isatty():
            raise UsageError(f"removing account {email!r} needs --yes (no terminal)")
        typer.confirm(f"remove account {email!r}? (its jobs stay)", abort=True)
    state(ctx).importer().remove_user(email)
    stdout_console().print(f"removed {email.strip().lower()}; the jobs it submitted stay")


@users_app.command("password", **help_for("users password"))
def password_command(
    ctx: typer.Context,
    email: str = typer.Argument(..., help="The account's e-mail address.", show_default=False),
    password_stdin: bool = typer.Option(False, "--password-stdin", help=PASSWORD_STDIN_HELP),
) -> None:
    """Set an account's password (asked twice on a terminal); signs its browsers out."""
    importer = state(ctx).importer()
    importer.user(email)  # an unknown address is said before the password is asked
    importer.set_password(email, read_password(password_stdin))
    stdout_console().print(f"password of {email.strip().lower()} set; its sessions ended")


@users_app.command("token", **help_for("users token"))
def token_command(
    ctx: typer.Context,
    email: str = typer.Argument(..., help="The account's e-mail address.", show_default=False),
    name: str = typer.Option("api", "--name", help="What the token is for (ci, erp, ...)."),
) -> None:
    """Make an API token for the account: printed once (stdout), kept only as a hash."""
    token, secret = state(ctx).importer().create_token(email, name)
    stdout_console().out(secret, highlight=False)
    stderr_console().print(
        f"token {token.id} ({token.name}) of {token.email}: shown this once; send it as"
        f" 'Authorization: Bearer TOKEN'; revoke it with: importer users revoke {token.id}"
    )


@users_app.command("revoke", **help_for("users revoke"))
def revoke_command(
    ctx: typer.Context,
    token_id: int = typer.Argument(..., help="The token's id (users list).", show_default=False),
) -> None:
    """Revoke an API token: requests with it are refused from now on."""
    token = state(ctx).importer().revoke_token(token_id)
    stdout_console().print(f"revoked token {token.id} ({token.name}) of {token.email}")


def register(app: typer.Typer) -> None:
    app.add_typer(users_app, name="users", **help_for("users"))
