"""`forms add` never replaces a curated form silently, and `forms remove` retires one: typed
as a user types them, on a real PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from importer.api import Importer
from importer.config import Settings
from importer.database import Connection
from importer.errors import FormError
from importer.forms.definition import parse_form_text
from tests.conftest import Cli
from tests.support.jobs import orders_book

CURATED = """
name = "orders"
key = ["order_id"]
[[fields]]
name = "order_id"
header = "Order ID"
type = "integer"
required = true
min = 1
[[fields]]
name = "customer"
header = "Customer"
required = true
max_length = 100
[[fields]]
name = "amount"
header = "Amount"
type = "integer"
min = 0
"""


@pytest.fixture
def curated(cli: Cli, tmp_path: Path) -> Path:
    path = tmp_path / "orders.form.toml"
    path.write_text(CURATED, encoding="utf-8")
    added = cli("forms", "add", str(path))
    assert added.exit_code == 0, added.stderr
    assert added.stdout.startswith("form 'orders' created: version 1, 3 fields"), added.stdout
    return path


def test_an_inferred_form_added_over_a_curated_one_is_refused_and_stores_nothing(
    cli: Cli, curated: Path, tmp_path: Path
) -> None:
    orders_book(tmp_path / "orders.xlsx", 30)
    inferred = cli("forms", "infer", "orders.xlsx", "-o", "inferred.toml")
    assert inferred.exit_code == 0, inferred.stderr
    refused = cli("forms", "add", "inferred.toml")
    assert refused.exit_code == 2
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1, refused.stderr
    assert lines[0].startswith("error: form 'orders' version 2 would drop the key order_id, "), (
        lines
    )
    assert lines[0].endswith(
        "; nothing stored: add it again with --yes to replace version 1, or give the new form"
        " another name"
    ), lines
    assert "drop the min of 'order_id' (was 1)" in lines[0]
    assert " more)" in lines[0]  # four losses or more: the rest counted
    listed = cli("forms", "list")
    assert "v1 " in listed.stdout and "key: order_id" in listed.stdout, listed.stdout

    replaced = cli("forms", "add", "inferred.toml", "--yes")
    assert replaced.exit_code == 0, replaced.stderr
    out = replaced.stdout.splitlines()
    assert out[0].startswith("form 'orders' updated: version 2, 3 fields"), out
    assert "note: accepted with --yes: drop the key order_id" in out
    assert "note: accepted with --yes: drop the min of 'order_id' (was 1)" in out
    assert "note: accepted with --yes: drop the max_length of 'customer' (was 100)" in out
    assert "key:" not in cli("forms", "list").stdout


def test_a_version_that_only_adds_or_tightens_needs_no_yes(cli: Cli, curated: Path) -> None:
    tighter = CURATED.replace("min = 0", "min = 1").replace("max_length = 100", "max_length = 80")
    curated.write_text(tighter + '[[fields]]\nname = "note"\nheader = "Note"\n', encoding="utf-8")
    added = cli("forms", "add", str(curated))
    assert added.exit_code == 0, added.stderr
    assert added.stdout.startswith("form 'orders' updated: version 2, 4 fields"), added.stdout
    assert "note: accepted" not in added.stdout


def test_one_loss_is_named_alone(cli: Cli, curated: Path) -> None:
    curated.write_text(CURATED.replace("max_length = 100\n", ""), encoding="utf-8")
    refused = cli("forms", "add", str(curated))
    assert refused.exit_code == 2
    assert refused.stderr == (
        "error: form 'orders' version 2 would drop the max_length of 'customer' (was 100);"
        " nothing stored: add it again with --yes to replace version 1, or give the new form"
        " another name\n"
    ), refused.stderr


def test_the_python_api_refuses_the_same_unless_confirmed(
    curated: Path, settings: Settings
) -> None:
    importer = Importer(settings=settings)
    looser = parse_form_text(CURATED.replace('key = ["order_id"]\n', ""))
    with pytest.raises(FormError, match=r"^form 'orders' version 2 would drop the key order_id;"):
        importer.add_form(looser)
    assert importer.form("orders")[1] == 1
    before, version, notes = importer.add_form(looser, confirmed=True)
    assert (before, version) == (1, 2)
    assert notes[0] == "accepted with --yes: drop the key order_id"


def test_infer_says_at_the_top_that_adding_it_over_a_form_of_that_name_asks_for_yes(
    cli: Cli, tmp_path: Path, cli_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IMPORTER_DATABASE_URL", "postgresql://nobody@127.0.0.1:1/none")
    orders_book(tmp_path / "orders.xlsx", 5)
    inferred = cli("forms", "infer", "orders.xlsx")
    assert inferred.exit_code == 0, inferred.stderr
    top = inferred.stdout.splitlines()[:4]
    assert top == [
        "# inferred from orders.xlsx, sheet 'Orders': check every type",
        "# named 'orders' after the file: `importer forms add` of it over a registered form"
        " 'orders'",
        "# makes a new version of that form, and asks for --yes if it would drop its key, a field",
        "# or a rule; change `name` below to add it as a form of its own",
    ], top
    assert parse_form_text(inferred.stdout).name == "orders"


def test_a_form_needed_by_a_pending_job_is_not_retired(
    cli: Cli, curated: Path, tmp_path: Path
) -> None:
    orders_book(tmp_path / "orders.xlsx", 10)
    queued = cli("submit", "orders.xlsx", "--form", "orders", "--detach")
    assert queued.exit_code == 0, queued.stderr
    refused = cli("forms", "remove", "orders", "--yes")
    assert refused.exit_code == 2
    assert refused.stderr == (
        "error: form 'orders' is still needed by job 1 (pending); let them finish (or cancel"
        " them: importer cancel JOB_ID), then remove it\n"
    )
    assert "orders" in cli("forms", "list").stdout


def test_a_retired_form_is_hidden_refused_kept_and_brought_back(
    cli: Cli, curated: Path, tmp_path: Path, conn: Connection
) -> None:
    orders_book(tmp_path / "orders.xlsx", 10)
    done = cli("submit", "orders.xlsx", "--form", "orders", "-q")
    assert done.exit_code == 3, done.stderr  # one row of ten rejected

    unasked = cli("forms", "remove", "orders")  # no terminal here
    assert unasked.exit_code == 2
    assert unasked.stderr == "error: retiring form 'orders' needs --yes (no terminal)\n"

    removed = cli("forms", "remove", "orders", "--yes")
    assert removed.exit_code == 0, removed.stderr
    assert removed.stdout.startswith("form 'orders' retired ("), removed.stdout
    assert removed.stdout.rstrip().endswith(
        "); its table and rows are kept; bring it back with: importer forms add FILE.toml"
        " (importer forms show orders --version 1 gives its last definition)"
    ), removed.stdout

    assert cli("forms", "list").stdout == (
        "no forms yet (add one with: importer forms add FILE.toml)\n"
    )
    every = cli("forms", "list", "--all").stdout
    assert every.startswith("orders  v1 ") and "  retired " in every, every

    named = cli("submit", "orders.xlsx", "--form", "orders", "--force", "-q")
    assert named.exit_code == 2
    assert named.stderr.startswith("error: form 'orders' is retired (since "), named.stderr
    assert named.stderr.rstrip().endswith(
        "UTC); bring it back with: importer forms show orders --version 1 > orders.toml;"
        " importer forms add orders.toml"
    ), named.stderr
    chosen = cli("submit", "orders.xlsx", "--force", "-q")  # the automatic choice
    assert chosen.exit_code == 2
    assert "retired" not in chosen.stderr and "orders" not in chosen.stderr.split(":")[0]

    # its rows and its finished job's errors stay
    kept = conn.execute("SELECT count(*) AS n FROM forms.orders").fetchone()
    assert kept is not None and kept["n"] == 9
    exported = cli("errors", "1", "-o", "rejected.csv")
    assert exported.exit_code == 0, exported.stderr
    assert "-5" in (tmp_path / "rejected.csv").read_text(encoding="utf-8")

    again = cli("forms", "add", str(curated))
    assert again.exit_code == 0, again.stderr
    assert again.stdout.startswith("form 'orders' unchanged: version 1"), again.stdout
    listed = cli("forms", "list").stdout
    assert listed.startswith("orders  v1 ") and "retired" not in listed, listed
    assert cli("submit", "orders.xlsx", "--form", "orders", "--force", "-q").exit_code == 3
