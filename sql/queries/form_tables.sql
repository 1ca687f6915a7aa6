-- A form's typed table: forms.<name>, or a table of the user's. Owned by
-- importer/repositories/form_tables.py (and the migration off form_data in
-- importer/repositories/schema.py; the constraints a row breaks by its values in
-- importer/repositories/refusal_suspects.py), which fill the {placeholders} with identifiers and
-- literals composed by psycopg.sql.

-- name: form_table_create
CREATE TABLE IF NOT EXISTS {table} ({columns})

-- name: form_table_unique_index
CREATE UNIQUE INDEX IF NOT EXISTS {index} ON {table} ({columns})

-- name: form_table_drop_index
DROP INDEX IF EXISTS {index}

-- name: form_table_comment
COMMENT ON TABLE {table} IS {comment}

-- name: form_table_add_column
-- Nullable: the rows already there have no value for a field a later version adds.
ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {type}

-- name: form_table_widen_column
-- Only widenings (bigint -> numeric, date -> timestamptz, anything -> text): every stored
-- value has a value of the new type. Rewrites the table under an exclusive lock.
ALTER TABLE {table} ALTER COLUMN {column} TYPE {type} USING {column}::{type}

-- name: form_table_duplicates
-- Rows that share a key's values (a unique index allows repeated NULLs: those never clash).
SELECT {columns}, count(*) AS n
  FROM {table}
 WHERE ROW({columns}) IS NOT NULL
 GROUP BY {columns}
HAVING count(*) > 1
 ORDER BY count(*) DESC, {columns}
 LIMIT 3

-- name: form_table_lookup
-- The table a form names, with what the current role may do with it (NULL: no such table).
SELECT c.oid::integer AS oid, c.relkind,
       has_table_privilege(c.oid, 'SELECT') AS can_select,
       has_table_privilege(c.oid, 'INSERT') AS can_insert,
       has_table_privilege(c.oid, 'UPDATE') AS can_update,
       current_user AS role
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = %(schema)s AND c.relname = %(name)s

-- name: form_table_columns
-- A table's columns: the type as shown, its base type's name (through a domain), and
-- whether a row may leave it out (nullable, a default, an identity or generated column).
SELECT a.attname AS name,
       format_type(a.atttypid, a.atttypmod) AS shown,
       coalesce(b.typname, t.typname) AS base,
       NOT a.attnotnull OR a.atthasdef OR a.attidentity <> '' OR a.attgenerated <> ''
           AS optional
  FROM pg_attribute a
  JOIN pg_type t ON t.oid = a.atttypid
  LEFT JOIN pg_type b ON t.typtype = 'd' AND b.oid = t.typbasetype
 WHERE a.attrelid = %(oid)s AND a.attnum > 0 AND NOT a.attisdropped
 ORDER BY a.attnum

-- name: form_table_unique_column_sets
-- The column sets a unique constraint or a plain unique index (no expression, no WHERE)
-- holds unique.
SELECT array_agg(a.attname::text ORDER BY a.attname) AS columns
  FROM pg_index i
  JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
 WHERE i.indrelid = %(oid)s AND i.indisunique AND i.indpred IS NULL AND i.indexprs IS NULL
 GROUP BY i.indexrelid

-- name: form_versions_all
SELECT v.version, v.definition
  FROM form_versions v JOIN forms f ON f.id = v.form_id
 WHERE f.name = %(name)s
 ORDER BY v.version;

-- name: form_names
SELECT name FROM forms ORDER BY name;

-- name: form_data_exists
SELECT to_regclass('form_data') IS NOT NULL AS present;

-- name: form_data_move_rows
-- The migration off form_data: a form's rows, each value cast from its JSON text to its
-- column's type ({values}); written_at is when the row was last written.
INSERT INTO {table} ({job}, {row}, {written}{columns})
SELECT d.import_job_id, d.row_number, coalesce(d.updated_at, d.created_at){values}
  FROM form_data d JOIN import_jobs j ON j.id = d.import_job_id
 WHERE j.form = {form}

-- name: form_data_count
SELECT count(*) AS n FROM form_data;

-- name: form_data_drop
DROP TABLE form_data;

-- name: form_table_index_columns
-- The columns of an index of the tool's, in order (NULL: there is no such index).
SELECT array_agg(a.attname::text ORDER BY k.n) AS columns
  FROM pg_class c
  JOIN pg_namespace s ON s.oid = c.relnamespace
  JOIN pg_index i ON i.indexrelid = c.oid
 CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k (attnum, n)
  JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
 WHERE s.nspname = %(schema)s AND c.relname = %(index)s

-- name: form_table_live_older_jobs
-- Jobs of earlier versions of a form that may still write (a batch sends each value typed
-- as its version's column type: a column retyped under them would misread it).
SELECT id FROM import_jobs
 WHERE form = %(form)s AND form_version < %(version)s AND status IN ('pending', 'running')
 ORDER BY id
 LIMIT 5

-- name: form_table_row_checks
-- The constraints a row breaks by its own values, for a set-based guess of the rows a batch
-- will have refused (importer/repositories/refusal_suspects.py): CHECK (its expression, with
-- the table's column names unqualified), FOREIGN KEY (its columns, the referenced table and
-- columns, its match type; only where the role may read the referenced table) and NOT NULL
-- (as kind 'n', one row per column). Deferred constraints are left out: they refuse nothing
-- until the commit.
SELECT c.contype::text AS kind, c.conname::text AS name,
       pg_get_expr(c.conbin, c.conrelid) AS expression,
       ARRAY(SELECT a.attname::text
               FROM unnest(c.conkey) WITH ORDINALITY AS k(num, ord)
               JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.num
              ORDER BY k.ord) AS columns,
       rn.nspname::text AS referenced_schema, rc.relname::text AS referenced_table,
       ARRAY(SELECT a.attname::text
               FROM unnest(c.confkey) WITH ORDINALITY AS k(num, ord)
               JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.num
              ORDER BY k.ord) AS referenced_columns,
       c.confmatchtype::text AS match
  FROM pg_constraint c
  LEFT JOIN pg_class rc ON rc.oid = c.confrelid
  LEFT JOIN pg_namespace rn ON rn.oid = rc.relnamespace
 WHERE c.conrelid = %(oid)s
   AND (c.contype = 'c' OR (c.contype = 'f' AND c.confrelid <> c.conrelid
                            AND has_table_privilege(c.confrelid, 'SELECT')))
   AND NOT c.condeferred
UNION ALL
SELECT 'n', NULL, NULL, ARRAY[a.attname::text], NULL, NULL, NULL, NULL
  FROM pg_attribute a
 WHERE a.attrelid = %(oid)s AND a.attnum > 0 AND NOT a.attisdropped AND a.attnotnull
 ORDER BY 1, 2
