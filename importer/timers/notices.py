"""The `notify` timer kind: a job's completion notice, POSTed to its receiver.

Migration 0014's trigger creates the timer in the transaction that ends the job (the outbox:
no notice without an end, no end without its notice). Firing one is an HTTP call, which no
transaction may wait on: ``prepare_notice`` reads what the request needs on the firer's
connection, and the firer sends it with no transaction open, then records the outcome in a
transaction of the timer's own (importer/timers/firing.py). Delivery is at least once: a
scheduler that dies between the answer and that record leaves the timer to be fired again,
with the same Idempotency-Key, which is how a receiver knows a repeat.

The body is the job as `importer status --json` prints it (as it ended), its top rejection
reasons and the event; with a secret, ``X-Importer-Signature: sha256=<hex>`` is the
HMAC-SHA256 of the exact body bytes under it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from dataclasses import dataclass
from typing import Any

from importer.database import Connection
from importer.errors import ImporterError
from importer.repositories import jobs
from importer.repositories.jobs import Job
from importer.repositories.notices import job_as_it_ended
from importer.repositories.rejected_rows import Reason, top_reasons
from importer.repositories.timers import Timer
from importer.states import Liveness
from importer.timers.webhooks import WebhookRequest, post

SIGNATURE_HEADER = "X-Importer-Signature"
DEFAULT_TIMEOUT_SECONDS = 10.0
TOP_REASONS = 3


class SecretMissing(ImporterError):
    """The notice is to be signed, but this process has no value for the secret's variable:
    the attempt fails (retried), rather than sending it unsigned."""


def status_json(job: Job, liveness: Liveness) -> dict[str, Any]:
    """A job as `importer status --json` prints it (its notices aside): a notice's body
    starts with the same object."""
    return {**job.to_json(), "owner": str(liveness)}


def notice_body(job: Job, event: str, reasons: list[Reason]) -> bytes:
    """The request's exact bytes (what the signature signs)."""
    body = {
        **status_json(job, jobs.liveness(job, job.finished_at or job.created_at)),
        "top_reasons": [
            {"column": r.column, "reason": r.example, "errors": r.errors, "variants": r.variants}
            for r in reasons
        ],
        "event": event,
    }
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def signature(secret: str, body: bytes) -> str:
    """The X-Importer-Signature value: ``sha256=`` and the hex HMAC-SHA256 of the body."""
    return "sha256=" + hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class NoticeDelivery:
    """One prepared request (kinds.Delivery): sent by the firer with no transaction open."""

    request: WebhookRequest

    @property
    def seconds(self) -> float:
        # Connect, send and read each have the timeout; the lease must outlast them all.
        return 3 * self.request.timeout_seconds

    def send(self) -> None:
        post(self.request)


def prepare_notice(conn: Connection, timer: Timer) -> NoticeDelivery | str:
    """The request of a notify timer, or why it can never be sent (the timer is then
    cancelled). SecretMissing when this process cannot sign it (retried later)."""
    payload = timer.payload
    url, snapshot, event = payload.get("url"), payload.get("job"), payload.get("event")
    if not isinstance(url, str) or not url:
        return "notify timer without a url"
    if not isinstance(snapshot, dict) or not isinstance(event, str):
        return "notify timer without its job and event"
    job = job_as_it_ended(conn, snapshot)
    reasons = top_reasons(conn, job.id, TOP_REASONS) if job.failed_rows else []
    body = notice_body(job, event, reasons)
    headers = {"Content-Type": "application/json", "Idempotency-Key": timer.target}
    secret_env = payload.get("secret_env")
    if isinstance(secret_env, str) and secret_env:
        secret = os.environ.get(secret_env)
        if not secret:
            raise SecretMissing(
                f"{secret_env} (the notice's secret) is not set in this process's environment;"
                " the notice is not sent unsigned"
            )
        headers[SIGNATURE_HEADER] = signature(secret, body)
    timeout = payload.get("timeout_seconds")
    seconds = (
        float(timeout)
        if isinstance(timeout, int | float) and not isinstance(timeout, bool) and timeout > 0
        else DEFAULT_TIMEOUT_SECONDS
    )
    return NoticeDelivery(WebhookRequest(url, body, headers, seconds))
