-- Accounts for the web page and the JSON API (`importer users`, `importer serve`): who may
-- sign in, with which role, for which forms; their API tokens and their signed-in sessions,
-- all in the database so that any `serve` instance answers any request.
CREATE TABLE users (
    id            bigserial PRIMARY KEY,
    email         text NOT NULL,
    role          text NOT NULL CHECK (role IN ('sender', 'operator', 'admin')),
    -- argon2id, as argon2-cffi writes it; NULL: no password yet (API tokens only)
    password_hash text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT users_email_lower CHECK (email = lower(email))
);
CREATE UNIQUE INDEX users_email ON users (email);

-- The forms an account may submit to and see jobs of; '*' is every form. An admin needs none.
CREATE TABLE user_forms (
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    form    text NOT NULL,
    PRIMARY KEY (user_id, form)
);

-- API tokens: shown once when made; kept as the sha256 of their secret (a random 32 bytes,
-- which no dictionary guesses: a fast hash is enough, unlike a password's).
CREATE TABLE api_tokens (
    id           bigserial PRIMARY KEY,
    user_id      bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         text NOT NULL,
    secret_hash  text NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);

-- A signed-in browser: the cookie holds the session's secret, this table its sha256, the
-- CSRF token every form of the session carries, and when it ends.
CREATE TABLE web_sessions (
    secret_hash  text PRIMARY KEY,
    user_id      bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    csrf_token   text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL
);
CREATE INDEX web_sessions_user ON web_sessions (user_id);
CREATE INDEX web_sessions_expires ON web_sessions (expires_at);

-- Failed sign-ins by the address typed (known or not): past a few, the next one must wait.
CREATE TABLE sign_in_failures (
    email           text PRIMARY KEY,
    failures        integer NOT NULL,
    last_failure_at timestamptz NOT NULL
);

-- Who submitted a job: the account's email, or the operating system's user of a command
-- line (submitted_by_user NULL); NULL for jobs from before. The account's id scopes what a
-- sender sees. No foreign key: a removed account leaves its jobs, its name and its id
-- behind (ids are never given again, so no later account sees them).
ALTER TABLE import_jobs ADD COLUMN submitted_by text;
ALTER TABLE import_jobs ADD COLUMN submitted_by_user bigint;
CREATE INDEX import_jobs_submitter ON import_jobs (submitted_by_user, id)
    WHERE submitted_by_user IS NOT NULL;
