-- Bookkeeping of schema migrations (the migrations themselves are sql/migrations/*.sql).

-- name: migrations_table_exists
SELECT to_regclass('schema_migrations') AS t;

-- name: applied_migrations
SELECT version FROM schema_migrations;

-- name: lock_migrations
SELECT pg_advisory_lock(%(key)s);

-- name: unlock_migrations
SELECT pg_advisory_unlock(%(key)s);

-- name: create_migrations_table
CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
);

-- name: record_migration
INSERT INTO schema_migrations (version, name) VALUES (%(version)s, %(name)s);
