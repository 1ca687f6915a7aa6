"""What the database itself saw: triggers that log every committed write, and the checks.

Installed only in a campaign's own database, after the schema and the forms' tables exist
(every table in the schema `forms` is watched: a row stored is a row inserted there). Triggers
are transactional, so the log holds exactly what was committed, with the transaction id and the
server process that wrote it. The checks then prove the one promise from the inside:

- every transaction that stored rows or rejected rows for a job advanced that job's cursor
  by exactly as many, and did so while the job was `running` and still owned by the same
  lease owner (fenced);
- no job changed owner while a live lease was held, except a takeover from an owner the
  campaign had killed;
- a timer completed at most once, in the same transaction as its effect.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import sql
from psycopg.rows import dict_row

from importer.identity import parse_owner

AUDIT_DDL = """
CREATE TABLE chaos_writes (
    id bigserial PRIMARY KEY, txid bigint NOT NULL, backend int NOT NULL,
    at timestamptz NOT NULL DEFAULT clock_timestamp(),
    tbl text NOT NULL, op text NOT NULL, job bigint NOT NULL, n int NOT NULL
);
CREATE TABLE chaos_jobs (
    id bigserial PRIMARY KEY, txid bigint NOT NULL, backend int NOT NULL,
    at timestamptz NOT NULL DEFAULT clock_timestamp(),
    job bigint NOT NULL, old_status text, new_status text, old_owner text, new_owner text,
    old_expires timestamptz, d_success int, d_failed int, became_available boolean,
    cut_short boolean
);
CREATE TABLE chaos_timers (
    id bigserial PRIMARY KEY, txid bigint NOT NULL, backend int NOT NULL,
    at timestamptz NOT NULL DEFAULT clock_timestamp(),
    timer bigint NOT NULL, kind text, target text, old_status text, new_status text,
    old_owner text, new_owner text
);

-- A form's table as "forms.<name>" (a form may be called like one of the tool's tables).
CREATE FUNCTION chaos_table_name(schema_name name, table_name name) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN schema_name = 'forms' THEN 'forms.' || table_name ELSE table_name END
$$;

CREATE FUNCTION chaos_log_writes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO chaos_writes (txid, backend, tbl, op, job, n)
        SELECT txid_current(), pg_backend_pid(), chaos_table_name(TG_TABLE_SCHEMA, TG_TABLE_NAME),
               TG_OP, import_job_id, count(*)
          FROM old_rows GROUP BY import_job_id;
    ELSE
        INSERT INTO chaos_writes (txid, backend, tbl, op, job, n)
        SELECT txid_current(), pg_backend_pid(), chaos_table_name(TG_TABLE_SCHEMA, TG_TABLE_NAME),
               TG_OP, import_job_id, count(*)
          FROM new_rows GROUP BY import_job_id;
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION chaos_log_job() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.status IS DISTINCT FROM NEW.status
       OR OLD.lease_owner IS DISTINCT FROM NEW.lease_owner
       OR OLD.success_rows <> NEW.success_rows OR OLD.failed_rows <> NEW.failed_rows
       OR (OLD.available_at IS NULL AND NEW.available_at IS NOT NULL)
       OR (NEW.lease_expires_at < OLD.lease_expires_at AND NEW.lease_expires_at <= now()) THEN
        INSERT INTO chaos_jobs (txid, backend, job, old_status, new_status, old_owner, new_owner,
                                old_expires, d_success, d_failed, became_available, cut_short)
        VALUES (txid_current(), pg_backend_pid(), NEW.id, OLD.status, NEW.status,
                OLD.lease_owner, NEW.lease_owner, OLD.lease_expires_at,
                NEW.success_rows - OLD.success_rows, NEW.failed_rows - OLD.failed_rows,
                OLD.available_at IS NULL AND NEW.available_at IS NOT NULL,
                -- voided: set into the past while the same owner still holds it
                NEW.lease_expires_at < OLD.lease_expires_at AND NEW.lease_expires_at <= now()
                    AND NEW.lease_owner IS NOT DISTINCT FROM OLD.lease_owner);
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION chaos_log_timer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.status IS DISTINCT FROM NEW.status OR OLD.lease_owner IS DISTINCT FROM NEW.lease_owner
    THEN
        INSERT INTO chaos_timers (txid, backend, timer, kind, target, old_status, new_status,
                                  old_owner, new_owner)
        VALUES (txid_current(), pg_backend_pid(), NEW.id, NEW.kind, NEW.target, OLD.status,
                NEW.status, OLD.lease_owner, NEW.lease_owner);
    END IF;
    RETURN NULL;
