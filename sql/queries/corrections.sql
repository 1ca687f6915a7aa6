-- Corrections: jobs that carry rows of an earlier job (their origin). Owned by
-- importer/repositories/corrections.py; the table and columns are migration 0018's.

-- name: signing_key
SELECT secret FROM importer_keys WHERE name = 'error_workbook'

-- name: lock_origin
-- A new correction of this origin: its row locked while the correction is created, so that
-- two corrections never number their added rows alike; and the first number free for the
-- rows it adds: after the origin's last row and after every row its corrections added
-- (undone ones too: a number is never given twice).
SELECT o.*,
       greatest(coalesce((SELECT max((c.correction ->> 'first_new_row')::integer
                                     + (c.correction ->> 'added')::integer)
                            FROM import_jobs c WHERE c.origin_job_id = o.id), 0),
                coalesce(o.last_row, 0) + 1) AS first_new_row
  FROM import_jobs o
 WHERE o.id = %(origin)s
   FOR UPDATE OF o

-- name: origin_and_held
-- A correction's origin, and how many of the rows it carries corrections imported already.
SELECT j.*,
       (SELECT count(*) FROM import_corrections c
         WHERE c.origin_job_id = j.id AND c.origin_row = ANY(%(rows)s::integer[])) AS held
  FROM import_jobs j
 WHERE j.id = %(origin)s

-- name: mark_correction
UPDATE import_jobs SET origin_job_id = %(origin)s, correction = %(correction)s
 WHERE id = %(id)s
RETURNING *

-- name: claim_origin_rows
-- In the correction's batch transaction, before its rows are stored: each staged row of the
-- origin is taken for this correction, in row order (two corrections taking overlapping rows
-- wait on each other rather than deadlock); the rows another correction holds are not
-- returned. The origin counts those of its own rows (up to its last) as fixed.
WITH claimed AS (
    INSERT INTO import_corrections (origin_job_id, origin_row, correction_job_id)
    SELECT %(origin)s, n, %(id)s FROM unnest(%(rows)s::integer[]) AS n ORDER BY n
    ON CONFLICT DO NOTHING
    RETURNING origin_row
), counted AS (
    UPDATE import_jobs
       SET fixed_rows = fixed_rows + (SELECT count(*) FROM claimed
                                       WHERE origin_row <= %(last_row)s)
     WHERE id = %(origin)s AND EXISTS (SELECT FROM claimed WHERE origin_row <= %(last_row)s)
)
SELECT origin_row FROM claimed

-- name: origin_rows_held
-- Which correction imported these rows of the origin.
SELECT origin_row, correction_job_id
  FROM import_corrections
 WHERE origin_job_id = %(origin)s AND origin_row = ANY(%(rows)s::integer[])

-- name: release_origin_rows
-- Rows of this correction its table refused after all (a constraint): open again.
WITH released AS (
    DELETE FROM import_corrections
     WHERE origin_job_id = %(origin)s AND correction_job_id = %(id)s
       AND origin_row = ANY(%(rows)s::integer[])
    RETURNING origin_row
)
UPDATE import_jobs
   SET fixed_rows = fixed_rows - (SELECT count(*) FROM released WHERE origin_row <= %(last_row)s)
 WHERE id = %(origin)s

-- name: forget_corrections
-- Undoing jobs (or failing one over its reject threshold): the origin rows they imported
-- are open again, and their origins count them so.
WITH gone AS (
    DELETE FROM import_corrections WHERE correction_job_id = ANY(%(jobs)s)
    RETURNING origin_job_id, origin_row
), per_origin AS (
    SELECT g.origin_job_id, count(*) AS rows
      FROM gone g JOIN import_jobs o ON o.id = g.origin_job_id
     WHERE g.origin_row <= o.last_row
     GROUP BY g.origin_job_id
)
UPDATE import_jobs o SET fixed_rows = o.fixed_rows - p.rows
  FROM per_origin p
 WHERE o.id = p.origin_job_id

