-- Accounts, their forms, API tokens, web sessions and failed sign-ins (migration 0017).
-- Owned by importer/repositories/accounts.py.

-- name: insert_user
INSERT INTO users (email, role, password_hash)
VALUES (%(email)s, %(role)s, %(password_hash)s)
ON CONFLICT (email) DO NOTHING
RETURNING id, email, role, password_hash IS NOT NULL AS has_password, created_at

-- name: grant_user_form
INSERT INTO user_forms (user_id, form) VALUES (%(user_id)s, %(form)s) ON CONFLICT DO NOTHING

-- name: list_users
SELECT u.id, u.email, u.role, u.password_hash IS NOT NULL AS has_password, u.created_at,
       coalesce((SELECT array_agg(f.form ORDER BY f.form) FROM user_forms f
                  WHERE f.user_id = u.id), '{}') AS forms,
       (SELECT count(*) FROM api_tokens t WHERE t.user_id = u.id) AS tokens
  FROM users u
 ORDER BY u.email

-- name: user_by_email
SELECT u.id, u.email, u.role, u.password_hash IS NOT NULL AS has_password, u.created_at,
       coalesce((SELECT array_agg(f.form ORDER BY f.form) FROM user_forms f
                  WHERE f.user_id = u.id), '{}') AS forms,
       (SELECT count(*) FROM api_tokens t WHERE t.user_id = u.id) AS tokens
  FROM users u
 WHERE u.email = %(email)s

-- name: user_by_id
SELECT u.id, u.email, u.role, u.password_hash IS NOT NULL AS has_password, u.created_at,
       coalesce((SELECT array_agg(f.form ORDER BY f.form) FROM user_forms f
                  WHERE f.user_id = u.id), '{}') AS forms,
       (SELECT count(*) FROM api_tokens t WHERE t.user_id = u.id) AS tokens
  FROM users u
 WHERE u.id = %(id)s

-- name: user_password_hash
SELECT id, password_hash FROM users WHERE email = %(email)s

-- name: delete_user
DELETE FROM users WHERE email = %(email)s RETURNING id, email

-- name: set_user_password
UPDATE users SET password_hash = %(password_hash)s WHERE email = %(email)s RETURNING id

-- name: end_user_sessions
-- A new password (or a removed account) signs every browser of the account out.
DELETE FROM web_sessions WHERE user_id = %(user_id)s

-- name: insert_api_token
INSERT INTO api_tokens (user_id, name, secret_hash)
VALUES (%(user_id)s, %(name)s, %(secret_hash)s)
RETURNING id, user_id, name, created_at, last_used_at

-- name: delete_api_token
DELETE FROM api_tokens t USING users u
 WHERE t.id = %(id)s AND u.id = t.user_id
RETURNING t.id, t.name, u.email

-- name: list_api_tokens
SELECT t.id, t.name, t.created_at, t.last_used_at, u.email
  FROM api_tokens t JOIN users u ON u.id = t.user_id
 WHERE %(email)s::text IS NULL OR u.email = %(email)s::text
 ORDER BY t.id

-- name: user_by_token
-- The token's account (as user_by_id reads it: one statement for each request the token
-- sends), its use noted (at most once a minute: a busy client writes little).
WITH found AS (
    SELECT t.id AS token_id, t.user_id, t.last_used_at FROM api_tokens t
     WHERE t.secret_hash = %(secret_hash)s
), used AS (
    UPDATE api_tokens SET last_used_at = now()
     WHERE id = (SELECT token_id FROM found)
       AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
)
SELECT u.id, u.email, u.role, u.password_hash IS NOT NULL AS has_password, u.created_at,
       coalesce((SELECT array_agg(f.form ORDER BY f.form) FROM user_forms f
                  WHERE f.user_id = u.id), '{}') AS forms,
       (SELECT count(*) FROM api_tokens t WHERE t.user_id = u.id) AS tokens
  FROM found JOIN users u ON u.id = found.user_id

-- name: insert_web_session
INSERT INTO web_sessions (secret_hash, user_id, csrf_token, expires_at)
VALUES (%(secret_hash)s, %(user_id)s, %(csrf_token)s,
        now() + make_interval(secs => %(seconds)s::float8))

-- name: web_session
-- A live session: its account and CSRF token.
SELECT s.user_id, s.csrf_token FROM web_sessions s
 WHERE s.secret_hash = %(secret_hash)s AND s.expires_at > now()

-- name: delete_web_session
DELETE FROM web_sessions WHERE secret_hash = %(secret_hash)s

-- name: delete_expired_web_sessions
DELETE FROM web_sessions WHERE expires_at <= now()

-- name: sign_in_wait
-- Seconds the next sign-in with this address must still wait (0: none): after FREE failures
-- in a row, 2^(failures - FREE) seconds after the last, at most a minute.
SELECT greatest(0, extract(epoch FROM
           last_failure_at
           + make_interval(secs => least(60, power(2, failures - %(free)s)))
           - now()))::float8 AS wait
  FROM sign_in_failures
 WHERE email = %(email)s AND failures >= %(free)s

-- name: note_sign_in_failure
INSERT INTO sign_in_failures AS f (email, failures, last_failure_at)
VALUES (%(email)s, 1, now())
ON CONFLICT (email) DO UPDATE
   SET failures = CASE WHEN f.last_failure_at < now() - interval '1 hour' THEN 1
                       ELSE f.failures + 1 END,
       last_failure_at = now()

-- name: clear_sign_in_failures
DELETE FROM sign_in_failures WHERE email = %(email)s
