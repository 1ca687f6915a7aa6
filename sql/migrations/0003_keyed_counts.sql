-- Forms with a key upsert: what each good row did to the stored data. Moved by
-- write_import_batch in the same fenced statement as the cursor, so a resumed run never
-- counts a committed batch twice. NULL for forms without a key, and for jobs created before
-- these counts were kept (what their earlier batches did is not known).
ALTER TABLE import_jobs
    ADD COLUMN inserted_rows integer CHECK (inserted_rows >= 0),
    ADD COLUMN updated_rows integer CHECK (updated_rows >= 0),
    ADD COLUMN unchanged_rows integer CHECK (unchanged_rows >= 0);
