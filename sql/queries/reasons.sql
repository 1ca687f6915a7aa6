-- The most common reasons a job's rows were rejected, for the summary after a run.

-- name: top_rejection_reasons
-- Reasons are grouped by column and by their message with the cell's own value (quoted, or
-- leading the message) and every number blanked out, so that "'n/a' is not a whole number"
-- and "'x' is not a whole number" count as one reason. ``example`` is the group's most
-- frequent message; ``variants`` how many different messages it holds.
WITH reasons AS (
    SELECT column_name, message,
           regexp_replace(
               CASE WHEN raw_value IS NULL OR raw_value = '' THEN message
                    WHEN strpos(message, '''' || raw_value || '''') > 0
                        THEN replace(message, '''' || raw_value || '''', '…')
                    WHEN starts_with(message, raw_value || ' ')
                        THEN '…' || substr(message, length(raw_value) + 1)
                    ELSE message END,
               '[0-9]+', '#', 'g') AS pattern
      FROM import_row_errors
     WHERE import_job_id = %(job_id)s
)
SELECT column_name, mode() WITHIN GROUP (ORDER BY message) AS example,
       count(*) AS errors, count(DISTINCT message) AS variants
  FROM reasons
 GROUP BY column_name, pattern
 ORDER BY errors DESC, column_name NULLS LAST, example
 LIMIT %(limit)s
