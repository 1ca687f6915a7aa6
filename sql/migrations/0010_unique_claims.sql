-- The values a job's valid rows took of its form's unique sets (a field's `unique = true`,
-- the form's `unique = [...]`): written in the batch transaction with the rows, so that a
-- resumed job (any process, any host) goes on deciding "duplicate ...: already in row N"
-- exactly as the run it takes over would have. Gone with the job.
CREATE TABLE import_unique_claims (
    import_job_id bigint NOT NULL REFERENCES import_jobs (id) ON DELETE CASCADE,
    unique_set    text NOT NULL,    -- the set's field names, comma-separated
    value         text NOT NULL,    -- the values, as a JSON array
    row_number    integer NOT NULL, -- the Excel row that took them
    PRIMARY KEY (import_job_id, unique_set, value)
);
