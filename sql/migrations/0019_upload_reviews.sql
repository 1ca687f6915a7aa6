-- The page's uploads waiting for their sender (importer/web): a workbook checked first, its
-- columns matched to a form's fields where its header does not fit one outright, then
-- imported (a job) or dropped. Its bytes are kept in import_files, where the job made from
-- it finds them.
CREATE TABLE upload_reviews (
    id         bigserial PRIMARY KEY,
    user_id    bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    file       text NOT NULL,
    file_name  text NOT NULL,
    -- What the sender asked for with the upload: {"form", "sheet", "header_row",
    -- "max_rejected"}, and the columns matched: {"column_map": {"Header": "field", ...}}
    options    jsonb NOT NULL,
    job_id     bigint,  -- the import it became
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX upload_reviews_user ON upload_reviews (user_id, id);

-- The columns a sender matched to a form's fields for a header, proposed again to that
-- sender when the same header comes back for the same form.
CREATE TABLE header_mappings (
    user_id     bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    form        text NOT NULL,
    header_hash text NOT NULL,  -- sha256 of the header's texts as a JSON array
    column_map  jsonb NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, form, header_hash)
);
