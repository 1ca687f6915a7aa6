"""Edges a new user hits in the first hour: a file that is no workbook, a cell the form's
`missing` empties, a lookup its table cannot decide, what each command's help says, and the
one name every suggestion gives the error file."""

from __future__ import annotations

import re
from pathlib import Path

import openpyxl
import pytest

from importer.database import Connection
from tests.conftest import Cli
from tests.support.jobs import ORDERS_FORM, add_form, counts, orders_book, write_book

SCRIPT = '''"""Make the sample books."""
import openpyxl

book = openpyxl.Workbook()
book.save("orders.xlsx")
'''
NOTES = "Remember: send the orders, then the invoices.\nCall Ann on Monday.\n"


@pytest.mark.parametrize(
    ("name", "text"), [("make_books.py", SCRIPT), ("notes.txt", NOTES)], ids=["script", "notes"]
)
@pytest.mark.parametrize(
    "command", [("submit",), ("check",), ("forms", "infer")], ids=["submit", "check", "infer"]
)
def test_a_file_that_is_no_workbook_is_refused_as_such(
    cli: Cli,
    conn: Connection,
    cli_env: dict[str, str],
    tmp_path: Path,
    name: str,
    text: str,
    command: tuple[str, ...],
) -> None:
    add_form(conn)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = cli(*command, str(path))
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {name}: "), result.stderr
    assert "not a workbook" in lines[0] and "no form fits" not in result.stdout + lines[0]
    assert counts(conn) == {"jobs": 0, "files": 0, "timers": 0, "rows": 0}


