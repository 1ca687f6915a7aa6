"""Importer.frame and the export's batches: the columns, their polars types, every value as
the table holds it, the filters, and what is refused."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

import polars as pl
import pytest

from importer.api import Importer
from importer.config import Settings
from importer.database import Connection
from importer.errors import FormError, NotFoundError, UsageError
from importer.exporting.frames import export_frames, integer_digits, surveyed_scale
from importer.repositories.exports import RowFilter
from importer.repositories.forms import retire_form
from tests.exporting.samples import ROWS, add_jobs, add_typed_form, expected, insert_rows
from tests.support.jobs import add_form

TYPED_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    "n": pl.Int64,
    "label": pl.String,
    "amount": pl.Decimal(38, 3),  # the largest scale among the rows
    "day": pl.Date,
    "at": pl.Datetime("us", "UTC"),
    "ok": pl.Boolean,
    "mail": pl.String,
    "row_number_field": pl.Int64,
    "import_job_id": pl.Int64,
    "row_number": pl.Int64,
    "written_at": pl.Datetime("us", "UTC"),
}


@pytest.fixture
def importer(settings: Settings) -> Importer:
    return Importer(settings=settings)


def without_written_at(frame: pl.DataFrame) -> list[dict[str, object]]:
    return frame.drop("written_at").to_dicts()


def test_a_frame_holds_every_value_as_the_table_does_typed_by_its_columns(
    importer: Importer, conn: Connection
) -> None:
    add_typed_form(conn)
    insert_rows(conn)
    frame = importer.frame("typed")
    assert frame.schema == pl.Schema(TYPED_SCHEMA)
    assert without_written_at(frame) == expected()
    stored = conn.execute("SELECT written_at FROM forms.typed ORDER BY 1").fetchall()
    assert sorted(frame["written_at"].to_list()) == [r["written_at"] for r in stored]
    label = frame["label"].to_list()
    assert label[1] == "" and frame["n"].to_list()[1] is None  # an empty text is not NULL


def test_batches_cut_anywhere_give_the_same_rows(conn: Connection) -> None:
    add_typed_form(conn)
    insert_rows(conn)
    with export_frames(conn, "typed", RowFilter(), rows_per_batch=1) as stream:
        frames = list(stream.frames())
    assert [f.height for f in frames] == [1, 1, 1, 1]
    assert without_written_at(pl.concat(frames)) == expected()


def test_job_and_since_pick_rows_by_the_tables_own_columns(
    importer: Importer, conn: Connection
) -> None:
    add_typed_form(conn)
    insert_rows(conn)
    conn.execute(
        "UPDATE forms.typed SET written_at = now() - interval '3 days' WHERE row_number = 4"
    )
    assert importer.frame("typed", job=2)["n"].to_list() == [9_223_372_036_854_775_807]
    assert importer.frame("typed", since=timedelta(days=2))["row_number"].to_list() == [2, 3, 2]
    both = importer.frame("typed", job=1, since=timedelta(days=2))
    assert both["row_number"].to_list() == [2, 3]
    assert importer.frame("typed", job=1, since=timedelta(0)).height == 0


def test_an_empty_selection_is_an_empty_frame_of_the_same_types(
    importer: Importer, conn: Connection
) -> None:
    add_typed_form(conn)
    frame = importer.frame("typed")
    assert frame.height == 0
    assert frame.schema["amount"] == pl.Decimal(38, 0)
    assert list(frame.schema) == list(TYPED_SCHEMA)


def test_unknown_forms_and_jobs_are_not_found_and_a_job_of_another_form_is_refused(
    importer: Importer, conn: Connection
) -> None:
    add_typed_form(conn)
    add_form(conn)  # orders
    other = add_jobs(conn, "orders", 1)[0]
    with pytest.raises(NotFoundError) as unknown:
        importer.frame("nope")
    assert unknown.value.what == "form"
    with pytest.raises(NotFoundError) as no_job:
        importer.frame("typed", job=999)
    assert no_job.value.what == "job"
    with pytest.raises(UsageError, match=f"import job {other} is of form 'orders', not 'typed'"):
        importer.frame("typed", job=other)


def test_a_retired_forms_rows_can_still_be_exported(importer: Importer, conn: Connection) -> None:
    add_typed_form(conn)
    insert_rows(conn)
    retire_form(conn, "typed")
    assert importer.frame("typed").height == len(ROWS)


USER_TABLE = """
CREATE TABLE public.ledger (
    id int4 PRIMARY KEY, price numeric(12, 2), ratio float8, code varchar(8), flag char(3),
    seen timestamp, extra jsonb, tags int4[], batch bigint
)"""
USER_FORM = """
name = "ledger"
table = "public.ledger"
{top}
key = ["id"]
[[fields]]
name = "id"
type = "integer"
required = true
[[fields]]
name = "price"
type = "decimal"
[[fields]]
name = "code"
type = "string"
[[fields]]
name = "flag"
type = "string"
[[fields]]
name = "seen"
type = "datetime"
"""


def test_a_users_table_is_typed_as_its_columns_are_with_its_job_column(
    importer: Importer, conn: Connection
) -> None:
    conn.execute(USER_TABLE)
    add_form(conn, USER_FORM.format(top='job_column = "batch"'))
    jobs = add_jobs(conn, "ledger", 2)
    conn.execute(
        "INSERT INTO public.ledger VALUES (2, 1.5, 0.1, 'b', 'x', '2026-03-01 10:00:00.5',"
        " '{\"a\": 1}', '{1,2}', %s), (1, NULL, 'NaN', '', 'yz ', '1960-01-01', NULL, NULL, %s)",
        (jobs[1], jobs[0]),
    )
    frame = importer.frame("ledger")
    ledger: dict[str, pl.DataType | type[pl.DataType]] = {
        "id": pl.Int64,
        "price": pl.Decimal(38, 2),  # numeric(12, 2): its type's scale
        "code": pl.String,
        "flag": pl.String,
        "seen": pl.Datetime("us"),  # timestamp: no zone
        "import_job_id": pl.Int64,  # the form's job_column
    }
    assert frame.schema == pl.Schema(ledger)
    rows = frame.to_dicts()
    assert [r["id"] for r in rows] == [1, 2]  # in the key's order
    assert rows[1]["price"] == Decimal("1.50") and rows[0]["price"] is None
    assert (rows[0]["code"], rows[0]["flag"], rows[1]["flag"]) == ("", "yz ", "x  ")
    assert str(rows[1]["seen"]) == "2026-03-01 10:00:00.500000"
    assert str(rows[0]["seen"]) == "1960-01-01 00:00:00"
    assert importer.frame("ledger", job=jobs[1])["id"].to_list() == [2]
    with pytest.raises(UsageError, match="--since cannot tell when"):
        importer.frame("ledger", since=timedelta(days=1))


def test_a_users_table_without_a_job_column_refuses_job_naming_the_key(
    importer: Importer, conn: Connection
) -> None:
    conn.execute(USER_TABLE)
    add_form(conn, USER_FORM.format(top=""))
    job = add_jobs(conn, "ledger", 1)[0]
    assert importer.frame("ledger").columns[-1] == "seen"  # no tool columns at all
    with pytest.raises(UsageError, match=re.escape('job_column = "..."')) as refused:
        importer.frame("ledger", job=job)
    assert "public.ledger" in str(refused.value) and "--job" in str(refused.value)


def test_other_types_of_a_users_table_come_as_their_text(conn: Connection) -> None:
    conn.execute(USER_TABLE)
    add_form(conn, USER_FORM.format(top="") + '[[fields]]\nname = "ratio"\ntype = "decimal"\n')
    # The user changes their columns' types after forms add (the tool never alters them).
    conn.execute("ALTER TABLE public.ledger ALTER code TYPE jsonb USING to_jsonb(code)")
    conn.execute("ALTER TABLE public.ledger ALTER flag TYPE int4[] USING NULL")
    conn.execute(
        "INSERT INTO public.ledger (id, ratio, code, flag) VALUES"
        " (1, 'Infinity', '{\"a\": [1, \"x\"]}', '{1,2}'), (2, 2.5, NULL, '{}')"
    )
    with export_frames(conn, "ledger", RowFilter()) as stream:
        frame = pl.concat(list(stream.frames()))
    assert [frame.schema[c] for c in ("ratio", "code", "flag")] == [
        pl.Float64(),
        pl.String(),
        pl.String(),
    ]
    assert frame["ratio"].to_list() == [float("inf"), 2.5]
    assert frame["code"].to_list() == ['{"a": [1, "x"]}', None]
    assert frame["flag"].to_list() == ["{1,2}", "{}"]


def test_a_field_whose_column_is_gone_is_refused_in_one_line(
    importer: Importer, conn: Connection
) -> None:
    add_typed_form(conn)
    conn.execute("ALTER TABLE forms.typed DROP COLUMN mail")
    with pytest.raises(FormError, match=r"forms\.typed has no column mail; add the form again"):
        importer.frame("typed")


def test_a_decimal_that_cannot_be_one_is_refused_before_any_row(
    importer: Importer, conn: Connection
) -> None:
    add_typed_form(conn)
    conn.execute("INSERT INTO forms.typed (import_job_id, row_number, amount) VALUES (1, 2, 'NaN')")
    with pytest.raises(UsageError, match="column amount holds NaN"):
        importer.frame("typed")


@pytest.mark.parametrize(
    ("scale", "magnitude", "chosen"),
    [
        (None, None, 0),  # no values
        (2, Decimal("123.45"), 2),
        (0, Decimal("0"), 0),
        (20, Decimal("10") ** 17, 20),  # 18 + 20 digits: fits in 38
        (25, Decimal("10") ** 17, 19),  # 18 + 25 do not: the scale gives way, a digit spare
        (5, Decimal("10") ** 36, 0),  # 37 digits, one spare for rounding
    ],
)
def test_a_decimals_scale_is_the_datas_as_far_as_38_digits_allow(
    scale: int | None, magnitude: Decimal | None, chosen: int
) -> None:
    assert surveyed_scale("amount", scale, magnitude) == chosen


def test_a_decimal_beyond_38_digits_or_infinite_is_refused() -> None:
    with pytest.raises(UsageError, match="39 digits before the point"):
        surveyed_scale("amount", 0, Decimal("10") ** 38)
    with pytest.raises(UsageError, match="holds Infinity"):
        surveyed_scale("amount", 0, Decimal("Infinity"))
    assert [integer_digits(Decimal(t)) for t in ("0.5", "9.99", "10", "0")] == [0, 1, 2, 0]
