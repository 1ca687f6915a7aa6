-- `importer export` and Importer.frame: a form's rows read out of its table in one snapshot.
-- Owned by importer/repositories/exports.py, which fills the {placeholders} with identifiers
-- composed by psycopg.sql (the table and columns come from FormTable, never from input).
-- The export_where_* and export_as_* blocks are fragments of export_rows and export_survey
-- (no comment inside them: they go into the middle of a line). export_as_days gives a date as
-- days since 1970-01-01 and export_as_microseconds a timestamp(tz) as microseconds since the
-- epoch (extract gives numeric: exact), what polars' Date and Datetime hold.

-- name: export_snapshot
-- The survey (counts, decimal scales) and the rows see the same rows; nothing is written.
SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY

-- name: export_columns
-- A table's columns with their base type (through a domain) and, for numeric, the
-- precision and scale its type fixes (NULL: unconstrained).
SELECT a.attname AS name,
       format_type(a.atttypid, a.atttypmod) AS shown,
       coalesce(b.typname, t.typname) AS base,
       information_schema._pg_numeric_precision(
           coalesce(b.oid, t.oid), CASE WHEN b.oid IS NULL THEN a.atttypmod ELSE t.typtypmod END
       ) AS numeric_precision,
       CASE WHEN coalesce(b.typname, t.typname) = 'numeric' THEN
           information_schema._pg_numeric_scale(
               coalesce(b.oid, t.oid),
               CASE WHEN b.oid IS NULL THEN a.atttypmod ELSE t.typtypmod END
           )
       END AS numeric_scale
  FROM pg_attribute a
  JOIN pg_type t ON t.oid = a.atttypid
  LEFT JOIN pg_type b ON t.typtype = 'd' AND b.oid = t.typbasetype
 WHERE a.attrelid = %(oid)s AND a.attnum > 0 AND NOT a.attisdropped
 ORDER BY a.attnum

-- name: export_rows
-- The rows as CSV, one CopyData message per row; the columns as the export_as_* fragments give them.
COPY (SELECT {columns} FROM {table} {where} {order}) TO STDOUT (FORMAT csv, ENCODING 'UTF8')

-- name: export_survey
-- What the file's types need to know before the first row: how many rows (a sheet holds
-- 1,048,575), and for each unconstrained numeric column its largest scale and magnitude.
SELECT count(*) AS rows {decimals} FROM {table} {where}

-- name: export_survey_decimal
, max(scale({column})) AS {scale}, max(abs({column})) AS {magnitude}

-- name: export_where
WHERE {condition}

-- name: export_where_both
WHERE {first} AND {second}

-- name: export_where_job
{column} = %(job)s

-- name: export_where_since
{column} >= now() - make_interval(secs => %(since)s)

-- name: export_order
ORDER BY {columns}

-- name: export_as_days
({column} - date '1970-01-01')

-- name: export_as_microseconds
(extract(epoch FROM {column}) * 1000000)::bigint