def test_a_table_of_text_under_a_name_that_is_not_csv_is_still_read(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    path = tmp_path / "orders.txt"  # Excel's "Text (Tab delimited)" is saved so
    path.write_text("Order ID\tCustomer\tAmount\n1\tAcme\t5\n2\tInitech\t7\n", encoding="utf-8")
    result = cli("check", str(path))
    assert result.exit_code == 0, result.stderr


MISSING_FORM = ORDERS_FORM.replace('name = "orders"', 'name = "orders"\nmissing = ["N/A", "-"]', 1)


def _problems(path: Path) -> dict[int, str]:
    """The error workbook's Problems column by source row, as the sender reads it."""
    sheet = openpyxl.load_workbook(path).worksheets[0]
    rows = list(sheet.iter_rows(values_only=True))
    header = list(rows[0])
    problems, source = header.index("Problems"), header.index("Source row")
    return {int(str(r[source])): str(r[problems]) for r in rows[1:]}


def test_a_required_cell_a_missing_text_empties_says_what_it_held(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn, MISSING_FORM)
    path = tmp_path / "orders.xlsx"
    write_book(path, [[1, "N/A", 5], [2, "Acme", 3], [3, None, 4]])
    checked = cli("check", str(path))
    assert checked.exit_code == 3, checked.stderr
    assert "counts as empty here (the form's missing = " in checked.stdout
    assert cli("submit", str(path), "--quiet").exit_code == 3
    assert cli("errors", "1", "-o", str(tmp_path / "errors.xlsx")).exit_code == 0
    assert _problems(tmp_path / "errors.xlsx") == {
        2: """Customer: 'N/A' counts as empty here (the form's missing = ["N/A", "-"]) """
        "and a value is required",
        4: "Customer: a value is required but the cell is empty",  # truly empty
    }


LOOKUP_FORM = """
name = "orders"
[[fields]]
name = "order_id"
header = "Order ID"
type = "integer"
required = true
[[fields]]
name = "customer_id"
header = "Customer"
type = "integer"
required = true
lookup = { table = "public.customers", match = "name", returns = "id" }
"""
SENDER_WORDS = (
    "Customer: 'Initech' is ambiguous: 2 customers go by it and the import cannot choose; "
    "write a value that only one customer goes by"
)
OPERATOR_WORDS = (
    "lookup of field 'customer_id': 2 rows of public.customers have name 'Initech': "
    "the lookup table has duplicates"
)


@pytest.fixture
def twin_customers(conn: Connection, tmp_path: Path) -> Path:
    """Two customers named Initech, and a sheet naming Initech twice (told to the operator
    once) and Acme once."""
    conn.execute("CREATE TABLE public.customers (id integer PRIMARY KEY, name text NOT NULL)")
    conn.execute("INSERT INTO public.customers VALUES (1, 'Acme'), (2, 'Initech'), (3, 'Initech')")
    add_form(conn, LOOKUP_FORM)
    path = tmp_path / "orders.xlsx"
    write_book(path, [[1, "Initech"], [2, "Acme"], [3, "Initech"]], header=["Order ID", "Customer"])
    return path


def test_an_ambiguous_lookup_tells_the_sender_and_warns_the_operator_of_a_submit(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path, twin_customers: Path
) -> None:
    result = cli("submit", str(twin_customers), "--quiet")
    assert result.exit_code == 3, result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == [
        f"warning: job 1: {OPERATOR_WORDS}, and each row naming one is rejected"
        " as ambiguous until public.customers has one row per name"
    ]
    assert cli("errors", "1", "-o", str(tmp_path / "errors.xlsx")).exit_code == 0
    assert _problems(tmp_path / "errors.xlsx") == {2: SENDER_WORDS, 4: SENDER_WORDS}


def test_an_ambiguous_lookup_is_a_warning_in_the_workers_log(
    cli: Cli, conn: Connection, cli_env: dict[str, str], twin_customers: Path
) -> None:
    assert cli("submit", str(twin_customers), "--detach", "--quiet").exit_code == 0
    result = cli("worker", "--once")
    assert result.exit_code == 0, result.stderr
    warnings = [line for line in result.stdout.splitlines() if " WARNING " in line]
    assert len(warnings) == 1 and f"job 1: {OPERATOR_WORDS}" in warnings[0], result.stdout


def test_an_ambiguous_lookup_is_a_warning_of_check(
    cli: Cli, conn: Connection, cli_env: dict[str, str], twin_customers: Path
) -> None:
    result = cli("check", str(twin_customers))
    assert result.exit_code == 3, result.stderr
    assert result.stderr.count("warning: ") == 1 and OPERATOR_WORDS in result.stderr
    assert "the value is ambiguous: 2 customers go by it" in result.stdout  # the sender's words


def _option_help(shown: str, option: str) -> str:
    """An option's help text in a command's --help, its wrapped lines joined."""
    lines = shown.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip("│ ").startswith(option))
    words = [lines[start].lstrip("│ ")[len(option) :]]
    for line in lines[start + 1 :]:
        text = line.strip("│ \n")
        if not text or text.startswith("-"):
            break
        words.append(text)
    return " ".join(" ".join(words).split())


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (("submit",), "kept with the job, so every run reads it there"),
        (("check",), "as submit finds it"),
        (("forms", "infer"), "the row of column names over the values below it"),
    ],
)
def test_header_row_help_says_what_is_true_of_each_command(
    cli: Cli, cli_env: dict[str, str], command: tuple[str, ...], said: str
) -> None:
    shown = _option_help(cli(*command, "--help").stdout, "--header-row N")
    assert shown.startswith("The header's row (default: ") and said in shown, shown
    assert ("job" in shown) == (command == ("submit",)), shown  # only submit makes one


ROOT = Path(__file__).resolve().parents[2]
OTHER_NAME = re.compile(r"\berrors\.(xlsx|csv)\b")


def test_every_suggested_error_file_is_called_rejected_xlsx(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 20)
    shown = {
        "submit": cli("submit", str(book.path)).stdout,
        "status": cli("status", "1").stdout,
        "errors": cli("errors", "1").stdout,
        "check --help": cli("check", "--help").stdout,
        "errors --help": cli("errors", "--help").stdout,
    }
    for where, text in shown.items():
        flat = " ".join(text.replace("│", " ").split())
        assert "rejected.xlsx" in flat and not OTHER_NAME.search(flat), (where, text)
    written = [ROOT / "README.md", *ROOT.glob("docs/**/*.md"), *ROOT.glob("importer/**/*.py")]
    for path in written:
        found = OTHER_NAME.search(path.read_text(encoding="utf-8"))
        assert found is None, f"{path.relative_to(ROOT)} suggests {found.group()}"
