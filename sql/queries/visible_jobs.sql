-- Jobs as one account sees them (the web page and the JSON API): a sender only the jobs it
-- submitted, of the forms granted to it; an operator every job of its forms; an admin all.
-- Each statement scopes itself: the viewer's row and grants are read in the statement, so a
-- job outside them is no row at all, as a job that does not exist.
-- Owned by importer/repositories/visible_jobs.py.

-- name: visible_job
WITH viewer AS (
    SELECT u.id, u.role,
           u.role = 'admin' OR EXISTS (SELECT 1 FROM user_forms f
                                        WHERE f.user_id = u.id AND f.form = '*') AS every_form,
           ARRAY(SELECT f.form FROM user_forms f WHERE f.user_id = u.id) AS forms
      FROM users u WHERE u.id = %(viewer)s
)
SELECT j.* FROM import_jobs j, viewer v
 WHERE j.id = %(id)s
   AND (v.every_form OR j.form = ANY(v.forms))
   AND (v.role <> 'sender' OR j.submitted_by_user = v.id)

-- name: visible_jobs
-- Newest first; ``before``: only jobs older than that id (the next page).
WITH viewer AS (
    SELECT u.id, u.role,
           u.role = 'admin' OR EXISTS (SELECT 1 FROM user_forms f
                                        WHERE f.user_id = u.id AND f.form = '*') AS every_form,
           ARRAY(SELECT f.form FROM user_forms f WHERE f.user_id = u.id) AS forms
      FROM users u WHERE u.id = %(viewer)s
)
SELECT j.* FROM import_jobs j, viewer v
 WHERE (v.every_form OR j.form = ANY(v.forms))
   AND (v.role <> 'sender' OR j.submitted_by_user = v.id)
   AND (%(before)s::bigint IS NULL OR j.id < %(before)s::bigint)
   AND (%(statuses)s::text[] IS NULL OR j.status = ANY(%(statuses)s::text[]))
 ORDER BY j.id DESC
 LIMIT %(limit)s

-- name: visible_rejected_rows
-- A page of the job's rejected rows (row order, after the Excel row ``after``), each with its
-- errors ([[column, raw value, message], ...]); no rows when the job is not the viewer's.
WITH viewer AS (
    SELECT u.id, u.role,
           u.role = 'admin' OR EXISTS (SELECT 1 FROM user_forms f
                                        WHERE f.user_id = u.id AND f.form = '*') AS every_form,
           ARRAY(SELECT f.form FROM user_forms f WHERE f.user_id = u.id) AS forms
      FROM users u WHERE u.id = %(viewer)s
), job AS (
    SELECT j.id FROM import_jobs j, viewer v
     WHERE j.id = %(job_id)s
       AND (v.every_form OR j.form = ANY(v.forms))
       AND (v.role <> 'sender' OR j.submitted_by_user = v.id)
)
SELECT r.row_number,
       r.row_values,
       coalesce((SELECT jsonb_agg(jsonb_build_array(e.column_name, e.raw_value, e.message)
                                  ORDER BY e.id)
                   FROM import_row_errors e
                  WHERE e.import_job_id = r.import_job_id AND e.row_number = r.row_number),
                '[]'::jsonb) AS errors
  FROM import_rejected_rows r
 WHERE r.import_job_id = (SELECT id FROM job)
   AND r.row_number > %(after)s
 ORDER BY r.row_number
 LIMIT %(limit)s

-- name: visible_progress
-- How far each asked job is, for its viewer's stream of progress events: one statement for
-- every stream a server holds open, each (viewer, job) pair scoped as visible_job scopes
-- it (a pair not visible is no row). Only the columns a progress event shows: cheap enough
-- to run a few times a second.
WITH asked AS (
    SELECT * FROM unnest(%(viewers)s::bigint[], %(jobs)s::bigint[]) AS a(viewer, job_id)
), viewer AS (
    SELECT a.viewer, a.job_id, u.role,
           u.role = 'admin' OR EXISTS (SELECT 1 FROM user_forms f
                                        WHERE f.user_id = u.id AND f.form = '*') AS every_form,
           ARRAY(SELECT f.form FROM user_forms f WHERE f.user_id = u.id) AS forms
      FROM asked a JOIN users u ON u.id = a.viewer
)
SELECT v.viewer, j.id, j.status, j.total_rows, j.success_rows, j.failed_rows,
       j.available_at, j.cancel_requested, j.last_error, j.reverted_at
  FROM viewer v JOIN import_jobs j ON j.id = v.job_id
 WHERE (v.every_form OR j.form = ANY(v.forms))
   AND (v.role <> 'sender' OR j.submitted_by_user = v.viewer)
