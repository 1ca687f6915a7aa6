-- The rows with values a job's import does not read as data, counted when its rows are:
-- [{"why": "above_header" | "stop_at_blank_row" | "skip_rows_where" | "totals" | "sums" |
-- "repeated_header", "rows": how many, "first": Excel row, "last": Excel row,
-- "blank_row": where the data ended (stop_at_blank_row)}]. The summary, status, --json and
-- the completion notice say them. NULL: not counted yet (or jobs from before).
ALTER TABLE import_jobs ADD COLUMN rows_not_read jsonb;
