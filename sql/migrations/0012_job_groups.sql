-- Several sheets of one workbook in one submission (`submit --all-sheets`, repeated
-- `--sheet "Sheet=form"`): each sheet is its own job, with its own cursor; the jobs share a
-- group id (shown as g<id>) that status, jobs, resume, cancel and errors accept.
CREATE SEQUENCE import_group_ids;
ALTER TABLE import_jobs ADD COLUMN group_id bigint;
CREATE INDEX import_jobs_group ON import_jobs (group_id) WHERE group_id IS NOT NULL;
