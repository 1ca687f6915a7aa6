-- Per-session settings and the database's clock.

-- name: database_now
SELECT now() AS now;

-- name: set_lock_timeout
SELECT set_config('lock_timeout', %(timeout)s, false);

-- name: set_idle_in_transaction_timeout
SELECT set_config('idle_in_transaction_session_timeout', %(timeout)s, false);

-- name: set_statement_timeout
SELECT set_config('statement_timeout', %(timeout)s, false);

-- name: end_session
-- One of this process's own sessions ends at once (a second Ctrl-C quitting a run): the server
-- rolls back its open transaction and frees its locks; waits up to the timeout until it is gone.
SELECT pg_terminate_backend(pid, %(timeout)s) AS ended
  FROM pg_stat_activity
 WHERE pid = %(pid)s AND pid <> pg_backend_pid()
   AND application_name = current_setting('application_name');