END $$;
"""

_TOOL_WRITE_TABLES = ("import_rejected_rows", "import_row_errors")
FORMS_SCHEMA = "forms"  # the forms' own tables: where a job's rows are stored


def _write_triggers(tables: list[sql.Identifier]) -> list[sql.SQL | sql.Composed]:
    statements: list[sql.SQL | sql.Composed] = []
    for table in tables:
        for op, transition in (("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")):
            rows = sql.SQL(f"{transition.lower()}_rows")
            statements.append(
                sql.SQL(
                    "CREATE TRIGGER {} AFTER {} ON {} REFERENCING {} TABLE AS {}"
                    " FOR EACH STATEMENT EXECUTE FUNCTION chaos_log_writes()"
                ).format(
                    sql.Identifier(f"chaos_{op.lower()}"),
                    sql.SQL(op),
                    table,
                    sql.SQL(transition),
                    rows,
                )
            )
    statements.append(
        sql.SQL(
            "CREATE TRIGGER chaos_jobs_upd AFTER UPDATE ON import_jobs "
            "FOR EACH ROW EXECUTE FUNCTION chaos_log_job()"
        )
    )
    statements.append(
        sql.SQL(
            "CREATE TRIGGER chaos_timers_upd AFTER UPDATE ON timer_jobs "
            "FOR EACH ROW EXECUTE FUNCTION chaos_log_timer()"
        )
    )
    return statements


def install(url: str) -> None:
    """The log and its triggers; on every form's table that exists now (add forms first)."""
    with psycopg.connect(url, autocommit=True) as conn:
        forms = conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = %s ORDER BY 1", (FORMS_SCHEMA,)
        ).fetchall()
        if not forms:
            raise RuntimeError("no form's table to audit: add the forms before the audit")
        tables = [sql.Identifier(t) for t in _TOOL_WRITE_TABLES]
        tables += [sql.Identifier(FORMS_SCHEMA, t) for (t,) in forms]
        conn.execute(AUDIT_DDL)
        for statement in _write_triggers(tables):
            conn.execute(statement)


def stored_rows(counts: dict[str, int]) -> int:
    """Rows a transaction stored for a job: its inserts into the forms' tables."""
    return sum(n for table, n in counts.items() if table.startswith(f"{FORMS_SCHEMA}."))


def _pid_of(owner: str | None) -> int | None:
    parsed = parse_owner(owner) if owner else None
    return parsed.pid if parsed is not None else None


@dataclass
class AuditReport:
    problems: list[str]
    write_transactions: int
    takeovers: int  # claims of a running job from another owner
    early_takeovers: int  # leases taken or voided before expiry (owner known dead)

    @property
    def ok(self) -> bool:
        return not self.problems


