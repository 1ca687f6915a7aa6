-- Where the job's sheet has its header, as chosen at submit (a title above it, a header
-- over two rows): {"row": its first Excel row, "rows": how many, "above": [[row, [texts]],
-- ...] the rows above it, which the error workbook gives back above its header}. Every run
-- of the job (any worker, a resume) reads the header there. NULL: the first row with values
-- (jobs from before, and sheets laid out so).
ALTER TABLE import_jobs ADD COLUMN sheet_layout jsonb;
