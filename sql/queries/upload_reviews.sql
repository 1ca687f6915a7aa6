-- The page's uploads waiting for their sender, and the columns senders matched (migration
-- 0019). Every statement on a review is scoped by its account: another's is no row at all.
-- Owned by importer/repositories/upload_reviews.py.

-- name: insert_upload_review
INSERT INTO upload_reviews (user_id, file, file_name, options)
VALUES (%(user_id)s, %(file)s, %(file_name)s, %(options)s)
RETURNING *

-- name: upload_review
SELECT * FROM upload_reviews WHERE id = %(id)s AND user_id = %(user_id)s

-- name: set_upload_review_options
UPDATE upload_reviews SET options = %(options)s
 WHERE id = %(id)s AND user_id = %(user_id)s AND job_id IS NULL
RETURNING *

-- name: keep_upload_review_check
-- The check of the upload's rows kept with it (options.checked), only while its options
-- are still those it was checked with: a change of them (set_upload_review_options writes
-- them without it) lets the kept check go.
UPDATE upload_reviews SET options = options || jsonb_build_object('checked', %(checked)s::jsonb)
 WHERE id = %(id)s AND user_id = %(user_id)s AND job_id IS NULL
   AND options - 'checked' = %(options)s::jsonb

-- name: set_upload_review_job
UPDATE upload_reviews SET job_id = %(job_id)s
 WHERE id = %(id)s AND user_id = %(user_id)s AND job_id IS NULL
RETURNING *

-- name: delete_upload_review
-- Its bytes go too when no import and no other upload needs them.
WITH gone AS (
    DELETE FROM upload_reviews WHERE id = %(id)s AND user_id = %(user_id)s AND job_id IS NULL
    RETURNING file
), unused AS (
    DELETE FROM import_files f USING gone
     WHERE f.sha256 = gone.file
       AND NOT EXISTS (SELECT 1 FROM import_jobs j WHERE j.file = f.sha256)
       AND NOT EXISTS (SELECT 1 FROM upload_reviews r
                        WHERE r.file = f.sha256 AND r.id <> %(id)s)
)
SELECT count(*) AS dropped FROM gone

-- name: header_mapping
SELECT column_map FROM header_mappings
 WHERE user_id = %(user_id)s AND form = %(form)s AND header_hash = %(header_hash)s

-- name: save_header_mapping
INSERT INTO header_mappings (user_id, form, header_hash, column_map)
VALUES (%(user_id)s, %(form)s, %(header_hash)s, %(column_map)s)
ON CONFLICT (user_id, form, header_hash)
DO UPDATE SET column_map = EXCLUDED.column_map, updated_at = now()
