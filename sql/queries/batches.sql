-- The batch transaction. Owned by importer/repositories/batches.py; stored rows by key:
-- importer/repositories/records.py. The {placeholders} are identifiers and column lists
-- composed with psycopg.sql from the form's FormTable (repositories/form_tables.py).
-- Every batch is one explicit transaction: fence_import_batch first (nothing else is sent
-- when it lets nothing through), then the rows, the rejected rows, COMMIT.

-- name: fence_import_batch
-- The fence (job, lease owner, status, no cancel pending, the cursor still where this run
-- left it) and the cursor advance by the whole batch, the heartbeat and the lease extension.
-- No row back: the job is not ours to write (the caller finds out why). header_row and
-- last_row tell a resume which rows it need not read again.
UPDATE import_jobs
   SET success_rows = success_rows + %(good)s,
       failed_rows = failed_rows + %(bad)s,
       header_row = %(header_row)s,
       last_row = %(last_row)s,
       heartbeat_at = now(),
       lease_expires_at = now() + make_interval(secs => %(lease_seconds)s)
 WHERE id = %(id)s AND lease_owner = %(owner)s AND status = 'running'
   AND NOT cancel_requested
   AND success_rows + failed_rows = %(cursor)s
RETURNING success_rows, failed_rows, inserted_rows, updated_rows, unchanged_rows

-- name: settle_import_batch
-- After the rows: the rows the database refused (a repeated key, a constraint) move from
-- success to failed, and a keyed form's inserted / updated / unchanged counts (migration
-- 0003) are added. The job row is this transaction's since the fence.
UPDATE import_jobs
   SET success_rows = success_rows - %(refused)s,
       failed_rows = failed_rows + %(refused)s,
       inserted_rows = inserted_rows + %(inserted)s,
       updated_rows = updated_rows + %(updated)s,
       unchanged_rows = unchanged_rows + %(unchanged)s
 WHERE id = %(id)s AND lease_owner = %(owner)s AND status = 'running'
RETURNING success_rows, failed_rows, inserted_rows, updated_rows, unchanged_rows

-- name: write_rejected_rows
-- The batch's rejected rows ([[row_number, [texts...], [typed cells...]], ...]) and their
-- errors ([[row_number, column, raw, message], ...], in the order found): few, as JSON.
WITH rejected AS (
    INSERT INTO import_rejected_rows (import_job_id, row_number, row_values, row_cells)
    SELECT %(id)s, (r.value ->> 0)::integer, r.value -> 1, r.value -> 2
      FROM jsonb_array_elements(%(rejected)s::jsonb) AS r
)
INSERT INTO import_row_errors (import_job_id, row_number, column_name, raw_value, message)
SELECT %(id)s, (e.value ->> 0)::integer, e.value ->> 1, e.value ->> 2, e.value ->> 3
  FROM jsonb_array_elements(%(errors)s::jsonb) WITH ORDINALITY AS e
 ORDER BY e.ordinality

-- name: lock_import_job
-- Why a batch wrote nothing: the job as it is now (row locked until the transaction ends).
SELECT status, lease_owner, cancel_requested, success_rows + failed_rows AS cursor
  FROM import_jobs WHERE id = %(id)s FOR UPDATE

-- name: copy_form_rows
-- The batch's valid rows in COPY's binary format, typed as the table's columns.
COPY {table} ({columns}) FROM STDIN (FORMAT BINARY)

-- name: copy_form_rows_csv
-- The same rows as CSV, as polars writes them (the columnar path): an unquoted empty field
-- is NULL, a quoted one an empty text.
COPY {table} ({columns}) FROM STDIN (FORMAT csv)

-- name: insert_from_staging
-- Append forms, after the fence: the staged batch into the form's table.
INSERT INTO {table} ({insert_columns}) SELECT {select_columns} FROM {staging}

-- name: create_staging_table
-- Every batch is copied here first, before the fence, then inserted (append forms) or
-- upserted (keyed) from here in one statement. Per session, emptied by every commit and
-- rollback; no constraints, so that the table's own refuse rows where they are the table's.
CREATE TEMP TABLE IF NOT EXISTS {staging} ({columns}) ON COMMIT DELETE ROWS

