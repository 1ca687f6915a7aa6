-- Form definitions. Owned by importer/repositories/forms.py.

-- name: form_insert_if_new
INSERT INTO forms (name, version, definition)
VALUES (%(name)s, 1, %(definition)s)
ON CONFLICT (name) DO NOTHING
RETURNING id, version;

-- name: form_lock
SELECT id, version, definition FROM forms WHERE name = %(name)s FOR UPDATE;

-- name: form_update
UPDATE forms SET version = %(version)s, definition = %(definition)s, updated_at = now()
WHERE id = %(id)s;

-- name: form_version_insert
INSERT INTO form_versions (form_id, version, definition)
VALUES (%(form_id)s, %(version)s, %(definition)s);

-- name: form_current
SELECT version, definition FROM forms WHERE name = %(name)s;

-- name: form_at_version
SELECT v.version, v.definition
FROM form_versions v JOIN forms f ON f.id = v.form_id
WHERE f.name = %(name)s AND v.version = %(version)s;

-- name: form_list
SELECT name, version, definition, created_at, updated_at FROM forms ORDER BY name;