def check(
    url: str,
    *,
    killed_pids: set[int] | None = None,
    stale_backends: dict[int, Any] | None = None,
) -> AuditReport:
    """Check the committed history; `stale_backends` maps a server pid to the time after
    which it must have committed nothing (a paused writer that lost its lease)."""
    killed = killed_pids or set()
    problems: list[str] = []
    with psycopg.connect(url, row_factory=dict_row) as conn:
        # Commit time, not insert time: a paused writer may insert before and commit after.
        writes = conn.execute(
            "SELECT *, coalesce(pg_xact_commit_timestamp(xmin), at) AS committed"
            " FROM chaos_writes ORDER BY id"
        ).fetchall()
        jobs = conn.execute("SELECT * FROM chaos_jobs ORDER BY id").fetchall()
        timers = conn.execute("SELECT * FROM chaos_timers ORDER BY id").fetchall()

    by_tx: dict[tuple[int, int], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for w in writes:
        if w["op"] != "INSERT" and w["tbl"] != "import_row_errors":
            problems.append(
                f"job {w['job']}: {w['op']} of {w['n']} row(s) in {w['tbl']} (tx {w['txid']})"
            )
        by_tx[(w["txid"], w["job"])][w["tbl"]] += w["n"] if w["op"] == "INSERT" else 0
        if stale_backends and w["backend"] in stale_backends:
            after = stale_backends[w["backend"]]
            if w["committed"] > after:
                problems.append(
                    f"job {w['job']}: paused writer (backend {w['backend']}) committed "
                    f"{w['n']} row(s) in {w['tbl']} at {w['committed']:%H:%M:%S.%f} after "
                    "losing its lease"
                )

    job_tx: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    takeovers = early = 0
    for j in jobs:
        job_tx[(j["txid"], j["job"])].append(j)
        if j["cut_short"] and j["old_expires"] > j["at"]:
            # Only `resume` may void a live lease, and only of an owner that is gone.
            early += 1
            if _pid_of(j["old_owner"]) not in killed:
                problems.append(
                    f"job {j['job']}: lease of {j['old_owner']} cut short before it expired "
                    f"({j['old_expires']}) though that process was not killed"
                )
        if (
            j["old_status"] == "running"
            and j["new_status"] == "running"
            and j["old_owner"]
            and j["new_owner"]
            and j["old_owner"] != j["new_owner"]
        ):
            takeovers += 1
            if j["old_expires"] is not None and j["old_expires"] > j["at"]:
                early += 1
                if _pid_of(j["old_owner"]) not in killed:
                    problems.append(
                        f"job {j['job']}: taken from live owner {j['old_owner']} by "
                        f"{j['new_owner']} before its lease expired ({j['old_expires']})"
                    )

    for key, counts in by_tx.items():
        txid, job = key
        stored = stored_rows(counts)
        rejected = counts.get("import_rejected_rows", 0)
        updates = job_tx.get(key, [])
        d_success = sum(u["d_success"] for u in updates)
        d_failed = sum(u["d_failed"] for u in updates)
        if (stored, rejected) != (d_success, d_failed):
            problems.append(
                f"job {job}: transaction {txid} stored {stored} row(s) and {rejected} rejected "
                f"row(s) but moved the cursor by +{d_success}/+{d_failed}"
            )
        for u in updates:
            if u["d_success"] or u["d_failed"]:
                if u["old_status"] != "running" or not u["old_owner"]:
                    problems.append(
                        f"job {job}: cursor moved in transaction {txid} while the job was "
                        f"{u['old_status']} (owner {u['old_owner']})"
                    )
                elif u["new_owner"] != u["old_owner"] and u["new_status"] == "running":
                    problems.append(
                        f"job {job}: cursor moved in transaction {txid} by a changing owner "
                        f"{u['old_owner']} -> {u['new_owner']}"
                    )
    # Cursor moves with no rows written at all.
    for key, updates in job_tx.items():
        if key in by_tx:
            continue
        moved = [u for u in updates if u["d_success"] or u["d_failed"]]
        if moved:
            problems.append(
                f"job {key[1]}: transaction {key[0]} moved the cursor by "
                f"+{sum(u['d_success'] for u in moved)}/+{sum(u['d_failed'] for u in moved)} "
                "without writing any row"
            )

    problems.extend(_check_timers(timers, jobs))
    return AuditReport(problems, len(by_tx), takeovers, early)


def _check_timers(timers: list[dict[str, Any]], jobs: list[dict[str, Any]]) -> list[str]:
    """A timer completes once, and a scheduled import's effect commits with it."""
    problems = []
    completed: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for t in timers:
        if t["new_status"] == "completed" and t["old_status"] != "completed":
            completed[t["timer"]].append(t)
    effects: dict[int, set[str]] = defaultdict(set)
    for j in jobs:
        if j["became_available"]:
            effects[j["txid"]].add(str(j["job"]))
    for timer, done in completed.items():
        if len(done) > 1:
            problems.append(f"timer {timer}: completed {len(done)} times")
        first = done[0]
        if first["kind"] == "scheduled_import" and first["target"] not in effects[first["txid"]]:
            problems.append(
                f"timer {timer}: completed without making job {first['target']} available "
                "in the same transaction"
            )
    return problems


def timer_summary(url: str) -> dict[str, int]:
    with psycopg.connect(url, row_factory=dict_row) as conn:
        rows = conn.execute(
            "SELECT status, count(*) AS n FROM timer_jobs GROUP BY status"
        ).fetchall()
    return {r["status"]: r["n"] for r in rows}
