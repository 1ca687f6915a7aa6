-- A keyed form's history: the values its batches overwrote, form_history.<form>. Owned by
-- importer/repositories/history.py (the table, what a batch keeps, `importer history`,
-- retention); what `undo` restores from it is in undo.sql. The {placeholders} are
-- identifiers and column lists composed with psycopg.sql from the form's FormTable.

-- name: history_create
-- The form's value columns as its table types them, then the version's own: the job and
-- Excel row that wrote it and when, the job that replaced it and when. version_id orders a
-- key's versions (a transaction's now() does not: one that waited on a row lock replaces
-- it after another that started later).
CREATE TABLE IF NOT EXISTS {history} (
    version_id bigint GENERATED ALWAYS AS IDENTITY,
    {columns},
    version_job bigint,
    version_row integer,
    version_written_at timestamptz,
    replaced_by_job bigint NOT NULL,
    replaced_at timestamptz NOT NULL DEFAULT now()
)

-- name: history_index
-- A key's versions in order (`importer history`, undo's earliest version of each key).
CREATE INDEX IF NOT EXISTS {index} ON {history} ({columns})

-- name: history_job_index
-- The versions a job replaced (undo, retention): rows go in as jobs write them, so a job's
-- versions lie in few block ranges, and a BRIN index costs the batches next to nothing.
CREATE INDEX IF NOT EXISTS {index} ON {history} USING brin ({column})

-- name: history_comment
COMMENT ON TABLE {history} IS {comment}

-- name: history_add_column
ALTER TABLE {history} ADD COLUMN IF NOT EXISTS {column} {type}

-- name: history_retype_column
-- The form's table widened the column (or a user's table has another type): history follows.
ALTER TABLE {history} ALTER COLUMN {column} TYPE {type} USING {column}::{type}

-- name: keep_replaced_rows
-- In the batch transaction, before the upsert: the rows of the table the staged rows (all,
-- or those the rows parameter numbers) will overwrite, locked in key order and kept as they
-- are; a row of this job is left alone (the file repeats its key: the upsert skips it). And
-- which jobs' rows this job replaces. Returns how many rows were kept: the upsert then
-- checks it overwrote no others (a row inserted meanwhile by another transaction).
WITH kept AS (
    INSERT INTO {history} ({columns}, version_job, version_row, version_written_at,
                           replaced_by_job)
    SELECT {old_columns}, {old_job}, {old_row}, {old_written}, %(job_id)s
      FROM {table} t JOIN {staging} s ON ({table_key}) = ({staged_key})
     WHERE (%(rows)s::integer[] IS NULL OR s.{staged_row} = ANY(%(rows)s::integer[]))
       {not_this_job}
     ORDER BY {table_key}
       FOR UPDATE OF t
    RETURNING version_job
), noted AS (
    INSERT INTO import_job_replacements (job_id, replaced_by)
    SELECT DISTINCT version_job, %(job_id)s FROM kept WHERE version_job IS NOT NULL
    ON CONFLICT DO NOTHING
)
SELECT count(*)::integer AS kept FROM kept

-- name: not_this_job
AND t.{job} IS DISTINCT FROM %(job_id)s

-- name: key_versions
-- `importer history FORM KEY`: the key's earlier versions, newest first.
SELECT * FROM {history} WHERE ({key_columns}) = ({key_values})
 ORDER BY version_id DESC
 LIMIT %(limit)s

-- name: key_current
-- ... and the row as it is now.
SELECT * FROM {table} WHERE ({key_columns}) = ({key_values})

-- name: purge_history
-- Retention: the versions replaced by jobs of the form that ended before the cutoff, a few
-- jobs at a time; those jobs can no longer be undone (history_purged_at says since when).
WITH old AS (
    SELECT j.id FROM import_jobs j
     WHERE j.form = %(form)s AND j.history_purged_at IS NULL
       AND j.status IN ('succeeded', 'partially_succeeded', 'failed', 'cancelled')
       AND j.finished_at < now() - make_interval(secs => %(seconds)s)
       AND EXISTS (SELECT 1 FROM {history} h WHERE h.replaced_by_job = j.id)
     ORDER BY j.id
     LIMIT %(jobs)s
     FOR UPDATE OF j SKIP LOCKED
), marked AS (
    UPDATE import_jobs j SET history_purged_at = now() FROM old WHERE j.id = old.id
    RETURNING j.id
), gone AS (
    DELETE FROM {history} h USING marked WHERE h.replaced_by_job = marked.id
    RETURNING 1
)
SELECT (SELECT count(*) FROM marked)::integer AS jobs, (SELECT count(*) FROM gone)::integer AS rows

-- name: count_purgeable_history
-- purge_history's --dry-run: the jobs and versions it would remove.
SELECT count(DISTINCT h.replaced_by_job)::integer AS jobs, count(*)::integer AS rows
  FROM {history} h JOIN import_jobs j ON j.id = h.replaced_by_job
 WHERE j.history_purged_at IS NULL
   AND j.status IN ('succeeded', 'partially_succeeded', 'failed', 'cancelled')
   AND j.finished_at < now() - make_interval(secs => %(seconds)s)

-- name: history_exists
SELECT to_regclass(%(name)s) IS NOT NULL AS present
