-- The user's --map / --ignore of a submit ({"Sheet header": "field", "Skipped header": ""}),
-- kept with the job so that every run of it (a worker's, a resume's) matches the same way.
ALTER TABLE import_jobs
    ADD COLUMN column_map jsonb NOT NULL DEFAULT '{}'::jsonb;
