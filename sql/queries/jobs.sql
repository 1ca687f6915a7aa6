-- Import jobs. Owned by importer/repositories/jobs.py (the batch transaction and stored rows
-- by key: sql/queries/batches.sql; a job's row count set by its run:
-- importer/repositories/batches.py; rejected rows: importer/repositories/rejected_rows.py).
-- Every statement that changes a running job is fenced: id + lease owner + status 'running'.

-- name: lock_import_file
-- FOR SHARE until the submit commits: a purge of the same file waits (see retention.sql).
SELECT purged_at FROM import_files WHERE sha256 = %(sha256)s FOR SHARE

-- name: restore_import_file
-- The same bytes again after retention purged them: a new job needs them.
UPDATE import_files SET content = %(content)s, purged_at = NULL
 WHERE sha256 = %(sha256)s AND purged_at IS NOT NULL

-- name: lock_import_file_key
-- Until the submit commits: another submit of the same new file waits here, then finds it
-- stored (the bytes are streamed with COPY, which has no ON CONFLICT).
SELECT pg_advisory_xact_lock(hashtextextended(%(sha256)s, 0))

-- name: copy_import_file
-- The bytes streamed in COPY's binary format, in chunks, never as one statement parameter.
COPY import_files (sha256, size_bytes, content) FROM STDIN (FORMAT BINARY)

-- name: import_file_content
SELECT content, purged_at FROM import_files WHERE sha256 = %(sha256)s

-- name: job_by_idempotency_key
SELECT * FROM import_jobs WHERE idempotency_key = %(key)s

-- name: release_idempotency_key
-- --force: the new job takes the key over, so a later plain submit reports the newest import.
UPDATE import_jobs SET idempotency_key = NULL WHERE idempotency_key = %(key)s

-- name: insert_import_job
-- No row back: another submit of the same key won the race (report that job instead).
-- A form with a key starts its inserted / updated / unchanged counts at 0 (NULL otherwise).
INSERT INTO import_jobs (form, form_version, file, file_name, sheet, engine, header, total_rows,
                         max_attempts, idempotency_key, available_at, column_map,
                         inserted_rows, updated_rows, unchanged_rows, sheet_layout, group_id,
                         max_rejected, notify, rows_not_read, submitted_by, submitted_by_user)
VALUES (%(form)s, %(form_version)s, %(file)s, %(file_name)s, %(sheet)s, %(engine)s, %(header)s,
        %(total_rows)s, %(max_attempts)s, %(key)s,
        CASE WHEN %(waiting)s THEN NULL ELSE now() END, %(column_map)s,
        CASE WHEN %(keyed)s THEN 0 END, CASE WHEN %(keyed)s THEN 0 END,
        CASE WHEN %(keyed)s THEN 0 END, %(sheet_layout)s, %(group_id)s,
        %(max_rejected)s, %(notify)s, %(rows_not_read)s, %(submitted_by)s,
        %(submitted_by_user)s)
ON CONFLICT (idempotency_key) DO NOTHING
RETURNING *

-- name: notify_import_job
SELECT pg_notify('importer_jobs', %(id)s::text) AS notified

-- name: fail_exhausted_import_jobs
-- Runs before every claim: a running job whose lease expired on its last attempt is failed,
-- so it can never be picked up again (claim requires attempts < max_attempts). That attempt
-- counts as failed.
WITH exhausted AS (
    UPDATE import_jobs
       SET status = 'failed',
           finished_at = now(),
           last_error = 'the process running it (' || coalesce(lease_owner, '?')
                        || ') stopped responding and its lease expired on the last attempt ('
                        || attempts || ' of ' || max_attempts || ')'
                        || coalesce('; earlier: ' || last_error, ''),
           lease_owner = NULL,
           lease_expires_at = NULL
     WHERE id IN (SELECT id FROM import_jobs
                   WHERE status = 'running'
                     AND lease_expires_at < now()
                     AND attempts >= max_attempts
                     AND (%(job_ids)s::bigint[] IS NULL OR id = ANY(%(job_ids)s::bigint[]))
                   FOR UPDATE SKIP LOCKED)
    RETURNING id, last_error
)
INSERT INTO import_attempt_failures (import_job_id, error)
SELECT id, last_error FROM exhausted

