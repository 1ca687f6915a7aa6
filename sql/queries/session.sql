-- Per-session settings and the database's clock.

-- name: database_now
SELECT now() AS now;

-- name: set_lock_timeout
SELECT set_config('lock_timeout', %(timeout)s, false);

-- name: set_idle_in_transaction_timeout
SELECT set_config('idle_in_transaction_session_timeout', %(timeout)s, false);

-- name: set_statement_timeout
SELECT set_config('statement_timeout', %(timeout)s, false);
