-- Each form's rows in a typed table of its own, forms.<form name>, instead of form_data
-- (JSON) under the typed views of 0004. The step (importer/repositories/schema.py) creates
-- each stored form's table with the builder `forms add` uses, moves the rows of the form's
-- jobs into it, and drops form_data.
-- step: each stored form's typed table, with its rows moved out of form_data

-- The tool's views over form_data (one per stored form) go first: their names are the
-- tables' now. A view of the user's built on one of them stops the migration here.
DO $$
DECLARE
    found record;
BEGIN
    FOR found IN
        SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'forms' AND c.relkind = 'v' AND c.relname IN (SELECT name FROM forms)
    LOOP
        EXECUTE format('DROP VIEW forms.%I', found.relname);
    END LOOP;
    -- Nothing to move (a database built from empty, which is given no step): form_data
    -- goes now. Otherwise the step drops it once every row has moved.
    IF NOT EXISTS (SELECT FROM form_data) THEN
        DROP TABLE form_data;
    END IF;
END
$$;
