-- Completion notices (webhooks) through an outbox of timers: the transaction that ends a job
-- also creates its `notify` timer, whichever statement ends it (a run's finish, a failed last
-- attempt, the claim that fails an exhausted job, a cancel, an undo, a reject threshold), so
-- a notice is never lost when that transaction commits and never exists when it rolls back.
-- `importer timers` delivers it (importer/timers/notices.py).

-- A job's notices (`status` shows them; the trigger counts a job's earlier ends with them).
CREATE INDEX timer_jobs_notices ON timer_jobs (((payload ->> 'job_id')::bigint))
    WHERE kind = 'notify';

-- The notice's key (its timer's target, the request's Idempotency-Key) is job-<id>-<status>;
-- a job that ends the same way again (failed, retried, failed again) is a new notice:
-- job-<id>-<status>-2, and so on. The payload carries what delivery needs, with the job as
-- it ended (the body describes the end it announces, however late it is delivered).
CREATE FUNCTION import_job_notice() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    notice text := 'job-' || NEW.id || '-' || NEW.status;
    earlier bigint;
BEGIN
    -- The job's row is locked by the statement that ends it: its ends are counted in turn.
    SELECT count(*) INTO earlier FROM timer_jobs
     WHERE kind = 'notify' AND (payload ->> 'job_id')::bigint = NEW.id
       AND payload ->> 'event' = NEW.status;
    IF earlier > 0 THEN
        notice := notice || '-' || (earlier + 1);
    END IF;
    INSERT INTO timer_jobs (kind, target, payload, due_at, max_attempts)
    VALUES ('notify', notice,
            jsonb_build_object('job_id', NEW.id,
                               'event', NEW.status,
                               'url', NEW.notify -> 'url',
                               'secret_env', NEW.notify -> 'secret_env',
                               'timeout_seconds', NEW.notify -> 'timeout_seconds',
                               'job', to_jsonb(NEW)),
            now(),
            greatest(coalesce((NEW.notify ->> 'max_attempts')::integer, 5), 1));
    PERFORM pg_notify('importer_timers', '');
    RETURN NULL;
END $$;

-- Only a change of status to an end the job's target lists: an UPDATE that leaves an ended
-- job's status as it was sends nothing again.
CREATE TRIGGER import_job_notice_on_end AFTER UPDATE OF status ON import_jobs
    FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status
          AND NEW.status IN ('succeeded', 'partially_succeeded', 'failed', 'cancelled',
                             'reverted')
          AND jsonb_typeof(NEW.notify -> 'events') = 'array'
          AND (NEW.notify -> 'events') ? NEW.status)
    EXECUTE FUNCTION import_job_notice();

-- A job stored already ended (no statement does so today) is announced as well.
CREATE TRIGGER import_job_notice_on_insert AFTER INSERT ON import_jobs
    FOR EACH ROW
    WHEN (NEW.status IN ('succeeded', 'partially_succeeded', 'failed', 'cancelled', 'reverted')
          AND jsonb_typeof(NEW.notify -> 'events') = 'array'
          AND (NEW.notify -> 'events') ? NEW.status)
    EXECUTE FUNCTION import_job_notice();
