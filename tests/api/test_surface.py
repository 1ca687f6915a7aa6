"""The public Python surface: what ``importer`` exports and what an ``Importer`` offers, and
nothing more. A change here is a change for every application: make it on purpose."""

from __future__ import annotations

import inspect
import subprocess
import sys

import importer
from importer.api import Importer

EXPORTS = {
    "CheckRequest",
    "Importer",
    "Job",
    "JobStatus",
    "RejectedRow",
    "RunEvents",
    "SheetsRequest",
    "SubmitRequest",
    "__version__",
}

METHODS = {
    # jobs
    "job", "job_with_liveness", "jobs", "cancel", "retry", "retry_many", "failed_jobs",
    "jobs_to_resume",
    "submit", "submit_workbook", "resume", "resume_jobs", "rejected_rows", "check",
    "top_reasons", "export_rejected_rows", "rejected_preview", "purge", "correct",
    # taking imports back; what a new job is given
    "undo", "history", "job_options", "notify_defaults", "job_with_notices",
    # a form's rows out: a DataFrame, a file
    "frame", "export_rows",
    # several sheets, one group
    "submit_sheets", "group_jobs", "export_group_rows",
    # forms
    "add_form", "add_form_file", "retire_form", "form", "forms", "infer_form",
    # timers, the fleet, the daemons
    "timers", "cancel_timer", "stats", "figures", "openmetrics", "serve_metrics",
    "fleet_watch", "run_worker", "run_scheduler",
    # accounts of the web page and the API; jobs as one account sees them
    "add_user", "users", "user", "api_tokens", "remove_user", "set_password", "create_token",
    "revoke_token", "token_account", "sign_in", "session_account", "sign_out",
    "job_for", "jobs_for", "rejected_rows_for", "error_workbook_for", "cancel_for",
    "retry_for", "forms_for", "submit_for", "progress_for", "progress_reader", "undo_for",
    # the page's uploads: checked, their columns matched, then imported (or a correction)
    "upload_for", "review_upload_for", "match_columns_for", "import_upload_for",
    "checked_rows_for", "drop_upload_for", "correct_for", "checked_upload_for",
    # rejected rows fixed in place, then imported as a correction
    "rows_to_fix_for", "edit_rows_for", "replace_in_rejected_for", "import_fixed_rows_for",
    # the database
    "database", "connection", "migrate", "database_url", "schema_peek", "stop_embedded_server",
    "embedded_server_info", "remove_embedded_server", "sharing_connections",
}  # fmt: skip


def test_the_package_exports_exactly_its_surface() -> None:
    assert set(importer.__all__) == EXPORTS
    assert set(dir(importer)) == EXPORTS
    for name in EXPORTS:
        assert getattr(importer, name) is not None
    assert importer.Importer is Importer


def test_an_importer_offers_exactly_its_methods() -> None:
    public = {name for name, _ in inspect.getmembers(Importer) if not name.startswith("_")}
    assert public == METHODS


def test_importing_the_package_loads_no_database_layer() -> None:
    # `importer --version` and the readers stay light: the facade loads on first use.
    code = "import sys, importer; print(sorted(m for m in sys.modules if 'psycopg' in m))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
