-- Taking an import back (`importer undo`), reject thresholds and completion notices.
-- A job undone is 'reverted' (an end, like the others); reverted_at says when.
ALTER TABLE import_jobs DROP CONSTRAINT import_jobs_status_check;
ALTER TABLE import_jobs ADD CONSTRAINT import_jobs_status_check CHECK (status IN
    ('pending', 'running', 'succeeded', 'partially_succeeded', 'failed', 'cancelled',
     'reverted'));
ALTER TABLE import_jobs ADD COLUMN reverted_at timestamptz;
-- The submit's --max-rejected (or the form's max_rejected), as written: "50" or "2%".
ALTER TABLE import_jobs ADD COLUMN max_rejected text;
-- Where the end of this job is announced ({"url", "secret_env", "events"}), resolved from
-- the settings and the form when it was submitted; NULL: no notice.
ALTER TABLE import_jobs ADD COLUMN notify jsonb;
DROP INDEX import_jobs_finished;
CREATE INDEX import_jobs_finished ON import_jobs (finished_at)
    WHERE status IN ('succeeded', 'partially_succeeded', 'failed', 'cancelled', 'reverted');
-- Keyed forms keep the values a batch overwrote (form_history.<form>, one per form, made
-- by the form's table's own preparation): undo restores them, `importer history` shows them.
CREATE SCHEMA IF NOT EXISTS form_history;

-- Which jobs overwrote rows of which (a keyed batch notes it beside the history it keeps):
-- a job whose rows a later one changed is undone only with it (`undo --cascade`).
CREATE TABLE import_job_replacements (
    job_id      bigint NOT NULL,
    replaced_by bigint NOT NULL,
    PRIMARY KEY (job_id, replaced_by)
);
CREATE INDEX import_job_replacements_by ON import_job_replacements (replaced_by);
-- A job whose history retention removed can no longer be undone (its previous values are gone).
ALTER TABLE import_jobs ADD COLUMN history_purged_at timestamptz;
-- step: a history table for each keyed form's table
