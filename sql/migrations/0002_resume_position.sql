-- Where a resume can start reading: the header's Excel row and the last Excel row a batch
-- committed (set by write_import_batch with the cursor, in the same fenced statement).
ALTER TABLE import_jobs
    ADD COLUMN header_row integer,
    ADD COLUMN last_row integer;
