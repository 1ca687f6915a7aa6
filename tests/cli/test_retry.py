"""`importer retry ID...` and `importer retry --all-failed [--form] [--since]`: one line (or
JSON object) per job; refusals do not stop the others."""

from __future__ import annotations

import json
from pathlib import Path

from importer.database import Connection
from tests.conftest import Cli
from tests.support.jobs import KEYED_FORM, add_form, orders_book


def queued(cli: Cli, conn: Connection, tmp_path: Path) -> None:
    """Jobs 1-3 of form orders and 4 of ledger, all detached; then 1, 2 and 4 failed (2 a
    day ago)."""
    add_form(conn)
    add_form(conn, KEYED_FORM)
    for i in range(3):
        book = orders_book(tmp_path / f"o{i}.xlsx", 5, start_id=10 * i)
        assert cli("submit", str(book.path), "--form", "orders", "--detach").exit_code == 0
    book = orders_book(tmp_path / "l.xlsx", 5)
    assert cli("submit", str(book.path), "--form", "ledger", "--detach").exit_code == 0
    conn.execute(
        "UPDATE import_jobs SET status = 'failed', attempts = 5, last_error = 'boom',"
        " finished_at = now() WHERE id IN (1, 2, 4)"
    )
    conn.execute("UPDATE import_jobs SET finished_at = now() - interval '1 day' WHERE id = 2")


def statuses(conn: Connection) -> dict[int, str]:
    rows = conn.execute("SELECT id, status FROM import_jobs ORDER BY id").fetchall()
    return {r["id"]: r["status"] for r in rows}


def test_retry_several_ids_reports_each_and_refusals_do_not_stop_the_rest(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    queued(cli, conn, tmp_path)
    result = cli("retry", "1", "3", "2", "99")
    assert result.exit_code == 2
    out = result.stdout.splitlines()
    assert out[:2] == ["job 1 is pending again from row 0", "job 2 is pending again from row 0"]
    assert out[2] == "a worker picks them up, or run them here: importer resume 1 2"
    err = result.stderr.splitlines()
    assert err[0].startswith("job 3 not retried: import job 3 is pending; only a failed job")
    assert err[1] == "job 99 not retried: no import job with id 99"
    assert statuses(conn) == {1: "pending", 2: "pending", 3: "pending", 4: "failed"}


def test_retry_all_failed_of_a_form_and_recent_as_json(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    queued(cli, conn, tmp_path)
    recent = cli("retry", "--all-failed", "--form", "orders", "--since", "2h", "--json")
    assert recent.exit_code == 0, recent.stderr
    lines = [json.loads(line) for line in recent.stdout.splitlines()]
    assert [(line["id"], line["retried"], line["status"]) for line in lines] == [
        (1, True, "pending")
    ]
    assert lines[0]["attempts"] == 0 and lines[0]["refused"] is None
    rest = cli("retry", "--all-failed")
    assert rest.exit_code == 0
    assert "job 2 is pending again" in rest.stdout and "job 4 is pending again" in rest.stdout
    assert set(statuses(conn).values()) == {"pending"}
    assert cli("retry", "--all-failed").stdout.strip() == "no failed jobs to retry"


def test_retry_needs_ids_or_all_failed(cli: Cli, conn: Connection, tmp_path: Path) -> None:
    assert "--all-failed" in cli("retry").stderr
    assert cli("retry").exit_code == 2
    assert cli("retry", "1", "--all-failed").exit_code == 2
    assert "go with --all-failed" in cli("retry", "1", "--form", "orders").stderr
    bad = cli("retry", "--all-failed", "--since", "soon")
    assert bad.exit_code == 2 and "--since 'soon'" in bad.stderr
