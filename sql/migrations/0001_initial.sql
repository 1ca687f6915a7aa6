-- The whole first schema. Table names are part of the tool's contract; columns may grow.

CREATE TABLE forms (
    id          bigserial PRIMARY KEY,
    name        text NOT NULL UNIQUE,
    version     integer NOT NULL,              -- the current version
    definition  jsonb NOT NULL,                -- the current definition
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- Every version ever registered: a job keeps the version it was submitted with.
CREATE TABLE form_versions (
    form_id     bigint NOT NULL REFERENCES forms (id) ON DELETE CASCADE,
    version     integer NOT NULL,
    definition  jsonb NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (form_id, version)
);

CREATE TABLE import_files (
    sha256      text PRIMARY KEY,
    size_bytes  bigint NOT NULL,
    content     bytea NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE import_jobs (
    id               bigserial PRIMARY KEY,
    status           text NOT NULL DEFAULT 'pending' CHECK (status IN
                       ('pending', 'running', 'succeeded', 'partially_succeeded', 'failed', 'cancelled')),
    form             text NOT NULL,
    form_version     integer NOT NULL,
    file             text NOT NULL REFERENCES import_files (sha256),
    file_name        text NOT NULL,
    sheet            text,
    engine           text NOT NULL DEFAULT 'auto',
    header           jsonb,                    -- original header cells, in column order
    total_rows       integer,
    success_rows     integer NOT NULL DEFAULT 0 CHECK (success_rows >= 0),
    failed_rows      integer NOT NULL DEFAULT 0 CHECK (failed_rows >= 0),
    attempts         integer NOT NULL DEFAULT 0,
    max_attempts     integer NOT NULL CHECK (max_attempts > 0),
    lease_owner      text,
    lease_expires_at timestamptz,
    heartbeat_at     timestamptz,
    cancel_requested boolean NOT NULL DEFAULT false,
    last_error       text,
    idempotency_key  text UNIQUE,
    created_at       timestamptz NOT NULL DEFAULT now(),
    started_at       timestamptz,
    finished_at      timestamptz,
    available_at     timestamptz DEFAULT now()  -- NULL: waits on a timer
);

CREATE INDEX import_jobs_claimable ON import_jobs (created_at)
    WHERE status IN ('pending', 'running');
CREATE INDEX import_jobs_status ON import_jobs (status);

CREATE TABLE form_data (
    id             bigserial PRIMARY KEY,
    import_job_id  bigint NOT NULL REFERENCES import_jobs (id) ON DELETE CASCADE,
    row_number     integer NOT NULL,           -- the Excel row
    form           text NOT NULL,
    record_key     text,                       -- the form's key fields, when it declares any
    data           jsonb NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    UNIQUE (import_job_id, row_number)
);

CREATE UNIQUE INDEX form_data_key ON form_data (form, record_key) WHERE record_key IS NOT NULL;

-- One row per rejected row: its original values, for the sender's corrected file.
CREATE TABLE import_rejected_rows (
    import_job_id  bigint NOT NULL REFERENCES import_jobs (id) ON DELETE CASCADE,
    row_number     integer NOT NULL,
    row_values     jsonb NOT NULL,
    PRIMARY KEY (import_job_id, row_number)
);

CREATE TABLE import_row_errors (
    id             bigserial PRIMARY KEY,
    import_job_id  bigint NOT NULL REFERENCES import_jobs (id) ON DELETE CASCADE,
    row_number     integer NOT NULL,
    column_name    text,
    raw_value      text,
    message        text NOT NULL
);

CREATE INDEX import_row_errors_job ON import_row_errors (import_job_id, row_number);

CREATE TABLE timer_jobs (
    id               bigserial PRIMARY KEY,
    kind             text NOT NULL,
    target           text NOT NULL,
    payload          jsonb NOT NULL DEFAULT '{}'::jsonb,
    status           text NOT NULL DEFAULT 'pending' CHECK (status IN
                       ('pending', 'processing', 'completed', 'failed', 'cancelled')),
    due_at           timestamptz NOT NULL,
    lease_owner      text,
    lease_expires_at timestamptz,
    attempts         integer NOT NULL DEFAULT 0,
    max_attempts     integer NOT NULL CHECK (max_attempts > 0),
    last_error       text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    finished_at      timestamptz
);

-- One live timer per (kind, target).
CREATE UNIQUE INDEX timer_jobs_live_target ON timer_jobs (kind, target)
    WHERE status IN ('pending', 'processing');
CREATE INDEX timer_jobs_due ON timer_jobs (due_at) WHERE status IN ('pending', 'processing');
-- Expired leases: the claim fails or re-takes these without scanning every live timer.
CREATE INDEX timer_jobs_leased ON timer_jobs (lease_expires_at) WHERE status = 'processing';
-- `stats`/`watch` count failed timers every refresh; finished ones otherwise pile up unindexed.
CREATE INDEX timer_jobs_failed ON timer_jobs (finished_at) WHERE status = 'failed';

-- Live processes (workers, timer schedulers), by heartbeat; for `watch` and `stats`.
CREATE TABLE workers (
    owner         text PRIMARY KEY,
    kind          text NOT NULL,             -- 'worker' | 'timers' | 'submit'
    host          text NOT NULL,
    pid           integer NOT NULL,
    started_at    timestamptz NOT NULL DEFAULT now(),
    heartbeat_at  timestamptz NOT NULL DEFAULT now()
);
