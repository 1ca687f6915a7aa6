-- Timer jobs. Owned by importer/repositories/timers.py (a timer's effect on its import job,
-- make_import_job(s)_available: importer/repositories/jobs.py).

-- name: schedule_timer
-- One live timer per (kind, target): scheduling again while the first still waits moves it
-- (new due time, payload and attempt budget). A timer being fired right now is left alone.
-- A delay (due_in) counts from the database's clock, never the caller's.
INSERT INTO timer_jobs (kind, target, payload, due_at, max_attempts)
VALUES (%(kind)s, %(target)s, %(payload)s,
        coalesce(%(due_at)s::timestamptz, now() + %(due_in)s::interval), %(max_attempts)s)
ON CONFLICT (kind, target) WHERE status IN ('pending', 'processing')
DO UPDATE SET due_at = EXCLUDED.due_at,
              payload = EXCLUDED.payload,
              max_attempts = EXCLUDED.max_attempts,
              attempts = 0,
              last_error = NULL
        WHERE timer_jobs.status = 'pending'
RETURNING id, due_at, pg_notify('importer_timers', '') AS notified

-- name: claim_timers
-- One statement. First: expired leases that used every attempt become failed (data-modifying
-- CTEs always run). Then: due pending timers, or processing ones whose lease expired, oldest
-- due first, skipping rows another scheduler holds.
WITH exhausted AS (
    UPDATE timer_jobs
       SET status = 'failed',
           finished_at = now(),
           lease_owner = NULL,
           lease_expires_at = NULL,
           last_error = left(coalesce(last_error || '; ', '')
                             || 'lease of ' || coalesce(lease_owner, '?')
                             || ' expired on the last attempt', %(max_error)s)
     WHERE id IN (SELECT id FROM timer_jobs
                   WHERE status = 'processing'
                     AND lease_expires_at <= now()
                     AND attempts >= max_attempts
                   FOR UPDATE SKIP LOCKED)
    RETURNING id
), due AS (
    -- The explicit status list lets the planner walk the partial due_at index and stop early.
    SELECT id FROM timer_jobs
     WHERE status IN ('pending', 'processing')
       AND ((status = 'pending' AND due_at <= now())
            OR (status = 'processing' AND lease_expires_at <= now()))
       AND attempts < max_attempts
     ORDER BY due_at
     FOR UPDATE SKIP LOCKED
     LIMIT %(limit)s
)
UPDATE timer_jobs t
   SET status = 'processing',
       lease_owner = %(owner)s,
       lease_expires_at = now() + make_interval(secs => %(lease_seconds)s),
       attempts = t.attempts + 1
  FROM due
 WHERE t.id = due.id
RETURNING t.*

-- name: lock_held_timers
-- The fence: only the lease holder of a processing timer may fire it. The row locks taken
-- here keep every other scheduler (SKIP LOCKED) and `timers cancel` off these timers until
-- the firing transaction ends.
SELECT id FROM timer_jobs
 WHERE id = ANY(%(ids)s) AND lease_owner = %(owner)s AND status = 'processing'
 ORDER BY id
   FOR UPDATE

-- name: finish_timers
-- In the firing transaction, after the effects: completed, or cancelled with the reason.
UPDATE timer_jobs t
   SET status = f.status,
       last_error = coalesce(f.reason, t.last_error),
       finished_at = now(),
       lease_owner = NULL,
       lease_expires_at = NULL
  FROM unnest(%(ids)s::bigint[], %(statuses)s::text[], %(reasons)s::text[]) AS f (id, status, reason)
 WHERE t.id = f.id AND t.lease_owner = %(owner)s AND t.status = 'processing'

-- name: retry_or_fail_timer
UPDATE timer_jobs
   SET status = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'pending' END,
       due_at = CASE WHEN attempts >= max_attempts THEN due_at
                     ELSE now() + make_interval(secs => %(retry_delay_seconds)s) END,
       finished_at = CASE WHEN attempts >= max_attempts THEN now() END,
       last_error = %(error)s,
       lease_owner = NULL,
       lease_expires_at = NULL
 WHERE id = %(id)s AND lease_owner = %(owner)s AND status = 'processing'
RETURNING status

-- name: renew_timer_leases
UPDATE timer_jobs
   SET lease_expires_at = now() + make_interval(secs => %(lease_seconds)s)
 WHERE id = ANY(%(ids)s) AND lease_owner = %(owner)s AND status = 'processing'
RETURNING id

-- name: release_timers
-- Graceful stop before firing: back to pending, and the claim's attempt is given back.
UPDATE timer_jobs
   SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL,
       attempts = greatest(attempts - 1, 0)
 WHERE id = ANY(%(ids)s) AND lease_owner = %(owner)s AND status = 'processing'

-- name: list_timers
SELECT * FROM timer_jobs
 WHERE (%(statuses)s::text[] IS NULL OR status = ANY(%(statuses)s::text[]))
 ORDER BY (status IN ('pending', 'processing')) DESC, due_at, id
 LIMIT %(limit)s

-- name: get_timer
SELECT * FROM timer_jobs WHERE id = %(id)s

-- name: cancel_timer
UPDATE timer_jobs
   SET status = 'cancelled', finished_at = now(), lease_owner = NULL, lease_expires_at = NULL,
       last_error = coalesce(last_error, 'cancelled by the user')
 WHERE id = %(id)s AND status IN ('pending', 'processing')
RETURNING *

-- name: next_timer_due
-- Two index-ordered lookups (partial indexes), never a scan of every live timer.
SELECT least((SELECT min(due_at) FROM timer_jobs
               WHERE status IN ('pending', 'processing') AND status = 'pending'),
             (SELECT min(lease_expires_at) FROM timer_jobs WHERE status = 'processing'))
       AS due_at,
       now() AS now

-- name: make_import_job_available
-- Effect of scheduled_import / import_retry: the waiting job becomes claimable now, and
-- workers hear of it when this transaction commits. No row: the job cannot proceed.
UPDATE import_jobs
   SET available_at = CASE WHEN available_at IS NULL OR available_at > now() THEN now()
                           ELSE available_at END
 WHERE id = %(job_id)s AND status = 'pending' AND NOT cancel_requested
RETURNING id, pg_notify('importer_jobs', id::text) AS notified

-- name: make_import_jobs_available
-- The same for a run of timers, in one statement (row locks taken in id order).
UPDATE import_jobs
   SET available_at = CASE WHEN available_at IS NULL OR available_at > now() THEN now()
                           ELSE available_at END
 WHERE id IN (SELECT id FROM import_jobs
               WHERE id = ANY(%(job_ids)s::bigint[]) AND status = 'pending'
                 AND NOT cancel_requested
               ORDER BY id
                 FOR UPDATE)
RETURNING id, pg_notify('importer_jobs', id::text) AS notified
