-- Completion notices: the notify timers made by migration 0014's trigger, read for a job and
-- for their delivery. Owned by importer/repositories/notices.py.

-- name: job_as_it_ended
-- The job as its notice's payload keeps it (to_jsonb of the row that ended it), typed again
-- as a row of import_jobs: a notice describes the end it announces, however late it goes.
SELECT (jsonb_populate_record(NULL::import_jobs, %(job)s::jsonb)).*

-- name: job_notices
-- A job's notices, oldest first (the partial index of migration 0014).
SELECT * FROM timer_jobs
 WHERE kind = 'notify' AND (payload ->> 'job_id')::bigint = %(job_id)s
 ORDER BY id
