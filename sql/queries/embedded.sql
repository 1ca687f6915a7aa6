-- Run by psql against the embedded server's maintenance database; :name is psql's variable.

-- name: embedded_database_exists
SELECT 1 FROM pg_database WHERE datname = :'name';

-- name: embedded_create_database
CREATE DATABASE :"name";
