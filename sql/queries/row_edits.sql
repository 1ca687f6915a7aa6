-- Cells senders changed in rejected rows, waiting to go back as a correction (migration
-- 0020). Each statement is scoped by the account that made them.
-- Owned by importer/repositories/row_edits.py.

-- name: save_row_edit
INSERT INTO row_edits (job_id, user_id, row_number, cells, problems)
VALUES (%(job_id)s, %(user_id)s, %(row)s, %(cells)s, %(problems)s)
ON CONFLICT (job_id, user_id, row_number)
DO UPDATE SET cells = EXCLUDED.cells, problems = EXCLUDED.problems, updated_at = now()

-- name: row_edits
-- ``rows`` NULL: every edited row of the import.
SELECT row_number, cells, problems FROM row_edits
 WHERE job_id = %(job_id)s AND user_id = %(user_id)s
   AND (%(rows)s::int[] IS NULL OR row_number = ANY(%(rows)s::int[]))
 ORDER BY row_number

-- name: forget_row_edits
DELETE FROM row_edits
 WHERE job_id = %(job_id)s AND user_id = %(user_id)s AND row_number = ANY(%(rows)s::int[])
