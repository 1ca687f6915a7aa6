-- A keyed form's history: the values its batches overwrote, form_history.<form>. Owned by
-- importer/repositories/history.py (the table, what a batch keeps, `importer history`,
-- retention); what `undo` restores from it is in undo.sql. The {placeholders} are
-- identifiers and column lists composed with psycopg.sql from the form's FormTable.

-- name: history_create
-- The form's value columns as its table types them, then the version's own: the job and
-- Excel row that wrote it and when, the job that replaced it and when. A key's versions
-- are a chain: each was replaced by the job that wrote the next (the current row's job
-- replaced the latest), which orders them without a sequence.
CREATE TABLE IF NOT EXISTS {history} (
    {columns},
    version_job bigint,
    version_row integer,
    version_written_at timestamptz,
    replaced_by_job bigint NOT NULL,
    replaced_at timestamptz NOT NULL DEFAULT now()
)

-- name: history_job_index
-- The versions a job replaced (undo, retention, a key's chain in `importer history`): rows
-- go in as jobs write them, so a job's versions lie in few block ranges, and a BRIN index
-- costs the batches next to nothing. The one index: a btree on the key cost a re-import
-- where every row changes 4% more (bench/history.py), for a command a person types.
CREATE INDEX IF NOT EXISTS {index} ON {history} USING brin ({column})

-- name: history_comment
COMMENT ON TABLE {history} IS {comment}

-- name: history_add_column
ALTER TABLE {history} ADD COLUMN IF NOT EXISTS {column} {type}

-- name: history_retype_column
-- The form's table widened the column (or a user's table has another type): history follows.
ALTER TABLE {history} ALTER COLUMN {column} TYPE {type} USING {column}::{type}

-- name: key_versions
-- `importer history FORM KEY`: the key's earlier versions, newest first: the one the job of
-- the current row replaced, then the one the job of that version replaced, and so on.
WITH RECURSIVE chain AS (
    SELECT h.*, 1 AS depth FROM {history} h
     WHERE h.replaced_by_job = %(job)s AND ({h_key}) = ({key_values})
    UNION ALL
    SELECT h.*, c.depth + 1 FROM chain c
      JOIN {history} h ON h.replaced_by_job = c.version_job AND ({h_key}) = ({key_values})
     WHERE c.depth < %(limit)s
)
SELECT * FROM chain ORDER BY depth

-- name: key_versions_scan
-- ... of a table of the user's without a column for the job: by the key alone.
SELECT * FROM {history} WHERE ({key_columns}) = ({key_values})
 ORDER BY replaced_at DESC
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