-- name: upsert_form_rows
-- Forms with a key: the staged rows (all, or those the rows parameter numbers) into the
-- table, in key order, so that two batches sharing keys lock them in the same order and
-- never deadlock. A conflict with a row of THIS job (the update's condition, when the table
-- has a job column) means the key repeats inside the file: the row is left alone and not
-- returned (the caller records a row error for it). Each returned row says what it did:
-- inserted (xmax 0: a new row version), updated, or unchanged (its values equal the stored
-- ones, read from the statement's snapshot: the row still moves to this job, which is how a
-- later repeat of its key in the file is found, but keeps its written_at). Used where no
-- history is kept (upsert_kept_form_rows otherwise); MATERIALIZED: inlined, the planner
-- joined stored to each returned row by a scan of the whole staged batch (1,000 x 1,000).
WITH stored AS MATERIALIZED (
    SELECT {key_columns}, ({value_columns}) AS old
      FROM {table}
     WHERE ({key_columns}) IN (SELECT {key_columns} FROM {staging})
), upserted AS (
    INSERT INTO {table} AS t ({insert_columns})
    SELECT {select_columns} FROM {staging}
     WHERE %(rows)s::integer[] IS NULL OR {staged_row} = ANY(%(rows)s::integer[])
     ORDER BY {key_columns}
    ON CONFLICT ({key_columns})
    DO UPDATE SET {assignments}
    {changed_job}
    RETURNING {key_columns}, xmax = 0 AS inserted, ({value_columns}) AS new
)
SELECT s.{staged_row} AS row_number,
       CASE WHEN u.inserted THEN 'inserted'
            WHEN o.old IS NOT DISTINCT FROM u.new THEN 'unchanged'
            ELSE 'updated' END AS outcome
  FROM upserted u
  JOIN {staging} s ON ({staged_key}) = ({returned_key})
  LEFT JOIN stored o ON ({stored_key}) = ({returned_key})

-- name: upsert_kept_form_rows
-- upsert_form_rows for a form that keeps its history (repositories/history.py), in the same
-- statement: the rows it overwrites, as its snapshot read them (the caller holds the form's
-- write lock, undo.sql lock_form_writes, so no other writer of the tool changed them since),
-- go into the history with the job replacing them, and which jobs' rows it replaced into
-- import_job_replacements. Each returned row says whether it was inserted, and, for one it
-- overwrote, whether its values stayed the same; NULL there: a row its snapshot did not see
-- (inserted meanwhile by a writer outside the tool), which the caller runs the batch again for.
WITH stored AS MATERIALIZED (
    SELECT {every_column}
      FROM {table}
     WHERE ({key_columns}) IN (SELECT {key_columns} FROM {staging})
), upserted AS (
    INSERT INTO {table} AS t ({insert_columns})
    SELECT {select_columns} FROM {staging}
     WHERE %(rows)s::integer[] IS NULL OR {staged_row} = ANY(%(rows)s::integer[])
     ORDER BY {key_columns}
    ON CONFLICT ({key_columns})
    DO UPDATE SET {assignments}
    {changed_job}
    RETURNING {key_columns}, xmax = 0 AS inserted
), kept AS (
    INSERT INTO {history} ({value_list}, version_job, version_row, version_written_at,
                           replaced_by_job)
    SELECT {old_values}, {old_job}, {old_row}, {old_written}, %(job_id)s
      FROM stored o JOIN upserted u ON ({stored_key}) = ({returned_key})
     WHERE NOT u.inserted
    RETURNING version_job
), noted AS (
    INSERT INTO import_job_replacements (job_id, replaced_by)
    SELECT DISTINCT version_job, %(job_id)s FROM kept WHERE version_job IS NOT NULL
    ON CONFLICT DO NOTHING
)
SELECT s.{staged_row} AS row_number, u.inserted,
       CASE WHEN u.inserted THEN false
            WHEN o.{first_key} IS NULL THEN NULL
            ELSE ({old_values}) IS NOT DISTINCT FROM ({staged_values}) END AS unchanged
  FROM upserted u
  JOIN {staging} s ON ({staged_key}) = ({returned_key})
  LEFT JOIN stored o ON ({stored_key}) = ({returned_key})

-- name: staged_keys_held
-- The staged rows (those the rows parameter numbers) whose key a row of this job already holds: that
-- row came earlier in the file.
SELECT s.{staged_row} AS row_number, t.{row} AS earlier
  FROM {staging} s JOIN {table} t ON ({table_key}) = ({staged_key})
 WHERE t.{job} = %(job_id)s AND s.{staged_row} = ANY(%(rows)s::integer[])
   AND t.{row} <> s.{staged_row}

-- name: staged_keys_held_family
-- staged_keys_held for a correction: the key a row of its origin or of its corrections holds.
SELECT s.{staged_row} AS row_number, t.{row} AS earlier
  FROM {staging} s JOIN {table} t ON ({table_key}) = ({staged_key})
 WHERE t.{job} = ANY(%(family)s::bigint[]) AND s.{staged_row} = ANY(%(rows)s::integer[])
   AND t.{row} <> s.{staged_row}

-- name: stored_rows_by_key
-- Keyed forms: the stored values under these keys (`importer check`); one array per key
-- column, unnested side by side.
SELECT {key_columns}, {value_columns}
  FROM {table}
 WHERE ({key_columns}) IN (SELECT * FROM unnest({key_arrays}))

-- The fixed parts of upsert_form_rows' composed clauses (one column each).

-- name: upsert_assignment
{column} = EXCLUDED.{column}

-- name: upsert_written_at
-- The moment a row's values were last written: kept while they stay the same.
{column} = CASE WHEN ({old}) IS NOT DISTINCT FROM ({new}) THEN t.{column} ELSE now() END

