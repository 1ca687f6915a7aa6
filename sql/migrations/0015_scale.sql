-- What keeps the hot queries cheap on a database of ten million jobs (docs/SCALE.md).

-- The claim: the due jobs in claim order on an index of their own; a pending job waiting on
-- a timer (available_at NULL) is not in it. The old index, over pending and running jobs by
-- created_at, drew the claim's plan to it (13 ms past 100,000 jobs waiting on timers ahead
-- of the due ones). The live jobs (`stats`, `resume --all`, and the running ones whose lease
-- may have expired: a fleet's worth) are found by an index that serves no ordered claim.
-- No index holds lease_expires_at or heartbeat_at: every batch and lease renewal updates
-- them, and an indexed column would make each of those updates a non-HOT one.
CREATE INDEX import_jobs_queue ON import_jobs (created_at, id)
    WHERE status = 'pending' AND available_at IS NOT NULL;
DROP INDEX import_jobs_claimable;
CREATE INDEX import_jobs_live ON import_jobs (status) WHERE status IN ('pending', 'running');

-- `jobs --status S --limit N`: the newest of one status without walking every newer job
-- (a status no job has, say running on a quiet day, walked the whole table).
CREATE INDEX import_jobs_status_id ON import_jobs (status, id);
DROP INDEX import_jobs_status;

-- Retention's candidates: the ended jobs not purged yet (a daily purge keeps it to about its
-- cut's worth of jobs), walked in batches by id without passing over the purged millions.
CREATE INDEX import_jobs_unpurged ON import_jobs (id)
    WHERE purged_at IS NULL
      AND status IN ('succeeded', 'partially_succeeded', 'failed', 'cancelled');

-- Totals of the ended jobs by status (`stats`, /metrics), kept by triggers as jobs end,
-- are taken back (retry, undo) or deleted, so that reading them never counts every job.
-- Pending and running jobs are counted live from their partial index: the queue is
-- bounded, the history is not. Sixteen slots a status (the job's id modulo 16): jobs
-- ending at the same moment seldom wait on each other's row.
CREATE TABLE import_job_totals (
    status        text NOT NULL,
    slot          smallint NOT NULL,
    jobs          bigint NOT NULL DEFAULT 0,
    rows_imported bigint NOT NULL DEFAULT 0,
    rows_rejected bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (status, slot)
);

CREATE FUNCTION import_job_totals_add(of_status text, of_job bigint, jobs_delta bigint,
                                      imported_delta bigint, rejected_delta bigint)
    RETURNS void LANGUAGE sql AS $$
    INSERT INTO import_job_totals AS t (status, slot, jobs, rows_imported, rows_rejected)
    VALUES (of_status, of_job % 16, jobs_delta, imported_delta, rejected_delta)
    ON CONFLICT (status, slot) DO UPDATE
       SET jobs = t.jobs + EXCLUDED.jobs,
           rows_imported = t.rows_imported + EXCLUDED.rows_imported,
           rows_rejected = t.rows_rejected + EXCLUDED.rows_rejected
$$;

CREATE FUNCTION import_job_totals_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.status NOT IN ('pending', 'running') THEN
        PERFORM import_job_totals_add(OLD.status, OLD.id, -1, -OLD.success_rows,
                                      -OLD.failed_rows);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.status NOT IN ('pending', 'running') THEN
        PERFORM import_job_totals_add(NEW.status, NEW.id, 1, NEW.success_rows,
                                      NEW.failed_rows);
    END IF;
    RETURN NULL;
END $$;

-- Only where an ended status is involved: a batch of a running job fires nothing.
CREATE TRIGGER import_job_totals_on_insert AFTER INSERT ON import_jobs
    FOR EACH ROW WHEN (NEW.status NOT IN ('pending', 'running'))
    EXECUTE FUNCTION import_job_totals_track();
CREATE TRIGGER import_job_totals_on_update
    AFTER UPDATE OF status, success_rows, failed_rows ON import_jobs
    FOR EACH ROW
    WHEN ((OLD.status NOT IN ('pending', 'running') OR NEW.status NOT IN ('pending', 'running'))
          AND (OLD.status, OLD.success_rows, OLD.failed_rows)
              IS DISTINCT FROM (NEW.status, NEW.success_rows, NEW.failed_rows))
    EXECUTE FUNCTION import_job_totals_track();
CREATE TRIGGER import_job_totals_on_delete AFTER DELETE ON import_jobs
    FOR EACH ROW WHEN (OLD.status NOT IN ('pending', 'running'))
    EXECUTE FUNCTION import_job_totals_track();

-- Failed attempts ever recorded, kept the same way (a statement adds or removes many).
CREATE TABLE import_attempt_failure_totals (
    slot     smallint PRIMARY KEY,
    failures bigint NOT NULL DEFAULT 0
);

CREATE FUNCTION import_attempt_failure_totals_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    delta bigint;
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT count(*) INTO delta FROM added;
    ELSE
        SELECT -count(*) INTO delta FROM removed;
    END IF;
    IF delta <> 0 THEN
        INSERT INTO import_attempt_failure_totals AS t (slot, failures)
        VALUES (pg_backend_pid() % 16, delta)
        ON CONFLICT (slot) DO UPDATE SET failures = t.failures + EXCLUDED.failures;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER import_attempt_failure_totals_on_insert AFTER INSERT ON import_attempt_failures
    REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION import_attempt_failure_totals_track();
CREATE TRIGGER import_attempt_failure_totals_on_delete AFTER DELETE ON import_attempt_failures
    REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION import_attempt_failure_totals_track();

-- Completion notices (notify timers) by status, kept the same way: delivered ones pile up
-- until retention removes them (a third of a million on the scale bench's database).
CREATE TABLE notice_totals (
    status  text NOT NULL,
    slot    smallint NOT NULL,
    notices bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (status, slot)
);

CREATE FUNCTION notice_totals_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.kind = 'notify' THEN
        INSERT INTO notice_totals AS t (status, slot, notices)
        VALUES (OLD.status, OLD.id % 16, -1)
        ON CONFLICT (status, slot) DO UPDATE SET notices = t.notices - 1;
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.kind = 'notify' THEN
        INSERT INTO notice_totals AS t (status, slot, notices)
        VALUES (NEW.status, NEW.id % 16, 1)
        ON CONFLICT (status, slot) DO UPDATE SET notices = t.notices + 1;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER notice_totals_on_insert AFTER INSERT ON timer_jobs
    FOR EACH ROW WHEN (NEW.kind = 'notify') EXECUTE FUNCTION notice_totals_track();
CREATE TRIGGER notice_totals_on_update AFTER UPDATE OF status, kind ON timer_jobs
    FOR EACH ROW WHEN ((OLD.kind = 'notify' OR NEW.kind = 'notify')
                       AND (OLD.status, OLD.kind) IS DISTINCT FROM (NEW.status, NEW.kind))
    EXECUTE FUNCTION notice_totals_track();
CREATE TRIGGER notice_totals_on_delete AFTER DELETE ON timer_jobs
    FOR EACH ROW WHEN (OLD.kind = 'notify') EXECUTE FUNCTION notice_totals_track();

-- `watch`'s last failed jobs: the newest failures without sorting every failed job.
CREATE INDEX import_jobs_failed ON import_jobs (finished_at DESC NULLS LAST)
    WHERE status = 'failed';

-- Counted anew from the tables: here, and after a bulk load that ran without triggers.
CREATE FUNCTION import_totals_recount() RETURNS void LANGUAGE sql AS $$
    LOCK TABLE import_jobs, import_attempt_failures, timer_jobs IN SHARE MODE;
    DELETE FROM import_job_totals;
    INSERT INTO import_job_totals (status, slot, jobs, rows_imported, rows_rejected)
    SELECT status, id % 16, count(*), coalesce(sum(success_rows), 0),
           coalesce(sum(failed_rows), 0)
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

SELECT import_totals_recount();
