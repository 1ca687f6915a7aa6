-- Retention: what `importer purge` and the daily retention timer remove. Owned by
-- importer/repositories/retention.py. Jobs, the forms' rows (each form's table) and the
-- jobs' counters are never touched; a finished job is one in a terminal status, aged by
-- when it finished.

-- name: purge_candidate_jobs
-- The next batch of finished jobs older than the cut not purged yet, after job ``after``
-- (on import_jobs_unpurged: the jobs purged before are not walked again). Locked by
-- lock_purge_candidate_jobs (not in a dry run): a retry of one waits for the batch, then
-- finds it purged.
SELECT id, file FROM import_jobs
 WHERE status IN ('succeeded', 'partially_succeeded', 'failed', 'cancelled')
   AND purged_at IS NULL
   AND id > %(after)s
   AND coalesce(finished_at, created_at) < now() - make_interval(secs => %(older_than)s)
 ORDER BY id
 LIMIT %(limit)s

-- name: lock_purge_candidate_jobs
SELECT id, file FROM import_jobs
 WHERE id = ANY(%(job_ids)s::bigint[])
   AND status IN ('succeeded', 'partially_succeeded', 'failed', 'cancelled')
   AND purged_at IS NULL
 ORDER BY id
   FOR UPDATE

-- name: lock_purge_files
-- Taken before the files are checked: a submit that reuses one of them (it locks the file
-- row FOR SHARE until it commits) either commits first, and its job is seen by purge_files,
-- or waits, and then finds the bytes gone and stores them again.
SELECT sha256 FROM import_files
 WHERE sha256 = ANY(%(files)s::text[]) AND purged_at IS NULL
 ORDER BY sha256
   FOR UPDATE

-- name: purge_files
-- A workbook goes when every job that shares it is finished and older than the cut.
WITH target AS (
    SELECT f.sha256, f.size_bytes FROM import_files f
     WHERE f.sha256 = ANY(%(files)s::text[])
       AND f.purged_at IS NULL
       AND NOT EXISTS (
           SELECT 1 FROM import_jobs j
            WHERE j.file = f.sha256
              AND (j.status IN ('pending', 'running')
                   OR coalesce(j.finished_at, j.created_at)
                      >= now() - make_interval(secs => %(older_than)s)))
), purged AS (
    UPDATE import_files f SET content = ''::bytea, purged_at = now()
      FROM target
     WHERE NOT %(dry_run)s AND f.sha256 = target.sha256
)
SELECT count(*) AS files, coalesce(sum(size_bytes), 0)::bigint AS bytes FROM target

-- name: purge_rejected_rows
-- The count reads the statement's snapshot: what the DELETE removes (or would).
WITH gone AS (
    DELETE FROM import_rejected_rows
     WHERE NOT %(dry_run)s AND import_job_id = ANY(%(job_ids)s::bigint[])
)
SELECT count(*) AS n FROM import_rejected_rows WHERE import_job_id = ANY(%(job_ids)s::bigint[])

-- name: purge_row_errors
WITH gone AS (
    DELETE FROM import_row_errors
     WHERE NOT %(dry_run)s AND import_job_id = ANY(%(job_ids)s::bigint[])
)
SELECT count(*) AS n FROM import_row_errors WHERE import_job_id = ANY(%(job_ids)s::bigint[])

-- name: mark_jobs_purged
UPDATE import_jobs SET purged_at = now() WHERE id = ANY(%(job_ids)s::bigint[])

-- name: purge_timers
-- Finished timers older than the cut (live ones, the firing one included, stay; so does
-- today's retention timer, which says today's purge has run), at most ``limit`` of them
-- (NULL: all, for a dry run's count).
WITH target AS (
    SELECT id FROM timer_jobs
     WHERE status IN ('completed', 'failed', 'cancelled')
       AND finished_at < now() - make_interval(secs => %(older_than)s)
       AND NOT (kind = 'retention' AND target = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD'))
     LIMIT %(limit)s
), gone AS (
    DELETE FROM timer_jobs WHERE NOT %(dry_run)s AND id IN (SELECT id FROM target)
)
SELECT count(*) AS n FROM target

-- name: ensure_retention_timer
-- Today's retention timer (target: the UTC day), due now, unless today already has one in any
-- status (unique per day: with any number of schedulers, each day's purge runs once). Two
-- schedulers racing may meet either unique index first (the day's, or the live-timer one):
-- no arbiter named, so both conflicts mean "already there".
INSERT INTO timer_jobs (kind, target, payload, due_at, max_attempts)
VALUES ('retention', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD'), %(payload)s, now(),
        %(max_attempts)s)
ON CONFLICT DO NOTHING
RETURNING id, pg_notify('importer_timers', '') AS notified

-- name: cancel_retention_timer
-- Retention turned off: a waiting retention timer never fires.
UPDATE timer_jobs
   SET status = 'cancelled', finished_at = now(), last_error = 'retention is off'
 WHERE kind = 'retention' AND status = 'pending'
RETURNING id
