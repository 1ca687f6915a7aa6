"""The page's uploads waiting for their sender, the check of their rows kept with them, and
the columns senders matched (SQL in sql/queries/upload_reviews.sql, tables of migration
0019). A review is read and changed only
by its own account: another's is answered as one that does not exist."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from importer.database import Connection, queries
from importer.errors import Missing, NotFoundError
from importer.repositories.jobs import store_file


@dataclass(frozen=True)
class UploadReview:
    """An upload checked before it is imported: its bytes (by sha256), what the sender asked
    for with it, the columns matched, and the import it became (None: not yet)."""

    id: int
    user_id: int
    file: str
    file_name: str
    form: str | None
    sheet: str | None
    header_row: int | None
    max_rejected: str | None
    column_map: dict[str, str]
    job_id: int | None
    created_at: datetime
    # The check of its rows as kept with it (see keep_check); never among its options, so
    # that new options let it go.
    checked: dict[str, Any] | None = None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> UploadReview:
        options = dict(row["options"])
        return cls(
            id=int(row["id"]),
            user_id=int(row["user_id"]),
            file=str(row["file"]),
            file_name=str(row["file_name"]),
            form=options.get("form"),
            sheet=options.get("sheet"),
            header_row=options.get("header_row"),
            max_rejected=options.get("max_rejected"),
            column_map=dict(options.get("column_map") or {}),
            job_id=row["job_id"],
            created_at=row["created_at"],
            checked=options.get("checked"),
        )

    def options(self, **changes: Any) -> dict[str, Any]:
        kept = {
            "form": self.form,
            "sheet": self.sheet,
            "header_row": self.header_row,
            "max_rejected": self.max_rejected,
            "column_map": self.column_map,
        }
        return {**kept, **changes}


def not_found(review_id: int) -> NotFoundError:
    return NotFoundError(
        f"no upload with id {review_id} waiting to be imported", what=Missing.UPLOAD, key=review_id
    )


def add_review(
    conn: Connection, user_id: int, content: bytes, file_name: str, options: dict[str, Any]
) -> UploadReview:
    """Keep the bytes (once, by sha256) and the upload waiting for its sender."""
    with conn.transaction():
        sha256 = store_file(conn, content)
        row = conn.execute(
            queries().insert_upload_review,
            {"user_id": user_id, "file": sha256, "file_name": file_name, "options": Jsonb(options)},
        ).fetchone()
    assert row is not None
    return UploadReview.from_row(row)


def review(conn: Connection, user_id: int, review_id: int) -> UploadReview:
    row = conn.execute(queries().upload_review, {"id": review_id, "user_id": user_id}).fetchone()
    if row is None:
        raise not_found(review_id)
    return UploadReview.from_row(row)


def set_options(
    conn: Connection, user_id: int, review_id: int, options: dict[str, Any]
) -> UploadReview:
    """New options for an upload not imported yet (imported: NotFoundError, as gone)."""
    row = conn.execute(
        queries().set_upload_review_options,
        {"id": review_id, "user_id": user_id, "options": Jsonb(options)},
    ).fetchone()
    if row is None:
        raise not_found(review_id)
    return UploadReview.from_row(row)


def keep_check(
    conn: Connection, user_id: int, review_id: int, options: dict[str, Any], checked: Any
) -> None:
    """Keep ``checked`` with the upload while its options are still ``options`` (the ones
    it was checked with); an upload changed or imported since keeps nothing."""
    conn.execute(
        queries().keep_upload_review_check,
        {"id": review_id, "user_id": user_id, "options": Jsonb(options), "checked": Jsonb(checked)},
    )


def set_job(conn: Connection, user_id: int, review_id: int, job_id: int) -> None:
    conn.execute(
        queries().set_upload_review_job, {"id": review_id, "user_id": user_id, "job_id": job_id}
    )


def drop(conn: Connection, user_id: int, review_id: int) -> None:
    """The upload goes (its bytes too, when nothing else needs them)."""
    row = conn.execute(
        queries().delete_upload_review, {"id": review_id, "user_id": user_id}
    ).fetchone()
    if row is None or not row["dropped"]:
        raise not_found(review_id)


def header_hash(header: Sequence[str]) -> str:
    return hashlib.sha256(json.dumps(list(header)).encode()).hexdigest()


def saved_mapping(
    conn: Connection, user_id: int, form: str, header: Sequence[str]
) -> dict[str, str] | None:
    """The columns this account matched the last time this header came for this form."""
    row = conn.execute(
        queries().header_mapping,
        {"user_id": user_id, "form": form, "header_hash": header_hash(header)},
    ).fetchone()
    return None if row is None else dict(row["column_map"])


def save_mapping(
    conn: Connection, user_id: int, form: str, header: Sequence[str], mapping: dict[str, str]
) -> None:
    conn.execute(
        queries().save_header_mapping,
        {
            "user_id": user_id,
            "form": form,
            "header_hash": header_hash(header),
            "column_map": Jsonb(mapping),
        },
    )
