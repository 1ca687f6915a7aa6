-- Corrections: a job that carries rows of an earlier job (its origin), fixed by the sender,
-- under the origin's Excel row numbers (importer/intake/corrections.py).

-- A correction's origin (always the first import: a correction of a correction names the
-- same origin) and how its rows are read: {"key_column": the sheet's column of the row
-- keys, "keyed": rows carrying a key, "added": rows without one, "first_new_row": the
-- number of the first of those (after every row the origin and its corrections numbered),
-- "latest": validated by the form's current version rather than the origin's}.
ALTER TABLE import_jobs
    ADD COLUMN origin_job_id bigint,
    ADD COLUMN correction jsonb,
    -- On an origin: how many of its own rejected rows a correction has imported since (kept
    -- in the correction's batch transaction, given back when a correction is undone).
    ADD COLUMN fixed_rows integer NOT NULL DEFAULT 0 CHECK (fixed_rows >= 0);
CREATE INDEX import_jobs_origin ON import_jobs (origin_job_id) WHERE origin_job_id IS NOT NULL;

-- A row of an origin is imported by at most one correction, ever: the batch that stores a
-- fixed row inserts its (origin, row) here in the same transaction, and a second correction
-- of the same row (a double submit, a race, a resumed run) finds it taken and stores nothing.
-- Undoing the correction deletes its rows here: the row is open again.
CREATE TABLE import_corrections (
    origin_job_id     bigint NOT NULL,
    origin_row        integer NOT NULL,
    correction_job_id bigint NOT NULL,
    PRIMARY KEY (origin_job_id, origin_row)
);
CREATE INDEX import_corrections_by ON import_corrections (correction_job_id);

-- The key error workbooks are signed with (an HMAC of each row's key, and of the workbook's
-- origin): a key changed or made up by hand is refused. 32 random bytes, made once here.
CREATE TABLE importer_keys (
    name       text PRIMARY KEY,
    secret     bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO importer_keys (name, secret)
VALUES ('error_workbook',
        decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'));

-- stats and /metrics: the rejected rows fixed later, and those still open, among the ended
-- jobs' totals (an import's open rows are its rejected rows no correction has imported; a
-- correction's own rejected rows are its origin's, counted there).
ALTER TABLE import_job_totals
    ADD COLUMN rows_fixed bigint NOT NULL DEFAULT 0,
    ADD COLUMN rows_open bigint NOT NULL DEFAULT 0;

CREATE FUNCTION import_job_totals_add(of_status text, of_job bigint, jobs_delta bigint,
                                      imported_delta bigint, rejected_delta bigint,
                                      fixed_delta bigint, open_delta bigint)
    RETURNS void LANGUAGE sql AS $$
    INSERT INTO import_job_totals AS t (status, slot, jobs, rows_imported, rows_rejected,
                                        rows_fixed, rows_open)
    VALUES (of_status, of_job % 16, jobs_delta, imported_delta, rejected_delta, fixed_delta,
            open_delta)
    ON CONFLICT (status, slot) DO UPDATE
       SET jobs = t.jobs + EXCLUDED.jobs,
           rows_imported = t.rows_imported + EXCLUDED.rows_imported,
           rows_rejected = t.rows_rejected + EXCLUDED.rows_rejected,
           rows_fixed = t.rows_fixed + EXCLUDED.rows_fixed,
           rows_open = t.rows_open + EXCLUDED.rows_open
$$;

CREATE OR REPLACE FUNCTION import_job_totals_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.status NOT IN ('pending', 'running') THEN
        PERFORM import_job_totals_add(
            OLD.status, OLD.id, -1, -OLD.success_rows, -OLD.failed_rows, -OLD.fixed_rows,
            CASE WHEN OLD.origin_job_id IS NULL THEN OLD.fixed_rows - OLD.failed_rows ELSE 0 END);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.status NOT IN ('pending', 'running') THEN
        PERFORM import_job_totals_add(
            NEW.status, NEW.id, 1, NEW.success_rows, NEW.failed_rows, NEW.fixed_rows,
            CASE WHEN NEW.origin_job_id IS NULL THEN NEW.failed_rows - NEW.fixed_rows ELSE 0 END);
    END IF;
    RETURN NULL;
END $$;

DROP TRIGGER import_job_totals_on_update ON import_jobs;
CREATE TRIGGER import_job_totals_on_update
    AFTER UPDATE OF status, success_rows, failed_rows, fixed_rows ON import_jobs
    FOR EACH ROW
    WHEN ((OLD.status NOT IN ('pending', 'running') OR NEW.status NOT IN ('pending', 'running'))
          AND (OLD.status, OLD.success_rows, OLD.failed_rows, OLD.fixed_rows)
              IS DISTINCT FROM (NEW.status, NEW.success_rows, NEW.failed_rows, NEW.fixed_rows))
    EXECUTE FUNCTION import_job_totals_track();
DROP FUNCTION import_job_totals_add(text, bigint, bigint, bigint, bigint);

CREATE OR REPLACE FUNCTION import_totals_recount() RETURNS void LANGUAGE sql AS $$
    LOCK TABLE import_jobs, import_attempt_failures, timer_jobs IN SHARE MODE;
    DELETE FROM import_job_totals;
    INSERT INTO import_job_totals (status, slot, jobs, rows_imported, rows_rejected, rows_fixed,
                                   rows_open)
    SELECT status, id % 16, count(*), coalesce(sum(success_rows), 0),
           coalesce(sum(failed_rows), 0), coalesce(sum(fixed_rows), 0),
           coalesce(sum(failed_rows - fixed_rows) FILTER (WHERE origin_job_id IS NULL), 0)
      FROM import_jobs
     WHERE status NOT IN ('pending', 'running')
     GROUP BY status, id % 16;
    DELETE FROM import_attempt_failure_totals;
    INSERT INTO import_attempt_failure_totals (slot, failures)
    SELECT 0, count(*) FROM import_attempt_failures;
    DELETE FROM notice_totals;
    INSERT INTO notice_totals (status, slot, notices)
    SELECT status, id % 16, count(*) FROM timer_jobs WHERE kind = 'notify'
     GROUP BY status, id % 16;
$$;
