-- Running it in production: typed views of each form's data, retention, and the figures
-- `stats`, `watch` and the metrics report.

-- Typed views lived in their own schema, one per form: forms.<form name>. The views of the
-- forms already stored were created right after this file by a Python step; since 0008 the
-- schema holds each form's own table instead, and the step (given to the migrator by
-- importer/repositories/schema.py) does nothing.
-- step: the typed views of the forms already stored
CREATE SCHEMA IF NOT EXISTS forms;

-- Retention (`importer purge`). A purged workbook keeps its row (jobs reference it) but not
-- its bytes; size_bytes still says how big it was. A purged job has lost its rejected rows
-- and row errors (and its workbook, unless a job that may still need it shares the file).
ALTER TABLE import_files ADD COLUMN purged_at timestamptz;
ALTER TABLE import_jobs ADD COLUMN purged_at timestamptz;
-- Purge looks finished jobs up by age.
CREATE INDEX import_jobs_finished ON import_jobs (finished_at)
    WHERE status IN ('succeeded', 'partially_succeeded', 'failed', 'cancelled');
CREATE INDEX timer_jobs_finished ON timer_jobs (finished_at)
    WHERE status IN ('completed', 'failed', 'cancelled');
-- The daily retention timer's target is its day (UTC, YYYY-MM-DD): one per day whatever its
-- status, so however many schedulers race to schedule it, each day's purge runs once.
CREATE UNIQUE INDEX timer_jobs_retention_day ON timer_jobs (target) WHERE kind = 'retention';

-- Where the current run of a job started (set by every claim): its rows/s is the rows it
-- committed since then over the time since then.
ALTER TABLE import_jobs
    ADD COLUMN run_started_at timestamptz,
    ADD COLUMN run_start_cursor integer;

-- One row per failed attempt of an import job (a recorded error, or a lease that expired on
-- the last attempt): the failed-attempt counts of `stats`, `watch` and the metrics.
CREATE TABLE import_attempt_failures (
    id             bigserial PRIMARY KEY,
    import_job_id  bigint NOT NULL REFERENCES import_jobs (id) ON DELETE CASCADE,
    failed_at      timestamptz NOT NULL DEFAULT now(),
    error          text
);
CREATE INDEX import_attempt_failures_at ON import_attempt_failures (failed_at);