-- name: upsert_changed_job
-- Only a row of another job is updated: one of this job holds a key the file repeats.
WHERE t.{column} IS DISTINCT FROM EXCLUDED.{column}

-- name: upsert_changed_family
-- A correction's: only a row of a job outside its origin's family is updated; one of the
-- origin or of its corrections (this one too) holds a key the correction repeats.
WHERE NOT coalesce(t.{column} = ANY(%(family)s::bigint[]), false)

-- name: staging_column
{column} {type}

-- name: staging_row_index
-- Rows a table's constraints refuse, isolated on the server. The batch is copied once into
-- the session's staging table (create_staging_table, with an index on its row numbers), and
-- one call of the session's isolating function (pg_temp, per table and column list) inserts
-- it from there: a range that a constraint refuses is halved, each half under a
-- subtransaction (an EXCEPTION block), until each refused row stands alone; those come back
-- with the server's own facts. One round trip per batch, the rows sent once, no halving in the client.
CREATE INDEX IF NOT EXISTS {index} ON {staging} ({staged_row})

-- name: isolate_function
-- staged: the batch's row numbers, ascending; width: the rows of a first range when no
-- suspects are known (the caller picks it from how many rows the last batch had refused: a
-- row tried again costs about as much as a subtransaction's start, so few wide ranges when
-- refusals are rare). Ranges are pairs of positions in staged, on a stack, the earliest on
-- top: rows are tried in the file's order, so that of two rows one unique constraint cannot
-- both hold, the earlier is stored, as a plain COPY would. The body (isolate_body) holds a
-- query, as text or NULL, returning the staged rows the table's CHECK, NOT NULL and foreign
-- keys refuse (importer/repositories/refusal_suspects.py): the first ranges are then each
-- such suspect alone and the rows between two suspects together, rather than of width.
CREATE OR REPLACE FUNCTION pg_temp.{function}(staged integer[], width integer)
RETURNS TABLE (refused_row integer, refused_state text, refused_constraint text,
               refused_message text, refused_detail text)
LANGUAGE plpgsql AS {body}

-- name: isolate_body
#variable_conflict use_variable
DECLARE
    todo integer[] := ARRAY[]::integer[];
    low integer;
    high integer := cardinality(staged);
    middle integer;
    found integer[];
    cut integer[];
    i integer;
BEGIN
    IF {suspects}::text IS NOT NULL THEN
        BEGIN
            EXECUTE {suspects}::text INTO found;
        EXCEPTION WHEN OTHERS THEN
            found := NULL;  -- a check the staging table cannot evaluate: ranges, as without
        END;
    END IF;
    IF found IS NULL THEN
        low := 1 + (cardinality(staged) - 1) / width * width;
        WHILE low >= 1 LOOP
            todo := todo || ARRAY[low, least(low + width - 1, cardinality(staged))];
            low := low - width;
        END LOOP;
    ELSE
        SELECT coalesce(array_agg(u.ord ORDER BY u.ord), ARRAY[]::integer[]) INTO cut
          FROM unnest(staged) WITH ORDINALITY AS u(num, ord)
         WHERE u.num = ANY (found);
        FOR i IN REVERSE cardinality(cut) .. 1 LOOP
            IF cut[i] < high THEN
                todo := todo || ARRAY[cut[i] + 1, high];
            END IF;
            todo := todo || ARRAY[cut[i], cut[i]];
            high := cut[i] - 1;
        END LOOP;
        IF high >= 1 THEN
            todo := todo || ARRAY[1, high];
        END IF;
    END IF;
    WHILE cardinality(todo) > 0 LOOP
        low := todo[cardinality(todo) - 1];
        high := todo[cardinality(todo)];
        todo := todo[1:cardinality(todo) - 2];
        BEGIN
            INSERT INTO {table} ({insert_columns})
            SELECT {select_columns} FROM {staging} AS s
             WHERE s.{staged_row} BETWEEN staged[low] AND staged[high];
        EXCEPTION WHEN integrity_constraint_violation THEN
            IF low = high THEN
                GET STACKED DIAGNOSTICS
                    refused_state = RETURNED_SQLSTATE,
                    refused_constraint = CONSTRAINT_NAME,
                    refused_message = MESSAGE_TEXT,
                    refused_detail = PG_EXCEPTION_DETAIL;
                refused_row := staged[low];
                RETURN NEXT;
            ELSE
                middle := (low + high) / 2;
                todo := todo || ARRAY[middle + 1, high, low, middle];
            END IF;
        END;
    END LOOP;
END

-- name: isolate_rows
SELECT refused_row, refused_state, refused_constraint, refused_message, refused_detail
  FROM pg_temp.{function}(%(rows)s::integer[], %(width)s)

-- name: unstage_rows
-- A correction's staged rows that another correction imported already: not stored.
DELETE FROM {staging} WHERE {staged_row} = ANY(%(rows)s::integer[])