-- name: live_corrections
-- The corrections of an origin that are not undone, oldest first.
SELECT * FROM import_jobs
 WHERE origin_job_id = %(origin)s AND status <> 'reverted'
 ORDER BY id

-- name: family_unique_claims
-- The unique values the origin and its live corrections took: a correction decides a repeat
-- against all of them.
SELECT unique_set, value, row_number
  FROM import_unique_claims
 WHERE import_job_id = ANY(%(jobs)s::bigint[])

-- name: open_rejected_rows
-- The origin's rejected rows no correction has imported, each as it was last sent: the
-- newest attempt among the given jobs (the origin and its live corrections), with its errors.
SELECT DISTINCT ON (r.row_number)
       r.import_job_id AS job_id,
       r.row_number,
       r.row_values,
       r.row_cells,
       coalesce((SELECT jsonb_agg(jsonb_build_array(e.column_name, e.raw_value, e.message)
                                  ORDER BY e.id)
                   FROM import_row_errors e
                  WHERE e.import_job_id = r.import_job_id AND e.row_number = r.row_number),
                '[]'::jsonb) AS errors
  FROM import_rejected_rows r
 WHERE r.import_job_id = ANY(%(jobs)s::bigint[])
   AND (%(up_to)s::integer IS NULL OR r.row_number <= %(up_to)s)
   AND NOT EXISTS (SELECT FROM import_corrections c
                    WHERE c.origin_job_id = %(origin)s AND c.origin_row = r.row_number)
 ORDER BY r.row_number, r.import_job_id DESC

-- name: rejected_row_fates
-- Every rejected row of a job and what became of it: the correction that imported it, or
-- the last job (of the given ones) that rejected it.
SELECT r.row_number, c.correction_job_id AS fixed_by,
       (SELECT max(x.import_job_id) FROM import_rejected_rows x
         WHERE x.import_job_id = ANY(%(jobs)s::bigint[]) AND x.row_number = r.row_number)
           AS last_tried
  FROM import_rejected_rows r
  LEFT JOIN import_corrections c
    ON c.origin_job_id = %(origin)s AND c.origin_row = r.row_number
 WHERE r.import_job_id = %(job)s
 ORDER BY r.row_number

-- name: open_row_problems
-- The errors of the first open rows (those open_rejected_rows gives), for `importer errors`.
WITH open AS (
    SELECT DISTINCT ON (r.row_number) r.import_job_id, r.row_number
      FROM import_rejected_rows r
     WHERE r.import_job_id = ANY(%(jobs)s::bigint[])
       AND (%(up_to)s::integer IS NULL OR r.row_number <= %(up_to)s)
       AND NOT EXISTS (SELECT FROM import_corrections c
                        WHERE c.origin_job_id = %(origin)s AND c.origin_row = r.row_number)
     ORDER BY r.row_number, r.import_job_id DESC
     LIMIT %(limit)s
)
SELECT e.row_number, e.column_name, e.raw_value, e.message
  FROM open o
  JOIN import_row_errors e ON e.import_job_id = o.import_job_id AND e.row_number = o.row_number
 ORDER BY e.row_number, e.id

-- name: open_row_count
SELECT count(*) AS n FROM (
    SELECT DISTINCT r.row_number
      FROM import_rejected_rows r
     WHERE r.import_job_id = ANY(%(jobs)s::bigint[])
       AND (%(up_to)s::integer IS NULL OR r.row_number <= %(up_to)s)
       AND NOT EXISTS (SELECT FROM import_corrections c
                        WHERE c.origin_job_id = %(origin)s AND c.origin_row = r.row_number)
) AS open

-- name: family_headers
SELECT id, header FROM import_jobs WHERE id = ANY(%(jobs)s::bigint[])

-- name: origins_of_jobs
-- The imports these jobs correct (`importer history`: a version a correction wrote).
SELECT id, origin_job_id FROM import_jobs
 WHERE id = ANY(%(jobs)s::bigint[]) AND origin_job_id IS NOT NULL

-- name: live_correction_ids
SELECT id FROM import_jobs WHERE origin_job_id = %(origin)s AND status <> 'reverted'
