"""The batch write against real PostgreSQL: every form's batch is one explicit transaction
(fence, COPY into the typed table, rejected rows, COMMIT), and a crash test's pause stops it
inside that transaction, at its last moment before the commit."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from psycopg import sql
from psycopg.pq import TransactionStatus

from importer.config import ImportSettings
from importer.database import Connection, connect
from importer.errors import LeaseLost
from importer.excel.values import Row
from importer.forms.validation import Validator
from importer.intake.submission import Asked, submit_workbook
from importer.repositories import jobs
from importer.repositories.batches import BatchWriter, Prepared
from importer.repositories.forms import get_form
from tests.support.jobs import HEADER, KEYED_FORM, ORDERS_FORM, add_form, data_rows, orders_book

SETTINGS = ImportSettings(rows_per_transaction=10, lease_seconds=30, max_attempts=3)
OWNER = "me:1:a"


def first_batch(
    conn: Connection, writer_conn: Connection, form_name: str, path: Path
) -> tuple[BatchWriter, Prepared, set[int]]:
    """A claimed job's writer on ``writer_conn`` and its first batch of 10 rows (every 4th
    rejected), with the row numbers it must store."""
    book = orders_book(path, 10, bad_every=4)
    job = submit_workbook(
        conn, book.path, Asked(form_name=form_name, claim_owner=OWNER), settings=SETTINGS
    ).job
    form, _ = get_form(conn, job.form, job.form_version)
    writer = BatchWriter(writer_conn, job, OWNER, form, HEADER, SETTINGS, header_row=1)
    rows = [Row(number, tuple(values)) for number, values in enumerate(book.rows, start=2)]
    return writer, writer.prepare(rows, Validator(form, HEADER).validate(rows)), book.valid


def committed_cursor(conn: Connection, job_id: int) -> int:
    """The job's cursor as another session sees it (committed work only)."""
    return jobs.get_job(conn, job_id).cursor


@pytest.mark.parametrize(
    ("form_text", "form_name"),
    # Append (COPY into the table) and keyed (COPY into staging, then the upsert): both an
    # explicit transaction on the autocommit connection, the pause inside it after the rows
    # and the cursor advance, before the commit.
    [(ORDERS_FORM, "orders"), (KEYED_FORM, "ledger")],
)
def test_a_paused_batch_stops_inside_its_transaction_before_the_commit(
    database_url: str,
    conn: Connection,
    tmp_path: Path,
    form_text: str,
    form_name: str,
) -> None:
    add_form(conn, form_text)
    with connect(database_url, autocommit=True) as writer_conn:
        writer, batch, valid = first_batch(conn, writer_conn, form_name, tmp_path / "b.xlsx")
        job_id = writer.job.id
        seen: dict[str, object] = {}

        def pause() -> None:
            seen["status"] = writer_conn.info.transaction_status
            # What the writer's own session sees: in a keyed batch's transaction, the advance.
            own = writer_conn.execute(
                "SELECT success_rows + failed_rows AS c FROM import_jobs WHERE id = %s",
                (job_id,),
            ).fetchone()
            seen["own cursor"] = own and own["c"]
            seen["committed cursor"] = committed_cursor(conn, job_id)
            seen["committed rows"] = len(data_rows(conn, job_id))
            seen["own rows"] = writer_conn.execute(
                sql.SQL("SELECT count(*) AS n FROM {} WHERE import_job_id = %s").format(
                    sql.Identifier("forms", form_name)
                ),
                (job_id,),
            ).fetchone()

        committed = writer.write(batch, pause=pause)
        after = writer_conn.info.transaction_status

    assert seen["status"] == TransactionStatus.INTRANS
    assert seen["own cursor"] == 10
    assert seen["own rows"] == {"n": len(valid)}
    assert (seen["committed cursor"], seen["committed rows"]) == (0, 0)  # nothing committed yet
    # The batch then commits exactly, and leaves no transaction open.
    assert after == TransactionStatus.IDLE
    assert not committed.cancelled and committed.job.cursor == 10
    assert committed_cursor(conn, job_id) == 10
    assert set(data_rows(conn, job_id)) == valid
    job = jobs.get_job(conn, job_id)
    assert (job.success_rows, job.failed_rows) == (len(valid), 10 - len(valid))


def test_an_unpaused_batch_commits_the_same_rows_typed(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    """Without a pause the same path runs: what a crash test stops is what production does;
    the rows land in the table's types."""
    add_form(conn)
    with connect(database_url, autocommit=True) as writer_conn:
        writer, batch, valid = first_batch(conn, writer_conn, "orders", tmp_path / "b.xlsx")
        committed = writer.write(batch)
        assert writer_conn.info.transaction_status == TransactionStatus.IDLE
    assert committed.job.cursor == committed_cursor(conn, writer.job.id) == 10
    stored = data_rows(conn, writer.job.id)
    assert set(stored) == valid
    assert stored[2] == {"order_id": 1, "customer": "customer 0", "amount": Decimal(1)}


def test_a_batch_whose_lease_is_gone_writes_nothing(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    with connect(database_url, autocommit=True) as writer_conn:
        writer, batch, _ = first_batch(conn, writer_conn, "orders", tmp_path / "b.xlsx")
        conn.execute("UPDATE import_jobs SET lease_owner = 'other:2:b'")
        with pytest.raises(LeaseLost):
            writer.write(batch)
        assert writer_conn.info.transaction_status == TransactionStatus.IDLE
    assert data_rows(conn, writer.job.id) == {}
    assert jobs.get_job(conn, writer.job.id).cursor == 0
