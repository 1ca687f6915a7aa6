-- Cells a sender changed in an import's rejected rows on the page (or through the API),
-- before the rows go back as a correction of that import: each row's changes and what the
-- form's rules say of the row with them now.
CREATE TABLE row_edits (
    job_id     bigint NOT NULL,  -- the import whose rejected row it is
    user_id    bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    row_number integer NOT NULL,  -- its Excel row
    cells      jsonb NOT NULL,  -- {"Column": "value as typed", ...}
    problems   jsonb NOT NULL,  -- [[column, value, message], ...]; [] the row is fixed
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (job_id, user_id, row_number)
);
