-- The fleet: live processes and queue statistics. Owned by importer/repositories/fleet.py.

-- name: register_process
-- Also forgets processes silent for a day, so the table never grows without bound.
WITH forgotten AS (
    DELETE FROM workers WHERE heartbeat_at < now() - interval '1 day'
)
INSERT INTO workers (owner, kind, host, pid)
VALUES (%(owner)s, %(kind)s, %(host)s, %(pid)s)
ON CONFLICT (owner) DO UPDATE SET heartbeat_at = now()

-- name: heartbeat_process
UPDATE workers SET heartbeat_at = now() WHERE owner = %(owner)s RETURNING owner

-- name: unregister_process
DELETE FROM workers WHERE owner = %(owner)s

-- name: statistics_without_jit
-- For the rest of the transaction that reads `stats`, /metrics and `watch`'s figures: on a
-- table of millions of jobs their estimated cost passes jit_above_cost, and compiling them
-- took 42 ms of a 74 ms statement (docs/SCALE.md). LOCAL: nothing outlives the transaction.
SET LOCAL jit = off

-- name: queue_stats
-- One cheap statement: live jobs come from their partial index (import_jobs_live).
SELECT
    count(*) FILTER (WHERE j.status = 'pending' AND j.available_at <= now()) AS queued,
    count(*) FILTER (WHERE j.status = 'pending'
                       AND (j.available_at IS NULL OR j.available_at > now())) AS scheduled,
    count(*) FILTER (WHERE j.status = 'running') AS running,
    extract(epoch FROM now() - min(j.available_at)
        FILTER (WHERE j.status = 'pending' AND j.available_at <= now()))::float8
        AS oldest_queued_seconds,
    -- Each running job's rows committed by its current run over the time since it started.
    coalesce(sum((j.success_rows + j.failed_rows - j.run_start_cursor)
                 / nullif(extract(epoch FROM now() - j.run_started_at), 0))
        FILTER (WHERE j.status = 'running'), 0)::float8 AS rows_per_second,
    (SELECT count(*) FROM import_attempt_failures WHERE failed_at > now() - interval '1 hour')
        AS attempts_failed_last_hour,
    (SELECT coalesce(sum(jobs), 0) FROM import_job_totals WHERE status = 'failed') AS failed,
    (SELECT count(*) FROM timer_jobs
      WHERE status IN ('pending', 'processing') AND due_at <= now()) AS timers_due,
    (SELECT count(*) FROM timer_jobs WHERE status IN ('pending', 'processing')) AS timers_live,
    (SELECT count(*) FROM timer_jobs WHERE status = 'failed') AS timers_failed,
    -- The same by kind (notify timers are a job's completion notices), each on its index.
    (SELECT coalesce(jsonb_object_agg(kind, n), '{}'::jsonb) FROM (
        SELECT kind, count(*) AS n FROM timer_jobs
         WHERE status IN ('pending', 'processing') GROUP BY kind) k) AS timers_live_by_kind,
    (SELECT coalesce(jsonb_object_agg(kind, n), '{}'::jsonb) FROM (
        SELECT kind, count(*) AS n FROM timer_jobs
         WHERE status = 'failed' GROUP BY kind) k) AS timers_failed_by_kind,
    (SELECT count(*) FROM workers
      WHERE kind = 'worker' AND heartbeat_at > now() - make_interval(secs => %(live_after)s))
        AS live_workers,
    (SELECT count(*) FROM workers
      WHERE kind = 'timers' AND heartbeat_at > now() - make_interval(secs => %(live_after)s))
        AS live_schedulers,
    (SELECT count(*) FROM workers
      WHERE kind = 'submit' AND heartbeat_at > now() - make_interval(secs => %(live_after)s))
        AS live_foreground,
    now() AS now
FROM import_jobs j
WHERE j.status IN ('pending', 'running')

-- name: fleet_details
-- The lists for `importer watch`, as JSON arrays in one row. A running correction carries
-- its origin's rejected rows and how many of them corrections imported (origin).
SELECT
    (SELECT coalesce(json_agg(r ORDER BY r.started_at), '[]'::json) FROM (
        SELECT id, form, file_name, total_rows, success_rows, failed_rows, attempts,
               lease_owner, started_at, heartbeat_at, cancel_requested,
               ((success_rows + failed_rows - run_start_cursor)
                / nullif(extract(epoch FROM now() - run_started_at), 0))::float8
                   AS rows_per_second,
               (SELECT json_build_object('id', o.id, 'failed_rows', o.failed_rows,
                                         'fixed_rows', o.fixed_rows)
                  FROM import_jobs o WHERE o.id = j.origin_job_id) AS origin
          FROM import_jobs j WHERE status = 'running'
         ORDER BY started_at LIMIT %(limit)s) r) AS running,
    (SELECT coalesce(json_agg(f ORDER BY f.finished_at DESC), '[]'::json) FROM (
        SELECT id, form, file_name, attempts, last_error, finished_at
          FROM import_jobs WHERE status = 'failed'
         ORDER BY finished_at DESC NULLS LAST LIMIT %(failed_limit)s) f) AS failed,
    (SELECT coalesce(json_agg(w ORDER BY w.kind, w.started_at), '[]'::json) FROM (
        SELECT owner, kind, host, pid, started_at, heartbeat_at
          FROM workers
         WHERE heartbeat_at > now() - make_interval(secs => %(live_after)s)
         ORDER BY kind, started_at LIMIT %(limit)s) w) AS workers,
    (SELECT coalesce(json_agg(t ORDER BY t.due_at), '[]'::json) FROM (
        SELECT id, kind, target, status, due_at, attempts, max_attempts, lease_owner
          FROM timer_jobs WHERE status IN ('pending', 'processing')
         ORDER BY due_at LIMIT %(limit)s) t) AS timers

-- name: jobs_by_status
-- Every job: the ended ones from their totals (kept by triggers, migration 0015), the live
-- ones counted on their partial index. Cheap at any number of jobs.
SELECT status, sum(jobs)::bigint AS jobs, sum(rows_imported)::bigint AS rows_imported,
       sum(rows_rejected)::bigint AS rows_rejected, sum(rows_fixed)::bigint AS rows_fixed,
       sum(rows_open)::bigint AS rows_open
  FROM import_job_totals
 GROUP BY status
UNION ALL
SELECT status, count(*), coalesce(sum(success_rows), 0), coalesce(sum(failed_rows), 0),
       coalesce(sum(fixed_rows), 0),
       coalesce(sum(failed_rows - fixed_rows) FILTER (WHERE origin_job_id IS NULL), 0)
  FROM import_jobs
 WHERE status IN ('pending', 'running')
 GROUP BY status

-- name: notices_by_status
-- Every completion notice (notify timer) by status: completed ones were delivered.
-- Kept by triggers (migration 0015): never a count over every notice.
SELECT status, sum(notices)::bigint AS notices FROM notice_totals GROUP BY status

-- name: attempts_failed_total
-- Kept by a trigger (migration 0015): never a count over every failure.
SELECT coalesce(sum(failures), 0)::bigint AS failed FROM import_attempt_failure_totals

-- name: live_process_owners
-- The processes whose heartbeat is recent; the caller drops those proven gone on this host
-- (a foreground `submit` killed with -9 leaves a row that beats no more, but looks live until
-- its heartbeat ages).
SELECT owner, kind FROM workers
 WHERE heartbeat_at > now() - make_interval(secs => %(live_after)s)
