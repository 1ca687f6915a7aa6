-- Typed views of a form's data (schema forms). Owned by importer/repositories/form_views.py,
-- which fills the {placeholders} with identifiers and literals composed by psycopg.sql.

-- name: form_versions_all
SELECT v.version, v.definition
  FROM form_versions v JOIN forms f ON f.id = v.form_id
 WHERE f.name = %(name)s
 ORDER BY v.version;

-- name: form_names
SELECT name FROM forms ORDER BY name;

-- name: create_form_view
-- Rows of the form's jobs only; each column a cast that cannot fail on what validation
-- stored for the job's form version (see form_views.column_expression).
CREATE OR REPLACE VIEW {view} AS
SELECT d.import_job_id, d.row_number{columns}
  FROM form_data d
  JOIN import_jobs j ON j.id = d.import_job_id
 WHERE j.form = {form}

-- name: drop_form_view
DROP VIEW IF EXISTS {view}

-- name: view_comment
COMMENT ON VIEW {view} IS {comment}
