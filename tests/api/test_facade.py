"""The Python API (importer.Importer): the reference page's example runs as written, and the methods
an application calls take paths or bytes and raise the tool's own errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from importer import Importer
from importer.errors import InputError, NotFoundError, StateError, UsageError
from importer.forms.definition import load_form_file, parse_form_text
from importer.running.job_run import JobProgress
from importer.states import JobStatus
from tests.support.jobs import ORDERS_FORM, orders_book

ROOT = Path(__file__).resolve().parents[2]


def readme_example() -> str:
    text = (ROOT / "docs" / "reference" / "python-api.md").read_text(encoding="utf-8")
    found = re.search(r"```python\n(.*?)```", text, re.DOTALL)
    assert found is not None, "the Python API reference has no python block"
    return found.group(1)


def test_the_readme_example_runs(
    cli_env: dict[str, str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    Importer().add_form(load_form_file(ROOT / "sample_data" / "orders.form.toml"))
    monkeypatch.chdir(ROOT)  # the example reads sample_data/orders.xlsx
    namespace: dict[str, object] = {}
    exec(compile(readme_example(), "python-api.md", "exec"), namespace)
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 15  # the sample's 15 rows with mistakes, one line each
    job = namespace["job"]
    assert getattr(job, "status", None) is JobStatus.PARTIALLY_SUCCEEDED
    upload = namespace["upload"]
    assert callable(upload)
    with pytest.raises(ValueError, match="no form fits this header"):
        upload("notes.csv", b"just some text\n")


def test_submit_bytes_and_paths_wait_or_queue(cli_env: dict[str, str], tmp_path: Path) -> None:
    importer = Importer()
    importer.add_form(parse_form_text(ORDERS_FORM))
    book = orders_book(tmp_path / "a.xlsx", 30)
    events: list[JobProgress] = []
    job = importer.submit(book.path.read_bytes(), file_name="a.xlsx", on_progress=events.append)
    assert job.status is JobStatus.PARTIALLY_SUCCEEDED and job.file_name == "a.xlsx"
    assert (job.success_rows, job.failed_rows) == (27, 3) and events
    assert importer.submit(book.path).id == job.id  # the same file: the same job
    rows = list(importer.rejected_rows(job.id))
    assert [r.row_number for r in rows] == sorted(book.invalid)
    assert rows[0].values[2] == "-5" and rows[0].reasons[0].startswith("Amount:")

    queued = importer.submit(str(orders_book(tmp_path / "b.xlsx", 5, start_id=99).path), wait=False)
    assert queued.status is JobStatus.PENDING and queued.total_rows is None
    assert [j.id for j in importer.jobs(status="pending")] == [queued.id]
    assert importer.cancel(queued.id).status is JobStatus.CANCELLED
    assert [j.id for j in importer.jobs(status=[JobStatus.CANCELLED])] == [queued.id]
    assert importer.resume(job.id).id == job.id  # finished: returned as it is


def test_the_api_raises_the_tools_own_errors(cli_env: dict[str, str]) -> None:
    importer = Importer()
    importer.add_form(parse_form_text(ORDERS_FORM))
    with pytest.raises(UsageError, match="file_name"):
        importer.submit(b"PK\x03\x04")
    with pytest.raises(InputError):
        importer.submit(b"%PDF-1.4 not a workbook", file_name="x.xlsx")
    with pytest.raises(NotFoundError):
        importer.job(404)
    with pytest.raises(NotFoundError):
        importer.rejected_rows(404)  # refused at the call, before any row is read
    with pytest.raises(UsageError, match="status 'done'"):
        importer.jobs(status="done")
    with pytest.raises(NotFoundError):
        importer.cancel(404)
    with pytest.raises(StateError, match="only a failed job"):
        importer.retry(
            importer.submit(b"Order ID,Customer\n1,a\n", file_name="t.csv", wait=False).id
        )