-- name: claim_import_jobs
-- ONE statement: oldest claimable first, rows held by another claimer skipped. The due
-- jobs (in claim order on import_jobs_queue) and the running ones whose lease expired (the
-- running jobs, on import_jobs_live: a fleet's worth) are found apart, then merged: with an
-- OR between them one index had to serve both, and the planner could walk every job waiting
-- on a timer (migration 0015). A row locked by a branch but not taken is free again when
-- the statement commits.
WITH due AS (
    SELECT id, created_at FROM import_jobs
     WHERE status = 'pending' AND available_at IS NOT NULL AND available_at <= now()
       AND attempts < max_attempts
       AND (%(job_ids)s::bigint[] IS NULL OR id = ANY(%(job_ids)s::bigint[]))
     ORDER BY created_at, id
     LIMIT %(limit)s
     FOR UPDATE SKIP LOCKED
), expired AS (
    SELECT id, created_at FROM import_jobs
     WHERE status = 'running' AND lease_expires_at < now()
       AND attempts < max_attempts
       AND (%(job_ids)s::bigint[] IS NULL OR id = ANY(%(job_ids)s::bigint[]))
     ORDER BY created_at, id
     LIMIT %(limit)s
     FOR UPDATE SKIP LOCKED
), candidates AS (
    SELECT id FROM (SELECT * FROM due UNION ALL SELECT * FROM expired) found
     ORDER BY created_at, id
     LIMIT %(limit)s
)
UPDATE import_jobs j
   SET status = 'running',
       lease_owner = %(owner)s,
       lease_expires_at = now() + make_interval(secs => %(lease_seconds)s),
       heartbeat_at = now(),
       attempts = j.attempts + 1,
       started_at = coalesce(j.started_at, now()),
       run_started_at = now(),
       run_start_cursor = j.success_rows + j.failed_rows
  FROM candidates c
 WHERE j.id = c.id
RETURNING j.*

-- name: renew_import_lease
UPDATE import_jobs
   SET lease_expires_at = now() + make_interval(secs => %(lease_seconds)s),
       heartbeat_at = now()
 WHERE id = %(id)s AND lease_owner = %(owner)s AND status = 'running'
RETURNING cancel_requested

-- name: expire_dead_owner_lease
-- The owner is a process on this host that no longer exists: its lease is void now.
UPDATE import_jobs
   SET lease_expires_at = now() - interval '1 second'
 WHERE id = %(id)s AND lease_owner = %(owner)s AND status = 'running'
RETURNING id

-- name: release_import_job
-- Graceful stop: back to pending with progress kept; the attempt is given back.
UPDATE import_jobs
   SET status = CASE WHEN cancel_requested THEN 'cancelled' ELSE 'pending' END,
       finished_at = CASE WHEN cancel_requested THEN now() END,
       available_at = now(),
       attempts = greatest(attempts - 1, 0),
       lease_owner = NULL,
       lease_expires_at = NULL
 WHERE id = %(id)s AND lease_owner = %(owner)s AND status = 'running'
RETURNING *, pg_notify('importer_jobs', id::text) AS notified

-- name: fail_import_attempt
-- The attempt failed. With attempts left the job waits (available_at NULL) on an import_retry
-- timer due after the retry delay, scheduled in this same statement: the timer scheduler
-- makes it claimable again and wakes the workers. A permanent failure (no later attempt can
-- change it) fails the job at once.
WITH failed AS (
    UPDATE import_jobs
       SET status = CASE WHEN cancel_requested THEN 'cancelled'
                         WHEN attempts >= max_attempts OR %(permanent)s THEN 'failed'
                         ELSE 'pending' END,
           available_at = CASE WHEN cancel_requested OR attempts >= max_attempts
                                    OR %(permanent)s THEN available_at END,
           finished_at = CASE WHEN cancel_requested OR attempts >= max_attempts
                                   OR %(permanent)s THEN now() END,
           last_error = %(error)s,
           lease_owner = NULL,
           lease_expires_at = NULL
     WHERE id = %(id)s AND lease_owner = %(owner)s AND status = 'running'
    RETURNING *
), recorded AS (
    INSERT INTO import_attempt_failures (import_job_id, error)
    SELECT id, last_error FROM failed
), retry_timer AS (
    INSERT INTO timer_jobs (kind, target, due_at, max_attempts)
    SELECT 'import_retry', id::text, now() + make_interval(secs => %(retry_delay_seconds)s),
           %(timer_max_attempts)s
      FROM failed
     WHERE status = 'pending'
    ON CONFLICT (kind, target) WHERE status IN ('pending', 'processing')
    DO UPDATE SET due_at = EXCLUDED.due_at, attempts = 0, last_error = NULL
            WHERE timer_jobs.status = 'pending'
    RETURNING id, pg_notify('importer_timers', '') AS notified
)
SELECT failed.*, (SELECT id FROM retry_timer) AS retry_timer_id FROM failed

-- name: import_retry_due_at
SELECT due_at FROM timer_jobs
 WHERE kind = 'import_retry' AND target = %(id)s::text AND status = 'pending'

-- name: finish_import_job
-- The end of a run, fenced like every batch: cancelled at a batch boundary, or done.
UPDATE import_jobs
   SET status = CASE WHEN %(cancelled)s THEN 'cancelled'
                     WHEN failed_rows > 0 THEN 'partially_succeeded'
                     ELSE 'succeeded' END,
       total_rows = CASE WHEN %(cancelled)s THEN total_rows ELSE success_rows + failed_rows END,
       last_error = CASE WHEN %(cancelled)s THEN last_error END,
       finished_at = now(),
       heartbeat_at = now(),
       lease_owner = NULL,
       lease_expires_at = NULL
 WHERE id = %(id)s AND lease_owner = %(owner)s AND status = 'running'
RETURNING *

-- name: set_import_total_rows
UPDATE import_jobs SET total_rows = %(total_rows)s, rows_not_read = %(rows_not_read)s
 WHERE id = %(id)s AND lease_owner = %(owner)s AND status = 'running'
RETURNING id

-- name: get_import_job
SELECT * FROM import_jobs WHERE id = %(id)s

-- name: list_import_jobs
SELECT * FROM (
    SELECT * FROM import_jobs
     WHERE (%(statuses)s::text[] IS NULL OR status = ANY(%(statuses)s::text[]))
     ORDER BY id DESC
     LIMIT %(limit)s
) newest ORDER BY id

-- name: failed_import_jobs
-- `retry --all-failed [--form F] [--since D]`: failed jobs, oldest first.
SELECT * FROM import_jobs
 WHERE status = 'failed'
   AND (%(form)s::text IS NULL OR form = %(form)s::text)
   AND (%(within)s::float8 IS NULL
        OR finished_at >= now() - make_interval(secs => %(within)s::float8))
 ORDER BY id

-- name: resumable_import_jobs
-- Candidates for `resume --all`: waiting jobs (not those waiting on a timer) and running ones
-- (the caller keeps those whose owner is gone or whose lease expired).
SELECT * FROM import_jobs
 WHERE (status = 'pending' AND available_at IS NOT NULL) OR status = 'running'
 ORDER BY created_at, id

-- name: make_import_job_available_now
UPDATE import_jobs
   SET available_at = now()
 WHERE id = %(id)s AND status = 'pending' AND (available_at IS NULL OR available_at > now())
RETURNING id

-- name: request_import_cancel
-- A live running job stops at its next batch boundary.
UPDATE import_jobs SET cancel_requested = true
 WHERE id = %(id)s AND status = 'running' AND lease_owner IS NOT DISTINCT FROM %(owner)s
RETURNING *

-- name: cancel_import_job_now
-- Pending jobs, and running ones nobody is writing any more. Fencing on status means a
-- late writer of the old lease can no longer commit anything. Its waiting timers go too.
WITH cancelled AS (
    UPDATE import_jobs
       SET status = 'cancelled',
           cancel_requested = true,
           finished_at = now(),
           lease_owner = NULL,
           lease_expires_at = NULL
     WHERE id = %(id)s AND status = %(status)s AND lease_owner IS NOT DISTINCT FROM %(owner)s
    RETURNING *
), timers AS (
    UPDATE timer_jobs
       SET status = 'cancelled', finished_at = now(),
           last_error = coalesce(last_error, 'import job cancelled')
     WHERE target IN (SELECT id::text FROM cancelled)
       AND kind IN ('scheduled_import', 'import_retry')
       AND status = 'pending'
    RETURNING id
)
SELECT * FROM cancelled

-- name: retry_import_job
-- A purged job lost its rejected rows (and maybe its workbook): it is not retried.
UPDATE import_jobs
   SET status = 'pending',
       attempts = 0,
       available_at = now(),
       finished_at = NULL,
       cancel_requested = false
 WHERE id = %(id)s AND status = 'failed' AND purged_at IS NULL
RETURNING *, pg_notify('importer_jobs', id::text) AS notified

-- name: rejected_rows_for_report
-- Each rejected row with its errors ([[column, raw value, message], ...] in the order found).
-- A subquery per row, on the (job, row) index: a join leaves the plan to statistics, which a
-- job just imported has none of (a nested loop over every pair of rows: 20 s for 25,000).
SELECT r.row_number,
       r.row_values,
       r.row_cells,
       coalesce((SELECT jsonb_agg(jsonb_build_array(e.column_name, e.raw_value, e.message)
                                  ORDER BY e.id)
                   FROM import_row_errors e
                  WHERE e.import_job_id = r.import_job_id AND e.row_number = r.row_number),
                '[]'::jsonb) AS errors
  FROM import_rejected_rows r
 WHERE r.import_job_id = %(job_id)s
 ORDER BY r.row_number

-- name: rejected_row_width
SELECT coalesce(max(jsonb_array_length(row_values)), 0) AS width
  FROM import_rejected_rows
 WHERE import_job_id = %(job_id)s;

-- name: rejected_row_errors
-- The errors of the job's first rejected rows (row order), for `importer errors` on a terminal.
SELECT e.row_number, e.column_name, e.raw_value, e.message
  FROM import_row_errors e
 WHERE e.import_job_id = %(job_id)s
   AND e.row_number IN (SELECT r.row_number FROM import_rejected_rows r
                         WHERE r.import_job_id = %(job_id)s
                         ORDER BY r.row_number LIMIT %(limit)s)
 ORDER BY e.row_number, e.id

-- name: next_group_id
-- A new group of jobs (several sheets of one submission).
SELECT nextval('import_group_ids') AS id

-- name: group_job_ids
-- The jobs of a group, in the order they were submitted (the order they run in).
SELECT id FROM import_jobs WHERE group_id = %(group_id)s ORDER BY id

-- name: join_group
-- Jobs found again for a group's sheets (submitted before) become the new group's.
UPDATE import_jobs SET group_id = %(group_id)s WHERE id = ANY(%(ids)s)
