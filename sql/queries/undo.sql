-- `importer undo` and the reject threshold: a job's rows taken back in one transaction.
-- Owned by importer/repositories/undo.py; {placeholders} are identifiers composed with
-- psycopg.sql from the form's FormTable and its history table (history.sql).

-- name: lock_undo_jobs
-- The jobs to undo, locked in id order (two undos of overlapping sets never deadlock).
SELECT * FROM import_jobs WHERE id = ANY(%(jobs)s) ORDER BY id FOR UPDATE

-- name: history_kept_since
-- Since when a keyed batch keeps what it overwrites (migration 0013). A keyed job that started
-- before kept nothing of the rows it overwrote: its undo could only delete them.
SELECT applied_at FROM schema_migrations WHERE version = 13

-- name: later_jobs
-- Jobs outside the set that overwrote rows of a job in it (batches.sql upsert_kept_form_rows
-- notes them): undoing the set alone would bring back values they replaced. And the
-- corrections of a job in it that are not undone (why 'corrects'): they carry its rows.
SELECT DISTINCT r.replaced_by AS job_id, j.status, j.form, 'replaced' AS why
  FROM import_job_replacements r JOIN import_jobs j ON j.id = r.replaced_by
 WHERE r.job_id = ANY(%(jobs)s) AND NOT r.replaced_by = ANY(%(jobs)s)
UNION
SELECT j.id, j.status, j.form, 'corrects'
  FROM import_jobs j
 WHERE j.origin_job_id = ANY(%(jobs)s) AND j.status <> 'reverted' AND NOT j.id = ANY(%(jobs)s)
 ORDER BY 1

-- name: lock_form_writes
-- Taken by every keyed batch before its upsert and by an undo before it changes rows: the
-- upsert keeps the values it overwrites as its statement's snapshot read them, which holds
-- only while no other writer of the tool changes the form's rows in between.
SELECT pg_advisory_xact_lock(hashtextextended('importer form ' || %(form)s, 0))

-- name: lock_job_rows
-- The rows the set's jobs hold now, locked: a batch of another job about to overwrite one
-- (after lock_form_writes) waits until this undo commits, then sees the
-- restored row, or none.
SELECT count(*)::bigint AS n FROM (SELECT 1 FROM {table} WHERE {job} = ANY(%(jobs)s) FOR UPDATE) AS held

-- name: earliest_versions
-- For each key the set's jobs replaced, the version before the first of them replaced it:
-- the one version a job of the set replaced that a job outside the set wrote (a key's
-- versions written by the set are its latest ones, for a later job outside it was refused
-- above). A key without one was inserted by a job of the set.
SELECT * FROM {history}
 WHERE replaced_by_job = ANY(%(jobs)s) AND NOT coalesce(version_job = ANY(%(jobs)s), false)

-- name: undo_counts_keyed
-- Per job of the set: the rows it holds, and how many of them go back to a version of a
-- job outside the set (the others are removed).
SELECT t.{job} AS job_id, count(*)::bigint AS held,
       count(h.replaced_by_job)::bigint AS restored
  FROM {table} t
  LEFT JOIN ({earliest}) AS h ON ({table_key}) = ({history_key})
 WHERE t.{job} = ANY(%(jobs)s)
 GROUP BY t.{job}

-- name: undo_counts_append
SELECT {job} AS job_id, count(*)::bigint AS held, 0::bigint AS restored
  FROM {table} WHERE {job} = ANY(%(jobs)s) GROUP BY {job}

-- name: restore_rows
-- Rows the set holds whose key had a version before it: those values back, with the job,
-- Excel row and written_at that version had.
UPDATE {table} t
   SET ({set_columns}) = ({version_columns})
  FROM ({earliest}) AS h
 WHERE ({table_key}) = ({history_key}) AND t.{job} = ANY(%(jobs)s)


-- name: remove_rows
-- What the set still holds after the restore: rows its jobs inserted.
DELETE FROM {table} WHERE {job} = ANY(%(jobs)s)

-- name: forget_versions
DELETE FROM {history} WHERE replaced_by_job = ANY(%(jobs)s)

-- name: forget_replacements
DELETE FROM import_job_replacements
 WHERE replaced_by = ANY(%(jobs)s) OR job_id = ANY(%(jobs)s)

-- name: mark_reverted
-- The jobs are reverted; their idempotency key is released, so that the same workbook may
-- be submitted again and imported anew.
UPDATE import_jobs
   SET status = 'reverted', reverted_at = now(), idempotency_key = NULL
 WHERE id = ANY(%(jobs)s)
RETURNING *

-- name: lock_running_job
-- A run over its reject threshold: the job, still this run's (the batch fence's terms).
SELECT * FROM import_jobs
 WHERE id = %(id)s AND lease_owner = %(owner)s AND status = 'running'
   FOR UPDATE

-- name: fail_over_limit
-- ... failed at once, never retried (the same rows would be rejected again), in the
-- transaction that took its rows back; the attempt is recorded like any failed one.
WITH failed AS (
    UPDATE import_jobs
       SET status = 'failed', last_error = %(error)s, finished_at = now(),
           -- its rows taken back: when, as an undo records it (none of them is kept)
           reverted_at = CASE WHEN %(taken_back)s THEN now() ELSE reverted_at END,
           heartbeat_at = now(), lease_owner = NULL, lease_expires_at = NULL
     WHERE id = %(id)s AND lease_owner = %(owner)s AND status = 'running'
    RETURNING *
), recorded AS (
    INSERT INTO import_attempt_failures (import_job_id, error)
    SELECT id, last_error FROM failed
)
SELECT * FROM failed
