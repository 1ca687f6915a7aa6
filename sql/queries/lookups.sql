-- Lookups and uniqueness within a file (the business stages, importer/forms/stages.py).
-- Owned by importer/repositories/lookups.py; the {placeholders} are identifiers composed
-- with psycopg.sql: the looked-up table, its match column as text ({key}: lower-cased when
-- the lookup ignores case) and its returned column.

-- name: lookup_rows
-- One query per batch: every row whose match column is one of the batch's texts.
SELECT {key} AS wanted, {returns} AS value
  FROM {table}
 WHERE {key} = ANY(%(texts)s::text[])

-- name: lookup_neighbours
-- For texts not found: the known values next to each in sort order (and next to its first
-- letters), a few each, so that a miss costs a couple of index probes, never a table scan
-- when the match column is indexed.
SELECT probe.wanted, near.shown
  FROM unnest(%(texts)s::text[], %(probes)s::text[]) AS probe(wanted, around)
 CROSS JOIN LATERAL (
       (SELECT {match}::text AS shown FROM {table}
         WHERE {key} >= probe.around ORDER BY {key} LIMIT 6)
       UNION ALL
       (SELECT {match}::text FROM {table}
         WHERE {key} < probe.around ORDER BY {key} DESC LIMIT 3)
       ) AS near

-- name: write_unique_claims
-- The batch's claims, in its transaction.
INSERT INTO import_unique_claims (import_job_id, unique_set, value, row_number)
SELECT %(id)s, claim.unique_set, claim.value, claim.row_number
  FROM unnest(%(sets)s::text[], %(values)s::text[], %(rows)s::integer[])
       AS claim(unique_set, value, row_number)

-- name: job_unique_claims
SELECT unique_set, value, row_number
  FROM import_unique_claims
 WHERE import_job_id = %(id)s

-- name: lookup_index_columns
-- The first column (or expression) of each index of a looked-up table: whether the lookup's
-- queries can probe an index.
SELECT pg_get_indexdef(i.indexrelid, 1, true) AS first_key
  FROM pg_index AS i
 WHERE i.indrelid = %(table)s::regclass
