-- A rejected row's cells as read, typed (a number stays a number, a date a date), for the
-- error workbook; row_values keeps them as text. NULL for rows rejected before this column
-- existed: the workbook gives those back from their texts (importer/excel/cell_json.py).
ALTER TABLE import_rejected_rows ADD COLUMN row_cells jsonb;
