-- Form definitions. Owned by importer/repositories/forms.py.

-- name: form_insert_if_new
INSERT INTO forms (name, version, definition)
VALUES (%(name)s, 1, %(definition)s)
ON CONFLICT (name) DO NOTHING
RETURNING id, version;

-- name: form_lock
SELECT id, version, definition, retired_at FROM forms WHERE name = %(name)s FOR UPDATE;

-- name: form_update
UPDATE forms SET version = %(version)s, definition = %(definition)s, updated_at = now(),
    retired_at = NULL
WHERE id = %(id)s;

-- Adding a retired form again with the same definition brings it back at its version.
-- name: form_unretire
UPDATE forms SET retired_at = NULL, updated_at = now()
WHERE id = %(id)s AND retired_at IS NOT NULL;

-- name: form_retire
UPDATE forms SET retired_at = now() WHERE id = %(id)s AND retired_at IS NULL
RETURNING retired_at;

-- The jobs that will still read the form: retiring it waits until they are done.
-- name: form_jobs_unfinished
SELECT id, status FROM import_jobs
WHERE form = %(name)s AND status IN ('pending', 'running')
ORDER BY id;

-- name: form_version_insert
INSERT INTO form_versions (form_id, version, definition)
VALUES (%(form_id)s, %(version)s, %(definition)s);

-- name: form_current
SELECT version, definition, retired_at FROM forms WHERE name = %(name)s;

-- name: form_at_version
SELECT v.version, v.definition
FROM form_versions v JOIN forms f ON f.id = v.form_id
WHERE f.name = %(name)s AND v.version = %(version)s;

-- The forms in use (retired ones left out): what is listed and chosen for a workbook.
-- name: form_list
SELECT name, version, definition, created_at, updated_at, retired_at FROM forms
WHERE retired_at IS NULL ORDER BY name;

-- name: form_list_all
SELECT name, version, definition, created_at, updated_at, retired_at FROM forms ORDER BY name;
