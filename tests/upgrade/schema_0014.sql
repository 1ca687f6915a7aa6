--
-- PostgreSQL database dump
--


-- Dumped from database version 15.20 (Debian 15.20-0+deb12u1)
-- Dumped by pg_dump version 15.20 (Debian 15.20-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: form_history; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA form_history;


--
-- Name: forms; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA forms;


--
-- Name: import_job_notice(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.import_job_notice() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    notice text := 'job-' || NEW.id || '-' || NEW.status;
    earlier bigint;
BEGIN
    -- The job's row is locked by the statement that ends it: its ends are counted in turn.
    SELECT count(*) INTO earlier FROM timer_jobs
     WHERE kind = 'notify' AND (payload ->> 'job_id')::bigint = NEW.id
       AND payload ->> 'event' = NEW.status;
    IF earlier > 0 THEN
        notice := notice || '-' || (earlier + 1);
    END IF;
    INSERT INTO timer_jobs (kind, target, payload, due_at, max_attempts)
    VALUES ('notify', notice,
            jsonb_build_object('job_id', NEW.id,
                               'event', NEW.status,
                               'url', NEW.notify -> 'url',
                               'secret_env', NEW.notify -> 'secret_env',
                               'timeout_seconds', NEW.notify -> 'timeout_seconds',
                               'job', to_jsonb(NEW)),
            now(),
            greatest(coalesce((NEW.notify ->> 'max_attempts')::integer, 5), 1));
    PERFORM pg_notify('importer_timers', '');
    RETURN NULL;
END $$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: orders; Type: TABLE; Schema: form_history; Owner: -
--

CREATE TABLE form_history.orders (
    order_id bigint,
    customer text,
    email text,
    order_date date,
    status text,
    quantity bigint,
    unit_price numeric,
    zip text,
    gift_wrap boolean,
    version_job bigint,
    version_row integer,
    version_written_at timestamp with time zone,
    replaced_by_job bigint NOT NULL,
    replaced_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: TABLE orders; Type: COMMENT; Schema: form_history; Owner: -
--

COMMENT ON TABLE form_history.orders IS 'importer: earlier versions of form ''orders''''s rows (forms.orders)';


--
-- Name: deliveries; Type: TABLE; Schema: forms; Owner: -
--

CREATE TABLE forms.deliveries (
    import_job_id bigint NOT NULL,
    row_number integer NOT NULL,
    written_at timestamp with time zone DEFAULT now() NOT NULL,
    id bigint,
    customer text,
    email text,
    quantity bigint,
    price numeric,
    order_date date,
    status text,
    paid boolean,
    note text,
    code text
);


--
-- Name: TABLE deliveries; Type: COMMENT; Schema: forms; Owner: -
--

COMMENT ON TABLE forms.deliveries IS 'importer: rows of form ''deliveries'', version 1';


--
-- Name: orders; Type: TABLE; Schema: forms; Owner: -
--

CREATE TABLE forms.orders (
    import_job_id bigint NOT NULL,
    row_number integer NOT NULL,
    written_at timestamp with time zone DEFAULT now() NOT NULL,
    order_id bigint,
    customer text,
    email text,
    order_date date,
    status text,
    quantity bigint,
    unit_price numeric,
    zip text,
    gift_wrap boolean
);


--
-- Name: TABLE orders; Type: COMMENT; Schema: forms; Owner: -
--

COMMENT ON TABLE forms.orders IS 'importer: rows of form ''orders'', version 1';


--
-- Name: form_versions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.form_versions (
    form_id bigint NOT NULL,
    version integer NOT NULL,
    definition jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: forms; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.forms (
    id bigint NOT NULL,
    name text NOT NULL,
    version integer NOT NULL,
    definition jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    retired_at timestamp with time zone
);


--
-- Name: forms_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.forms_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: forms_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.forms_id_seq OWNED BY public.forms.id;


--
-- Name: import_attempt_failures; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.import_attempt_failures (
    id bigint NOT NULL,
    import_job_id bigint NOT NULL,
    failed_at timestamp with time zone DEFAULT now() NOT NULL,
    error text
);


--
-- Name: import_attempt_failures_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.import_attempt_failures_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: import_attempt_failures_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.import_attempt_failures_id_seq OWNED BY public.import_attempt_failures.id;


--
-- Name: import_files; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.import_files (
    sha256 text NOT NULL,
    size_bytes bigint NOT NULL,
    content bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    purged_at timestamp with time zone
);


--
-- Name: import_group_ids; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.import_group_ids
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: import_job_replacements; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.import_job_replacements (
    job_id bigint NOT NULL,
    replaced_by bigint NOT NULL
);


--
-- Name: import_jobs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.import_jobs (
    id bigint NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    form text NOT NULL,
    form_version integer NOT NULL,
    file text NOT NULL,
    file_name text NOT NULL,
    sheet text,
    engine text DEFAULT 'auto'::text NOT NULL,
    header jsonb,
    total_rows integer,
    success_rows integer DEFAULT 0 NOT NULL,
    failed_rows integer DEFAULT 0 NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    max_attempts integer NOT NULL,
    lease_owner text,
    lease_expires_at timestamp with time zone,
    heartbeat_at timestamp with time zone,
    cancel_requested boolean DEFAULT false NOT NULL,
    last_error text,
    idempotency_key text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    started_at timestamp with time zone,
    finished_at timestamp with time zone,
    available_at timestamp with time zone DEFAULT now(),
    header_row integer,
    last_row integer,
    inserted_rows integer,
    updated_rows integer,
    unchanged_rows integer,
    purged_at timestamp with time zone,
    run_started_at timestamp with time zone,
    run_start_cursor integer,
    column_map jsonb DEFAULT '{}'::jsonb NOT NULL,
    sheet_layout jsonb,
    group_id bigint,
    reverted_at timestamp with time zone,
    max_rejected text,
    notify jsonb,
    history_purged_at timestamp with time zone,
    CONSTRAINT import_jobs_failed_rows_check CHECK ((failed_rows >= 0)),
    CONSTRAINT import_jobs_inserted_rows_check CHECK ((inserted_rows >= 0)),
    CONSTRAINT import_jobs_max_attempts_check CHECK ((max_attempts > 0)),
    CONSTRAINT import_jobs_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'running'::text, 'succeeded'::text, 'partially_succeeded'::text, 'failed'::text, 'cancelled'::text, 'reverted'::text]))),
    CONSTRAINT import_jobs_success_rows_check CHECK ((success_rows >= 0)),
    CONSTRAINT import_jobs_unchanged_rows_check CHECK ((unchanged_rows >= 0)),
    CONSTRAINT import_jobs_updated_rows_check CHECK ((updated_rows >= 0))
);


--
-- Name: import_jobs_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.import_jobs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: import_jobs_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.import_jobs_id_seq OWNED BY public.import_jobs.id;


--
-- Name: import_rejected_rows; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.import_rejected_rows (
    import_job_id bigint NOT NULL,
    row_number integer NOT NULL,
    row_values jsonb NOT NULL,
    row_cells jsonb
);


--
-- Name: import_row_errors; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.import_row_errors (
    id bigint NOT NULL,
    import_job_id bigint NOT NULL,
    row_number integer NOT NULL,
    column_name text,
    raw_value text,
    message text NOT NULL
);


--
-- Name: import_row_errors_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.import_row_errors_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: import_row_errors_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.import_row_errors_id_seq OWNED BY public.import_row_errors.id;


--
-- Name: import_unique_claims; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.import_unique_claims (
    import_job_id bigint NOT NULL,
    unique_set text NOT NULL,
    value text NOT NULL,
    row_number integer NOT NULL
);


--
-- Name: schema_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_migrations (
    version integer NOT NULL,
    name text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: timer_jobs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.timer_jobs (
    id bigint NOT NULL,
    kind text NOT NULL,
    target text NOT NULL,
    payload jsonb DEFAULT '{}'::jsonb NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    due_at timestamp with time zone NOT NULL,
    lease_owner text,
    lease_expires_at timestamp with time zone,
    attempts integer DEFAULT 0 NOT NULL,
    max_attempts integer NOT NULL,
    last_error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    finished_at timestamp with time zone,
    CONSTRAINT timer_jobs_max_attempts_check CHECK ((max_attempts > 0)),
    CONSTRAINT timer_jobs_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'processing'::text, 'completed'::text, 'failed'::text, 'cancelled'::text])))
);


--
-- Name: timer_jobs_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.timer_jobs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: timer_jobs_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.timer_jobs_id_seq OWNED BY public.timer_jobs.id;


--
-- Name: workers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.workers (
    owner text NOT NULL,
    kind text NOT NULL,
    host text NOT NULL,
    pid integer NOT NULL,
    started_at timestamp with time zone DEFAULT now() NOT NULL,
    heartbeat_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: forms id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.forms ALTER COLUMN id SET DEFAULT nextval('public.forms_id_seq'::regclass);


--
-- Name: import_attempt_failures id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.import_attempt_failures ALTER COLUMN id SET DEFAULT nextval('public.import_attempt_failures_id_seq'::regclass);


--
-- Name: import_jobs id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.import_jobs ALTER COLUMN id SET DEFAULT nextval('public.import_jobs_id_seq'::regclass);


--
-- Name: import_row_errors id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.import_row_errors ALTER COLUMN id SET DEFAULT nextval('public.import_row_errors_id_seq'::regclass);


--
-- Name: timer_jobs id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.timer_jobs ALTER COLUMN id SET DEFAULT nextval('public.timer_jobs_id_seq'::regclass);


--
-- Data for Name: orders; Type: TABLE DATA; Schema: form_history; Owner: -
--

INSERT INTO form_history.orders VALUES (10001, 'Frances Lovelace', 'frances.lovelace0@example.com', '2024-04-19', 'shipped', 16, 11.56, '10001', true, 1, 2, '2026-12-05 13:27:23.189763+00', 2, '2026-12-05 13:27:24.044087+00');
INSERT INTO form_history.orders VALUES (10002, 'Tim Hopper', 'tim.hopper1@example.com', '2024-10-21', 'paid', 17, 240.91, '60614', false, 1, 3, '2026-12-05 13:27:23.189763+00', 2, '2026-12-05 13:27:24.044087+00');
INSERT INTO form_history.orders VALUES (10003, 'Radia Thompson', 'radia.thompson2@example.com', '2024-09-25', 'new', 4, 150.54, '10001', false, 1, 4, '2026-12-05 13:27:23.189763+00', 2, '2026-12-05 13:27:24.044087+00');
INSERT INTO form_history.orders VALUES (10001, 'Ada Lovelace', 'ada@example.com', '2024-03-01', 'cancelled', 999, 1.5, NULL, NULL, 2, 2, '2026-12-05 13:27:24.044087+00', 3, '2026-12-05 13:27:25.629548+00');


--
-- Data for Name: deliveries; Type: TABLE DATA; Schema: forms; Owner: -
--

INSERT INTO forms.deliveries VALUES (5, 2, '2026-12-05 13:27:28.755313+00', 1, 'Customer 1', 'c1@example.com', 8, 0.37, '2024-01-02', 'paid', false, 'note 1', 'X0000001');
INSERT INTO forms.deliveries VALUES (5, 3, '2026-12-05 13:27:28.755313+00', 2, 'Customer 2', 'c2@example.com', 15, 0.74, '2024-01-03', 'shipped', true, 'note 2', 'X0000002');
INSERT INTO forms.deliveries VALUES (5, 4, '2026-12-05 13:27:28.755313+00', 3, 'Customer 3', 'c3@example.com', 22, 1.11, '2024-01-04', 'cancelled', false, 'note 3', 'X0000003');
INSERT INTO forms.deliveries VALUES (5, 5, '2026-12-05 13:27:28.755313+00', 4, 'Customer 4', 'c4@example.com', 29, 1.48, '2024-01-05', 'new', true, 'note 4', 'X0000004');
INSERT INTO forms.deliveries VALUES (5, 6, '2026-12-05 13:27:28.755313+00', 5, 'Customer 5', 'c5@example.com', 36, 1.85, '2024-01-06', 'paid', false, 'note 5', 'X0000005');
INSERT INTO forms.deliveries VALUES (5, 7, '2026-12-05 13:27:28.755313+00', 6, 'Customer 6', 'c6@example.com', 43, 2.22, '2024-01-07', 'shipped', true, 'note 6', 'X0000006');
INSERT INTO forms.deliveries VALUES (5, 8, '2026-12-05 13:27:28.755313+00', 7, 'Customer 7', 'c7@example.com', 50, 2.59, '2024-01-08', 'cancelled', false, 'note 7', 'X0000007');
INSERT INTO forms.deliveries VALUES (5, 9, '2026-12-05 13:27:28.755313+00', 8, 'Customer 8', 'c8@example.com', 7, 2.96, '2024-01-09', 'new', true, 'note 8', 'X0000008');
INSERT INTO forms.deliveries VALUES (5, 10, '2026-12-05 13:27:28.755313+00', 9, 'Customer 9', 'c9@example.com', 14, 3.33, '2024-01-10', 'paid', false, 'note 9', 'X0000009');
INSERT INTO forms.deliveries VALUES (5, 12, '2026-12-05 13:27:28.755313+00', 11, 'Customer 11', 'c11@example.com', 28, 4.07, '2024-01-12', 'cancelled', false, 'note 11', 'X0000011');
INSERT INTO forms.deliveries VALUES (5, 13, '2026-12-05 13:27:28.755313+00', 12, 'Customer 12', 'c12@example.com', 35, 4.44, '2024-01-13', 'new', true, 'note 12', 'X0000012');
INSERT INTO forms.deliveries VALUES (5, 15, '2026-12-05 13:27:28.755313+00', 14, 'Customer 14', 'c14@example.com', 49, 5.18, '2024-01-15', 'shipped', true, 'note 1', 'X0000014');
INSERT INTO forms.deliveries VALUES (5, 16, '2026-12-05 13:27:28.755313+00', 15, 'Customer 15', 'c15@example.com', 6, 5.55, '2024-01-16', 'cancelled', false, 'note 2', 'X0000015');
INSERT INTO forms.deliveries VALUES (5, 17, '2026-12-05 13:27:28.755313+00', 16, 'Customer 16', 'c16@example.com', 13, 5.92, '2024-01-17', 'new', true, 'note 3', 'X0000016');
INSERT INTO forms.deliveries VALUES (5, 18, '2026-12-05 13:27:28.755313+00', 17, 'Customer 17', 'c17@example.com', 20, 6.29, '2024-01-18', 'paid', false, 'note 4', 'X0000017');
INSERT INTO forms.deliveries VALUES (5, 19, '2026-12-05 13:27:28.755313+00', 18, 'Customer 18', 'c18@example.com', 27, 6.66, '2024-01-19', 'shipped', true, 'note 5', 'X0000018');
INSERT INTO forms.deliveries VALUES (5, 21, '2026-12-05 13:27:28.755313+00', 20, 'Customer 20', 'c20@example.com', 41, 7.4, '2024-01-21', 'new', true, 'note 7', 'X0000020');
INSERT INTO forms.deliveries VALUES (5, 22, '2026-12-05 13:27:28.755313+00', 21, 'Customer 21', 'c21@example.com', 48, 7.77, '2024-01-22', 'paid', false, 'note 8', 'X0000021');
INSERT INTO forms.deliveries VALUES (5, 23, '2026-12-05 13:27:28.755313+00', 22, 'Customer 22', 'c22@example.com', 5, 8.14, '2024-01-23', 'shipped', true, 'note 9', 'X0000022');
INSERT INTO forms.deliveries VALUES (5, 24, '2026-12-05 13:27:28.755313+00', 23, 'Customer 23', 'c23@example.com', 12, 8.51, '2024-01-24', 'cancelled', false, 'note 10', 'X0000023');
INSERT INTO forms.deliveries VALUES (5, 25, '2026-12-05 13:27:28.755313+00', 24, 'Customer 24', 'c24@example.com', 19, 8.88, '2024-01-25', 'new', true, 'note 11', 'X0000024');
INSERT INTO forms.deliveries VALUES (5, 27, '2026-12-05 13:27:28.755313+00', 26, 'Customer 26', 'c26@example.com', 33, 9.62, '2024-01-27', 'shipped', true, 'note 0', 'X0000026');
INSERT INTO forms.deliveries VALUES (5, 28, '2026-12-05 13:27:28.755313+00', 27, 'Customer 27', 'c27@example.com', 40, 9.99, '2024-01-28', 'cancelled', false, 'note 1', 'X0000027');
INSERT INTO forms.deliveries VALUES (5, 29, '2026-12-05 13:27:28.755313+00', 28, 'Customer 28', 'c28@example.com', 47, 10.36, '2024-01-29', 'new', true, 'note 2', 'X0000028');
INSERT INTO forms.deliveries VALUES (5, 30, '2026-12-05 13:27:28.755313+00', 29, 'Customer 29', 'c29@example.com', 4, 10.73, '2024-01-30', 'paid', false, 'note 3', 'X0000029');
INSERT INTO forms.deliveries VALUES (5, 31, '2026-12-05 13:27:28.755313+00', 30, 'Customer 30', 'c30@example.com', 11, 11.1, '2024-01-31', 'shipped', true, 'note 4', 'X0000030');
INSERT INTO forms.deliveries VALUES (5, 32, '2026-12-05 13:27:28.755313+00', 31, 'Customer 31', 'c31@example.com', 18, 11.47, '2024-02-01', 'cancelled', false, 'note 5', 'X0000031');
INSERT INTO forms.deliveries VALUES (5, 33, '2026-12-05 13:27:28.755313+00', 32, 'Customer 32', 'c32@example.com', 25, 11.84, '2024-02-02', 'new', true, 'note 6', 'X0000032');
INSERT INTO forms.deliveries VALUES (5, 34, '2026-12-05 13:27:28.755313+00', 33, 'Customer 33', 'c33@example.com', 32, 12.21, '2024-02-03', 'paid', false, 'note 7', 'X0000033');
INSERT INTO forms.deliveries VALUES (5, 35, '2026-12-05 13:27:28.755313+00', 34, 'Customer 34', 'c34@example.com', 39, 12.58, '2024-02-04', 'shipped', true, 'note 8', 'X0000034');
INSERT INTO forms.deliveries VALUES (5, 36, '2026-12-05 13:27:28.755313+00', 35, 'Customer 35', 'c35@example.com', 46, 12.95, '2024-02-05', 'cancelled', false, 'note 9', 'X0000035');
INSERT INTO forms.deliveries VALUES (5, 37, '2026-12-05 13:27:28.755313+00', 36, 'Customer 36', 'c36@example.com', 3, 13.32, '2024-02-06', 'new', true, 'note 10', 'X0000036');
INSERT INTO forms.deliveries VALUES (5, 38, '2026-12-05 13:27:28.755313+00', 37, 'Customer 37', 'c37@example.com', 10, 13.69, '2024-02-07', 'paid', false, 'note 11', 'X0000037');
INSERT INTO forms.deliveries VALUES (5, 39, '2026-12-05 13:27:28.755313+00', 38, 'Customer 38', 'c38@example.com', 17, 14.06, '2024-02-08', 'shipped', true, 'note 12', 'X0000038');
INSERT INTO forms.deliveries VALUES (5, 40, '2026-12-05 13:27:28.755313+00', 39, 'Customer 39', 'c39@example.com', 24, 14.43, '2024-02-09', 'cancelled', false, 'note 0', 'X0000039');
INSERT INTO forms.deliveries VALUES (5, 41, '2026-12-05 13:27:28.755313+00', 40, 'Customer 40', 'c40@example.com', 31, 14.8, '2024-02-10', 'new', true, 'note 1', 'X0000040');
INSERT INTO forms.deliveries VALUES (5, 42, '2026-12-05 13:27:28.755313+00', 41, 'Customer 41', 'c41@example.com', 38, 15.17, '2024-02-11', 'paid', false, 'note 2', 'X0000041');
INSERT INTO forms.deliveries VALUES (5, 43, '2026-12-05 13:27:28.755313+00', 42, 'Customer 42', 'c42@example.com', 45, 15.54, '2024-02-12', 'shipped', true, 'note 3', 'X0000042');
INSERT INTO forms.deliveries VALUES (5, 44, '2026-12-05 13:27:28.755313+00', 43, 'Customer 43', 'c43@example.com', 2, 15.91, '2024-02-13', 'cancelled', false, 'note 4', 'X0000043');
INSERT INTO forms.deliveries VALUES (5, 45, '2026-12-05 13:27:28.755313+00', 44, 'Customer 44', 'c44@example.com', 9, 16.28, '2024-02-14', 'new', true, 'note 5', 'X0000044');
INSERT INTO forms.deliveries VALUES (5, 46, '2026-12-05 13:27:28.755313+00', 45, 'Customer 45', 'c45@example.com', 16, 16.65, '2024-02-15', 'paid', false, 'note 6', 'X0000045');
INSERT INTO forms.deliveries VALUES (5, 47, '2026-12-05 13:27:28.755313+00', 46, 'Customer 46', 'c46@example.com', 23, 17.02, '2024-02-16', 'shipped', true, 'note 7', 'X0000046');
INSERT INTO forms.deliveries VALUES (5, 48, '2026-12-05 13:27:28.755313+00', 47, 'Customer 47', 'c47@example.com', 30, 17.39, '2024-02-17', 'cancelled', false, 'note 8', 'X0000047');
INSERT INTO forms.deliveries VALUES (5, 49, '2026-12-05 13:27:28.755313+00', 48, 'Customer 48', 'c48@example.com', 37, 17.76, '2024-02-18', 'new', true, 'note 9', 'X0000048');
INSERT INTO forms.deliveries VALUES (5, 50, '2026-12-05 13:27:28.755313+00', 49, 'Customer 49', 'c49@example.com', 44, 18.13, '2024-02-19', 'paid', false, 'note 10', 'X0000049');
INSERT INTO forms.deliveries VALUES (5, 51, '2026-12-05 13:27:28.755313+00', 50, 'Customer 50', 'c50@example.com', 1, 18.5, '2024-02-20', 'shipped', true, 'note 11', 'X0000050');
INSERT INTO forms.deliveries VALUES (5, 52, '2026-12-05 13:27:28.763576+00', 51, 'Customer 51', 'c51@example.com', 8, 18.87, '2024-02-21', 'cancelled', false, 'note 12', 'X0000051');
INSERT INTO forms.deliveries VALUES (5, 53, '2026-12-05 13:27:28.763576+00', 52, 'Customer 52', 'c52@example.com', 15, 19.24, '2024-02-22', 'new', true, 'note 0', 'X0000052');
INSERT INTO forms.deliveries VALUES (5, 54, '2026-12-05 13:27:28.763576+00', 53, 'Customer 53', 'c53@example.com', 22, 19.61, '2024-02-23', 'paid', false, 'note 1', 'X0000053');
INSERT INTO forms.deliveries VALUES (5, 55, '2026-12-05 13:27:28.763576+00', 54, 'Customer 54', 'c54@example.com', 29, 19.98, '2024-02-24', 'shipped', true, 'note 2', 'X0000054');
INSERT INTO forms.deliveries VALUES (5, 56, '2026-12-05 13:27:28.763576+00', 55, 'Customer 55', 'c55@example.com', 36, 20.35, '2024-02-25', 'cancelled', false, 'note 3', 'X0000055');
INSERT INTO forms.deliveries VALUES (5, 57, '2026-12-05 13:27:28.763576+00', 56, 'Customer 56', 'c56@example.com', 43, 20.72, '2024-02-26', 'new', true, 'note 4', 'X0000056');
INSERT INTO forms.deliveries VALUES (5, 58, '2026-12-05 13:27:28.763576+00', 57, 'Customer 57', 'c57@example.com', 50, 21.09, '2024-02-27', 'paid', false, 'note 5', 'X0000057');
INSERT INTO forms.deliveries VALUES (5, 59, '2026-12-05 13:27:28.763576+00', 58, 'Customer 58', 'c58@example.com', 7, 21.46, '2024-02-28', 'shipped', true, 'note 6', 'X0000058');
INSERT INTO forms.deliveries VALUES (5, 60, '2026-12-05 13:27:28.763576+00', 59, 'Customer 59', 'c59@example.com', 14, 21.83, '2024-02-29', 'cancelled', false, 'note 7', 'X0000059');
INSERT INTO forms.deliveries VALUES (5, 61, '2026-12-05 13:27:28.763576+00', 60, 'Customer 60', 'c60@example.com', 21, 22.2, '2024-03-01', 'new', true, 'note 8', 'X0000060');
INSERT INTO forms.deliveries VALUES (5, 62, '2026-12-05 13:27:28.763576+00', 61, 'Customer 61', 'c61@example.com', 28, 22.57, '2024-03-02', 'paid', false, 'note 9', 'X0000061');
INSERT INTO forms.deliveries VALUES (5, 63, '2026-12-05 13:27:28.763576+00', 62, 'Customer 62', 'c62@example.com', 35, 22.94, '2024-03-03', 'shipped', true, 'note 10', 'X0000062');
INSERT INTO forms.deliveries VALUES (5, 64, '2026-12-05 13:27:28.763576+00', 63, 'Customer 63', 'c63@example.com', 42, 23.31, '2024-03-04', 'cancelled', false, 'note 11', 'X0000063');
INSERT INTO forms.deliveries VALUES (5, 65, '2026-12-05 13:27:28.763576+00', 64, 'Customer 64', 'c64@example.com', 49, 23.68, '2024-03-05', 'new', true, 'note 12', 'X0000064');
INSERT INTO forms.deliveries VALUES (5, 66, '2026-12-05 13:27:28.763576+00', 65, 'Customer 65', 'c65@example.com', 6, 24.05, '2024-03-06', 'paid', false, 'note 0', 'X0000065');
INSERT INTO forms.deliveries VALUES (5, 67, '2026-12-05 13:27:28.763576+00', 66, 'Customer 66', 'c66@example.com', 13, 24.42, '2024-03-07', 'shipped', true, 'note 1', 'X0000066');
INSERT INTO forms.deliveries VALUES (5, 68, '2026-12-05 13:27:28.763576+00', 67, 'Customer 67', 'c67@example.com', 20, 24.79, '2024-03-08', 'cancelled', false, 'note 2', 'X0000067');
INSERT INTO forms.deliveries VALUES (5, 69, '2026-12-05 13:27:28.763576+00', 68, 'Customer 68', 'c68@example.com', 27, 25.16, '2024-03-09', 'new', true, 'note 3', 'X0000068');
INSERT INTO forms.deliveries VALUES (5, 70, '2026-12-05 13:27:28.763576+00', 69, 'Customer 69', 'c69@example.com', 34, 25.53, '2024-03-10', 'paid', false, 'note 4', 'X0000069');
INSERT INTO forms.deliveries VALUES (5, 71, '2026-12-05 13:27:28.763576+00', 70, 'Customer 70', 'c70@example.com', 41, 25.9, '2024-03-11', 'shipped', true, 'note 5', 'X0000070');
INSERT INTO forms.deliveries VALUES (5, 72, '2026-12-05 13:27:28.763576+00', 71, 'Customer 71', 'c71@example.com', 48, 26.27, '2024-03-12', 'cancelled', false, 'note 6', 'X0000071');
INSERT INTO forms.deliveries VALUES (5, 73, '2026-12-05 13:27:28.763576+00', 72, 'Customer 72', 'c72@example.com', 5, 26.64, '2024-03-13', 'new', true, 'note 7', 'X0000072');
INSERT INTO forms.deliveries VALUES (5, 74, '2026-12-05 13:27:28.763576+00', 73, 'Customer 73', 'c73@example.com', 12, 27.01, '2024-03-14', 'paid', false, 'note 8', 'X0000073');
INSERT INTO forms.deliveries VALUES (5, 75, '2026-12-05 13:27:28.763576+00', 74, 'Customer 74', 'c74@example.com', 19, 27.38, '2024-03-15', 'shipped', true, 'note 9', 'X0000074');
INSERT INTO forms.deliveries VALUES (5, 76, '2026-12-05 13:27:28.763576+00', 75, 'Customer 75', 'c75@example.com', 26, 27.75, '2024-03-16', 'cancelled', false, 'note 10', 'X0000075');
INSERT INTO forms.deliveries VALUES (5, 77, '2026-12-05 13:27:28.763576+00', 76, 'Customer 76', 'c76@example.com', 33, 28.12, '2024-03-17', 'new', true, 'note 11', 'X0000076');
INSERT INTO forms.deliveries VALUES (5, 78, '2026-12-05 13:27:28.763576+00', 77, 'Customer 77', 'c77@example.com', 40, 28.49, '2024-03-18', 'paid', false, 'note 12', 'X0000077');
INSERT INTO forms.deliveries VALUES (5, 80, '2026-12-05 13:27:28.763576+00', 79, 'Customer 79', 'c79@example.com', 4, 29.23, '2024-03-20', 'cancelled', false, 'note 1', 'X0000079');
INSERT INTO forms.deliveries VALUES (5, 81, '2026-12-05 13:27:28.763576+00', 80, 'Customer 80', 'c80@example.com', 11, 29.6, '2024-03-21', 'new', true, 'note 2', 'X0000080');
INSERT INTO forms.deliveries VALUES (5, 82, '2026-12-05 13:27:28.763576+00', 81, 'Customer 81', 'c81@example.com', 18, 29.97, '2024-03-22', 'paid', false, 'note 3', 'X0000081');
INSERT INTO forms.deliveries VALUES (5, 83, '2026-12-05 13:27:28.763576+00', 82, 'Customer 82', 'c82@example.com', 25, 30.34, '2024-03-23', 'shipped', true, 'note 4', 'X0000082');
INSERT INTO forms.deliveries VALUES (5, 84, '2026-12-05 13:27:28.763576+00', 83, 'Customer 83', 'c83@example.com', 32, 30.71, '2024-03-24', 'cancelled', false, 'note 5', 'X0000083');
INSERT INTO forms.deliveries VALUES (5, 85, '2026-12-05 13:27:28.763576+00', 84, 'Customer 84', 'c84@example.com', 39, 31.08, '2024-03-25', 'new', true, 'note 6', 'X0000084');
INSERT INTO forms.deliveries VALUES (5, 86, '2026-12-05 13:27:28.763576+00', 85, 'Customer 85', 'c85@example.com', 46, 31.45, '2024-03-26', 'paid', false, 'note 7', 'X0000085');
INSERT INTO forms.deliveries VALUES (5, 87, '2026-12-05 13:27:28.763576+00', 86, 'Customer 86', 'c86@example.com', 3, 31.82, '2024-03-27', 'shipped', true, 'note 8', 'X0000086');
INSERT INTO forms.deliveries VALUES (5, 88, '2026-12-05 13:27:28.763576+00', 87, 'Customer 87', 'c87@example.com', 10, 32.19, '2024-03-28', 'cancelled', false, 'note 9', 'X0000087');
INSERT INTO forms.deliveries VALUES (5, 89, '2026-12-05 13:27:28.763576+00', 88, 'Customer 88', 'c88@example.com', 17, 32.56, '2024-03-29', 'new', true, 'note 10', 'X0000088');
INSERT INTO forms.deliveries VALUES (5, 91, '2026-12-05 13:27:28.763576+00', 90, 'Customer 90', 'c90@example.com', 31, 33.3, '2024-03-31', 'shipped', true, 'note 12', 'X0000090');
INSERT INTO forms.deliveries VALUES (5, 92, '2026-12-05 13:27:28.763576+00', 91, 'Customer 91', 'c91@example.com', 38, 33.67, '2024-04-01', 'cancelled', false, 'note 0', 'X0000091');
INSERT INTO forms.deliveries VALUES (5, 93, '2026-12-05 13:27:28.763576+00', 92, 'Customer 92', 'c92@example.com', 45, 34.04, '2024-04-02', 'new', true, 'note 1', 'X0000092');
INSERT INTO forms.deliveries VALUES (5, 94, '2026-12-05 13:27:28.763576+00', 93, 'Customer 93', 'c93@example.com', 2, 34.41, '2024-04-03', 'paid', false, 'note 2', 'X0000093');
INSERT INTO forms.deliveries VALUES (5, 95, '2026-12-05 13:27:28.763576+00', 94, 'Customer 94', 'c94@example.com', 9, 34.78, '2024-04-04', 'shipped', true, 'note 3', 'X0000094');
INSERT INTO forms.deliveries VALUES (5, 96, '2026-12-05 13:27:28.763576+00', 95, 'Customer 95', 'c95@example.com', 16, 35.15, '2024-04-05', 'cancelled', false, 'note 4', 'X0000095');
INSERT INTO forms.deliveries VALUES (5, 97, '2026-12-05 13:27:28.763576+00', 96, 'Customer 96', 'c96@example.com', 23, 35.52, '2024-04-06', 'new', true, 'note 5', 'X0000096');
INSERT INTO forms.deliveries VALUES (5, 98, '2026-12-05 13:27:28.763576+00', 97, 'Customer 97', 'c97@example.com', 30, 35.89, '2024-04-07', 'paid', false, 'note 6', 'X0000097');
INSERT INTO forms.deliveries VALUES (5, 99, '2026-12-05 13:27:28.763576+00', 98, 'Customer 98', 'c98@example.com', 37, 36.26, '2024-04-08', 'shipped', true, 'note 7', 'X0000098');
INSERT INTO forms.deliveries VALUES (5, 100, '2026-12-05 13:27:28.763576+00', 99, 'Customer 99', 'c99@example.com', 44, 36.63, '2024-04-09', 'cancelled', false, 'note 8', 'X0000099');
INSERT INTO forms.deliveries VALUES (5, 101, '2026-12-05 13:27:28.763576+00', 100, 'Customer 100', 'c100@example.com', 1, 37.0, '2024-04-10', 'new', true, 'note 9', 'X0000100');
INSERT INTO forms.deliveries VALUES (5, 102, '2026-12-05 13:27:28.769929+00', 101, 'Customer 101', 'c101@example.com', 8, 37.37, '2024-04-11', 'paid', false, 'note 10', 'X0000101');
INSERT INTO forms.deliveries VALUES (5, 104, '2026-12-05 13:27:28.769929+00', 103, 'Customer 103', 'c103@example.com', 22, 38.11, '2024-04-13', 'cancelled', false, 'note 12', 'X0000103');
INSERT INTO forms.deliveries VALUES (5, 105, '2026-12-05 13:27:28.769929+00', 104, 'Customer 104', 'c104@example.com', 29, 38.48, '2024-04-14', 'new', true, 'note 0', 'X0000104');
INSERT INTO forms.deliveries VALUES (5, 106, '2026-12-05 13:27:28.769929+00', 105, 'Customer 105', 'c105@example.com', 36, 38.85, '2024-04-15', 'paid', false, 'note 1', 'X0000105');
INSERT INTO forms.deliveries VALUES (5, 108, '2026-12-05 13:27:28.769929+00', 107, 'Customer 107', 'c107@example.com', 50, 39.59, '2024-04-17', 'cancelled', false, 'note 3', 'X0000107');
INSERT INTO forms.deliveries VALUES (5, 109, '2026-12-05 13:27:28.769929+00', 108, 'Customer 108', 'c108@example.com', 7, 39.96, '2024-04-18', 'new', true, 'note 4', 'X0000108');
INSERT INTO forms.deliveries VALUES (5, 110, '2026-12-05 13:27:28.769929+00', 109, 'Customer 109', 'c109@example.com', 14, 40.33, '2024-04-19', 'paid', false, 'note 5', 'X0000109');
INSERT INTO forms.deliveries VALUES (5, 111, '2026-12-05 13:27:28.769929+00', 110, 'Customer 110', 'c110@example.com', 21, 40.7, '2024-04-20', 'shipped', true, 'note 6', 'X0000110');
INSERT INTO forms.deliveries VALUES (5, 112, '2026-12-05 13:27:28.769929+00', 111, 'Customer 111', 'c111@example.com', 28, 41.07, '2024-04-21', 'cancelled', false, 'note 7', 'X0000111');
INSERT INTO forms.deliveries VALUES (5, 113, '2026-12-05 13:27:28.769929+00', 112, 'Customer 112', 'c112@example.com', 35, 41.44, '2024-04-22', 'new', true, 'note 8', 'X0000112');
INSERT INTO forms.deliveries VALUES (5, 114, '2026-12-05 13:27:28.769929+00', 113, 'Customer 113', 'c113@example.com', 42, 41.81, '2024-04-23', 'paid', false, 'note 9', 'X0000113');
INSERT INTO forms.deliveries VALUES (5, 116, '2026-12-05 13:27:28.769929+00', 115, 'Customer 115', 'c115@example.com', 6, 42.55, '2024-04-25', 'cancelled', false, 'note 11', 'X0000115');
INSERT INTO forms.deliveries VALUES (5, 117, '2026-12-05 13:27:28.769929+00', 116, 'Customer 116', 'c116@example.com', 13, 42.92, '2024-04-26', 'new', true, 'note 12', 'X0000116');
INSERT INTO forms.deliveries VALUES (5, 118, '2026-12-05 13:27:28.769929+00', 117, 'Customer 117', 'c117@example.com', 20, 43.29, '2024-04-27', 'paid', false, 'note 0', 'X0000117');
INSERT INTO forms.deliveries VALUES (5, 119, '2026-12-05 13:27:28.769929+00', 118, 'Customer 118', 'c118@example.com', 27, 43.66, '2024-04-28', 'shipped', true, 'note 1', 'X0000118');
INSERT INTO forms.deliveries VALUES (5, 120, '2026-12-05 13:27:28.769929+00', 119, 'Customer 119', 'c119@example.com', 34, 44.03, '2024-04-29', 'cancelled', false, 'note 2', 'X0000119');
INSERT INTO forms.deliveries VALUES (5, 121, '2026-12-05 13:27:28.769929+00', 120, 'Customer 120', 'c120@example.com', 41, 44.4, '2024-04-30', 'new', true, 'note 3', 'X0000120');
INSERT INTO forms.deliveries VALUES (5, 122, '2026-12-05 13:27:28.769929+00', 121, 'Customer 121', 'c121@example.com', 48, 44.77, '2024-05-01', 'paid', false, 'note 4', 'X0000121');
INSERT INTO forms.deliveries VALUES (5, 123, '2026-12-05 13:27:28.769929+00', 122, 'Customer 122', 'c122@example.com', 5, 45.14, '2024-05-02', 'shipped', true, 'note 5', 'X0000122');
INSERT INTO forms.deliveries VALUES (5, 124, '2026-12-05 13:27:28.769929+00', 123, 'Customer 123', 'c123@example.com', 12, 45.51, '2024-05-03', 'cancelled', false, 'note 6', 'X0000123');
INSERT INTO forms.deliveries VALUES (5, 125, '2026-12-05 13:27:28.769929+00', 124, 'Customer 124', 'c124@example.com', 19, 45.88, '2024-05-04', 'new', true, 'note 7', 'X0000124');
INSERT INTO forms.deliveries VALUES (5, 126, '2026-12-05 13:27:28.769929+00', 125, 'Customer 125', 'c125@example.com', 26, 46.25, '2024-05-05', 'paid', false, 'note 8', 'X0000125');
INSERT INTO forms.deliveries VALUES (5, 127, '2026-12-05 13:27:28.769929+00', 126, 'Customer 126', 'c126@example.com', 33, 46.62, '2024-05-06', 'shipped', true, 'note 9', 'X0000126');
INSERT INTO forms.deliveries VALUES (5, 128, '2026-12-05 13:27:28.769929+00', 127, 'Customer 127', 'c127@example.com', 40, 46.99, '2024-05-07', 'cancelled', false, 'note 10', 'X0000127');
INSERT INTO forms.deliveries VALUES (5, 129, '2026-12-05 13:27:28.769929+00', 128, 'Customer 128', 'c128@example.com', 47, 47.36, '2024-05-08', 'new', true, 'note 11', 'X0000128');
INSERT INTO forms.deliveries VALUES (5, 130, '2026-12-05 13:27:28.769929+00', 129, 'Customer 129', 'c129@example.com', 4, 47.73, '2024-05-09', 'paid', false, 'note 12', 'X0000129');
INSERT INTO forms.deliveries VALUES (5, 131, '2026-12-05 13:27:28.769929+00', 130, 'Customer 130', 'c130@example.com', 11, 48.1, '2024-05-10', 'shipped', true, 'note 0', 'X0000130');
INSERT INTO forms.deliveries VALUES (5, 132, '2026-12-05 13:27:28.769929+00', 131, 'Customer 131', 'c131@example.com', 18, 48.47, '2024-05-11', 'cancelled', false, 'note 1', 'X0000131');
INSERT INTO forms.deliveries VALUES (5, 133, '2026-12-05 13:27:28.769929+00', 132, 'Customer 132', 'c132@example.com', 25, 48.84, '2024-05-12', 'new', true, 'note 2', 'X0000132');
INSERT INTO forms.deliveries VALUES (5, 134, '2026-12-05 13:27:28.769929+00', 133, 'Customer 133', 'c133@example.com', 32, 49.21, '2024-05-13', 'paid', false, 'note 3', 'X0000133');
INSERT INTO forms.deliveries VALUES (5, 135, '2026-12-05 13:27:28.769929+00', 134, 'Customer 134', 'c134@example.com', 39, 49.58, '2024-05-14', 'shipped', true, 'note 4', 'X0000134');
INSERT INTO forms.deliveries VALUES (5, 136, '2026-12-05 13:27:28.769929+00', 135, 'Customer 135', 'c135@example.com', 46, 49.95, '2024-05-15', 'cancelled', false, 'note 5', 'X0000135');
INSERT INTO forms.deliveries VALUES (5, 137, '2026-12-05 13:27:28.769929+00', 136, 'Customer 136', 'c136@example.com', 3, 50.32, '2024-05-16', 'new', true, 'note 6', 'X0000136');
INSERT INTO forms.deliveries VALUES (5, 138, '2026-12-05 13:27:28.769929+00', 137, 'Customer 137', 'c137@example.com', 10, 50.69, '2024-05-17', 'paid', false, 'note 7', 'X0000137');
INSERT INTO forms.deliveries VALUES (5, 139, '2026-12-05 13:27:28.769929+00', 138, 'Customer 138', 'c138@example.com', 17, 51.06, '2024-05-18', 'shipped', true, 'note 8', 'X0000138');
INSERT INTO forms.deliveries VALUES (5, 140, '2026-12-05 13:27:28.769929+00', 139, 'Customer 139', 'c139@example.com', 24, 51.43, '2024-05-19', 'cancelled', false, 'note 9', 'X0000139');
INSERT INTO forms.deliveries VALUES (5, 141, '2026-12-05 13:27:28.769929+00', 140, 'Customer 140', 'c140@example.com', 31, 51.8, '2024-05-20', 'new', true, 'note 10', 'X0000140');
INSERT INTO forms.deliveries VALUES (5, 142, '2026-12-05 13:27:28.769929+00', 141, 'Customer 141', 'c141@example.com', 38, 52.17, '2024-05-21', 'paid', false, 'note 11', 'X0000141');
INSERT INTO forms.deliveries VALUES (5, 143, '2026-12-05 13:27:28.769929+00', 142, 'Customer 142', 'c142@example.com', 45, 52.54, '2024-05-22', 'shipped', true, 'note 12', 'X0000142');
INSERT INTO forms.deliveries VALUES (5, 144, '2026-12-05 13:27:28.769929+00', 143, 'Customer 143', 'c143@example.com', 2, 52.91, '2024-05-23', 'cancelled', false, 'note 0', 'X0000143');
INSERT INTO forms.deliveries VALUES (5, 145, '2026-12-05 13:27:28.769929+00', 144, 'Customer 144', 'c144@example.com', 9, 53.28, '2024-05-24', 'new', true, 'note 1', 'X0000144');
INSERT INTO forms.deliveries VALUES (5, 147, '2026-12-05 13:27:28.769929+00', 146, 'Customer 146', 'c146@example.com', 23, 54.02, '2024-05-26', 'shipped', true, 'note 3', 'X0000146');
INSERT INTO forms.deliveries VALUES (5, 148, '2026-12-05 13:27:28.769929+00', 147, 'Customer 147', 'c147@example.com', 30, 54.39, '2024-05-27', 'cancelled', false, 'note 4', 'X0000147');
INSERT INTO forms.deliveries VALUES (5, 149, '2026-12-05 13:27:28.769929+00', 148, 'Customer 148', 'c148@example.com', 37, 54.76, '2024-05-28', 'new', true, 'note 5', 'X0000148');
INSERT INTO forms.deliveries VALUES (5, 150, '2026-12-05 13:27:28.769929+00', 149, 'Customer 149', 'c149@example.com', 44, 55.13, '2024-05-29', 'paid', false, 'note 6', 'X0000149');
INSERT INTO forms.deliveries VALUES (5, 151, '2026-12-05 13:27:28.769929+00', 150, 'Customer 150', 'c150@example.com', 1, 55.5, '2024-05-30', 'shipped', true, 'note 7', 'X0000150');
INSERT INTO forms.deliveries VALUES (5, 152, '2026-12-05 13:27:28.775858+00', 151, 'Customer 151', 'c151@example.com', 8, 55.87, '2024-05-31', 'cancelled', false, 'note 8', 'X0000151');
INSERT INTO forms.deliveries VALUES (5, 153, '2026-12-05 13:27:28.775858+00', 152, 'Customer 152', 'c152@example.com', 15, 56.24, '2024-06-01', 'new', true, 'note 9', 'X0000152');
INSERT INTO forms.deliveries VALUES (5, 154, '2026-12-05 13:27:28.775858+00', 153, 'Customer 153', 'c153@example.com', 22, 56.61, '2024-06-02', 'paid', false, 'note 10', 'X0000153');
INSERT INTO forms.deliveries VALUES (5, 155, '2026-12-05 13:27:28.775858+00', 154, 'Customer 154', 'c154@example.com', 29, 56.98, '2024-06-03', 'shipped', true, 'note 11', 'X0000154');
INSERT INTO forms.deliveries VALUES (5, 157, '2026-12-05 13:27:28.775858+00', 156, 'Customer 156', 'c156@example.com', 43, 57.72, '2024-06-05', 'new', true, 'note 0', 'X0000156');
INSERT INTO forms.deliveries VALUES (5, 158, '2026-12-05 13:27:28.775858+00', 157, 'Customer 157', 'c157@example.com', 50, 58.09, '2024-06-06', 'paid', false, 'note 1', 'X0000157');
INSERT INTO forms.deliveries VALUES (5, 159, '2026-12-05 13:27:28.775858+00', 158, 'Customer 158', 'c158@example.com', 7, 58.46, '2024-06-07', 'shipped', true, 'note 2', 'X0000158');
INSERT INTO forms.deliveries VALUES (5, 160, '2026-12-05 13:27:28.775858+00', 159, 'Customer 159', 'c159@example.com', 14, 58.83, '2024-06-08', 'cancelled', false, 'note 3', 'X0000159');
INSERT INTO forms.deliveries VALUES (5, 161, '2026-12-05 13:27:28.775858+00', 160, 'Customer 160', 'c160@example.com', 21, 59.2, '2024-06-09', 'new', true, 'note 4', 'X0000160');
INSERT INTO forms.deliveries VALUES (5, 162, '2026-12-05 13:27:28.775858+00', 161, 'Customer 161', 'c161@example.com', 28, 59.57, '2024-06-10', 'paid', false, 'note 5', 'X0000161');
INSERT INTO forms.deliveries VALUES (5, 163, '2026-12-05 13:27:28.775858+00', 162, 'Customer 162', 'c162@example.com', 35, 59.94, '2024-06-11', 'shipped', true, 'note 6', 'X0000162');
INSERT INTO forms.deliveries VALUES (5, 164, '2026-12-05 13:27:28.775858+00', 163, 'Customer 163', 'c163@example.com', 42, 60.31, '2024-06-12', 'cancelled', false, 'note 7', 'X0000163');
INSERT INTO forms.deliveries VALUES (5, 165, '2026-12-05 13:27:28.775858+00', 164, 'Customer 164', 'c164@example.com', 49, 60.68, '2024-06-13', 'new', true, 'note 8', 'X0000164');
INSERT INTO forms.deliveries VALUES (5, 166, '2026-12-05 13:27:28.775858+00', 165, 'Customer 165', 'c165@example.com', 6, 61.05, '2024-06-14', 'paid', false, 'note 9', 'X0000165');
INSERT INTO forms.deliveries VALUES (5, 167, '2026-12-05 13:27:28.775858+00', 166, 'Customer 166', 'c166@example.com', 13, 61.42, '2024-06-15', 'shipped', true, 'note 10', 'X0000166');
INSERT INTO forms.deliveries VALUES (5, 168, '2026-12-05 13:27:28.775858+00', 167, 'Customer 167', 'c167@example.com', 20, 61.79, '2024-06-16', 'cancelled', false, 'note 11', 'X0000167');
INSERT INTO forms.deliveries VALUES (5, 169, '2026-12-05 13:27:28.775858+00', 168, 'Customer 168', 'c168@example.com', 27, 62.16, '2024-06-17', 'new', true, 'note 12', 'X0000168');
INSERT INTO forms.deliveries VALUES (5, 170, '2026-12-05 13:27:28.775858+00', 169, 'Customer 169', 'c169@example.com', 34, 62.53, '2024-06-18', 'paid', false, 'note 0', 'X0000169');
INSERT INTO forms.deliveries VALUES (5, 172, '2026-12-05 13:27:28.775858+00', 171, 'Customer 171', 'c171@example.com', 48, 63.27, '2024-06-20', 'cancelled', false, 'note 2', 'X0000171');
INSERT INTO forms.deliveries VALUES (5, 173, '2026-12-05 13:27:28.775858+00', 172, 'Customer 172', 'c172@example.com', 5, 63.64, '2024-06-21', 'new', true, 'note 3', 'X0000172');
INSERT INTO forms.deliveries VALUES (5, 174, '2026-12-05 13:27:28.775858+00', 173, 'Customer 173', 'c173@example.com', 12, 64.01, '2024-06-22', 'paid', false, 'note 4', 'X0000173');
INSERT INTO forms.deliveries VALUES (5, 175, '2026-12-05 13:27:28.775858+00', 174, 'Customer 174', 'c174@example.com', 19, 64.38, '2024-06-23', 'shipped', true, 'note 5', 'X0000174');
INSERT INTO forms.deliveries VALUES (5, 176, '2026-12-05 13:27:28.775858+00', 175, 'Customer 175', 'c175@example.com', 26, 64.75, '2024-06-24', 'cancelled', false, 'note 6', 'X0000175');
INSERT INTO forms.deliveries VALUES (5, 177, '2026-12-05 13:27:28.775858+00', 176, 'Customer 176', 'c176@example.com', 33, 65.12, '2024-06-25', 'new', true, 'note 7', 'X0000176');
INSERT INTO forms.deliveries VALUES (5, 178, '2026-12-05 13:27:28.775858+00', 177, 'Customer 177', 'c177@example.com', 40, 65.49, '2024-06-26', 'paid', false, 'note 8', 'X0000177');
INSERT INTO forms.deliveries VALUES (5, 179, '2026-12-05 13:27:28.775858+00', 178, 'Customer 178', 'c178@example.com', 47, 65.86, '2024-06-27', 'shipped', true, 'note 9', 'X0000178');
INSERT INTO forms.deliveries VALUES (5, 181, '2026-12-05 13:27:28.775858+00', 180, 'Customer 180', 'c180@example.com', 11, 66.6, '2024-06-29', 'new', true, 'note 11', 'X0000180');
INSERT INTO forms.deliveries VALUES (5, 182, '2026-12-05 13:27:28.775858+00', 181, 'Customer 181', 'c181@example.com', 18, 66.97, '2024-06-30', 'paid', false, 'note 12', 'X0000181');
INSERT INTO forms.deliveries VALUES (5, 183, '2026-12-05 13:27:28.775858+00', 182, 'Customer 182', 'c182@example.com', 25, 67.34, '2024-07-01', 'shipped', true, 'note 0', 'X0000182');
INSERT INTO forms.deliveries VALUES (5, 184, '2026-12-05 13:27:28.775858+00', 183, 'Customer 183', 'c183@example.com', 32, 67.71, '2024-07-02', 'cancelled', false, 'note 1', 'X0000183');
INSERT INTO forms.deliveries VALUES (5, 185, '2026-12-05 13:27:28.775858+00', 184, 'Customer 184', 'c184@example.com', 39, 68.08, '2024-07-03', 'new', true, 'note 2', 'X0000184');
INSERT INTO forms.deliveries VALUES (5, 186, '2026-12-05 13:27:28.775858+00', 185, 'Customer 185', 'c185@example.com', 46, 68.45, '2024-07-04', 'paid', false, 'note 3', 'X0000185');
INSERT INTO forms.deliveries VALUES (5, 187, '2026-12-05 13:27:28.775858+00', 186, 'Customer 186', 'c186@example.com', 3, 68.82, '2024-07-05', 'shipped', true, 'note 4', 'X0000186');
INSERT INTO forms.deliveries VALUES (5, 188, '2026-12-05 13:27:28.775858+00', 187, 'Customer 187', 'c187@example.com', 10, 69.19, '2024-07-06', 'cancelled', false, 'note 5', 'X0000187');
INSERT INTO forms.deliveries VALUES (5, 189, '2026-12-05 13:27:28.775858+00', 188, 'Customer 188', 'c188@example.com', 17, 69.56, '2024-07-07', 'new', true, 'note 6', 'X0000188');
INSERT INTO forms.deliveries VALUES (5, 190, '2026-12-05 13:27:28.775858+00', 189, 'Customer 189', 'c189@example.com', 24, 69.93, '2024-07-08', 'paid', false, 'note 7', 'X0000189');
INSERT INTO forms.deliveries VALUES (5, 191, '2026-12-05 13:27:28.775858+00', 190, 'Customer 190', 'c190@example.com', 31, 70.3, '2024-07-09', 'shipped', true, 'note 8', 'X0000190');
INSERT INTO forms.deliveries VALUES (5, 192, '2026-12-05 13:27:28.775858+00', 191, 'Customer 191', 'c191@example.com', 38, 70.67, '2024-07-10', 'cancelled', false, 'note 9', 'X0000191');
INSERT INTO forms.deliveries VALUES (5, 194, '2026-12-05 13:27:28.775858+00', 193, 'Customer 193', 'c193@example.com', 2, 71.41, '2024-07-12', 'paid', false, 'note 11', 'X0000193');
INSERT INTO forms.deliveries VALUES (5, 195, '2026-12-05 13:27:28.775858+00', 194, 'Customer 194', 'c194@example.com', 9, 71.78, '2024-07-13', 'shipped', true, 'note 12', 'X0000194');
INSERT INTO forms.deliveries VALUES (5, 196, '2026-12-05 13:27:28.775858+00', 195, 'Customer 195', 'c195@example.com', 16, 72.15, '2024-07-14', 'cancelled', false, 'note 0', 'X0000195');
INSERT INTO forms.deliveries VALUES (5, 197, '2026-12-05 13:27:28.775858+00', 196, 'Customer 196', 'c196@example.com', 23, 72.52, '2024-07-15', 'new', true, 'note 1', 'X0000196');
INSERT INTO forms.deliveries VALUES (5, 198, '2026-12-05 13:27:28.775858+00', 197, 'Customer 197', 'c197@example.com', 30, 72.89, '2024-07-16', 'paid', false, 'note 2', 'X0000197');
INSERT INTO forms.deliveries VALUES (5, 199, '2026-12-05 13:27:28.775858+00', 198, 'Customer 198', 'c198@example.com', 37, 73.26, '2024-07-17', 'shipped', true, 'note 3', 'X0000198');
INSERT INTO forms.deliveries VALUES (5, 200, '2026-12-05 13:27:28.775858+00', 199, 'Customer 199', 'c199@example.com', 44, 73.63, '2024-07-18', 'cancelled', false, 'note 4', 'X0000199');
INSERT INTO forms.deliveries VALUES (5, 201, '2026-12-05 13:27:28.775858+00', 200, 'Customer 200', 'c200@example.com', 1, 74.0, '2024-07-19', 'new', true, 'note 5', 'X0000200');


--
-- Data for Name: orders; Type: TABLE DATA; Schema: forms; Owner: -
--

INSERT INTO forms.orders VALUES (1, 5, '2026-12-05 13:27:23.189763+00', 10004, 'Tim Thompson', 'tim.thompson3@example.com', '2024-02-07', 'new', 13, 141.21, '60614', false);
INSERT INTO forms.orders VALUES (1, 6, '2026-12-05 13:27:23.189763+00', 10005, 'Ada Turing', 'ada.turing4@example.com', '2024-02-09', 'paid', 14, 215.56, '94103', false);
INSERT INTO forms.orders VALUES (1, 7, '2026-12-05 13:27:23.189763+00', 10006, 'Ken Thompson', 'ken.thompson5@example.com', '2024-01-30', 'cancelled', 10, 43.14, '94103', false);
INSERT INTO forms.orders VALUES (1, 8, '2026-12-05 13:27:23.189763+00', 10007, 'Ken Lovelace', 'ken.lovelace6@example.com', '2024-09-01', 'paid', 14, 154.9, '10001', false);
INSERT INTO forms.orders VALUES (1, 9, '2026-12-05 13:27:23.189763+00', 10008, 'Edsger Turing', 'edsger.turing7@example.com', '2024-11-21', 'paid', 8, 231.31, '10001', false);
INSERT INTO forms.orders VALUES (1, 10, '2026-12-05 13:27:23.189763+00', 10009, 'Tim Thompson', 'tim.thompson8@example.com', '2024-07-08', 'shipped', 12, 124.17, '94103', false);
INSERT INTO forms.orders VALUES (1, 11, '2026-12-05 13:27:23.189763+00', 10010, 'Donald Hopper', 'donald.hopper9@example.com', '2024-05-14', 'cancelled', 11, 201.54, '30301', false);
INSERT INTO forms.orders VALUES (1, 12, '2026-12-05 13:27:23.189763+00', 10011, 'Tim Lovelace', 'tim.lovelace10@example.com', '2024-03-31', 'shipped', 17, 28.66, '10001', false);
INSERT INTO forms.orders VALUES (1, 13, '2026-12-05 13:27:23.189763+00', 10012, 'Alan Lovelace', 'alan.lovelace11@example.com', '2024-05-18', 'paid', 20, 80.33, '00501', false);
INSERT INTO forms.orders VALUES (1, 14, '2026-12-05 13:27:23.189763+00', 10013, 'Alan Knuth', 'alan.knuth12@example.com', '2024-03-05', 'shipped', 3, 242.9, '00501', false);
INSERT INTO forms.orders VALUES (1, 15, '2026-12-05 13:27:23.189763+00', 10014, 'Alan Hopper', 'alan.hopper13@example.com', '2024-02-08', 'new', 11, 178.59, '60614', false);
INSERT INTO forms.orders VALUES (1, 16, '2026-12-05 13:27:23.189763+00', 10015, 'Grace Hopper', 'grace.hopper14@example.com', '2024-05-29', 'new', 15, 150.07, '10001', false);
INSERT INTO forms.orders VALUES (1, 17, '2026-12-05 13:27:23.189763+00', 10016, 'Alan Liskov', 'alan.liskov15@example.com', '2024-08-11', 'new', 17, 77.51, '10001', true);
INSERT INTO forms.orders VALUES (1, 18, '2026-12-05 13:27:23.189763+00', 10017, 'Donald Thompson', 'donald.thompson16@example.com', '2024-01-30', 'paid', 16, 113.04, '60614', true);
INSERT INTO forms.orders VALUES (1, 19, '2026-12-05 13:27:23.189763+00', 10018, 'Alan Knuth', 'alan.knuth17@example.com', '2024-08-01', 'new', 8, 13.98, '00501', false);
INSERT INTO forms.orders VALUES (1, 20, '2026-12-05 13:27:23.189763+00', 10019, 'Ada Turing', 'ada.turing18@example.com', '2024-03-12', 'new', 11, 73.52, '60614', false);
INSERT INTO forms.orders VALUES (1, 21, '2026-12-05 13:27:23.189763+00', 10020, 'Donald Hopper', 'donald.hopper19@example.com', '2024-02-27', 'new', 4, 177.2, '30301', false);
INSERT INTO forms.orders VALUES (1, 22, '2026-12-05 13:27:23.189763+00', 10021, 'Edsger Hopper', 'edsger.hopper20@example.com', '2024-09-03', 'paid', 13, 195.47, '10001', false);
INSERT INTO forms.orders VALUES (1, 23, '2026-12-05 13:27:23.189763+00', 10022, 'Frances Knuth', 'frances.knuth21@example.com', '2024-10-13', 'new', 2, 246.47, '10001', false);
INSERT INTO forms.orders VALUES (1, 24, '2026-12-05 13:27:23.189763+00', 10023, 'Radia Dijkstra', 'radia.dijkstra22@example.com', '2024-03-30', 'new', 17, 95.74, '30301', false);
INSERT INTO forms.orders VALUES (1, 25, '2026-12-05 13:27:23.189763+00', 10024, 'Edsger Allen', 'edsger.allen23@example.com', '2024-04-02', 'paid', 17, 49.45, '94103', false);
INSERT INTO forms.orders VALUES (1, 26, '2026-12-05 13:27:23.189763+00', 10025, 'Grace Thompson', 'grace.thompson24@example.com', '2024-07-21', 'paid', 10, 60.32, '02134', true);
INSERT INTO forms.orders VALUES (1, 27, '2026-12-05 13:27:23.189763+00', 10026, 'Edsger Dijkstra', 'edsger.dijkstra25@example.com', '2024-06-23', 'shipped', 14, 152.69, '94103', false);
INSERT INTO forms.orders VALUES (1, 28, '2026-12-05 13:27:23.189763+00', 10027, 'Ken Lovelace', 'ken.lovelace26@example.com', '2024-09-19', 'new', 4, 29.69, '94103', false);
INSERT INTO forms.orders VALUES (1, 29, '2026-12-05 13:27:23.189763+00', 10028, 'Ada Knuth', 'ada.knuth27@example.com', '2024-08-02', 'cancelled', 9, 249.8, '00501', true);
INSERT INTO forms.orders VALUES (1, 30, '2026-12-05 13:27:23.189763+00', 10029, 'Edsger Lovelace', 'edsger.lovelace28@example.com', '2024-10-14', 'shipped', 13, 222.06, '94103', true);
INSERT INTO forms.orders VALUES (1, 31, '2026-12-05 13:27:23.189763+00', 10030, 'Ada Lovelace', 'ada.lovelace29@example.com', '2024-02-22', 'new', 16, 9.9, '00501', true);
INSERT INTO forms.orders VALUES (1, 32, '2026-12-05 13:27:23.189763+00', 10031, 'Radia Liskov', 'radia.liskov30@example.com', '2024-02-23', 'cancelled', 16, 141.85, '60614', true);
INSERT INTO forms.orders VALUES (1, 33, '2026-12-05 13:27:23.189763+00', 10032, 'Alan Lovelace', 'alan.lovelace31@example.com', '2024-05-15', 'new', 13, 238.08, '00501', false);
INSERT INTO forms.orders VALUES (1, 34, '2026-12-05 13:27:23.189763+00', 10033, 'Alan Hopper', 'alan.hopper32@example.com', '2024-08-30', 'shipped', 9, 5.11, '10001', false);
INSERT INTO forms.orders VALUES (1, 35, '2026-12-05 13:27:23.189763+00', 10034, 'Barbara Knuth', 'barbara.knuth33@example.com', '2024-08-06', 'new', 17, 25.84, '00501', true);
INSERT INTO forms.orders VALUES (1, 36, '2026-12-05 13:27:23.189763+00', 10035, 'Radia Knuth', 'radia.knuth34@example.com', '2024-12-27', 'new', 5, 74.17, '10001', false);
INSERT INTO forms.orders VALUES (1, 37, '2026-12-05 13:27:23.189763+00', 10036, 'Frances Thompson', 'frances.thompson35@example.com', '2024-03-01', 'cancelled', 18, 137.85, '30301', false);
INSERT INTO forms.orders VALUES (1, 38, '2026-12-05 13:27:23.189763+00', 10037, 'Ada Turing', 'ada.turing36@example.com', '2024-07-31', 'new', 8, 88.3, '10001', false);
INSERT INTO forms.orders VALUES (1, 39, '2026-12-05 13:27:23.189763+00', 10038, 'Tim Knuth', 'tim.knuth37@example.com', '2024-01-12', 'new', 19, 206.75, '00501', true);
INSERT INTO forms.orders VALUES (1, 40, '2026-12-05 13:27:23.189763+00', 10039, 'Tim Dijkstra', 'tim.dijkstra38@example.com', '2024-10-16', 'paid', 1, 137.31, '60614', false);
INSERT INTO forms.orders VALUES (1, 41, '2026-12-05 13:27:23.189763+00', 10040, 'Radia Thompson', 'radia.thompson39@example.com', '2024-07-08', 'shipped', 8, 248.72, '00501', false);
INSERT INTO forms.orders VALUES (1, 42, '2026-12-05 13:27:23.189763+00', 10041, 'Frances Thompson', 'frances.thompson40@example.com', '2024-09-21', 'new', 11, 123.32, '60614', false);
INSERT INTO forms.orders VALUES (1, 43, '2026-12-05 13:27:23.189763+00', 10042, 'Barbara Dijkstra', 'barbara.dijkstra41@example.com', '2024-07-16', 'new', 11, 43.56, '10001', true);
INSERT INTO forms.orders VALUES (1, 44, '2026-12-05 13:27:23.189763+00', 10043, 'Frances Dijkstra', 'frances.dijkstra42@example.com', '2024-06-22', 'new', 3, 23.99, '00501', false);
INSERT INTO forms.orders VALUES (1, 45, '2026-12-05 13:27:23.189763+00', 10044, 'Donald Hopper', 'donald.hopper43@example.com', '2024-09-12', 'new', 16, 60.95, '60614', false);
INSERT INTO forms.orders VALUES (1, 46, '2026-12-05 13:27:23.189763+00', 10045, 'Alan Knuth', 'alan.knuth44@example.com', '2024-04-10', 'paid', 6, 41.75, '60614', false);
INSERT INTO forms.orders VALUES (1, 47, '2026-12-05 13:27:23.189763+00', 10046, 'Edsger Dijkstra', 'edsger.dijkstra45@example.com', '2024-12-03', 'new', 9, 29.33, '94103', false);
INSERT INTO forms.orders VALUES (1, 49, '2026-12-05 13:27:23.189763+00', 10048, 'Ada Allen', 'ada.allen47@example.com', '2024-11-13', 'new', 5, 224.65, '00501', false);
INSERT INTO forms.orders VALUES (1, 50, '2026-12-05 13:27:23.189763+00', 10049, 'Radia Allen', 'radia.allen48@example.com', '2024-03-15', 'paid', 4, 223.6, '02134', false);
INSERT INTO forms.orders VALUES (1, 51, '2026-12-05 13:27:23.189763+00', 10050, 'Grace Dijkstra', 'grace.dijkstra49@example.com', '2024-11-25', 'shipped', 3, 128.95, '30301', false);
INSERT INTO forms.orders VALUES (1, 52, '2026-12-05 13:27:23.189763+00', 10051, 'Tim Dijkstra', 'tim.dijkstra50@example.com', '2024-06-30', 'shipped', 18, 144.59, '94103', true);
INSERT INTO forms.orders VALUES (1, 53, '2026-12-05 13:27:23.189763+00', 10052, 'Alan Turing', 'alan.turing51@example.com', '2024-10-09', 'paid', 11, 81.66, '94103', true);
INSERT INTO forms.orders VALUES (1, 55, '2026-12-05 13:27:23.189763+00', 10054, 'Tim Turing', 'tim.turing53@example.com', '2024-10-04', 'new', 4, 178.41, '00501', true);
INSERT INTO forms.orders VALUES (1, 56, '2026-12-05 13:27:23.189763+00', 10055, 'Barbara Liskov', 'barbara.liskov54@example.com', '2024-03-24', 'new', 10, 11.86, '60614', false);
INSERT INTO forms.orders VALUES (1, 57, '2026-12-05 13:27:23.189763+00', 10056, 'Barbara Allen', 'barbara.allen55@example.com', '2024-03-16', 'shipped', 12, 141.06, '02134', false);
INSERT INTO forms.orders VALUES (1, 58, '2026-12-05 13:27:23.189763+00', 10057, 'Grace Liskov', 'grace.liskov56@example.com', '2024-05-03', 'paid', 12, 157.43, '94103', false);
INSERT INTO forms.orders VALUES (1, 59, '2026-12-05 13:27:23.189763+00', 10058, 'Alan Allen', 'alan.allen57@example.com', '2024-12-04', 'cancelled', 14, 65.91, '94103', true);
INSERT INTO forms.orders VALUES (1, 60, '2026-12-05 13:27:23.189763+00', 10059, 'Tim Hopper', 'tim.hopper58@example.com', '2024-11-25', 'shipped', 11, 59.19, '02134', false);
INSERT INTO forms.orders VALUES (1, 61, '2026-12-05 13:27:23.189763+00', 10060, 'Radia Hopper', 'radia.hopper59@example.com', '2024-01-13', 'paid', 14, 119.04, '94103', false);
INSERT INTO forms.orders VALUES (1, 62, '2026-12-05 13:27:23.189763+00', 10061, 'Ada Hopper', 'ada.hopper60@example.com', '2024-09-24', 'shipped', 11, 46.63, '30301', false);
INSERT INTO forms.orders VALUES (1, 63, '2026-12-05 13:27:23.189763+00', 10062, 'Barbara Liskov', 'barbara.liskov61@example.com', '2024-06-03', 'paid', 19, 191.85, '00501', false);
INSERT INTO forms.orders VALUES (1, 65, '2026-12-05 13:27:23.189763+00', 10064, 'Frances Thompson', 'frances.thompson63@example.com', '2024-06-09', 'new', 11, 168.85, '60614', false);
INSERT INTO forms.orders VALUES (1, 66, '2026-12-05 13:27:23.189763+00', 10065, 'Donald Allen', 'donald.allen64@example.com', '2024-04-02', 'shipped', 11, 157.89, '02134', false);
INSERT INTO forms.orders VALUES (1, 67, '2026-12-05 13:27:23.189763+00', 10066, 'Alan Lovelace', 'alan.lovelace65@example.com', '2024-03-26', 'cancelled', 7, 91.5, '94103', false);
INSERT INTO forms.orders VALUES (1, 68, '2026-12-05 13:27:23.189763+00', 10067, 'Frances Allen', 'frances.allen66@example.com', '2024-07-10', 'new', 3, 186.9, '00501', false);
INSERT INTO forms.orders VALUES (1, 69, '2026-12-05 13:27:23.189763+00', 10068, 'Tim Thompson', 'tim.thompson67@example.com', '2024-06-13', 'shipped', 10, 125.77, '30301', false);
INSERT INTO forms.orders VALUES (1, 70, '2026-12-05 13:27:23.189763+00', 10069, 'Alan Knuth', 'alan.knuth68@example.com', '2024-10-02', 'cancelled', 5, 177.08, '60614', false);
INSERT INTO forms.orders VALUES (1, 71, '2026-12-05 13:27:23.189763+00', 10070, 'Alan Thompson', 'alan.thompson69@example.com', '2024-10-07', 'cancelled', 11, 217.15, '94103', true);
INSERT INTO forms.orders VALUES (1, 72, '2026-12-05 13:27:23.189763+00', 10071, 'Frances Lovelace', 'frances.lovelace70@example.com', '2024-09-18', 'shipped', 20, 102.95, '02134', true);
INSERT INTO forms.orders VALUES (1, 73, '2026-12-05 13:27:23.189763+00', 10072, 'Barbara Thompson', 'barbara.thompson71@example.com', '2024-03-30', 'new', 3, 136.07, '02134', false);
INSERT INTO forms.orders VALUES (1, 74, '2026-12-05 13:27:23.189763+00', 10073, 'Edsger Turing', 'edsger.turing72@example.com', '2024-12-24', 'paid', 5, 91.93, '00501', false);
INSERT INTO forms.orders VALUES (1, 75, '2026-12-05 13:27:23.189763+00', 10074, 'Edsger Liskov', 'edsger.liskov73@example.com', '2024-08-13', 'paid', 9, 179.91, '10001', false);
INSERT INTO forms.orders VALUES (1, 76, '2026-12-05 13:27:23.189763+00', 10075, 'Tim Lovelace', 'tim.lovelace74@example.com', '2024-10-11', 'paid', 3, 95.38, '10001', false);
INSERT INTO forms.orders VALUES (1, 77, '2026-12-05 13:27:23.189763+00', 10076, 'Donald Thompson', 'donald.thompson75@example.com', '2024-07-09', 'cancelled', 10, 95.25, '10001', true);
INSERT INTO forms.orders VALUES (1, 78, '2026-12-05 13:27:23.189763+00', 10077, 'Edsger Dijkstra', 'edsger.dijkstra76@example.com', '2024-07-05', 'paid', 2, 136.93, '02134', false);
INSERT INTO forms.orders VALUES (1, 79, '2026-12-05 13:27:23.189763+00', 10078, 'Ken Allen', 'ken.allen77@example.com', '2024-06-13', 'new', 15, 163.78, '60614', false);
INSERT INTO forms.orders VALUES (1, 80, '2026-12-05 13:27:23.189763+00', 10079, 'Donald Turing', 'donald.turing78@example.com', '2024-06-06', 'paid', 8, 24.7, '94103', false);
INSERT INTO forms.orders VALUES (1, 81, '2026-12-05 13:27:23.189763+00', 10080, 'Donald Thompson', 'donald.thompson79@example.com', '2024-06-23', 'paid', 7, 117.79, '10001', false);
INSERT INTO forms.orders VALUES (1, 82, '2026-12-05 13:27:23.189763+00', 10081, 'Frances Thompson', 'frances.thompson80@example.com', '2024-07-10', 'paid', 19, 151.82, '00501', false);
INSERT INTO forms.orders VALUES (1, 83, '2026-12-05 13:27:23.189763+00', 10082, 'Barbara Lovelace', 'barbara.lovelace81@example.com', '2024-11-06', 'shipped', 7, 177.6, '02134', false);
INSERT INTO forms.orders VALUES (1, 84, '2026-12-05 13:27:23.189763+00', 10083, 'Grace Hopper', 'grace.hopper82@example.com', '2024-10-31', 'paid', 7, 62.43, '02134', true);
INSERT INTO forms.orders VALUES (1, 85, '2026-12-05 13:27:23.189763+00', 10084, 'Grace Knuth', 'grace.knuth83@example.com', '2024-12-30', 'paid', 17, 237.39, '94103', false);
INSERT INTO forms.orders VALUES (1, 86, '2026-12-05 13:27:23.189763+00', 10085, 'Ada Hopper', 'ada.hopper84@example.com', '2024-06-17', 'shipped', 14, 110.65, '60614', false);
INSERT INTO forms.orders VALUES (1, 87, '2026-12-05 13:27:23.189763+00', 10086, 'Grace Turing', 'grace.turing85@example.com', '2024-01-22', 'new', 13, 26.26, '10001', false);
INSERT INTO forms.orders VALUES (1, 88, '2026-12-05 13:27:23.189763+00', 10087, 'Tim Knuth', 'tim.knuth86@example.com', '2024-01-04', 'paid', 5, 197.83, '00501', false);
INSERT INTO forms.orders VALUES (1, 89, '2026-12-05 13:27:23.189763+00', 10088, 'Donald Turing', 'donald.turing87@example.com', '2024-06-15', 'paid', 15, 180.46, '10001', true);
INSERT INTO forms.orders VALUES (1, 90, '2026-12-05 13:27:23.189763+00', 10089, 'Tim Liskov', 'tim.liskov88@example.com', '2024-08-02', 'paid', 4, 196.01, '94103', false);
INSERT INTO forms.orders VALUES (1, 91, '2026-12-05 13:27:23.189763+00', 10090, 'Radia Turing', 'radia.turing89@example.com', '2024-04-15', 'shipped', 15, 29.79, '94103', false);
INSERT INTO forms.orders VALUES (1, 92, '2026-12-05 13:27:23.189763+00', 10091, 'Tim Lovelace', 'tim.lovelace90@example.com', '2024-04-08', 'new', 12, 247.87, '00501', false);
INSERT INTO forms.orders VALUES (1, 93, '2026-12-05 13:27:23.189763+00', 10092, 'Ken Turing', 'ken.turing91@example.com', '2024-08-31', 'shipped', 9, 73.9, '30301', false);
INSERT INTO forms.orders VALUES (1, 94, '2026-12-05 13:27:23.189763+00', 10093, 'Ken Thompson', 'ken.thompson92@example.com', '2024-06-28', 'paid', 4, 145.49, '94103', false);
INSERT INTO forms.orders VALUES (1, 95, '2026-12-05 13:27:23.189763+00', 10094, 'Frances Turing', 'frances.turing93@example.com', '2024-09-11', 'cancelled', 17, 15.88, '02134', false);
INSERT INTO forms.orders VALUES (1, 96, '2026-12-05 13:27:23.189763+00', 10095, 'Alan Allen', 'alan.allen94@example.com', '2024-10-31', 'new', 16, 99.6, '30301', false);
INSERT INTO forms.orders VALUES (1, 97, '2026-12-05 13:27:23.189763+00', 10096, 'Tim Turing', 'tim.turing95@example.com', '2024-11-12', 'new', 18, 53.77, '30301', true);
INSERT INTO forms.orders VALUES (1, 98, '2026-12-05 13:27:23.189763+00', 10097, 'Donald Dijkstra', 'donald.dijkstra96@example.com', '2024-04-15', 'paid', 16, 234.27, '94103', false);
INSERT INTO forms.orders VALUES (1, 99, '2026-12-05 13:27:23.189763+00', 10098, 'Ken Allen', 'ken.allen0@example.com', '2024-05-04', 'cancelled', 4, 57.36, '10001', false);
INSERT INTO forms.orders VALUES (1, 100, '2026-12-05 13:27:23.189763+00', 10099, 'Frances Knuth', 'frances.knuth1@example.com', '2024-05-08', 'paid', 6, 51.83, '10001', true);
INSERT INTO forms.orders VALUES (1, 101, '2026-12-05 13:27:23.189763+00', 10100, 'Donald Turing', 'donald.turing2@example.com', '2024-01-26', 'new', 5, 4.93, '00501', false);
INSERT INTO forms.orders VALUES (1, 102, '2026-12-05 13:27:23.189763+00', 10101, 'Ada Turing', 'ada.turing3@example.com', '2024-12-19', 'shipped', 5, 238.47, '00501', false);
INSERT INTO forms.orders VALUES (1, 103, '2026-12-05 13:27:23.189763+00', 10102, 'Donald Liskov', 'donald.liskov4@example.com', '2024-11-14', 'new', 3, 206.1, '30301', false);
INSERT INTO forms.orders VALUES (1, 104, '2026-12-05 13:27:23.189763+00', 10103, 'Alan Allen', 'alan.allen5@example.com', '2024-09-18', 'cancelled', 17, 24.46, '94103', false);
INSERT INTO forms.orders VALUES (1, 105, '2026-12-05 13:27:23.189763+00', 10104, 'Frances Hopper', 'frances.hopper6@example.com', '2024-06-19', 'new', 16, 68.68, '30301', true);
INSERT INTO forms.orders VALUES (1, 106, '2026-12-05 13:27:23.189763+00', 10105, 'Tim Turing', 'tim.turing7@example.com', '2024-12-26', 'paid', 20, 195.6, '30301', false);
INSERT INTO forms.orders VALUES (1, 107, '2026-12-05 13:27:23.189763+00', 10106, 'Grace Lovelace', 'grace.lovelace8@example.com', '2024-02-21', 'paid', 14, 60.82, '94103', true);
INSERT INTO forms.orders VALUES (1, 108, '2026-12-05 13:27:23.189763+00', 10107, 'Frances Turing', 'frances.turing9@example.com', '2024-08-14', 'paid', 3, 229.39, '30301', false);
INSERT INTO forms.orders VALUES (1, 109, '2026-12-05 13:27:23.189763+00', 10108, 'Donald Thompson', 'donald.thompson10@example.com', '2024-07-19', 'cancelled', 14, 9.88, '00501', false);
INSERT INTO forms.orders VALUES (1, 110, '2026-12-05 13:27:23.189763+00', 10109, 'Tim Turing', 'tim.turing11@example.com', '2024-04-06', 'new', 12, 189.85, '10001', false);
INSERT INTO forms.orders VALUES (1, 111, '2026-12-05 13:27:23.189763+00', 10110, 'Ada Knuth', 'ada.knuth12@example.com', '2024-04-10', 'shipped', 17, 97.68, '94103', false);
INSERT INTO forms.orders VALUES (1, 112, '2026-12-05 13:27:23.189763+00', 10111, 'Tim Hopper', 'tim.hopper13@example.com', '2024-01-04', 'shipped', 1, 107.0, '02134', false);
INSERT INTO forms.orders VALUES (1, 113, '2026-12-05 13:27:23.189763+00', 10112, 'Frances Hopper', 'frances.hopper14@example.com', '2024-11-26', 'shipped', 17, 235.41, '00501', true);
INSERT INTO forms.orders VALUES (1, 114, '2026-12-05 13:27:23.189763+00', 10113, 'Ken Knuth', 'ken.knuth15@example.com', '2024-10-11', 'new', 2, 176.02, '94103', false);
INSERT INTO forms.orders VALUES (1, 115, '2026-12-05 13:27:23.189763+00', 10114, 'Frances Allen', 'frances.allen16@example.com', '2024-05-10', 'paid', 15, 109.92, '10001', false);
INSERT INTO forms.orders VALUES (1, 116, '2026-12-05 13:27:23.189763+00', 10115, 'Ada Knuth', 'ada.knuth17@example.com', '2024-11-26', 'shipped', 20, 44.2, '00501', true);
INSERT INTO forms.orders VALUES (1, 117, '2026-12-05 13:27:23.189763+00', 10116, 'Alan Knuth', 'alan.knuth18@example.com', '2024-10-15', 'cancelled', 10, 13.33, '02134', false);
INSERT INTO forms.orders VALUES (1, 118, '2026-12-05 13:27:23.189763+00', 10117, 'Barbara Knuth', 'barbara.knuth19@example.com', '2024-06-02', 'shipped', 8, 120.22, '10001', false);
INSERT INTO forms.orders VALUES (1, 119, '2026-12-05 13:27:23.189763+00', 10118, 'Donald Dijkstra', 'donald.dijkstra20@example.com', '2024-11-22', 'cancelled', 9, 19.27, '10001', false);
INSERT INTO forms.orders VALUES (1, 120, '2026-12-05 13:27:23.189763+00', 10119, 'Edsger Allen', 'edsger.allen21@example.com', '2024-10-26', 'cancelled', 1, 225.84, '60614', false);
INSERT INTO forms.orders VALUES (1, 121, '2026-12-05 13:27:23.189763+00', 10120, 'Barbara Liskov', 'barbara.liskov22@example.com', '2024-07-21', 'shipped', 18, 13.7, '30301', false);
INSERT INTO forms.orders VALUES (1, 122, '2026-12-05 13:27:23.189763+00', 10121, 'Grace Turing', 'grace.turing23@example.com', '2024-12-25', 'shipped', 4, 162.52, '10001', false);
INSERT INTO forms.orders VALUES (1, 123, '2026-12-05 13:27:23.189763+00', 10122, 'Tim Thompson', 'tim.thompson24@example.com', '2024-08-16', 'new', 20, 6.83, '60614', false);
INSERT INTO forms.orders VALUES (1, 125, '2026-12-05 13:27:23.189763+00', 10124, 'Tim Knuth', 'tim.knuth26@example.com', '2024-11-30', 'cancelled', 9, 117.69, '94103', true);
INSERT INTO forms.orders VALUES (1, 126, '2026-12-05 13:27:23.189763+00', 10125, 'Edsger Knuth', 'edsger.knuth27@example.com', '2024-10-24', 'new', 1, 60.03, '94103', false);
INSERT INTO forms.orders VALUES (1, 127, '2026-12-05 13:27:23.189763+00', 10126, 'Edsger Hopper', 'edsger.hopper28@example.com', '2024-09-13', 'paid', 18, 96.14, '10001', false);
INSERT INTO forms.orders VALUES (1, 128, '2026-12-05 13:27:23.189763+00', 10127, 'Edsger Turing', 'edsger.turing29@example.com', '2024-03-19', 'cancelled', 16, 215.34, '94103', false);
INSERT INTO forms.orders VALUES (1, 129, '2026-12-05 13:27:23.189763+00', 10128, 'Barbara Thompson', 'barbara.thompson30@example.com', '2024-12-03', 'cancelled', 5, 117.18, '10001', false);
INSERT INTO forms.orders VALUES (1, 130, '2026-12-05 13:27:23.189763+00', 10129, 'Edsger Knuth', 'edsger.knuth31@example.com', '2024-04-28', 'cancelled', 9, 111.86, '00501', false);
INSERT INTO forms.orders VALUES (1, 131, '2026-12-05 13:27:23.189763+00', 10130, 'Edsger Lovelace', 'edsger.lovelace32@example.com', '2024-11-25', 'cancelled', 6, 52.66, '00501', false);
INSERT INTO forms.orders VALUES (1, 132, '2026-12-05 13:27:23.189763+00', 10131, 'Ken Turing', 'ken.turing33@example.com', '2024-01-15', 'shipped', 16, 55.04, '10001', false);
INSERT INTO forms.orders VALUES (1, 133, '2026-12-05 13:27:23.189763+00', 10132, 'Grace Hopper', 'grace.hopper34@example.com', '2024-10-22', 'paid', 13, 84.09, '10001', false);
INSERT INTO forms.orders VALUES (1, 134, '2026-12-05 13:27:23.189763+00', 10133, 'Barbara Dijkstra', 'barbara.dijkstra35@example.com', '2024-06-25', 'paid', 9, 224.26, '02134', false);
INSERT INTO forms.orders VALUES (1, 135, '2026-12-05 13:27:23.189763+00', 10134, 'Ada Hopper', 'ada.hopper36@example.com', '2024-09-14', 'shipped', 2, 238.65, '00501', false);
INSERT INTO forms.orders VALUES (1, 136, '2026-12-05 13:27:23.189763+00', 10135, 'Frances Knuth', 'frances.knuth37@example.com', '2024-03-25', 'shipped', 6, 92.9, '10001', true);
INSERT INTO forms.orders VALUES (1, 137, '2026-12-05 13:27:23.189763+00', 10136, 'Ken Allen', 'ken.allen38@example.com', '2024-04-02', 'cancelled', 15, 222.74, '94103', false);
INSERT INTO forms.orders VALUES (1, 138, '2026-12-05 13:27:23.189763+00', 10137, 'Ken Knuth', 'ken.knuth39@example.com', '2024-03-26', 'shipped', 15, 4.46, '30301', false);
INSERT INTO forms.orders VALUES (1, 140, '2026-12-05 13:27:23.189763+00', 10139, 'Ken Hopper', 'ken.hopper41@example.com', '2024-02-02', 'cancelled', 18, 208.66, '60614', false);
INSERT INTO forms.orders VALUES (1, 141, '2026-12-05 13:27:23.189763+00', 10140, 'Tim Hopper', 'tim.hopper42@example.com', '2024-04-09', 'cancelled', 19, 192.23, '60614', false);
INSERT INTO forms.orders VALUES (1, 142, '2026-12-05 13:27:23.189763+00', 10141, 'Barbara Allen', 'barbara.allen43@example.com', '2024-08-08', 'shipped', 17, 8.66, '10001', false);
INSERT INTO forms.orders VALUES (1, 143, '2026-12-05 13:27:23.189763+00', 10142, 'Alan Allen', 'alan.allen44@example.com', '2024-01-29', 'paid', 10, 164.35, '30301', false);
INSERT INTO forms.orders VALUES (1, 144, '2026-12-05 13:27:23.189763+00', 10143, 'Ada Hopper', 'ada.hopper45@example.com', '2024-06-11', 'paid', 11, 105.11, '00501', false);
INSERT INTO forms.orders VALUES (1, 145, '2026-12-05 13:27:23.189763+00', 10144, 'Frances Turing', 'frances.turing46@example.com', '2024-12-05', 'cancelled', 15, 209.8, '60614', false);
INSERT INTO forms.orders VALUES (1, 146, '2026-12-05 13:27:23.189763+00', 10145, 'Donald Dijkstra', 'donald.dijkstra47@example.com', '2024-09-20', 'paid', 8, 143.35, '60614', false);
INSERT INTO forms.orders VALUES (1, 147, '2026-12-05 13:27:23.189763+00', 10146, 'Radia Knuth', 'radia.knuth48@example.com', '2024-06-06', 'cancelled', 9, 197.06, '30301', false);
INSERT INTO forms.orders VALUES (1, 148, '2026-12-05 13:27:23.189763+00', 10147, 'Ada Liskov', 'ada.liskov49@example.com', '2024-04-20', 'cancelled', 1, 206.71, '00501', false);
INSERT INTO forms.orders VALUES (1, 149, '2026-12-05 13:27:23.189763+00', 10148, 'Edsger Knuth', 'edsger.knuth50@example.com', '2024-08-02', 'shipped', 3, 166.6, '02134', false);
INSERT INTO forms.orders VALUES (1, 150, '2026-12-05 13:27:23.189763+00', 10149, 'Barbara Lovelace', 'barbara.lovelace51@example.com', '2024-04-23', 'paid', 1, 225.24, '30301', false);
INSERT INTO forms.orders VALUES (1, 151, '2026-12-05 13:27:23.189763+00', 10150, 'Frances Liskov', 'frances.liskov52@example.com', '2024-06-10', 'shipped', 13, 74.55, '60614', true);
INSERT INTO forms.orders VALUES (1, 152, '2026-12-05 13:27:23.189763+00', 10151, 'Frances Knuth', 'frances.knuth53@example.com', '2024-02-04', 'paid', 13, 45.96, '00501', true);
INSERT INTO forms.orders VALUES (1, 153, '2026-12-05 13:27:23.189763+00', 10152, 'Grace Thompson', 'grace.thompson54@example.com', '2024-04-11', 'paid', 7, 124.82, '30301', false);
INSERT INTO forms.orders VALUES (1, 154, '2026-12-05 13:27:23.189763+00', 10153, 'Tim Lovelace', 'tim.lovelace55@example.com', '2024-02-15', 'shipped', 19, 232.35, '60614', true);
INSERT INTO forms.orders VALUES (1, 155, '2026-12-05 13:27:23.189763+00', 10154, 'Alan Hopper', 'alan.hopper56@example.com', '2024-12-19', 'cancelled', 12, 234.42, '10001', false);
INSERT INTO forms.orders VALUES (1, 156, '2026-12-05 13:27:23.189763+00', 10155, 'Barbara Allen', 'barbara.allen57@example.com', '2024-03-29', 'new', 9, 194.02, '60614', false);
INSERT INTO forms.orders VALUES (1, 157, '2026-12-05 13:27:23.189763+00', 10156, 'Radia Dijkstra', 'radia.dijkstra58@example.com', '2024-11-07', 'shipped', 17, 227.25, '02134', false);
INSERT INTO forms.orders VALUES (1, 158, '2026-12-05 13:27:23.189763+00', 10157, 'Edsger Allen', 'edsger.allen59@example.com', '2024-06-27', 'shipped', 12, 216.27, '10001', false);
INSERT INTO forms.orders VALUES (1, 159, '2026-12-05 13:27:23.189763+00', 10158, 'Donald Knuth', 'donald.knuth60@example.com', '2024-08-18', 'new', 5, 196.39, '00501', false);
INSERT INTO forms.orders VALUES (1, 160, '2026-12-05 13:27:23.189763+00', 10159, 'Donald Allen', 'donald.allen61@example.com', '2024-12-15', 'new', 9, 167.13, '94103', false);
INSERT INTO forms.orders VALUES (1, 162, '2026-12-05 13:27:23.189763+00', 10161, 'Barbara Turing', 'barbara.turing63@example.com', '2024-01-31', 'shipped', 11, 21.49, '10001', false);
INSERT INTO forms.orders VALUES (1, 163, '2026-12-05 13:27:23.189763+00', 10162, 'Edsger Turing', 'edsger.turing64@example.com', '2024-03-06', 'new', 3, 50.49, '30301', true);
INSERT INTO forms.orders VALUES (1, 164, '2026-12-05 13:27:23.189763+00', 10163, 'Alan Knuth', 'alan.knuth65@example.com', '2024-04-15', 'new', 7, 20.65, '94103', false);
INSERT INTO forms.orders VALUES (1, 166, '2026-12-05 13:27:23.189763+00', 10165, 'Frances Knuth', 'frances.knuth67@example.com', '2024-09-23', 'new', 4, 96.42, '30301', false);
INSERT INTO forms.orders VALUES (1, 167, '2026-12-05 13:27:23.189763+00', 10166, 'Tim Hopper', 'tim.hopper68@example.com', '2024-01-04', 'new', 15, 209.71, '30301', false);
INSERT INTO forms.orders VALUES (1, 168, '2026-12-05 13:27:23.189763+00', 10167, 'Ken Dijkstra', 'ken.dijkstra69@example.com', '2024-11-11', 'new', 5, 224.01, '02134', false);
INSERT INTO forms.orders VALUES (1, 169, '2026-12-05 13:27:23.189763+00', 10168, 'Frances Liskov', 'frances.liskov70@example.com', '2024-07-15', 'paid', 8, 189.02, '00501', false);
INSERT INTO forms.orders VALUES (1, 170, '2026-12-05 13:27:23.189763+00', 10169, 'Alan Turing', 'alan.turing71@example.com', '2024-07-20', 'shipped', 19, 7.66, '60614', false);
INSERT INTO forms.orders VALUES (1, 171, '2026-12-05 13:27:23.189763+00', 10170, 'Ada Lovelace', 'ada.lovelace72@example.com', '2024-03-20', 'new', 16, 23.35, '30301', false);
INSERT INTO forms.orders VALUES (1, 172, '2026-12-05 13:27:23.189763+00', 10171, 'Frances Allen', 'frances.allen73@example.com', '2024-03-23', 'paid', 20, 184.81, '10001', true);
INSERT INTO forms.orders VALUES (1, 173, '2026-12-05 13:27:23.189763+00', 10172, 'Ada Allen', 'ada.allen74@example.com', '2024-06-11', 'cancelled', 6, 114.63, '60614', false);
INSERT INTO forms.orders VALUES (1, 174, '2026-12-05 13:27:23.189763+00', 10173, 'Radia Allen', 'radia.allen75@example.com', '2024-06-05', 'shipped', 18, 244.36, '60614', false);
INSERT INTO forms.orders VALUES (1, 175, '2026-12-05 13:27:23.189763+00', 10174, 'Ken Knuth', 'ken.knuth76@example.com', '2024-09-25', 'new', 3, 61.33, '02134', true);
INSERT INTO forms.orders VALUES (1, 176, '2026-12-05 13:27:23.189763+00', 10175, 'Grace Thompson', 'grace.thompson77@example.com', '2024-12-07', 'cancelled', 4, 223.3, '94103', false);
INSERT INTO forms.orders VALUES (1, 177, '2026-12-05 13:27:23.189763+00', 10176, 'Ada Lovelace', 'ada.lovelace78@example.com', '2024-05-29', 'new', 1, 43.75, '30301', false);
INSERT INTO forms.orders VALUES (1, 178, '2026-12-05 13:27:23.189763+00', 10177, 'Edsger Turing', 'edsger.turing79@example.com', '2024-07-18', 'new', 14, 112.03, '60614', false);
INSERT INTO forms.orders VALUES (1, 179, '2026-12-05 13:27:23.189763+00', 10178, 'Alan Thompson', 'alan.thompson80@example.com', '2024-12-02', 'cancelled', 6, 141.49, '02134', false);
INSERT INTO forms.orders VALUES (1, 180, '2026-12-05 13:27:23.189763+00', 10179, 'Edsger Lovelace', 'edsger.lovelace81@example.com', '2024-08-26', 'paid', 8, 207.19, '60614', false);
INSERT INTO forms.orders VALUES (1, 181, '2026-12-05 13:27:23.189763+00', 10180, 'Frances Turing', 'frances.turing82@example.com', '2024-12-15', 'cancelled', 15, 211.76, '02134', false);
INSERT INTO forms.orders VALUES (1, 182, '2026-12-05 13:27:23.189763+00', 10181, 'Tim Liskov', 'tim.liskov83@example.com', '2024-01-08', 'cancelled', 7, 211.42, '02134', true);
INSERT INTO forms.orders VALUES (1, 183, '2026-12-05 13:27:23.189763+00', 10182, 'Alan Lovelace', 'alan.lovelace84@example.com', '2024-11-23', 'shipped', 9, 16.66, '02134', false);
INSERT INTO forms.orders VALUES (1, 184, '2026-12-05 13:27:23.189763+00', 10183, 'Ada Thompson', 'ada.thompson85@example.com', '2024-02-13', 'shipped', 20, 73.57, '10001', false);
INSERT INTO forms.orders VALUES (1, 185, '2026-12-05 13:27:23.189763+00', 10184, 'Frances Thompson', 'frances.thompson86@example.com', '2024-02-24', 'cancelled', 8, 235.85, '10001', false);
INSERT INTO forms.orders VALUES (1, 186, '2026-12-05 13:27:23.189763+00', 10185, 'Edsger Knuth', 'edsger.knuth87@example.com', '2024-12-13', 'paid', 9, 60.76, '60614', false);
INSERT INTO forms.orders VALUES (1, 187, '2026-12-05 13:27:23.189763+00', 10186, 'Barbara Dijkstra', 'barbara.dijkstra88@example.com', '2024-07-04', 'cancelled', 19, 90.31, '02134', false);
INSERT INTO forms.orders VALUES (1, 188, '2026-12-05 13:27:23.189763+00', 10187, 'Ken Hopper', 'ken.hopper89@example.com', '2024-12-08', 'new', 19, 21.87, '02134', false);
INSERT INTO forms.orders VALUES (1, 189, '2026-12-05 13:27:23.189763+00', 10188, 'Grace Liskov', 'grace.liskov90@example.com', '2024-05-25', 'paid', 1, 84.34, '00501', false);
INSERT INTO forms.orders VALUES (1, 190, '2026-12-05 13:27:23.189763+00', 10189, 'Frances Dijkstra', 'frances.dijkstra91@example.com', '2024-10-12', 'cancelled', 16, 9.83, '02134', false);
INSERT INTO forms.orders VALUES (1, 191, '2026-12-05 13:27:23.189763+00', 10190, 'Ada Hopper', 'ada.hopper92@example.com', '2024-04-22', 'shipped', 18, 115.1, '30301', false);
INSERT INTO forms.orders VALUES (1, 192, '2026-12-05 13:27:23.189763+00', 10191, 'Tim Dijkstra', 'tim.dijkstra93@example.com', '2024-07-26', 'paid', 5, 16.94, '60614', false);
INSERT INTO forms.orders VALUES (1, 193, '2026-12-05 13:27:23.189763+00', 10192, 'Frances Allen', 'frances.allen94@example.com', '2024-01-24', 'new', 9, 153.86, '60614', true);
INSERT INTO forms.orders VALUES (1, 194, '2026-12-05 13:27:23.189763+00', 10193, 'Tim Thompson', 'tim.thompson95@example.com', '2024-05-24', 'shipped', 15, 119.51, '60614', true);
INSERT INTO forms.orders VALUES (1, 195, '2026-12-05 13:27:23.189763+00', 10194, 'Edsger Thompson', 'edsger.thompson96@example.com', '2024-04-02', 'shipped', 5, 99.93, '00501', true);
INSERT INTO forms.orders VALUES (1, 196, '2026-12-05 13:27:23.189763+00', 10195, 'Ada Dijkstra', 'ada.dijkstra0@example.com', '2024-11-25', 'paid', 8, 217.91, '94103', true);
INSERT INTO forms.orders VALUES (1, 197, '2026-12-05 13:27:23.189763+00', 10196, 'Radia Thompson', 'radia.thompson1@example.com', '2024-03-29', 'new', 3, 242.16, '30301', false);
INSERT INTO forms.orders VALUES (1, 198, '2026-12-05 13:27:23.189763+00', 10197, 'Edsger Liskov', 'edsger.liskov2@example.com', '2024-12-14', 'paid', 6, 154.37, '60614', false);
INSERT INTO forms.orders VALUES (1, 199, '2026-12-05 13:27:23.189763+00', 10198, 'Edsger Allen', 'edsger.allen3@example.com', '2024-10-05', 'paid', 19, 18.06, '60614', false);
INSERT INTO forms.orders VALUES (1, 200, '2026-12-05 13:27:23.189763+00', 10199, 'Grace Knuth', 'grace.knuth4@example.com', '2024-10-26', 'shipped', 15, 100.81, '30301', true);
INSERT INTO forms.orders VALUES (1, 201, '2026-12-05 13:27:23.189763+00', 10200, 'Tim Thompson', 'tim.thompson5@example.com', '2024-02-16', 'paid', 14, 223.45, '60614', false);
INSERT INTO forms.orders VALUES (1, 202, '2026-12-05 13:27:23.189763+00', 10201, 'Donald Thompson', 'donald.thompson6@example.com', '2024-04-14', 'paid', 7, 220.79, '00501', false);
INSERT INTO forms.orders VALUES (1, 204, '2026-12-05 13:27:23.189763+00', 10203, 'Grace Lovelace', 'grace.lovelace8@example.com', '2024-02-09', 'cancelled', 13, 157.06, '60614', false);
INSERT INTO forms.orders VALUES (1, 205, '2026-12-05 13:27:23.189763+00', 10204, 'Edsger Turing', 'edsger.turing9@example.com', '2024-07-13', 'new', 4, 13.4, '94103', true);
INSERT INTO forms.orders VALUES (1, 207, '2026-12-05 13:27:23.189763+00', 10206, 'Frances Dijkstra', 'frances.dijkstra11@example.com', '2024-12-20', 'paid', 17, 151.08, '10001', true);
INSERT INTO forms.orders VALUES (1, 208, '2026-12-05 13:27:23.189763+00', 10207, 'Edsger Dijkstra', 'edsger.dijkstra12@example.com', '2024-02-01', 'new', 10, 227.98, '30301', false);
INSERT INTO forms.orders VALUES (1, 209, '2026-12-05 13:27:23.189763+00', 10208, 'Donald Hopper', 'donald.hopper13@example.com', '2024-11-21', 'cancelled', 17, 202.31, '94103', false);
INSERT INTO forms.orders VALUES (1, 210, '2026-12-05 13:27:23.189763+00', 10209, 'Frances Knuth', 'frances.knuth14@example.com', '2024-07-04', 'paid', 20, 200.51, '10001', false);
INSERT INTO forms.orders VALUES (1, 211, '2026-12-05 13:27:23.189763+00', 10210, 'Ken Turing', 'ken.turing15@example.com', '2024-07-31', 'new', 8, 172.93, '00501', true);
INSERT INTO forms.orders VALUES (1, 212, '2026-12-05 13:27:23.189763+00', 10211, 'Alan Thompson', 'alan.thompson16@example.com', '2024-01-24', 'new', 11, 72.7, '02134', false);
INSERT INTO forms.orders VALUES (1, 213, '2026-12-05 13:27:23.189763+00', 10212, 'Ken Liskov', 'ken.liskov17@example.com', '2024-02-29', 'new', 15, 155.44, '10001', false);
INSERT INTO forms.orders VALUES (1, 214, '2026-12-05 13:27:23.189763+00', 10213, 'Grace Liskov', 'grace.liskov18@example.com', '2024-08-09', 'cancelled', 14, 186.09, '30301', false);
INSERT INTO forms.orders VALUES (1, 215, '2026-12-05 13:27:23.189763+00', 10214, 'Radia Knuth', 'radia.knuth19@example.com', '2024-06-07', 'paid', 5, 62.44, '00501', false);
INSERT INTO forms.orders VALUES (1, 217, '2026-12-05 13:27:23.189763+00', 10216, 'Ada Turing', 'ada.turing21@example.com', '2024-02-07', 'new', 15, 235.27, '94103', true);
INSERT INTO forms.orders VALUES (1, 218, '2026-12-05 13:27:23.189763+00', 10217, 'Edsger Knuth', 'edsger.knuth22@example.com', '2024-05-31', 'new', 16, 204.75, '94103', true);
INSERT INTO forms.orders VALUES (1, 219, '2026-12-05 13:27:23.189763+00', 10218, 'Barbara Allen', 'barbara.allen23@example.com', '2024-02-12', 'paid', 13, 42.38, '00501', true);
INSERT INTO forms.orders VALUES (1, 220, '2026-12-05 13:27:23.189763+00', 10219, 'Grace Hopper', 'grace.hopper24@example.com', '2024-10-29', 'paid', 12, 12.74, '30301', false);
INSERT INTO forms.orders VALUES (1, 221, '2026-12-05 13:27:23.189763+00', 10220, 'Barbara Liskov', 'barbara.liskov25@example.com', '2024-12-20', 'shipped', 6, 209.56, '60614', false);
INSERT INTO forms.orders VALUES (1, 222, '2026-12-05 13:27:23.189763+00', 10221, 'Frances Liskov', 'frances.liskov26@example.com', '2024-11-15', 'shipped', 20, 58.75, '60614', false);
INSERT INTO forms.orders VALUES (1, 223, '2026-12-05 13:27:23.189763+00', 10222, 'Edsger Dijkstra', 'edsger.dijkstra27@example.com', '2024-09-14', 'paid', 1, 142.29, '94103', false);
INSERT INTO forms.orders VALUES (1, 224, '2026-12-05 13:27:23.189763+00', 10223, 'Tim Liskov', 'tim.liskov28@example.com', '2024-06-12', 'shipped', 13, 155.29, '00501', false);
INSERT INTO forms.orders VALUES (1, 225, '2026-12-05 13:27:23.189763+00', 10224, 'Donald Allen', 'donald.allen29@example.com', '2024-10-18', 'paid', 20, 115.36, '30301', false);
INSERT INTO forms.orders VALUES (1, 226, '2026-12-05 13:27:23.189763+00', 10225, 'Frances Turing', 'frances.turing30@example.com', '2024-03-15', 'paid', 4, 123.94, '10001', false);
INSERT INTO forms.orders VALUES (1, 228, '2026-12-05 13:27:23.189763+00', 10227, 'Ken Knuth', 'ken.knuth32@example.com', '2024-02-28', 'cancelled', 3, 196.5, '60614', false);
INSERT INTO forms.orders VALUES (1, 229, '2026-12-05 13:27:23.189763+00', 10228, 'Frances Knuth', 'frances.knuth33@example.com', '2024-05-18', 'shipped', 1, 108.66, '00501', false);
INSERT INTO forms.orders VALUES (1, 230, '2026-12-05 13:27:23.189763+00', 10229, 'Tim Thompson', 'tim.thompson34@example.com', '2024-06-02', 'cancelled', 5, 80.01, '02134', true);
INSERT INTO forms.orders VALUES (1, 231, '2026-12-05 13:27:23.189763+00', 10230, 'Donald Lovelace', 'donald.lovelace35@example.com', '2024-10-29', 'shipped', 8, 179.55, '30301', false);
INSERT INTO forms.orders VALUES (1, 232, '2026-12-05 13:27:23.189763+00', 10231, 'Ken Hopper', 'ken.hopper36@example.com', '2024-04-01', 'cancelled', 1, 75.58, '00501', false);
INSERT INTO forms.orders VALUES (1, 233, '2026-12-05 13:27:23.189763+00', 10232, 'Tim Dijkstra', 'tim.dijkstra37@example.com', '2024-12-09', 'shipped', 4, 121.71, '10001', true);
INSERT INTO forms.orders VALUES (1, 234, '2026-12-05 13:27:23.189763+00', 10233, 'Frances Liskov', 'frances.liskov38@example.com', '2024-02-03', 'new', 8, 241.43, '00501', false);
INSERT INTO forms.orders VALUES (1, 236, '2026-12-05 13:27:23.189763+00', 10235, 'Radia Knuth', 'radia.knuth40@example.com', '2024-01-05', 'paid', 20, 152.78, '10001', false);
INSERT INTO forms.orders VALUES (1, 237, '2026-12-05 13:27:23.189763+00', 10236, 'Edsger Allen', 'edsger.allen41@example.com', '2024-05-05', 'paid', 16, 122.6, '00501', false);
INSERT INTO forms.orders VALUES (1, 238, '2026-12-05 13:27:23.189763+00', 10237, 'Alan Lovelace', 'alan.lovelace42@example.com', '2024-06-04', 'paid', 10, 103.01, '10001', false);
INSERT INTO forms.orders VALUES (1, 239, '2026-12-05 13:27:23.189763+00', 10238, 'Alan Thompson', 'alan.thompson43@example.com', '2024-11-13', 'cancelled', 19, 192.22, '10001', false);
INSERT INTO forms.orders VALUES (1, 240, '2026-12-05 13:27:23.189763+00', 10239, 'Barbara Dijkstra', 'barbara.dijkstra44@example.com', '2024-02-17', 'shipped', 4, 228.8, '02134', false);
INSERT INTO forms.orders VALUES (1, 241, '2026-12-05 13:27:23.189763+00', 10240, 'Ada Hopper', 'ada.hopper45@example.com', '2024-03-30', 'cancelled', 9, 39.06, '60614', false);
INSERT INTO forms.orders VALUES (1, 242, '2026-12-05 13:27:23.189763+00', 10241, 'Alan Turing', 'alan.turing46@example.com', '2024-02-22', 'shipped', 17, 221.87, '94103', false);
INSERT INTO forms.orders VALUES (1, 243, '2026-12-05 13:27:23.189763+00', 10242, 'Ken Turing', 'ken.turing47@example.com', '2024-04-23', 'new', 8, 98.76, '60614', false);
INSERT INTO forms.orders VALUES (1, 244, '2026-12-05 13:27:23.189763+00', 10243, 'Donald Liskov', 'donald.liskov48@example.com', '2024-10-26', 'shipped', 19, 114.57, '10001', false);
INSERT INTO forms.orders VALUES (1, 245, '2026-12-05 13:27:23.189763+00', 10244, 'Radia Thompson', 'radia.thompson49@example.com', '2024-12-16', 'new', 6, 237.77, '00501', false);
INSERT INTO forms.orders VALUES (1, 246, '2026-12-05 13:27:23.189763+00', 10245, 'Ada Knuth', 'ada.knuth50@example.com', '2024-08-29', 'new', 20, 209.24, '02134', false);
INSERT INTO forms.orders VALUES (1, 247, '2026-12-05 13:27:23.189763+00', 10246, 'Radia Knuth', 'radia.knuth51@example.com', '2024-07-06', 'shipped', 13, 27.1, '00501', false);
INSERT INTO forms.orders VALUES (1, 248, '2026-12-05 13:27:23.189763+00', 10247, 'Donald Liskov', 'donald.liskov52@example.com', '2024-05-09', 'new', 10, 177.24, '60614', false);
INSERT INTO forms.orders VALUES (1, 249, '2026-12-05 13:27:23.189763+00', 10248, 'Edsger Lovelace', 'edsger.lovelace53@example.com', '2024-01-22', 'cancelled', 15, 90.27, '10001', false);
INSERT INTO forms.orders VALUES (1, 250, '2026-12-05 13:27:23.189763+00', 10249, 'Radia Thompson', 'radia.thompson54@example.com', '2024-09-20', 'paid', 9, 83.12, '60614', false);
INSERT INTO forms.orders VALUES (1, 251, '2026-12-05 13:27:23.189763+00', 10250, 'Ada Dijkstra', 'ada.dijkstra55@example.com', '2024-07-29', 'new', 9, 61.65, '30301', false);
INSERT INTO forms.orders VALUES (1, 252, '2026-12-05 13:27:23.189763+00', 10251, 'Edsger Liskov', 'edsger.liskov56@example.com', '2024-01-01', 'cancelled', 1, 231.56, '00501', false);
INSERT INTO forms.orders VALUES (1, 253, '2026-12-05 13:27:23.189763+00', 10252, 'Radia Dijkstra', 'radia.dijkstra57@example.com', '2024-03-11', 'shipped', 18, 159.5, '60614', false);
INSERT INTO forms.orders VALUES (1, 254, '2026-12-05 13:27:23.189763+00', 10253, 'Grace Liskov', 'grace.liskov58@example.com', '2024-07-25', 'shipped', 18, 216.9, '02134', false);
INSERT INTO forms.orders VALUES (1, 255, '2026-12-05 13:27:23.189763+00', 10254, 'Tim Knuth', 'tim.knuth59@example.com', '2024-06-26', 'cancelled', 4, 75.11, '60614', false);
INSERT INTO forms.orders VALUES (1, 256, '2026-12-05 13:27:23.189763+00', 10255, 'Edsger Knuth', 'edsger.knuth60@example.com', '2024-11-09', 'shipped', 20, 110.12, '94103', false);
INSERT INTO forms.orders VALUES (1, 257, '2026-12-05 13:27:23.189763+00', 10256, 'Tim Liskov', 'tim.liskov61@example.com', '2024-10-31', 'shipped', 9, 203.68, '02134', false);
INSERT INTO forms.orders VALUES (1, 259, '2026-12-05 13:27:23.189763+00', 10258, 'Radia Thompson', 'radia.thompson63@example.com', '2024-01-21', 'paid', 19, 159.56, '00501', false);
INSERT INTO forms.orders VALUES (1, 260, '2026-12-05 13:27:23.189763+00', 10259, 'Ken Hopper', 'ken.hopper64@example.com', '2024-08-20', 'paid', 16, 6.75, '60614', false);
INSERT INTO forms.orders VALUES (1, 261, '2026-12-05 13:27:23.189763+00', 10260, 'Frances Dijkstra', 'frances.dijkstra65@example.com', '2024-01-31', 'paid', 7, 187.62, '94103', false);
INSERT INTO forms.orders VALUES (1, 262, '2026-12-05 13:27:23.189763+00', 10261, 'Frances Knuth', 'frances.knuth66@example.com', '2024-07-10', 'paid', 3, 191.24, '02134', false);
INSERT INTO forms.orders VALUES (1, 263, '2026-12-05 13:27:23.189763+00', 10262, 'Frances Thompson', 'frances.thompson67@example.com', '2024-06-08', 'new', 7, 176.38, '10001', false);
INSERT INTO forms.orders VALUES (1, 264, '2026-12-05 13:27:23.189763+00', 10263, 'Grace Allen', 'grace.allen68@example.com', '2024-03-16', 'cancelled', 14, 148.97, '02134', false);
INSERT INTO forms.orders VALUES (1, 265, '2026-12-05 13:27:23.189763+00', 10264, 'Donald Hopper', 'donald.hopper69@example.com', '2024-06-01', 'shipped', 7, 179.58, '00501', true);
INSERT INTO forms.orders VALUES (1, 266, '2026-12-05 13:27:23.189763+00', 10265, 'Donald Liskov', 'donald.liskov70@example.com', '2024-11-26', 'cancelled', 19, 98.77, '94103', true);
INSERT INTO forms.orders VALUES (1, 267, '2026-12-05 13:27:23.189763+00', 10266, 'Ken Dijkstra', 'ken.dijkstra71@example.com', '2024-10-10', 'shipped', 20, 179.75, '30301', false);
INSERT INTO forms.orders VALUES (1, 268, '2026-12-05 13:27:23.189763+00', 10267, 'Edsger Knuth', 'edsger.knuth72@example.com', '2024-10-04', 'paid', 3, 29.57, '10001', true);
INSERT INTO forms.orders VALUES (1, 269, '2026-12-05 13:27:23.189763+00', 10268, 'Barbara Turing', 'barbara.turing73@example.com', '2024-12-15', 'new', 4, 135.71, '00501', false);
INSERT INTO forms.orders VALUES (1, 271, '2026-12-05 13:27:23.189763+00', 10270, 'Radia Liskov', 'radia.liskov75@example.com', '2024-07-25', 'paid', 11, 113.35, '94103', false);
INSERT INTO forms.orders VALUES (1, 273, '2026-12-05 13:27:23.189763+00', 10272, 'Ada Dijkstra', 'ada.dijkstra77@example.com', '2024-08-01', 'shipped', 3, 23.59, '10001', false);
INSERT INTO forms.orders VALUES (1, 274, '2026-12-05 13:27:23.189763+00', 10273, 'Barbara Knuth', 'barbara.knuth78@example.com', '2024-01-16', 'paid', 2, 168.49, '30301', true);
INSERT INTO forms.orders VALUES (1, 275, '2026-12-05 13:27:23.189763+00', 10274, 'Tim Allen', 'tim.allen79@example.com', '2024-11-04', 'cancelled', 9, 14.38, '00501', false);
INSERT INTO forms.orders VALUES (1, 276, '2026-12-05 13:27:23.189763+00', 10275, 'Ken Hopper', 'ken.hopper80@example.com', '2024-06-16', 'new', 12, 243.06, '10001', false);
INSERT INTO forms.orders VALUES (1, 277, '2026-12-05 13:27:23.189763+00', 10276, 'Tim Dijkstra', 'tim.dijkstra81@example.com', '2024-03-06', 'cancelled', 4, 17.81, '94103', false);
INSERT INTO forms.orders VALUES (1, 278, '2026-12-05 13:27:23.189763+00', 10277, 'Ken Dijkstra', 'ken.dijkstra82@example.com', '2024-02-28', 'cancelled', 7, 74.52, '10001', false);
INSERT INTO forms.orders VALUES (1, 279, '2026-12-05 13:27:23.189763+00', 10278, 'Tim Thompson', 'tim.thompson83@example.com', '2024-04-08', 'new', 1, 73.36, '10001', true);
INSERT INTO forms.orders VALUES (1, 280, '2026-12-05 13:27:23.189763+00', 10279, 'Donald Thompson', 'donald.thompson84@example.com', '2024-08-21', 'cancelled', 3, 56.94, '10001', false);
INSERT INTO forms.orders VALUES (1, 281, '2026-12-05 13:27:23.189763+00', 10280, 'Ken Lovelace', 'ken.lovelace85@example.com', '2024-11-27', 'new', 10, 113.59, '00501', false);
INSERT INTO forms.orders VALUES (1, 282, '2026-12-05 13:27:23.189763+00', 10281, 'Radia Hopper', 'radia.hopper86@example.com', '2024-12-28', 'shipped', 12, 244.28, '02134', false);
INSERT INTO forms.orders VALUES (1, 283, '2026-12-05 13:27:23.189763+00', 10282, 'Tim Liskov', 'tim.liskov87@example.com', '2024-03-30', 'paid', 20, 104.98, '30301', false);
INSERT INTO forms.orders VALUES (1, 284, '2026-12-05 13:27:23.189763+00', 10283, 'Grace Hopper', 'grace.hopper88@example.com', '2024-12-11', 'new', 3, 174.12, '60614', false);
INSERT INTO forms.orders VALUES (1, 285, '2026-12-05 13:27:23.189763+00', 10284, 'Ada Lovelace', 'ada.lovelace89@example.com', '2024-04-21', 'new', 1, 28.75, '10001', false);
INSERT INTO forms.orders VALUES (1, 286, '2026-12-05 13:27:23.189763+00', 10285, 'Ada Liskov', 'ada.liskov90@example.com', '2024-02-21', 'new', 15, 175.92, '10001', false);
INSERT INTO forms.orders VALUES (1, 287, '2026-12-05 13:27:23.189763+00', 10286, 'Barbara Lovelace', 'barbara.lovelace91@example.com', '2024-05-13', 'cancelled', 17, 131.41, '94103', true);
INSERT INTO forms.orders VALUES (1, 288, '2026-12-05 13:27:23.189763+00', 10287, 'Tim Turing', 'tim.turing92@example.com', '2024-10-03', 'new', 13, 77.09, '02134', true);
INSERT INTO forms.orders VALUES (1, 289, '2026-12-05 13:27:23.189763+00', 10288, 'Edsger Liskov', 'edsger.liskov93@example.com', '2024-03-10', 'shipped', 16, 235.19, '02134', false);
INSERT INTO forms.orders VALUES (1, 290, '2026-12-05 13:27:23.189763+00', 10289, 'Tim Lovelace', 'tim.lovelace94@example.com', '2024-07-17', 'shipped', 8, 106.43, '94103', true);
INSERT INTO forms.orders VALUES (1, 291, '2026-12-05 13:27:23.189763+00', 10290, 'Frances Dijkstra', 'frances.dijkstra95@example.com', '2024-09-11', 'cancelled', 13, 187.6, '00501', false);
INSERT INTO forms.orders VALUES (1, 292, '2026-12-05 13:27:23.189763+00', 10291, 'Ada Liskov', 'ada.liskov96@example.com', '2024-07-12', 'paid', 6, 32.21, '10001', false);
INSERT INTO forms.orders VALUES (1, 293, '2026-12-05 13:27:23.189763+00', 10292, 'Radia Knuth', 'radia.knuth0@example.com', '2024-12-29', 'cancelled', 17, 183.25, '10001', false);
INSERT INTO forms.orders VALUES (1, 294, '2026-12-05 13:27:23.189763+00', 10293, 'Tim Hopper', 'tim.hopper1@example.com', '2024-10-22', 'cancelled', 4, 150.88, '94103', false);
INSERT INTO forms.orders VALUES (1, 295, '2026-12-05 13:27:23.189763+00', 10294, 'Barbara Thompson', 'barbara.thompson2@example.com', '2024-07-18', 'cancelled', 8, 101.35, '02134', false);
INSERT INTO forms.orders VALUES (1, 296, '2026-12-05 13:27:23.189763+00', 10295, 'Edsger Hopper', 'edsger.hopper3@example.com', '2024-12-13', 'shipped', 20, 124.96, '30301', false);
INSERT INTO forms.orders VALUES (1, 297, '2026-12-05 13:27:23.189763+00', 10296, 'Ken Allen', 'ken.allen4@example.com', '2024-04-22', 'shipped', 6, 164.08, '10001', false);
INSERT INTO forms.orders VALUES (1, 298, '2026-12-05 13:27:23.189763+00', 10297, 'Donald Thompson', 'donald.thompson5@example.com', '2024-06-11', 'paid', 6, 26.89, '00501', false);
INSERT INTO forms.orders VALUES (1, 299, '2026-12-05 13:27:23.189763+00', 10298, 'Ken Thompson', 'ken.thompson6@example.com', '2024-03-11', 'paid', 11, 245.44, '94103', false);
INSERT INTO forms.orders VALUES (1, 300, '2026-12-05 13:27:23.189763+00', 10299, 'Edsger Lovelace', 'edsger.lovelace7@example.com', '2024-07-08', 'cancelled', 6, 49.0, '10001', false);
INSERT INTO forms.orders VALUES (1, 301, '2026-12-05 13:27:23.189763+00', 10300, 'Ada Dijkstra', 'ada.dijkstra8@example.com', '2024-12-29', 'paid', 5, 104.44, '30301', true);
INSERT INTO forms.orders VALUES (2, 3, '2026-12-05 13:27:24.044087+00', 10002, 'Grace Hopper', 'grace@example.com', '2024-03-02', 'cancelled', 998, 2.5, NULL, NULL);
INSERT INTO forms.orders VALUES (2, 4, '2026-12-05 13:27:24.044087+00', 10003, 'Alan Turing', 'alan@example.com', '2024-03-03', 'cancelled', 997, 3.5, NULL, NULL);
INSERT INTO forms.orders VALUES (2, 5, '2026-12-05 13:27:24.044087+00', 20001, 'Radia Perlman', 'radia@example.com', '2024-03-04', 'new', 1, 10.0, NULL, NULL);
INSERT INTO forms.orders VALUES (2, 6, '2026-12-05 13:27:24.044087+00', 20002, 'Ken Thompson', 'ken@example.com', '2024-03-05', 'paid', 2, 20.0, NULL, NULL);
INSERT INTO forms.orders VALUES (3, 2, '2026-12-05 13:27:25.629548+00', 10001, 'Ada Lovelace', 'ada@example.com', '2024-04-01', 'shipped', 5, 1.5, NULL, NULL);


--
-- Data for Name: form_versions; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.form_versions VALUES (1, 1, '{"key": ["order_id"], "name": "orders", "fields": [{"min": 1, "name": "order_id", "type": "integer", "header": "Order ID", "aliases": ["Order No", "Order #"], "required": true}, {"name": "customer", "type": "string", "header": "Customer", "required": true, "max_length": 100}, {"name": "email", "type": "email", "header": "Email"}, {"min": "2020-01-01", "name": "order_date", "type": "date", "header": "Order Date", "formats": ["%d/%m/%Y"], "required": true}, {"name": "status", "type": "enum", "header": "Status", "choices": ["new", "paid", "shipped", "cancelled"], "required": true}, {"max": 1000, "min": 1, "name": "quantity", "type": "integer", "header": "Qty", "aliases": ["Quantity"], "required": true}, {"min": "0", "name": "unit_price", "type": "decimal", "header": "Unit Price", "required": true}, {"name": "zip", "type": "string", "header": "Zip Code", "message": "a zip code is 5 digits, such as 02134", "pattern": "^\\d{5}$"}, {"name": "gift_wrap", "type": "boolean", "header": "Gift Wrap"}], "description": "Customer orders, one row per order"}', '2026-12-05 13:27:21.200817+00');
INSERT INTO public.form_versions VALUES (2, 1, '{"name": "deliveries", "fields": [{"name": "id", "type": "integer", "header": "ID", "required": true}, {"name": "customer", "type": "string", "header": "Customer", "required": true, "max_length": 100}, {"name": "email", "type": "email", "header": "Email"}, {"max": 1000, "min": 1, "name": "quantity", "type": "integer", "header": "Qty"}, {"min": "0", "name": "price", "type": "decimal", "header": "Price"}, {"name": "order_date", "type": "date", "header": "Date"}, {"name": "status", "type": "enum", "header": "Status", "choices": ["new", "paid", "shipped", "cancelled"]}, {"name": "paid", "type": "boolean", "header": "Paid"}, {"name": "note", "type": "string", "header": "Note"}, {"name": "code", "type": "string", "header": "Code"}], "description": "Deliveries, one row each (no key: every import adds rows)"}', '2026-12-05 13:27:22.032696+00');


--
-- Data for Name: forms; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.forms VALUES (1, 'orders', 1, '{"key": ["order_id"], "name": "orders", "fields": [{"min": 1, "name": "order_id", "type": "integer", "header": "Order ID", "aliases": ["Order No", "Order #"], "required": true}, {"name": "customer", "type": "string", "header": "Customer", "required": true, "max_length": 100}, {"name": "email", "type": "email", "header": "Email"}, {"min": "2020-01-01", "name": "order_date", "type": "date", "header": "Order Date", "formats": ["%d/%m/%Y"], "required": true}, {"name": "status", "type": "enum", "header": "Status", "choices": ["new", "paid", "shipped", "cancelled"], "required": true}, {"max": 1000, "min": 1, "name": "quantity", "type": "integer", "header": "Qty", "aliases": ["Quantity"], "required": true}, {"min": "0", "name": "unit_price", "type": "decimal", "header": "Unit Price", "required": true}, {"name": "zip", "type": "string", "header": "Zip Code", "message": "a zip code is 5 digits, such as 02134", "pattern": "^\\d{5}$"}, {"name": "gift_wrap", "type": "boolean", "header": "Gift Wrap"}], "description": "Customer orders, one row per order"}', '2026-12-05 13:27:21.200817+00', '2026-12-05 13:27:21.200817+00', NULL);
INSERT INTO public.forms VALUES (2, 'deliveries', 1, '{"name": "deliveries", "fields": [{"name": "id", "type": "integer", "header": "ID", "required": true}, {"name": "customer", "type": "string", "header": "Customer", "required": true, "max_length": 100}, {"name": "email", "type": "email", "header": "Email"}, {"max": 1000, "min": 1, "name": "quantity", "type": "integer", "header": "Qty"}, {"min": "0", "name": "price", "type": "decimal", "header": "Price"}, {"name": "order_date", "type": "date", "header": "Date"}, {"name": "status", "type": "enum", "header": "Status", "choices": ["new", "paid", "shipped", "cancelled"]}, {"name": "paid", "type": "boolean", "header": "Paid"}, {"name": "note", "type": "string", "header": "Note"}, {"name": "code", "type": "string", "header": "Code"}], "description": "Deliveries, one row each (no key: every import adds rows)"}', '2026-12-05 13:27:22.032696+00', '2026-12-05 13:27:22.032696+00', NULL);


--
-- Data for Name: import_attempt_failures; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: import_files; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.import_files VALUES ('fe546d17fbad5376e5716c1c8c87ea79b9d6103e6c6c16a93cad82f7f9be5096', 22904, '\x504b030414000000080000003f00615d493a4f0100008f040000130000005b436f6e74656e745f54797065735d2e786d6cad94cb6ec2301045f7fd8ac8db2a317451551581451fcb16a9f4035c7b422c1cdbf20c14febe93f0505b51a0824dac64eedc73c78e3c182d1b972d20a10dbe14fda22732f03a18eba7a5789f3ce777224352de28173c9462052846c3abc1641501336ef6588a9a28de4b89ba864661112278ae5421358af8354d65547aa6a6206f7abd5ba98327f09453eb21868347a8d4dc51f6b4e4cfeb20091c8aec612d6c59a550313aab15715d2ebcf945c93784823b3b0dd636e2350b84dc4b682b7f03367dafbc33c91ac8c62ad18b6a58254dd0e314224ad617875df6c40c556535b0c7bce19602da40064c1ed9121259d8653ec8d621c1ffe1db3d6abb4f242e9d445a39c0b347c5984019ac01a871c5daf40899f87f82f5b37f36bfb33902fc0c69f611c2ecd2c3b66bd128eb4fe0776294dd72fed43f83ecfc8f1d79ad1298374a7c0d5cfce4bf7b6f73c8ee3e197e01504b030414000000080000003f00f29f49dae90000004b0200000b0000005f72656c732f2e72656c73ad92c14ec3300c40ef7c45e4fb9a6e4808a1a5bb20a4dd26343ec0246e1bb58da3c483eeef8990400c8d69078e71ece767cbebcd3c8dea8d52f61c0c2cab1a1405cbce87cec0cbfe69710f2a0b068723073270a40c9be666fd4c234aa9c9bd8f591548c8067a91f8a075b63d4d982b8e14ca4fcb694229cfd4e98876c08ef4aaaeef74fac980e684a9b6ce40daba25a8fd31d2356c6e5b6fe991ed61a220675afcca28644c1d898179d4ef9c8657e6a12a50d0e75d56d7bbfc3da79e48d0a1a0b69c681153a94ee2cb5abf751cdb5d09e7cf8c4b42b7ffb91c9a85822377590963fc32d22737d07c00504b030414000000080000003f0044755bf0e8000000b90200001a000000786c2f5f72656c732f776f726b626f6f6b2e786d6c2e72656c73ad92c16ac3301044effd0ab1f75a76124a29917329855cdbf40384b4b64c6c4968b769fdf711094d1d08a1079fc48cd89907bbebcdcfd08b0326ea825750152508f426d8ceb70a3e776f8fcf2088b5b7ba0f1e158c48b0a91fd6efd86bce33e4ba4822877852e098e38b94641c0e9a8a10d1e79f26a4417396a995519bbd6e512ecaf249a66906d45799626b15a4adad40ecc688ffc90e4dd3197c0de66b40cf372ae477487b72889c43756a91155c2c92a7a72a722ac8db308b396138cfe21fc8499ecdbb0ccb391988c73e2ff40271d6f7ea57b3d63b9dd07e70cad736a598dabf30f2eae2ea23504b030414000000080000003f00261245f27a3d00009b7f010018000000786c2f776f726b7368656574732f7368656574312e786d6cad7d5db3243772ddbb7f053d7eb123e462273eaa800d2e158bdbbdec95656bc3b2e4e759f272c910c961cc8c7625fd7adf5bd5c0459e5389aa07ef8344320b40765e7ce44126f27cf5b7fff6f34f5ffce5f9e3a71f3ffcf2db77325dde7df1fccbb71fbefbf1973ffff6dd3ffd9fdffff7f4ee8b4f9fdffff2ddfb9f3efcf2fcdb77fffefce9dddf7efd9fbefaeb878ffff2e987e7e7cf5fbc74f0cba7dfbefbe1f3e75f7ff3e5979fbefde1f9e7f79fa60fbf3efff222f9fec3c79fdf7f7ef9d78f7ffef2d3af1f9fdf7fb736faf9a72fdde5327ff9f3fb1f7f79b7f5f09b8f67faf8f0fdf73f7efb7cfdf0edbffefcfccbe7ad938fcf3fbdfffca2fea71f7efcf5d3bbafbffaeec717d9ebeff9e2e3f3f7bf7df73bf9cddff98bbcfbf2ebafd6b1fff9c7e7bf7eeafef98bcfeffff48fcf3f3d7ffbf9f9bb170bbcfbe2f5a7fde9c3877f7915fee1e53f5d5efafcf5fd2fcf5ffcfb3ffefad38f9fd76f3e7ff8f5ef9fbffffcf4fcd34f2f23b8775fbcfff6f38f7f79fee3fb571bfde9c3e7cf1f7e7e95afb6fbfcf29fbefff8e13f9e7f597558877ad5ee57fcf845fa6553abffe7aaeeef574bfcf1e317df3d7ffffe5f7ffafcbf3ffcf5fefce39f7f78d529be36fff6c34f9fd6fffbc5cf3ffeb22afaf3fb7f7bf9ff2f7fd5bffef8dde71f5efe314c8b5cb25fe2bb2fbefdd74f2f43ffdf87601d7eeb601decfafef3fbafbffaf8e1af5f7c5c7bfaf4a2efcbdf597e23af06f9f6f5bffeeef53f6ff6f8edbb57d3ffe5ebcb575ffee5b59fc71785bf10fdc5137fe1f41757fec2eb2f6efc45d05ffc9ebf88fa8b6ff88b597f71e72f16fdc51ff88ba4bff83bfe22b72fbe7c3176b3b8dbb7b8db6c78b95cc08ec5f536863fc3931242cbab5b75da7a0e3160cf37d518fe38bf7f2804b6fa66ebd33f069c22da729307ebd7fc611bf34f7b33e6ef943e7edf7c7edf7cbe0d08bfa3f8be53983d4f4a0813e7ea95f962829f7a538d41f8fb87423091bef19df95cb84c196c70f79dfde6cb8c1affc177f6bbec9b28ec9be8ed6f02abac84fe8780c64f4a08b3fe1ab48966989e37d5388389c2de82fe26f4132c5ea6081fdcc3c10c0bc7168afb168aad4f18b3c47e17c335a884b806a3b2907760845b1c5928e252d84c147b13059970d07b3c984471d744db2254bfc6eddb6fdeb7dfdcec074ba9cc7da7f0739e941054bdceda7e1ef7b079b408e7dd55ffcddc2f4289bc89cd9dfd72105c307f9807f653bf26eedb6fd9b7dfd2ec070a95a5ef14844f4a08cbf7bac0fc43fba9c6b0bc7f5f1502fb2d9dfd829fd0bef7e5c07ccbc07ccb09f3a57df3a5663e3042497da7b0c89e7aa10775ae496f701ecf80349a7e697ffa25b5c3850914baa7830d2e1d6f7079df42b9f5097fe9927b23a027a784e8c46565a119cf8f5b1e5928eff952dfe47e7d7a9950a17b3eb0501e4cb07c627f7bf5ab77dde24b1b12fe68e5b5897d4428a987f5705d87eb1cb5848b5435274fad6a05fffd9b47b78f89e6c2847f9bfbe30b7ba53e06deb7a4fec9c65a150b614835256e2f45142240974d4bd16713d1a6c4cdf2a69ad38657b51234a5f453f222ec953cbe088f6dc4d39c7c0c6c98520129c3f515033a48c30ea87791dea5c6cdeb494bf1e4100d1f7c7268ca217ea85aa1072c3d8270699a098d1d410871c71ba01838411a5040858bf4febc4f682b25cd682b8d15029e2337198205a9130b6dd5c385749970e7b84b0f17225b6a1f2d3ce69c3f33e70c3021edcf83de6991dee90fb4132a297acba2018547cfeca69af39c7b2c3f34638f295c7074e24a189bf104a4100353480315e80714e95dede0d0504a4a4706e00a9e70436051b5a27d4e418b254d914c75842d641f5c68631900421a8240305ea4f7ab031d0a4a4a8782061101a7dd4d3567633db4a28ba55939729709fdcebbcc475bd93e92d0c632d08234b880fb4991de8b0eb4ed2b296dfb1a3144fcd937d59c8db518db7e0f1a96658aafe6a8ff43ff4e9623bbf51002af91b482d6c66680086928027f4291ded90f744028291d101a48300e932192a85ae16d9c282c217ec29b8bbba4a3f59a46a654c8c972f10cb4210d6ee0bd51913c3c237a694448261a7144bc6cb8a9e63c41f73187f4a0e3c59039a121f3f88c18610ead9131239d013a5c031df85b8a531e38deab2869a4cb610d3afc8c77efaa3999b16a852788eb41c7e2a708e7dadd5d0e26a4dbc71cda5606aa700d55a02f55dc10552829ea7c751a55785cde37d59c6db56985f7004ed461bb4c64aa234ce1f631853695157068a801f7a2e27ac73ed2b45252bcaf731a354474a46faa396d74552b74e19c8a3be438e1b975778791877dd8b0ad50a595752de00c50e11aa870082a5cef64c788a654d2194d090188854ce987b3eee1efa225750862deb1a43fb2e40856b833b0c219b0c2b54171372baef7fc234629b414c3140e60055db0b861a0a26a853e8deb71c5cb9c5c7ceefe87560d478b791f653cac1ace58d5c020ae6110bc5e2fae8709e8ec3f29290677ae0e30480a68d5385cead1b06a8f41429ed09dbfbb1e82ecdd5ab9517cc39d09703803a0b806501c0214d7638819af50b594ce170028992c390c7334add0923d40992f13deddde5d8f4f9ce0a9f807d7c313314c65c013d7e009dec115d73be8e8773c69299d2f1a9e04bc3ebaa9e61cd57e684567710f4f24ba69a6f57b14d570fb610d6d2c0375b8863a308053dc3078a1a433025f07e10b3cad6faa39ef7b69df6fe94187cb3ba64a47a6da0f613c16683ab3d51998c335cc8177bbc5f54e384e9b272d4550ec1073d0ac536105bc567e6895d1902ad0f1b2d521e67063cce1f2eef27c9851696440376f600edf3007ceb8e27b5830230ad65244c1fe021e0dfad17e18e8a85aa173e87bcce19c9bf0cf73f747810e7f39dee9bc013a7c031d780b57bc4a2a429caba508d03c820e5cbc7e083aaa567865e07bd491e92ad4cb70ca79194c39a59075b47a038ff8864730dc577cef9c2f7851aaa57851ea218a81dec44d35a7955bb5222b2a3c12644ae8a5f81e8fec66f28c52a1fca95c282b19aae1113cf18b1f06399474c1a3d74390038faa9b1fe291aa15ad5e05487c9a30387df7e328873f9113e50dc0e11be0c0d84af12a5241b3ae972e943a068951e859ddfc308ef1d00acf0bdfe38d38e1ddcbdd1fa546f911c4f06720863720866f10037f6af1bdc3bde0b9aba578ee7a0d3122bab8373f0c73780362f81e62b8382172b9fb389e7171b474e3193b1a00c3378081a1ede27b0c8077014f5a4a07af0618335eeadcfc3002f2d00a0320bec717cb4e7e813f8a7ff8512695d6c932a4013f7c831f18f62ebe4708890e6525a54319f2a9f0aaf0e6870955552bbc7df60a7ef865e738e9e1c7def5811f655569adac93d90027be8113cc11285e811344724a8ae903570fe0044317373f04270fadc8923d384969c288b93fcaaef2236ce2cfc443bc814d7cc32678f016df3beb89eca8a4742c6b6ce2d1b7bdf9613ca46a45878d02279779c243eeeec7e8c48fd0893f834e82814e424327988851420f2070113d6929deb7064027744ba89ad32d4cd50aec182eb0b4299b2d1c4544c289884830c04968e004c36c2528fc4079dfeab5031ecc01f2acd856aa7374701e5ae1e20d2acd2aa4099dfd7b18c393304ab2522a9973ce8027a1c113cc1e28c18dce132da5047a089750c28b6ace29f40fad68d22978e23c5ffd852378124e6459050380840640d06f2ea1c70809afb39434e38573000082cd6f610840aa5664ac1e8004cfe9e0e1282012fc60ab0b670222c17ab4d106c514a0127a7f1ddf913c69299ebd41e393803787b7300c8884fd3caba0f2acfc44319030ceb30a237812cec09360c093d0e009dea294d0bbeb141756d28c970b01e00986d26e61084faa5678b9107a78325fa68c276f384ac20aa30848381301090640090da0e04d4a092a098bf6c15e8a018e6b80771e38636f61180179684586ec014a107661c27c64c81140513a99078a015042032898a055c2303ea2a43835ae410394991e1c8561fad6432b7406438f4f5ce644d470141d09237812cec09360c093d0e0092ebf1286b11325cde40d6a7832a3a96eaa397b3855ab095173c09c2d3a6e7a88b213950b271e800403838486413081ad84de25cfe40e2a29b931f00a049f47dcc210833cb4224b2908e2c284c7d43d8c2148d84fcad26f010d90111bc8c06c9f127b1c8087dc9392be34075345ccbb428f2f0e51c6432d8cc9451d02e149152fe349154f608c68608cd8300626eb95a86000fe819e408c6e4a14d8cc1065c421ca78e845cf2755de954b7cbec6a3c4ab7822f12a1a48223624813979252aac80e855496987bd4678ee8da1909b6e4fc67aa885982cea4847e094f0e80ef6fe388a7428adac43341a402336a0811771252ab71b2f979e408cc768c4dc2bbc9cd2ed69951a5023aa071dc28f5fa23fb2e53ed4d0d632c0446c6002ef7f4b0c2397434905a3ab5710a3131c87b18eaa14ded147955ce5f872398603df2d8613a6b29e8237c0803913252a9f1e83554f20c69bf808900163e4b738840c0fbd68fbc7771b7849718fe388461c4534e29988463400436c8001d31f4b543e3dd5b60031bdac07c880cefd2d0e631ad1489a8aea55874c784d788f4798218e30433c13d4880666880d33e01d4589caadc755f604623a3b20ac810930b738ccaaaa7a61ae6954618d17004689197139704b46b04129651e1d066c880d3660326989cab3a7a22120a6a3430387400f68747b3a3a92614bfd6c7c99f042e81e8fd2aee228b411cfa45d450356c4062b30f7b644e5f9e3cf7d0231de33470016f4ce2d0e13afaa5eb45ff6c8628e5c8625e6235bee473774990c035acc0d5aa02f5566e5fce3ccd352aac6326b68c1eef23c4cafaa6aa1d332f7d822e609b7d2fb7c802de6d12b72ad9331ef660379cc0d79607672991534409d9fb4185f8b5c6748bea2e0a46e4f8547647fdecd0a7a48e6f75ab31c4cbcf904f4980de83137e88109ca65d6e000811a8811a8cd18c640af661e628fd90863cc3df608f3848ee97deea1c71e509b4f443166035ccc0d5c60c27699fdd073d1628c8b5f678863e005e06d1e828baa175ed2cd3db890bc9393368f13a9e6138954b3812de6862d083dccdaffa70a3ff03883d2cae6612ca20e4c73471592ba5c76264f385a6afb00e2b16f8513cec76cc08bb9c10b4c702f73ef6c53345149051f215c678d2e02a5a7cc4374311bcfc267052fe6b433b38e2212f38967e1b35557aa4108bc002cb372a7a9341288d1bb980142d00b16688fe69a0d73cde0aa61a0f23e1f3cbc984fbc0b9f0d9030379080b70b65ee1d66cafe9cb58f4fde0560044cd6bbcdc3d4a7875a08f3e71e22bcec5934b18e020bf3896717b38101e6860110f09459dfee93fba0bd65721f0003604acf6d1ee6363df4c28bcb5941803453f2f69cc6fbfbc8ff571a9985df0cff7f6efe3fbe0828b372d0693fd32fa311e3cf19f6333a29f3708156b5d090eab1b78b13cee5fb9c8f1c8bd17b6ff855fbb65c0c74b0347480774365e97d658ab02eda93461f6d81f426c2f8aa3dd782dbd4c218cda2d29b9685b3b797a3f4a6e544e8613100c0d20000beae288baea9845e0988d12b5934008898897453edd95a4621a9456538c932e1edc07d390200cbfe130c6d2e03002c0d00e07393b20cebcc6a2995dd5ad0ffc7fd6e19faff0fb5a8fed1a2620f17c7919ac58d0fd265147a504a595bde62a083a579963835caa2337ea85ea31653c5460f4e09956c1c66393df4c2b36351e0c0cf5cac66f107a63c810e16031d2c0d1d6054aa2cbd1f4da507179df5833ec9a2b1c38cf1c79b6e8f48eaa116ed6941fb24d90f6ad52ce39ca6e544eda8c540094b4309187e2a8bbe9247f7448bf1a4b82ef8ac828e82e1cbed875e883f171d84c87cabb6f428612f916e3981121603252c0d256024a02cbd1bcfeb5139f954936c99e124401f6419a6263dd4a2f5d863841c279cdaf7e5e8edc4320a332c67529316ab0e6d4310f85bcba26a4721825052c1dccfeb026fb7a9a2e03244108b558e76d1a644547c5f8eca492da37252cb9928c362208ca5210c7431cba29e6e937ba20002d57f5b0060506d9065186478a885318625c12181198ff7e520376939919bb41820626920027f4d5994434de5df404cdec9118a5886d949552f3a26148a98fd846adf971e45ecbabe27129492811352c309f8dcab241d45c00d0fc4e8802428474bd58ed23043e9a117e6912495a11426743fd2d113ed348a2228952c572e192022351081f76d25c968bf535241f135c123094af54ac320c2432dbc31493a86b04cf8e7bf2739d8efd28918423220446a10021dd392860f219454a8425e82f425ba32d1edc9586e77f17e9314848832e1a1734f6ee8c0a551d928ad9301f4938120524310a853499a98824ca9c5e8b1248d2066ccabbbe9f688c61e7ad1bc5308e205e9632c3f1d0088740240240340a43699715e94a4de69e3d1a0a44295dd123cd4c634e05b1a0288875a64aa1e40cc8e43f5291c986a1479d02a5993cec014a9610abcec2e4939fd54f70dc478619234a698e9904d434c918ca7da493dd57e7d3e47bbdd5139a8347a0ca1b43209070cc8911ae4c08048493a7280b8568b3133ea9aa0201411aba461602219c41749e7365d38a13a1d2537a511ea505a99a7b0813a52431d98725592c21538b39e404cfe0c042e30fbe9a6dba3fb57f5420497d49b8879c2e0d33d1dc18e742274912cb28b062cf06d6649ead9352d63050ca8545ed2c0c2e18ddb2d0d81c5432d7495930216799950ad7b1a872ed2095c910c5c911aaec0e7972569e040134b8931a9e19a10572008d3edc95606ae480a57a4cb847addd31101461abdbd4e67a213d9401db9a10e0c6a96ac61013a2d2046a7254378824a6ce521eac8fbef22b20a4fe479a2fbbb7c843bf289f0443690456ec8021fb396ac7d7f4cd80431e2ff0cf949f85ee796872f23aa5e38f5b20a4f648616f9283a91472fb0b552d6cc3380476ec003ef154b1ed25c640d1cd071c950210aff5237dd1e8f87aa16dea564c573115eb63c44bc790c3cf20878e433c0231bc02337e081cf2c4bd69947f80405c4f81020c3ab098c13ddf210783cf44208977be0b1f8295f06d7f1b907217b81db7c0285640385e4b6e3e2c558c92a1d88a6a04611e8a164788e8dc1b95b1ea290bccfa497550654881362ee7b3eca80caa317d9fa271bde5e3670486e3804df0297ac81025eba80180fe58c6fb2e91c511e3f5e326703876415dc8813ba12f7dcc3901d48974728249f4121d94021b9a11074d64ad64f28685a2a3146d0af19221f048e757bda19e7dde9fa4d56a18f3cc53c289b9ce7a3f53c0224f90c20c90620c90d90e00f2f5921067a03a4c554d931c31b6d6c7fcb4340928d2252b90724d173524b3eaa2195f7e320da5a0620c90d90a02f52b2820c54c011c4e4eaa42357678848b2419d9155155b1f26cc0ebce7a3f714f90c139f45c5d740093ea62e791cecd062aad2980194e00fbfa9f6bcffe5fdb3a4c7247199d0c9bae7434ebe13a18e9776fbd67a15547331f39ee2b94097458b854a356e63f6652d894ae932441e5537e266b9a87713c298b77e31e0b9b9ecd7a5dd7637ad9849cf72b128f82e159dd02bf5b2361a206390639cf8ba0dda5fbae0aa851e88a6e5a11c912e5d7a88123842593f30895a2e43223ea5956d528b8aefe29a49898befa2d28df05e468b854a616e6376a70655b2851e9826d219165548c5276684a89fd8361d6115f8e1a64d2dcabe8b6f3625cebe8b0214541513e544cb748150091518851e789a6eca11e5dc4555b5bdcc13715c5d8e904a1dfa60cbb418fa2ea1998d28fa2e0a4f905f08720ce55db74147f97eba07e6d9acca114dd84573f5f1dd57fd62445a7a86afef6211f65d62b31b31f65d14f6c000e813ca31dab40ddadfeb13a7a6ee81a79b5132aaf6fc0839a5694e237eb54b3c9c7ba307e15a4b9b45d7a2f9bbcccdc4c4f3775198825c6b90e3997add06ede3506ce261be56558ec9382f2a7a92230540eb1723b38ed08ad6ccde282d42c0cbd2cc4a8c8017052930f6f78472f69220888221cd1bf4c0663598376acf8f997be1007dfd62b4e2877c809733195c2f53cd326b6a66254ac08bc61e3c5b959c4a8e6e83f699980805710432ebfe5391daf1631f7d2dd9454c9e9774385b4f001cb958f47f97dcec46fc7f174500c866531887aa8f6e63f68439bcc88728a7e9c6b3b1073a794a6974d958bfb6fda233a0c7641b6f74e35446a488a604e76d52cba9eea800e7b8c72f6ed0039d4426ebb8a61d4f991f0bd64f06b8c7201e07c399dce20dd8ec908bf70e3ed1c068b1608ceb2a8281179a79328cbc34ddc8f3511ce3793938c1e52810230784e3a7708e4939de38c7a92e4b11cd0bcefced3a9c42be25f08e73045a0e88c7ab6e6460fd9a84408e221edfb9c19553c4e326f378a31ea7ea2c45341737fb955a8ef1afab00fff88c0ff46fd003dbcc5bb352b37344ae2c244724e48a859c0ee77334e4260f792322a7a23645345938aed42794932b096ce49cf98f3d90551f73898caa2233cb3c21b0bd8b1ca21c8395bc9af54c929898ace58db69ccadf14d1d4e2f43416e454ea5580bb3cec4cd661aa58538e6e32347df9254ff837bf8be22fdf3f7a46811aad9a897c4c82f3c6704e75838a2816f29d9349075bc8430796f3bd3d609834567563e0a388ce43209e5a513ce77b3bc0091e413179ce1bd1395d5414d15ce644240d5ce5e47e23d939de74dc740fec478af1264514dfb978ae982b8ae47cf7b839911e26268f792332a7a24a4514ad3751f268b160bce52a40661ef82652f7c0336d9fbb43349db9bb4c3887efa2f8ccf7d7ef19d062729637d2722aaf5444d378531c0be454245780b97c66b02763d422fb3c82a2c9cb3387b2448ec233322630d78a59db9e45612e8dc39c0a3115d134e5749a000d3939e4c0631ed139bae91ed8a8553734aa6232777b2c5172c8652e67c8ccc562339746674e05aa8a68ca717ab0ade58eca100b709a33e72c8c408bb82a47ab58f39a7b7ae92387bce662109b3f26a33b855d2ce27369cce794965d44b39353a6b1963b54fc2a407f3ee3db8c1b8cc0567d3425a32af032bb09ef35ef72c8802e06053ad8cd02308de69cea7f1551acdf54e503c5742f8e54e71c831d739d57ddd8775174e7f34e0c56b19defafe13361188bd15c1aa539d5012ba258bd29d0afc58e0a3e0bd09acf946e27635ef3a65ba222f5a2b8cd5fa61b2593883b44288ad19c809ffe75e62ab6104a2335a78a624514c73765c06bb1c328cf5580d87cc674be1bf4c047cafe037951d4e6af4ff7883a590ec9cdc50d23339a73ddc27d16bfb9342a71aa2d564491903b8cdc3ca19c9c6d60398f44dfa37bd899aeb3715203cf39daec2e8ae87cdfaac3c08c3b9347261615ba342e74aa505644f195d3a32b2d7678697515e0438f78977ed33d309876463699284af43c4fb831de4551a2ef1f38a3f2bdf0db4cab5a08a791a65361b7228a449caa8a68b1c3dbf3ab0071bac7d4c81bf4c03b809175269a3c5de284b8ef2e87f4e962f0a783dd2c88d338d2a9c65b11a7df86b0ffa3ab79b1370e1087e86764cc945e95e3f328c3d68913f62eee10e3b821c671a7308e45992e8d339daec48a285ef39dad53cbd199bf0a10a7074e53f16390f3508e4e24459d2e7be5ce4571a7ef5ceef83310c7e24e97469e4e45f48a283e718ead6aba71aa0f2f40a0cee590a10736daa61bad6145a11e1db338c8018bbaf87d7c0336b3004ca34aa78279453471383de0d07287f8e32ac8974ecfb0600402301663ba28caf418b9f4b1f84300e3877966fe549e99c59a2e8d369d6ae71551d4e6eca92bb1a3f2fa02d4e91123da37dd039fd21679ba28f6f41426dc92efa2d8d3f7adba0f70aa554f05682c8275690ceb5482af88a21c2732482d76e87f5c0558d6036e1137ddc38e55f779d64511adbf124fd1db5e515ceb7bb7b706d73a58cd42378d4f9d7a2ea209c6e969b9963be227102455a7fa2e3802996d538ec25a9a56dd277e5e2e07c4eae287c19753d4ea6271ab4b2357a702864514d93827912bb1c39974152058f71c2af4e3e08bdf673014c5b19eddf8f19b1c12ae8bdf0fc554039f4a40b338d7a591ae93e758445190f3ab062d77440421c8bc4eb59a654cbdde9423d75291af3be7267c5371177f988136a45f07d54cbb5a48a731b053b5c822c0924e41094d594e9c11e211eaf0d1340ee654e5d8ae3dd4d9cbe4f587096806193b98cd023a8d709d0a4716d104e4440f0172e28710605d67c603ec41c86efb2f6d4411afcbeb2eca47fa41da991fe21ccd076feda216f9ba34f6752a3b594431a43bbc267e4239f94940c1eef16aef063dd022afcad16d86a2617f41fc3b4efb210fbb1844ec0fbb6a7a78d3ae16126a4ced54afb3886653a7bd53339b13c382044c5a232414c648a8ea469e92626c7fd97d26fc9bde4551b6ef9b7518ed811f6799d5024b8db89d2a7b16d1e4ea449aa5e58ed81604d9dbb1871b8c407b67558ed2ae1481fbee643dc44a06817bb5ea9902026211bc4b6378a72a9f4534e1393f2e517287aef55580e6dd7330288cc152538eacaa4a98cd61423ff02e8aeb7df74c0a67c241169fbb344277aae95944539cb363afe48ed82c0459ddb146d70d4660c3195c2aa298dde51227fce42e07dcee3224779753ecee62d1bb4be37727c7b288e660e76b24a04327070948de67bc73b9410fbc795ae96a8ae7dd5df244579a8744ef32647ac7df6699d5024c8dec9d6aaa16d184ec9c0ca3c9d1f14af42ac0f81e1173dd644cf95e95e3935e3dd3097e6f911f55391383f71dec66e1a0c6ed4e0f678b28ae737eb0a8a9d089584480df9d8bb3420f3c1bf719de4551bcbf96e822ae465124effb7be310059da279178be75d1aa53a95ac2da299de39e00372baf604b6f7402533a107366bda43d4df88627b7f7d078ad520eea2f8def776ce3320c8227c97c6f84ef5698b041dcda15b0f2dc7fbbbab00ed3bd7ecd23decf83f9b7274aba998df659ef9a99d627edfbb7f33b8dfeb543c15ebb1b8e1a591c3531ddb229abf9d6ab76ab923e2110182f8807f969b8c19e29b7268d488096d0814eea258e27757f8199e78b188e2a531c5935d8a282e77879bf613cac96d04b2f8c06f92c76cf14d399a8d8a307e09131e55778987184731c65b29d01665bc34ce782af65b4411a8f3cda5e65727b61101da78cfc92e9a379ea79bb3cca6d81be384e9d77751ccf13b3b9f411c0f46b3304a2387a7b2bf45147d3bd6227cd26247b42302f4f01edf8edc64cc0f5f7523dca708e2c5859dd7b0f110a1c4613c279e8ae7581cf2d248e4a9427011c5f4cec9034aecf0f6e82a11982071b2de644c25df7423e74691c9bf1cff3b3ee1219dbc9ce193178b505e1aa33c954e2ea208d611503f69b1233617014ef99dca20718c50aa6e14d1893aa2132654ee2e8a587ef72222ee4314b09b85411a4f3b55492e020cf16c38854188d94590429e9f7f8c39e4ab723cdf74a980b0f3c0eb90465e863cf2f0dbac9082c5242f8d4a9e929c8b285e752ca7fca4c58e585e04c8e4670c96dc64cc26df74e3dd51476a16a67a912342793118e5c16c160669acf15466ba886250e7870c4aec88d14590379e73cee238106331c74bd43967f3cefb9078f8ac66481e0f3fcef4a72d90d2f8e3a9207511cdf0ce814390d3252d50c8477e17a739e879911b29698a44feb5b63097588807819a380429fa97594bdc62999746334f95ab8b00133c1dd54aeef016e32a48358f7beb0d4620a3ce46429a229b977999d0afbc8ba29bdf0dc60e09e7e514e3bc5894f3d238e7a9c47511608527675cc91d31ef08d0ce3bf62bf5086c5683775280793e3259112a97c8aa6792d62cea7969dcf354fabb8862877708a99f408ed0f12a3362185ae263fe79b108e84531d03be112ba321f06620c0efa3a1b4f05622c8e7a6924f55442bc88a291e73b312576c422234053eff1c4bbe91e7626e3a61b014345541f2f7b463dc4388aabde72c62db27a696cf55459bd882276e727c5c0fb4ede0fd2d953b95219f3d957ddc8f95184f66e87bb430e09ed653e93946691d64b63ada722ea4fa288e51d42c3ab20333d11d6e91e1831b7c1c92e11bc1b7e6aadd8e9f79c42839dbe2ed15351148bbd5e1a7d3d1d0845e671dad9ac9d7cba2b9c3188c2561d0398876e9484a228ec5f5c1bc67d8ac27e7f899e89a1582cf6d268eca9cc7c11cd54cf7351675b9147084cf63b1566f4006c352b954cb1d9bf46f4f8b67f3e0ca2188cf675329e4a25b318efa551de5315fa229a029e1fbf829cbd178d60667cad749331ed7d558ecdaa8b990566f1a89f0c96f810bfcca7f0cb6ce19746344ff1e522b30ea2f01ad75e3edd35ce50eb8c2b7569ba79de3937e528503a6b9e99bc7349311fe097f94c7d338be85e1ad33d55f12fa2c9ecf1adc093963ba2e61160bb0fec49eb11c825acca1142518cf7cb4e6ace21e1bd9c61bc178bf25e1ae73d55ec2fa258e951fca4c50ef1cb5580f5de131185ee815770d58df29835f1fd5e505e11dfef6e8ccb304f4cff366b635c2c7cb2347c823fba08b0d7133ed144f2446d240be0134c30bec108b4841fcaf1f3f64595054861c2da61f7fac900a02c67c22c8b85409686403009a488a2aa474ff8498b1d0298ab2c1a81ec2434e91ee862fba11bcf4615669130210cb8d74f46abf84c22d8624190a54110643c28a258ebb1e4c993163be2869205f2c0f84df0328ea354dde8c8587475e6c03c00f59391dd869960fac799cbd8c2284bc328b8c88a68567b4e955772474451b2c0c3196265c411c8ae711f102faa78b3ec2098e508c12cc3aa00fa979946b510ccd2100cd22714514cf31c49d544f40880aeb240d532fce937e88197b881609659f98c2f270ed9f4b028c07206c12c1682697cf5448f504491caef9cd3cac9279e2d59300b8ccfe93182a9ba91d57a0013fc847fef7bfd62744c9f89b02c1640591a40c197284514a93d5f6829b123962d5920c2c269f0cb189f54dd78b2a9c265e2764a502ce9705f3c93e7b5581064691004af568a687e7b5c624f5aee10c25c65c157fd7ca08c5ff53f94e373584190b077bfba1c257a2dc318ca722a86922c88921a4441ee88228a739ef38a35253df1944982c26598eb79d33db053f8d08d0ee9a49fba2c134ee47bfd643019d33084a27f9b69550bc1a4866030e25e24e9100a9b55b9f9c459b60d3a8c4ce91e68ae26831bb3f65c2f1a65c26dfd5e3fb1276b3a1343491646490da3a09b5f4453d113fbaa963be224db06ed2fc528b158f7c076db9ad2bd75726036be4b4c479597d33e42a9b3513fd3b1ac6a0198d4000c265b15492a84c29351c10fc43fd76dccbee2231b755c97f9a11b5d4224fd9265e71622f9239b0eb3c4d2a92cb164a19bd4d00d96df2aa2f8eb1da29f2794931b9e304d8cae6fd318de3c9463349d7a78b3f829ce0366c2faf50058a721d2d15a9a26b6904e6a48079f421751acf6b8c73e69b1634ab4a4818e270e4de881f782681c4d3a9f2cee7003a4c37cb274269f2c595826352c836317d1fcf59c0fafe54c7a9610ccf0721fbf6949463e59820a673b27cf613a591aa693e99f66eea116d6490deb6001a122a987225ce543891df39e25c03afc405df7c09371d975e7bfa93d3fb6d8cb8488e25ebf186ca2c3584d3a15ab4916144a0d0a61bd98b236eafe5e7497a1e50809aedba0fd54a5abb534c6425539b6aace3663deebfac5c0aa679050b290506a48084325656df4f6a33874a8e48ef9e21204633845398d83315539b25a8f8452d8290b970e6231698883b45ad661932d1c941b0ec2055cd6466fb79584ca95d831975c061cc4eb1b7a409356dd085de61e08e59ddaaff9723011f399404db6604e6e3007594ecadaa87351d86a1aa490bb9ee1b50b46c86e380259cd2adf9c31538c76c57c18a9c9c3484d3e15a9c9160aca0d05e1642b6ba3b7b3860ef0ac210cf9eb5983a0c020288f0335d9e0d8ccba7cf384d5b6eff58bc1019e877964f91408ca1608ca0d04e1bd78591b8dc25f590761281e9121910ca1f50d46a0b3261b28282b1414fd4ef5c27c18c6c9437a1afddbccb96ae1a0dc701006a0cbdaa8f336c9aa9a4193605086280f86626eba879d1de0a11b4f56f5da5ff284b981f7fac9c8acc3e2cff914f6c916f6c90dfbe0422a6ba3ce6ebc07683939f119c00f179a523decd8351a7b400f7e729eb21f95f2ca0795d2f230e0a35534ed6b81a4dc4012e64695b551673f0aea829c3ccf8c3c35744197c720291b0fffb38af8c832e1f170af9f0c423ef90c554db660506e30081f3b96b5d1dbaf62b36910439e67c6fa67745d9cc7219f876e147ccc2a672db8092d7eaf9f8c0efc210ecaa77050b670506e38085308cadaa89be87c36291cc46c7319701026fcde60049e8d9b72ec7caa90507cf1e80907e5c390501e26ade553496bd9c249b9e124a4aa296ba3d635bf655262c77c7419dedcf05ba63c864955373ef275d2da4e958a9c0fad7a226bcd5d0c28f42aa8664328b4367afb5554cd5dcb1d7a5ad76dd011990d8c80674f530e0f9fda73f5f22e9c28543fb157791d7cffcc811f67ac727731d0d2ab60d38dc86acadac87695404c447edb98fd8d31c62f750f341d9b6e18f8ad3dbf6519e0fbb37bfdc49e8f75f083f968c0a15741b51bc2a1b551fb5944b3abc58e98fab631fbb70ce862ea1e76ecb61f13aa1d57b35d26bc69b9d74f2cffa78e7c603403eebc0aaad110eeac8dde8c8657445a4cb9e3d76dccbe82363e46d23dd041fda61b594dc39d998b038072f486abca0fac66a0995741b51aa299b5d1db8f22827194b3d930aac35b9f064464b680ce6e359b823371a7b251fd64b4464fbc9c711703afbc0aaae110afac8deca4162d764461b88dd9a787f31a1d26a555dd786b5364352f3b1b19ed88aaa68e3c74a6ddc50021af826a3404216ba337ff84cf59854188c1701bb37fa9c06b749875d67443ffa4f6fcb05a0813f10cd74fec9d6d14a8d18a59c8ce5d0c84f22aa8464584b236b22f72b5d811bde13666ef4af34c1c52d134ddf8b850b5c9a24cc8d872af9fd861c33ab8e5bc2ca7cc6a40945741352b4294b551eb1ab3759fb498d22eaedb98fde356cc90d43dec2cf0aa1b99553fab7901cc6cd6a312cd75706bb6a653663520caaba09a1521cadae86ddfe4f3468989ff701bb34fcdc0b083ee61670bc8d66ced21ca8b7fc171c5fac968eb1c45734035cbd5160bc2c8a59995208c283a4ebc3dd3629a0ed76dcc51b456f7c09bc043374acea83d57b35ef856b27e32d804e44440c7890551a441145c4c656dd4fd2c369c28c311f4138d5122057460045ae60fe5f05aac76fcd83c1737213ebad74fcc1349f68b973d26a39c09e738b1f08b34fc82cfefcbdaa8db3e68ef54724f0c89dba0a3c8038cc046350a03d49e37abbe18954e7939c869ab231b2b5ce9651bd5c237d2f00dde1194b5516734da39414e9eba605d00f2d4650c70aa727449211ae0c409d1d7bd7e325ae267208e5810471ac4412051d64683e4012d27e6a4eb36685f2e9c4e7219439caa1cf9eaa2204e9a9906a87e3238c9e50cc4110be2488338a85e591bb59f45356fb5d813c7e13666ff0c0c6f13750f3b67ca7e44a676bc996d767bd36d1c85a9035b8bf8ccb31b27160092068070a93cad8d3a9b91332e581980108e0ca32c7570bcd7ae1d3fa65af6cc0c5b3f19a06919421ca5996d360be2488338f8abcadae8ad6b3e4f166555f2c5058230446fa87bd8d9fa8cca01b5e78777e323d7e8aa9f0c9c4619421c3913857162411c6910075ddeb236eaee6779b6ea873be48c0bbcccc1ea6837ddc38e5d0dbecdda73f51a03bf68aa9f8cec9a76ed0a86b3408c341083c936656dd41d2998c6a7e59e380eb741fb5b33f61a878196a61cdd9a498f62c20b88216c28e384b43af2d86acec228ae6114fc6b97b5d1e08656893d711c6e63f65116329a1b6394aa1b56daab3d3f36c71d26a9fac5e01876a397375a332be6e79c85605c433008b0cadaa89b8b146551724f2487dba0c3fb1f374c49abcad11a762ac872c9139626b9d74f06478e1ba5a469cdccbdd15918c6350c83d90c656dd41d39b4372ab92796c36dd0fea282dc6dd5c38e598de201b5e7cdae31ed6c8dee2829ad8e3d761a9d05535c832998c15cd646836b3325266077ddc61cb11cea1e7616b9df3b46bfa91dd71b5e37a11370af9f0c4e147706a4380ba4b80652d085296ba3ee57f12a562085980cb7417b679b20b31ba69535e5e844713a0e13f70c372691a9431f98cd8228ae4114ac7c5fd646dd8fc2da475aee899e701bb46778250fc68d31ca43b99d55aae230af8ce1bcfbc5c343658853dc996c31e72c9ce21a4ec17abc656dd4fd6ac27e4aee899e701bb47370f0a1db0d4720bbeed707a81dd7a3da734a6efd6470d7e08638c69dc231cec231aee1189c8e656d345ce50ac8a00775dd06ed0f159eaee358cd433936ab7a53f37af73d784257bfb62fc9dc28af0c7434e7ad85685c433408b6cadaa8c31be4982b3951945db741fb4b32bab3503df05dcf4339de45555e599e273eb48fd2caead096554fc56c9c05775c833bf8a3cada68105c50628faed4751bb34f7966a30ef9669a6e64549555b6c70e593fb18fa661c046e965baedde0243be81213c33cbdaa8c3de685325a6cab8d76dcc1e7ad379af07a089fad08d6e347c8f85d265bac820ddb97e6def047e987be64fe59e790b16f9068b704a95b5d15bd7c414abe5149dbd6e830ed1a61fc3226f0476bc0eec64e6a5a99f0c1c037f26f7cc5bb8c737dc8331ceb236eaa63ceda04a4e4cafd76dd03ee1998e283d024f4cb7bfd8bd0addc4094b2edeeb17e65af767408fb7408f6fa00779c8cadaa8fd247abba0c59e0849b731fb579dbc9887f506aa6e74ac7bcd4b235cd8b47e32f096fc899acdce5ba0c737d08371c0b2361a616c25278aa3eb36687fafcb761b166daecaf11ad505d364c29bcd7bfdc49e6c67308fb7308f6f9807b7d4b236eaac824f12504ebeb907de19ece1a67b6027b22a472914be629ed7d6cf2f1f7dfff53ffffd3ffcc3fff8a73ffed7dfc9dffcf1e38fdf3e7ffacfbffb4df91bf737bfffdddfffe3edbf7df5e5f7af3dfd97fff5e5efc8be87696afe444101e72df4e31bfac17957d64683c097125330e1ba8dd9d76421f0e3c7e0e7a11b834aafd04f744c07503f19ade721faf1a7d08fb7d08f6fe807f16e591bbdb9917c222bf0431c9adb989dcbc3a93f7e0c7eaa6e7453e955a29a73c45b58bfb057fb89e269ce5b88c6374483af4dcadae8cd2a3c1795188ff3eb3666ef27b2d1860f65de7423a3294473f15cddb97e329a8b274a06386f6116df300b1aa6ac8d4639284aee895a741bb4cf35a58b483f4e34f3c65b98da7385826e4227eb5e3f19196e885be0c71b760d166e090db7e0cbacb2367a737568112bb127eed16dcc3ef24566553db0abf3d08d5c9da0693213b132d72f6cac12ce6499050b8c840646f0315a591b75bf897274959c29c2b7417ba79a8209ba079a8c0fe5682e861e8cf8bc93631f0e43346118a2d13fdd9c8a1654090daa6045b8b2367aeb9a33a2949c62acd76dd0be5e1241bc300ed154e5c8110afaa1cc4e3595fac9c0bf09c34cb3a0719a65570bcd848666b0ae5b591b752702b9e54a4e75bcaedba07d910b72cbc338d3eca11cb9e5a18733394dcb3cba9b08473504aa1a070bde4236a1211b4407656df4f603d98554724facb8dba0c31785611ccea9caf18ad75502c2848410f7fac9e0f40967c04db0c04d68e006575c591b758623bb296c43b4b8db987d309bf2a7f4003cf536ddc8450cba04dab2933f150e92cec219bc122cbc121a5ec1abbee2822ae64c413025a65794d76dccbea4295dd9a81e768c66e195a0def65f327357d74f06a7f210ae28cdec6dd0822ba1c1154c7b284ef1deef2c610d570805062c80c69ece904fb3e946b184a092ce16aaf4533fb067e219b4122cb4121a5a4130515c4807fb9e822bc489bb0dda198daa4cc0083c152db812145c5996bda978188109c3084c38158109169a090dcde003d0e214f13d876395d81363ee36669f50cf2b7c0c66aa6e142e083d98c9979dfcc7708865c210cb84533198686199d8b00ca69294b5d1e0b051624f8cb9db987db22ef939719c9016f7d9346bc70f2fc84fb837dceb1783a91a87f968f154e0255a582736ac8301d2b236ea66125b55055e8850771bb47f514347b8ea81b78068609dd8639d599889af7e3188bbc421d689a7d2d1a2857562c33af836a3ac8dbabd8570b7921392b96e83f677926cd57158261a6199a8a08e979d2cbf7810978943a0a3f5328d6a019dd8800ee6d297b5d1db8524cf54857388a2781bb34f72619b8ec3365537023a51bfa8c99c2d100fc14d3c036ea2056e620337f84cbbac8dde7e153fa85172aa427cdd06edcbf5515d8f3806375539b69b8adbbc16ec23bb850377339e8136d18236b1411b243d2a6ba3b79b33ba9054624f24c3db989dd5909ae0a67bd859c146c580d8439b254e98a97aaf5f8c26db30514d2b661ee116f4890dfae0095bd6465d1a05dd5528b947c7eaba0dda5ff3f2193e8fe7a2857da28ad5c865ef143faa6b56073f988d16ba890ddde0a65cd6469d6b4209284aeed177ba6e83f6371414e48a6378f3508e8f694dc6e9277477eff593c1223e0370a20570620338782694b5d168112b7c4394d7db98fdd5181f19e3fcb2876ebcf35578f3ff21f41a0fc33671ff654d5deea77050b470506c3808533ccada68e4b12b1c44dcd8db983d0e62f38fdfdd442ba813339ed8ec061da4a2c5210c8aa760d06cc1a0b9c1200cbc96b5d128e547c93d71676f83765b0122eb9bee81ad5a95a35bb7b90742f3ce4b87f91007cd431c043fddb2aa8583e6868370032d6ba3d635976551624fccdbdb987d6e0b4d55d5c38e5137dd283631abfcb3b44ce8b6deeb278373691ee2a0f954cc67b670d0dc701012d395b5d19bcb4ec7bd127b62dedec6eccb2ed14588ea61c7aa5b53ba939b55a5e82c3bd74bf3516981798883b462a6512d1c34371c847fefb2367a3bd4c81550624fc4dcdb98fddb13bab49bc7f19e876e3c55150c5ae69dd78cf361fada3c22cc01cd4cab5a30696e30099f3a95b5d19bd9384f4bcbf1bcb86e83f6f0925237540fec2b54e5c8e39f550c28a4094b6dddeb2783c97a0627cd164e9a1b4e42beceb236ea3c4f329b12139df936669ff1c2a7d1b01074d58d67a37ad1f39ab8cbb3f12004349fa9ac365b38686e3808afaecada6874f1aee49ee8cab741fba4403e6ec6a5d566abb4dadce3a0d7a02dcfb54318349f28efec660b06cd0d06616cacac8dbadb258a9d29b927c2f26dd0cef74117e5a67bd8996d8b811fe705a6db8ef77354e0b90e7eb04a2d20343720847b4f591b8d80b7927be22cdf06ed0cc7d719f338316d365edaccaa7440de896fcf87f8663e533960b600ccdc000c42d7b2367a331bc2ea272df7c449be0dda07b8f9accde3b376538ecf0405607cdc49159f0f00cc7ca640f3622194a521149c0a656d343a4ab59c18c9b55cb054cd0de464b3aa1a150e582e7090229ebfd74f06936d192214ad9ae5a02c1642591a42c162de656df416e026d8a7c49ef8cab73187d7b8cb18a154dd28a6b0682e1b3f618ed1bd7e32383396334f64160b832c0d83e03a286ba3b7354c4c885aee89905ccbf766e3188254d568092f0a832c8e69faea27e6125ece3c91592c8cb1348c81b3a9ac8d46614125f7c438be0dda8705e9a05dc6c1968772745e2c3dc8707ec233fe5ebf182de121c6584e618cc5c2184bc31838d5cadae86d0993f7a2c4f408fbba8dd9418c9db918c673f10110c8a80a61cc8919a2eb2703e765d9e7a201b3591063691003cbb994b55167179e8c5a4edef202696658a7f4a67b606ff9a11c39cb8bc2186107f02e071063399365b6581063691003bdcdb2361a5d132ab927e6ec6dd0fe9a803cbe659c665695e3d9a6d2cc82df49635e0e9fc52c67422d8b8531968631701596b5d1dbf50a79ca4aec891a7b1bb37f93ce8b74c8a45975e3f342238c1d6e89e5b076d97206602c16c0581ac0405458d6462364a6e49e98b1b741874ff99771a8e5a11cdd032c3dc058c28417e2f7fac568b20d13c9b462d6adf462e18fa5e10fbc07286ba30eb6915115fc2066ec6dcccea8c8cc73d33decac61e329ffd2c38fc5ef544b590ef3c896fdca65d5a8a7dec4240b9ea4064f3091b3ac8d5ad7ccd7a1c41e0ff1eb36661f3f21d746f5c033f5a11bb936a987277187beb07e31306a1aa293740a9d240b9da4864ef0d6b9ac8dde7e33016525f64437be8dd95f68d14d7f1aa79135ddc8aa884ed8634c079599d3196c922c6c921a36c11dbbac8dbadc1c369bc226c421be0dda990d4328371881dcecaa1c1dd249258a8530e13cbed74fec4be7348c90a453119264a197d4d00b12b494b5d1285b42c93d518c6f830e1f70c10864d69a0f41665531924bd86103483d7ed9f5b4d3995cb1640194d4000a86d3cadae86d6ba4cb7c25f6c422be8dd9574620df47f5b0b38a83b1352a80f2728a73764e3a649749676220c90228a90114a4dd296ba3375cc7d34de113a209dfc6ecd34c78f31b3f83a9ba91d9d43398bdda83291e9e2867104ab2104a6a08053de9b2367a3b32989447c93dd1846f83f60f02d96c63845295a334f9a492c1963861feedbd7e3232dc1984922c84921a4241aea1e214e3bda0a7fca4e5c46179dd06ed9f6db007338628c9e290490aa37899f0c2fb5e3f198094b45f60190c678194d4400ade5a1597548c02eb793f6939edfad76dd03e0a4277a87a049e71094fbb6a388552969dd2f2291d9db6c32caf742acb2b5920253590825cb3c501eb3d3b310aa5101ff836681f39e7d3765c70ac2a4709494991c4f838e15fe45e3f1998f54c98245b3824371c828fef8bcb3a0c8266d36222fcdec6ec2ff409dca91ed86c0fdd2839316b16cb79a79c4ebe1c2de23cac24964f2572650b88e40644f0471797c7895c4a4cb4d3d76dcc6e89737d65d503ef8d55375ae29932b9c8aa0738240fd3b8b45ed6cb8b6cc194dc600a1aad384d7bcf27b5927ba61dcc98c745074e1e07511ecad102cf3d4af16ec20788f7fac5e09cce4394a27fba39532d94921b4a4117a238c57acf39204aec89427d1bb3c77e6c543f9ea9d5bf21ab2a9092fc840ec2bd7e3232eb1990922d90921b484122a5e234ad3d81142de6b9086ff5d14bb8e90e76ccb6a946f7b359575ebe4c7852deeb27a36df30c46c91646c90da3e0dd51714056cfc78d02296895eb36687fdcd0299dc7419487727cdca820ca4576c2c7391e1cd2f90c48c91648c90da420d16c7179cc81a9c41effe2d76dcc1e115314258f1fac64ebc14ad6a595c3844f3aeef593c14d423e8351b2855172c3283876718a8d5ef82a216b8c42e02e034661a6b63cced47a28c74786822873d8a1b9cc8734977958315969669f191682c90dc160a267718a8d9eefae9598aefbafdb987d508fad3a4ee37ae8c65655695cf3847fd07bfdc2766e8631967c0abe640bbee4065ff0beadb8ac622cbc2f2af482bbde751b73f8ac54f5b063d2876e747b93157a097b446df990e2329f802ffe62c0177f69f005cb8a17af98e8a9c881167bf47eaedb98bd4f88e789ee81ce93aa1b4ec5daf166364a64a8627b71d7710f4c6660135f59ec2f44875afc65fcd85ecb3d7a3e577f9103974ff74073ad2a87175eb5e3b76b699a6af513fb30a963efdfdb7cf9e987e7e7cfd7f79fdf7ffdd5afeffffcfc3fdf7ffcf38fbf7cfae2a7e7ef5fda5ca6972df3e38f7ffea1fef3e70fbfaefff472aeffe9c3e7cf1f7eaefff6c3f3fbef9e3fbefedb8b7ff9fd870f9febbf7cf932c65f3f7cfc97759cafff1f504b030414000000080000003f00bdacce1749010000260200000f000000786c2f776f726b626f6f6b2e786d6c8d51cb4ec33010bcf315d6de691e4a225a35a9c44b5442944369cf26de34561d3bb21dd2fe3d9b542970e3b43be3ddd1cc7ab93a358a7da175d2e81ca259080c756984d4871c3eb6cfb777c09ce75a706534e6704607abe266d91b7bfc34e6c8685fbb1c6aefdb4510b8b2c686bb996951d34b656cc33d417b085c6b910b5723fa460571186641c3a5868bc2c2fe47c354952cf1d1945d83da5f442c2aeec9bdab65eba0585652e1ee1288f1b67de30dd93e29608a3bff24a447914342d0f4f887b05d7bdf493580344c2128ae21df2d1358f14ef92d599bd4e95c7112c7d930394ced24f6ee676980ecb4975a983e8738a1cb9e2714a5c0fab1df4be16b22b2707ee55e501e6a9fc33ccbc2413cf8a53ede6faa4c8fe136569023faa7815b93ff88c22c2435762da251615a2bb92a29cd50c6c13849a339b0aa53ea81b88d7e357c141896a624c537504b030414000000080000003f00f05cfe4adb080000f73b000014000000786c2f736861726564537472696e67732e786d6c959bdb72db361086effb141cddd7b20ed6a1633b75eca4eda4d363329de91d23d2366b895449da4ddebe0416000108f8b1be0c212f01ecbf8bdd0fcce59b2f877df652b65dd5d45793d9d9f9242beb5d5354f5c3d5e4d3c7f7df6e2659d7e77591ef9bbabc9a7c2dbbc99beb6f2ebbaecf863fadbbabc963df1fbf9b4ebbdd6379c8bbb3e658d6c3c87dd31ef27ef867fb30ed8e6d9917dd6359f687fd747e7ebe9a1ef2aa9e64bbe6b9ee87d79eaf87f73ed7d5bfcfe52d3d5a6c9793ebcbaebabeecaf7f6d8bb2cd7ebabb9cf6d79753f18c9edf3e777d73285bfff9bbc1f8de7f4846eef2bef447feecf3feb9f39ffede7ff51f7daaab3efbadad762726feae8ed96d539c3cffa1baefb3bfdafce80ffcd2f4e5c92bdfb779bd2bbbece7e6a5dce7a76fb9a7f1b3bd1a3fffbefc921f8efbf26cd71cfc1f778fd5f15816fee35dbedf67f755dbf5fec8c7ea90fdd80c7f73b29f7d75387b942333f4c6635e9dbcee8fbca8f2ece3637338764ded8fb662f4ac57a37364bc2eff0b4d3866594c59db5d20bbc39e3e54fb93adbe2986593fb74314f8237931cc588e2c91dd7d99bf9459de6745d39c6ce887b28ecefca9accdcc2fd01b76420cfbfda98b85f5988484752d9f15b2feaee81e867809ef412907d536ac9119db0f1bf4c3bba6cef7454480851c541adc22334213b1b58bb9e8b5cf60ecdcecf3f816e6c3e068074684b4f3a17eee1f83469ec4c80cca5e5a086f8a34a1c2124afc87769868c4c88318d356a0a0694faaeea97909ef881c9a41c92a27c7a4afdcacf5328302b576102a708cd71914a0a3b11914998a8df08eaad8203b7328339def830ad1c95e2e710e654649f6aefae7a9ebdb3c9c640b353a8772532bbb19d2ca8977d4c272313667082ee665929c49fa50746a3eb1a5a92999b541f1d9a96f0ea525927f386a072d913fa0e4d4ac630944cddacc05ca52cc259a8986e9182b50b1a49070f4923e287c1750af4ee65b40495ac9690115f7366f3fe76d64bf3fd320edf9026a8e5618b4420b241b506d3a1e63cad521690a0ba8b731f12ca0dac491159cb738af68d6506de2ef6301224ce8e858409db9a5d802aac9df8725548df6706c8edac97a9e4b282ceda398353d37630daacf49fa4b28b0f1bc594211793969c9ce49cb644e0aa66521339993975025141f410be47ab2013542793db6f394d7cdbaa1826c5d5ea44bb148252e3c4211760135e3b9e4024a62319b9ecf871e75be0cf61bc199c82a97260235a443219c887520502abe802ad396820ed586a44b2fa000c9a5e1f99043d56cb0388593c2ea143ea27924fb048ac20b28419271b8f2221d2b2b507e2298224575a12daca02c5d5fada0fc4490cbc4b182c2f3b3ea0a4a4995d2c14d57594d6efb0acac839d15750293af106dfa8e74eaf845ab13bc215aedc4dc65de11249a688c8994d4942bf8f75ace9fd58b38eb5d88bb542f4bbd79c14a53a6a4e8d1e8e595d5bcac1355490dd0eafa14abcbe6c0d75e225db35148340154141899891625a4389e886329895f5b4694f39cd9f59e1abca9f0d4b27b122de641235be813ab1fbf50d940965f66061494664646d70cd63b2e1060a44357c412fa8764f8e6da0724cbdbb819a71dcba4996c6e13891e297231bc679135e992a99691ec97247fb770bd522c960f06d920bca916df2b4d1cadc4285987627f83ea3727a67ba3696e1ba853a19eba42d8713c52a4da5009d62b6502e2693c07d77680bdc5f477e707fad0690b1d8b04ed5db48aae9a39c2a2d8ed3c3e58fde065502f17c094350159891e4a74a4c9dfa585997f4f38a6c8e59efb80ecc720dfbc1c0d6ba2b49dd3b583b8dd1ab480ac1446e2a4b8c5d9dea2c4155cd2a99a51986aa0ec0c150d50b6a4c4e1d1609dde616ea987eda4715269c76118b09a67d60633e698e3f0c2755f917d483da1606a2742935f4a1539a62cce8d7bc1827dab3c534d123a698288e07252686b6673017f409559afb29abd091ce9183119f39c330c333e900e33b7de04472b23e723496823e3c967511281e44c60a9f30628e0ab741978f7914133c877530081efd0e9fa4c68118deb92712c6775e76c3acce02d618c8c9cb81f0955ca1531e0671760c6210e7f72918b9994f1982b3339d36b1251616a1293222da5c9e274b51b3141ccfe35506a6602e766378d800494efe25ab9cc00e1e0d4a808453a0a31d7a946e35a4f831d9ba797b7bf72eca4f82dd873949c83c74bb7340317817ed019bcb639ce5c813f3ac31a5619e259267acf51113d3b261d22c4241e98b3d55cc278b60c38c58614b10274919e867d077d635052650e618c4ecc9cd16983339ebe6574b98233968124324af00c28cc83d973025b23848faec34afc71f8a1471282a5b62bd62dee1aa7f0d7d691f631809f9b51cc63f63b582018f7d5582018f7f3f8961ce588a609463dfa76154e3c42583d66892049da53f168b785dc784b695bce88c653fb11d7a997097dddb6c566f41fd21f72066d42154bf713718eeaf073418698d44c36901193cc5691667e7e2abc657281c6315efba00c315f71b2d96ce893c40378c650cc6284ebec618457e82192c7d6565419fca41efd819053316ab5bc084c5749198ad8cd81293150736f07b340c561c5cc26aca55e0b20e13f55bce51623854b2a4534639f74bb401bccb2522184974a9bedb9a2582724403fc660be313e70b6bcef5a1a137c9e28d434f9c2f9ba08f5ce7638242b43a782349caa4e40f3d6877ef6c88896188537d611ee22429cc434e3ebc4ab74e1cd431a6534c39dcab8d577c9c86898621d81867585ec224c3992646155e958e6185bb260c2becba07c30aa79ac1b8c26310ecd308d30a43b131aab00f0f8c23c62487618479316611eeb663b030e6224c15fc8a07b3059718b0e002ef7b192b4361c0e09451982238eac710c14613ac8f5da84767550eaa9d66940e6c90a09694fe84570382e4bd99593cab01a5d5433f89cf17826791d03a2d3459f0a9ee351962a61f4e123ff3cb64476a7a77e837afb9c170c106731820d85f036278603110467c298bd071362ec2e060e4f4181bf8f41d6303eb3b0bd6814513607f2d86b1c109e14886987a3fe3b49241c3da28d67f2a741adbe4514085da2ba49c2c74590dbd57552439a589cff00fa75dd75fff0f504b030414000000080000003f002dd5c123f7010000c30500000d000000786c2f7374796c65732e786d6cbd944d8bdb301086effd1542b936b19d36a15b6cef61c1506897c266a15739921d813e8c2487b8bfbe23cbf147c9b2a56ceb83351abdf3ccc81a39bdbf4881cecc58ae5586934d8c1153474db9aa33fc7c28d69f30b28e284a84562cc31db3f83e7f975ad709f67462cc2120289be19373cde728b2c71393c46e74c314ac54da48e2606aeac83686116a7d9014d1368ef791245ce13c55ad2ca4b3e8a85be532fc6174a1307ca150dbfe234601f7a0a92f059eb5946b4a717453bf5bea57ef57ab7813c72fa8f74b75ec1f2f8d86e2f2b4d26aaa718b83234fed4f7426021089971fb5d00639f80800e93d8a4816140f44f0d270efac88e4a20beead77f4df6dd049aeb4e973870ce15d46ff23573ff8cd7221969b05479e36c4396654011334d887ae81f40ada23607add2beada902ed9ee6601fd00794b6d28b4e3357382afae3c15ac721060787df2a3d34de4179dd3120cca49ad15111e798d180cc01e99104fbe677f540bf6a59a3541ec5b408d261434980113269e3fa705f60cbbfb2b2cba5423ffa5e8e4f568449a4674850efbfb9d35dca13fae25d01e5b593253f497e33675f74fa8fbb7a146c3f9cc9a60d102a317f9db93e1471f2c66e0b2e5c27175e3f881492fd3c9f7ab8e94f0675c640106651569853b8c8b199eec6f8cf256de8daaeffcacdda09aecafbeef937d5fc1f4fbcd7f01504b030414000000080000003f0018fa4654b0050000521b000013000000786c2f7468656d652f7468656d65312e786d6ced594d8fdb4418bef32b46beb78e133bcdae9aad36d9a485edb6abddb4a8c7893db1a7197bac99c96e7343ed110909511017246e1c1050a995b8945fb3500445ea5fe0f54792f166b2cdb68b00b539249ef1f37e7ff81de7eab5073143474448ca93b6e55cae5988243e0f6812b6ad3b83fea59685a4c24980194f48db9a12695ddbfae02ade5411890902f2446ee2b61529956edab6f4611bcbcb3c2509dc1b711163054b11da81c0c7c0366676bd566bda31a68985121c03d7dba311f5091a642cadad19f31e83af44c96cc367e2d0cf25ea143936183bd98f9cca2e13e808b3b60572027e3c200f948518960a6eb4ad5afeb1ecadabf69c88a915b41a5d3fff9474254130aee774221cce099dbebb716567cebf5ef05fc6f57abd6ecf99f3cb01d8f7c1526709ebf65b4e67c653031597cbbcbb35afe656f11affc6127ea3d3e9781b157c63817797f0ad5ad3ddae57f0ee02ef2debdfd9ee769b15bcb7c03797f0fd2b1b4db78acf4111a3c978099dc5731e993964c4d90d23bc05f0d62c0116285bcbae823e51ab722dc6f7b9e803200f2e5634416a9a9211f601d7c5f150509c09c09b046b778a2d5f2e6d65b290f4054d55dbfa28c550110bc8abe73fbc7afe14bd7afee4e4e1b393873f9f3c7a74f2f02703e10d9c843ae1cbef3effeb9b4fd09f4fbf7df9f84b335eeaf8df7efcf4d75fbe3003950e7cf1d593df9f3d79f1f5677f7cffd800df1678a8c307342612dd22c7e880c7609b4100198af3510c224c2b143802a401d8535105786b8a9909d72155e7dd15d0004cc0eb93fb155d0f233151d400dc8de20a708f73d6e1c268ce6e264b3767928466e162a2e30e303e32c9ee9e0a6d6f9242265313cb6e442a6aee3388360e494214caeef1312106b27b9456fcba477dc1251f29748fa20ea646970ce85099896ed018e232352908a1aef866ef2eea706662bf438eaa482808cc4c2c09abb8f13a9e281c1b35c631d39137b18a4c4a1e4e855f71b85410e990308e7a0191d244735b4c2beaee62e844c6b0efb1695c450a45c726e44dccb98edce1e36e84e3d4a8334d221dfba11c438a62b4cf9551095ead906c0d71c0c9ca70dfa5449dafacefd030322748766722caae5de9bf314dce6ac68c42377edf8c67f06d7834994ae2740b5e85fb1f36de1d3c49f609e4fafbbefbbeefbe8b7d77552dafdb6d170dd6d6e7e29c5fbc72481e51c60ed594919b326fcd12940efab0992f72a2f94c9e4670598aabe04281f36b24b8fa98aae830c22988717209a12c598712a55cc249c05ac93b3f4e52303edff36667404063b5c78362bba19f0de76cf2552875418d8cc1bac21a57de4e985300d794e6786669de99d26ccd9b500d0867077fa7592f4443c6604682ccef058359582e3c4432c2012963e4180d711a6bbaadf57aaf69d2361a6f276d9d20e9e2dc15e2bc0b88526d294af67239b2a4ba42c7a09557f72ce4e3b46d8d609282cb38057e326b40988549dbf25569ca6b8bf9b4c1e6b4746a2b0dae884885543b584605557e6bf6ea2459e85ff7dccc0f176380a11bada745a3e5fc8b5ad8a7434b4623e2ab153b8b65798f4f14118751708c866c220e30e8ed16d9155009cf8cfa6c21a042dd32f1aa955f56c1e957346575609646b8ec492d2df6053cbf9eeb90af34f5ec15babfa1298d0b34c57b774dc93217c6d646901fa8600c10186539dab6b85011872e9446d4ef0b181c7259a01782b2c854422c7bdf9ce94a8e167dabe05134b930520734448242a7539120645f9576be869953d79faf3346659f99ab2bd3e277488e081b64d5dbccecb75034eb26a52372dce9a0d9a6ea1a86fdfff0e4e3ae987cce1e0f1682dcf3cc22aed6f4b547c1c6dba970ce476ddd6c71dd5bfb519bc2e103655fd0b8a9f0d962be1df003883e9a4f940812f152ab2cbff9e610746e69c665acfed9316a1182d68a785fe4f0a939bbb1c2d9678b7b73677b065f7b67bbda5e2e515b3bc8e4aba53f9ef8f03ec8de8183d2842959bc4d7a0047cdeeec2f03e0632f48b7fe06504b030414000000080000003f00603e5e0c240100005002000011000000646f6350726f70732f636f72652e786d6c9d92cd6ac3301084ef7d0aa3bb2dc9065384ed405b726aa0d09496de84b44944ad1f24b54edebe8a933809e494e36a66bf9d5dd4ccb6bacffec007654d8b684150064658a9ccba451fcb79fe88b210b991bcb7065ab4838066dd43231c13d6c39bb70e7c5410b204328109d7a24d8c8e611cc406340f45729824aeacd73ca6d2afb1e3e287af019784d45843e492478ef7c0dc4d4474444a3121ddafef478014187ad06062c0b4a0f8ec8de075b8d9302a174eade2cec14deb499cdcdba026e3300cc5508dd6949fe2afc5ebfbb86aaeccfe540250d748c184071eadef1a7c59a4c3f53cc4453af14a817cda25fdc6db7191431fc82c056087b827e5b37a7e59ce515792b2ce29cd2bb224949192d1fa7b3ff2aaff0cd4c72177134f8043eeeb4fd0fd03504b030414000000080000003f00b20d7dcb790100001003000010000000646f6350726f70732f6170702e786d6c9d52c16edb300cbdef2b0cdd1b39c1300c81aca24837f4b0a10192766756a663a1b22488ac91eceb273b88ebac3bcda7c7c787a76792eaf6d8b9a2c74436f84a2c17a528d09b505b7fa8c4d3fefbcd57511083afc1058f953821895bfd496d538898d82215d9c153255ae6b896924c8b1dd022b77dee342175c0b94c07199ac61abc0fe6ad43cf7255965f241e197d8df54d9c0cc5d971ddf3ff9ad6c10cf9e8797f8ad94fabbb189d35c0f927f54f6b52a0d070f1ed68d029396faa6cb443f3962c9f74a9e4bc543b030e37d95837e008957c27d403c230b32dd8445af5bceed1704805d9df796a2b51bc00e110a7123d240b9ec559762e46ec2271d2bf427aa5169149c9891ce15c3bc7f6b35e8e820cae85720a92f175c4bd6587f4d86c21f13f122fe789c70c6296f131d5f9643ee4bbbcf497f72674117c1ea09cd00feb5fe929eec33d305ec6794daa5d0b09ebbc8169dc13a11e72aee406fda6057fc0faa2f9d81896ff7c3e70bd5c2dcafc8d3bbf704abedfb2fe03504b0102140314000000080000003f00615d493a4f0100008f0400001300000000000000000000008081000000005b436f6e74656e745f54797065735d2e786d6c504b0102140314000000080000003f00f29f49dae90000004b0200000b00000000000000000000008081800100005f72656c732f2e72656c73504b0102140314000000080000003f0044755bf0e8000000b90200001a0000000000000000000000808192020000786c2f5f72656c732f776f726b626f6f6b2e786d6c2e72656c73504b0102140314000000080000003f00261245f27a3d00009b7f01001800000000000000000000008081b2030000786c2f776f726b7368656574732f7368656574312e786d6c504b0102140314000000080000003f00bdacce1749010000260200000f0000000000000000000000808162410000786c2f776f726b626f6f6b2e786d6c504b0102140314000000080000003f00f05cfe4adb080000f73b00001400000000000000000000008081d8420000786c2f736861726564537472696e67732e786d6c504b0102140314000000080000003f002dd5c123f7010000c30500000d00000000000000000000008081e54b0000786c2f7374796c65732e786d6c504b0102140314000000080000003f0018fa4654b0050000521b00001300000000000000000000008081074e0000786c2f7468656d652f7468656d65312e786d6c504b0102140314000000080000003f00603e5e0c24010000500200001100000000000000000000008081e8530000646f6350726f70732f636f72652e786d6c504b0102140314000000080000003f00b20d7dcb790100001003000010000000000000000000000080813b550000646f6350726f70732f6170702e786d6c504b0506000000000a000a0080020000e25600000000', '2026-12-05 13:27:23.033395+00', NULL);
INSERT INTO public.import_files VALUES ('c23dd9329af49828bd54dfc1ae9043a27462adbb828d39c06dc01a8f474ba40a', 5693, '\x504b030414000000080000003f00615d493a4f0100008f040000130000005b436f6e74656e745f54797065735d2e786d6cad94cb6ec2301045f7fd8ac8db2a317451551581451fcb16a9f4035c7b422c1cdbf20c14febe93f0505b51a0824dac64eedc73c78e3c182d1b972d20a10dbe14fda22732f03a18eba7a5789f3ce777224352de28173c9462052846c3abc1641501336ef6588a9a28de4b89ba864661112278ae5421358af8354d65547aa6a6206f7abd5ba98327f09453eb21868347a8d4dc51f6b4e4cfeb20091c8aec612d6c59a550313aab15715d2ebcf945c93784823b3b0dd636e2350b84dc4b682b7f03367dafbc33c91ac8c62ad18b6a58254dd0e314224ad617875df6c40c556535b0c7bce19602da40064c1ed9121259d8653ec8d621c1ffe1db3d6abb4f242e9d445a39c0b347c5984019ac01a871c5daf40899f87f82f5b37f36bfb33902fc0c69f611c2ecd2c3b66bd128eb4fe0776294dd72fed43f83ecfc8f1d79ad1298374a7c0d5cfce4bf7b6f73c8ee3e197e01504b030414000000080000003f00f29f49dae90000004b0200000b0000005f72656c732f2e72656c73ad92c14ec3300c40ef7c45e4fb9a6e4808a1a5bb20a4dd26343ec0246e1bb58da3c483eeef8990400c8d69078e71ece767cbebcd3c8dea8d52f61c0c2cab1a1405cbce87cec0cbfe69710f2a0b068723073270a40c9be666fd4c234aa9c9bd8f591548c8067a91f8a075b63d4d982b8e14ca4fcb694229cfd4e98876c08ef4aaaeef74fac980e684a9b6ce40daba25a8fd31d2356c6e5b6fe991ed61a220675afcca28644c1d898179d4ef9c8657e6a12a50d0e75d56d7bbfc3da79e48d0a1a0b69c681153a94ee2cb5abf751cdb5d09e7cf8c4b42b7ffb91c9a85822377590963fc32d22737d07c00504b030414000000080000003f0044755bf0e8000000b90200001a000000786c2f5f72656c732f776f726b626f6f6b2e786d6c2e72656c73ad92c16ac3301044effd0ab1f75a76124a29917329855cdbf40384b4b64c6c4968b769fdf711094d1d08a1079fc48cd89907bbebcdcfd08b0326ea825750152508f426d8ceb70a3e776f8fcf2088b5b7ba0f1e158c48b0a91fd6efd86bce33e4ba4822877852e098e38b94641c0e9a8a10d1e79f26a4417396a995519bbd6e512ecaf249a66906d45799626b15a4adad40ecc688ffc90e4dd3197c0de66b40cf372ae477487b72889c43756a91155c2c92a7a72a722ac8db308b396138cfe21fc8499ecdbb0ccb391988c73e2ff40271d6f7ea57b3d63b9dd07e70cad736a598dabf30f2eae2ea23504b030414000000080000003f0060652a792a0200000007000018000000786c2f776f726b7368656574732f7368656574312e786d6c8d954d8f9b301086effd1596ef0d84af6c22c26a1312da43a5aaedf6ee8009680123db9bb4ffbe3624c89e6557bdd9f36ac6ef33fe8a1fffb40dba502e6ad66df172e16244bb9c157577dee2e75fc7cf0f180949ba8234aca35bfc970afc987c8aaf8cbf888a528954814e6c712565bf711c9157b42562c17ada29a564bc25524df9d9113da7a41892dac6f15c37725a527778acb0e1ff538395659dd394e5af2dede45884d38648655f54752f701217b5d2340fe2b4dce2a7e5268bb093c4c3cabf6b7a15c6184972fa491b9a4b5a287e8c34d889b1172d7e552157a73a6f728f83a9ef1c15b424af8dfcc1ae5f687daea42a124eaba5449224e6ec8af8505cf444f76ab959299fb90e3ea9a8cad1be2f891b3b17b5587ed376a6b6b4b5bda979b6969a9a6f6b07530b6ced686aa1ad65a6164d9aa3d826406f16d01bedbbae0b10769e517205f04ced01e0e975743b0784d00f01fec1cc5d03c4d1cd7a0de2d9cde5229c47f367d1fc090d58d8f9e6ce816ddd5b22684aea0338b87ffe0770fe0d0e342c1be3de7b70c12c5c30c1010bbbc0f40fc8f7960832d300c0810378083e800b6e70e0a46463dc7f0f2e9c850bc78ecc1ccad0f40ffced2d11dc90340470403f58c911a00be72e7916c20364a145b368d184060f65641a8017ce12e18d8b001a707fb092e1c645736f5476b709d01ce3ddecc9997e23fc5c770235b4542bb88b15467c7c6687b164fd3052bd3d3129597b9f55eaaba15ccfd485291993f7897ecda7cf2bf907504b030414000000080000003f00bdacce1749010000260200000f000000786c2f776f726b626f6f6b2e786d6c8d51cb4ec33010bcf315d6de691e4a225a35a9c44b5442944369cf26de34561d3bb21dd2fe3d9b542970e3b43be3ddd1cc7ab93a358a7da175d2e81ca259080c756984d4871c3eb6cfb777c09ce75a706534e6704607abe266d91b7bfc34e6c8685fbb1c6aefdb4510b8b2c686bb996951d34b656cc33d417b085c6b910b5723fa460571186641c3a5868bc2c2fe47c354952cf1d1945d83da5f442c2aeec9bdab65eba0585652e1ee1288f1b67de30dd93e29608a3bff24a447914342d0f4f887b05d7bdf493580344c2128ae21df2d1358f14ef92d599bd4e95c7112c7d930394ced24f6ee676980ecb4975a983e8738a1cb9e2714a5c0fab1df4be16b22b2707ee55e501e6a9fc33ccbc2413cf8a53ede6faa4c8fe136569023faa7815b93ff88c22c2435762da251615a2bb92a29cd50c6c13849a339b0aa53ea81b88d7e357c141896a624c537504b030414000000080000003f001475843e24010000af02000014000000786c2f736861726564537472696e67732e786d6c7d92dd4e03211046ef7d0ac2bda5f6c218b3bbb569fd8b26566d1f60b28c5d220c08b3b57d7b69f4c2b0c95e724ebe2fc340353f382bf61893f154cb8bc9540aa4d66b43bb5a6e3777e757522406d2603d612d8f98e4bc39ab526291a3946ad931876ba552dba18334f101299b0f1f1d703ec69d4a2122e8d421b2b36a369d5e2a0786a4687d4f5ccbd94c8a9ecc578fcb3f30954d954c5371f3123546f1b8aa1437953ab15fbeec137b87b1e4b7b9d996f0b764058ca57967e03e95f4958f25da9261b18ea61d542c348867bf470b43071a6ef0002e589cb4de95ba056ad15ad4a5b88fb94c3cf8108637dc9ddc58ebc202894d1ff31b0ee6c96a2cfa06da805863b40ea894f124c7d284df257ac23c4ae75d487ed0f789a3b30430fff6a2f28f6b7e00504b030414000000080000003f00610cac63c2010000060400000d000000786c2f7374796c65732e786d6c9d934d8bdb301086effd1542f7ac12d386b6d8dec3426061bb1436855e654b7604fa30d238c4fdf51d59aa63c3424b7dd1e8d5cc33e319a97cbc194daed207e56c450f0f7b4aa46d9d50b6afe88ff369f7999200dc0aae9d95159d64a08ff58732c0a4e5db454a2048b0a1a21780e12b63a1bd48c3c3831ba4c593ce79c301b7be6761f0928b10838c66c57e7f64862b4bebd28ee6642090d68d16b08c4522697916281e3f5292704f4ec452f0db19b31382b2ba649951979db35b5414ea32fc2257ae513944f7d669e70960ad323aa162b991c9e3896bd57815c58e1ba5a7241751987f2ffb19659d9f73a70cf3120b505a2f0514340975397000e9ed093724dbe769c0f4163b9b30b3df5fbc7bcfa743f16915302f98b7715ee024d7bf9ea4bad4b2030cf0aabfc415dcc0e22180336808c57b67b98ec83f11d9406c2bb57e8be3fed96dd8b76e359d7d9c8d5d4c2c289b09933691bfa625f60a5bfc1796dcba85bf89ce57e69fe3091f063dbd8ea691fe34dfb47c3758ae73d58c4d2b1695c45b54d1d718ac57e066541a947da70dc814b77b07e653e00d3eae4d166408d9f151c37939ace8ddfe26851acd97c5ebbbba3ac85e77fb25ceff709c2bb8bfe0fa37504b030414000000080000003f0018fa4654b0050000521b000013000000786c2f7468656d652f7468656d65312e786d6ced594d8fdb4418bef32b46beb78e133bcdae9aad36d9a485edb6abddb4a8c7893db1a7197bac99c96e7343ed110909511017246e1c1050a995b8945fb3500445ea5fe0f54792f166b2cdb68b00b539249ef1f37e7ff81de7eab5073143474448ca93b6e55cae5988243e0f6812b6ad3b83fea59685a4c24980194f48db9a12695ddbfae02ade5411890902f2446ee2b61529956edab6f4611bcbcb3c2509dc1b711163054b11da81c0c7c0366676bd566bda31a68985121c03d7dba311f5091a642cadad19f31e83af44c96cc367e2d0cf25ea143936183bd98f9cca2e13e808b3b60572027e3c200f948518960a6eb4ad5afeb1ecadabf69c88a915b41a5d3fff9474254130aee774221cce099dbebb716567cebf5ef05fc6f57abd6ecf99f3cb01d8f7c1526709ebf65b4e67c653031597cbbcbb35afe656f11affc6127ea3d3e9781b157c63817797f0ad5ad3ddae57f0ee02ef2debdfd9ee769b15bcb7c03797f0fd2b1b4db78acf4111a3c978099dc5731e993964c4d90d23bc05f0d62c0116285bcbae823e51ab722dc6f7b9e803200f2e5634416a9a9211f601d7c5f150509c09c09b046b778a2d5f2e6d65b290f4054d55dbfa28c550110bc8abe73fbc7afe14bd7afee4e4e1b393873f9f3c7a74f2f02703e10d9c843ae1cbef3effeb9b4fd09f4fbf7df9f84b335eeaf8df7efcf4d75fbe3003950e7cf1d593df9f3d79f1f5677f7cffd800df1678a8c307342612dd22c7e880c7609b4100198af3510c224c2b143802a401d8535105786b8a9909d72155e7dd15d0004cc0eb93fb155d0f233151d400dc8de20a708f73d6e1c268ce6e264b3767928466e162a2e30e303e32c9ee9e0a6d6f9242265313cb6e442a6aee3388360e494214caeef1312106b27b9456fcba477dc1251f29748fa20ea646970ce85099896ed018e232352908a1aef866ef2eea706662bf438eaa482808cc4c2c09abb8f13a9e281c1b35c631d39137b18a4c4a1e4e855f71b85410e990308e7a0191d244735b4c2beaee62e844c6b0efb1695c450a45c726e44dccb98edce1e36e84e3d4a8334d221dfba11c438a62b4cf9551095ead906c0d71c0c9ca70dfa5449dafacefd030322748766722caae5de9bf314dce6ac68c42377edf8c67f06d7834994ae2740b5e85fb1f36de1d3c49f609e4fafbbefbbeefbe8b7d77552dafdb6d170dd6d6e7e29c5fbc72481e51c60ed594919b326fcd12940efab0992f72a2f94c9e4670598aabe04281f36b24b8fa98aae830c22988717209a12c598712a55cc249c05ac93b3f4e52303edff36667404063b5c78362bba19f0de76cf2552875418d8cc1bac21a57de4e985300d794e6786669de99d26ccd9b500d0867077fa7592f4443c6604682ccef058359582e3c4432c2012963e4180d711a6bbaadf57aaf69d2361a6f276d9d20e9e2dc15e2bc0b88526d294af67239b2a4ba42c7a09557f72ce4e3b46d8d609282cb38057e326b40988549dbf25569ca6b8bf9b4c1e6b4746a2b0dae884885543b584605557e6bf6ea2459e85ff7dccc0f176380a11bada745a3e5fc8b5ad8a7434b4623e2ab153b8b65798f4f14118751708c866c220e30e8ed16d9155009cf8cfa6c21a042dd32f1aa955f56c1e957346575609646b8ec492d2df6053cbf9eeb90af34f5ec15babfa1298d0b34c57b774dc93217c6d646901fa8600c10186539dab6b85011872e9446d4ef0b181c7259a01782b2c854422c7bdf9ce94a8e167dabe05134b930520734448242a7539120645f9576be869953d79faf3346659f99ab2bd3e277488e081b64d5dbccecb75034eb26a52372dce9a0d9a6ea1a86fdfff0e4e3ae987cce1e0f1682dcf3cc22aed6f4b547c1c6dba970ce476ddd6c71dd5bfb519bc2e103655fd0b8a9f0d962be1df003883e9a4f940812f152ab2cbff9e610746e69c665acfed9316a1182d68a785fe4f0a939bbb1c2d9678b7b73677b065f7b67bbda5e2e515b3bc8e4aba53f9ef8f03ec8de8183d2842959bc4d7a0047cdeeec2f03e0632f48b7fe06504b030414000000080000003f000dea559c250100005002000011000000646f6350726f70732f636f72652e786d6c9d92cb6ac3301045f7fd0aa3bd2d3f685a84ed405bb26aa0d09496ec84344944ad07925ac77f5fc5b19d04bcea7274ef9cb933a85c1e6513fd827542ab0a65498a22504c73a1f615fad8ace24714394f15a78d5650a10e1c5ad677253384690b6f561bb05e808b024839c24c850ede1b82b1630790d425c1a182b8d356521f4abbc786b26fba079ca7e9024bf094534ff109189b898806246713d2fcd8a6077086a10109ca3b9c2519be783d58e9661b7ae5ca2985ef0ccc5a4771721f9d988c6ddb266dd15b43fe0c7fad5fdffb5563a14ea76280ea9233c22c50af6d5de2eb221caea1ceafc3897702f85317f499b76191731ff0280420e7b8a3f2593cbf6c56a8ced37c1167799cde6fb282e40f242fb6a79137fd17a01c86fc9b3802ceb96f3f41fd07504b030414000000080000003f00b20d7dcb790100001003000010000000646f6350726f70732f6170702e786d6c9d52c16edb300cbdef2b0cdd1b39c1300c81aca24837f4b0a10192766756a663a1b22488ac91eceb273b88ebac3bcda7c7c787a76792eaf6d8b9a2c74436f84a2c17a528d09b505b7fa8c4d3fefbcd57511083afc1058f953821895bfd496d538898d82215d9c153255ae6b896924c8b1dd022b77dee342175c0b94c07199ac61abc0fe6ad43cf7255965f241e197d8df54d9c0cc5d971ddf3ff9ad6c10cf9e8797f8ad94fabbb189d35c0f927f54f6b52a0d070f1ed68d029396faa6cb443f3962c9f74a9e4bc543b030e37d95837e008957c27d403c230b32dd8445af5bceed1704805d9df796a2b51bc00e110a7123d240b9ec559762e46ec2271d2bf427aa5169149c9891ce15c3bc7f6b35e8e820cae85720a92f175c4bd6587f4d86c21f13f122fe789c70c6296f131d5f9643ee4bbbcf497f72674117c1ea09cd00feb5fe929eec33d305ec6794daa5d0b09ebbc8169dc13a11e72aee406fda6057fc0faa2f9d81896ff7c3e70bd5c2dcafc8d3bbf704abedfb2fe03504b0102140314000000080000003f00615d493a4f0100008f0400001300000000000000000000008081000000005b436f6e74656e745f54797065735d2e786d6c504b0102140314000000080000003f00f29f49dae90000004b0200000b00000000000000000000008081800100005f72656c732f2e72656c73504b0102140314000000080000003f0044755bf0e8000000b90200001a0000000000000000000000808192020000786c2f5f72656c732f776f726b626f6f6b2e786d6c2e72656c73504b0102140314000000080000003f0060652a792a020000000700001800000000000000000000008081b2030000786c2f776f726b7368656574732f7368656574312e786d6c504b0102140314000000080000003f00bdacce1749010000260200000f0000000000000000000000808112060000786c2f776f726b626f6f6b2e786d6c504b0102140314000000080000003f001475843e24010000af020000140000000000000000000000808188070000786c2f736861726564537472696e67732e786d6c504b0102140314000000080000003f00610cac63c2010000060400000d00000000000000000000008081de080000786c2f7374796c65732e786d6c504b0102140314000000080000003f0018fa4654b0050000521b00001300000000000000000000008081cb0a0000786c2f7468656d652f7468656d65312e786d6c504b0102140314000000080000003f000dea559c25010000500200001100000000000000000000008081ac100000646f6350726f70732f636f72652e786d6c504b0102140314000000080000003f00b20d7dcb7901000010030000100000000000000000000000808100120000646f6350726f70732f6170702e786d6c504b0506000000000a000a0080020000a71300000000', '2026-12-05 13:27:23.927388+00', NULL);
INSERT INTO public.import_files VALUES ('0bf07b0f0cd8e917c7b627357d87b5b484121c1e90ede4ad7a62c3f4e4d2a515', 5465, '\x504b030414000000080000003f00615d493a4f0100008f040000130000005b436f6e74656e745f54797065735d2e786d6cad94cb6ec2301045f7fd8ac8db2a317451551581451fcb16a9f4035c7b422c1cdbf20c14febe93f0505b51a0824dac64eedc73c78e3c182d1b972d20a10dbe14fda22732f03a18eba7a5789f3ce777224352de28173c9462052846c3abc1641501336ef6588a9a28de4b89ba864661112278ae5421358af8354d65547aa6a6206f7abd5ba98327f09453eb21868347a8d4dc51f6b4e4cfeb20091c8aec612d6c59a550313aab15715d2ebcf945c93784823b3b0dd636e2350b84dc4b682b7f03367dafbc33c91ac8c62ad18b6a58254dd0e314224ad617875df6c40c556535b0c7bce19602da40064c1ed9121259d8653ec8d621c1ffe1db3d6abb4f242e9d445a39c0b347c5984019ac01a871c5daf40899f87f82f5b37f36bfb33902fc0c69f611c2ecd2c3b66bd128eb4fe0776294dd72fed43f83ecfc8f1d79ad1298374a7c0d5cfce4bf7b6f73c8ee3e197e01504b030414000000080000003f00f29f49dae90000004b0200000b0000005f72656c732f2e72656c73ad92c14ec3300c40ef7c45e4fb9a6e4808a1a5bb20a4dd26343ec0246e1bb58da3c483eeef8990400c8d69078e71ece767cbebcd3c8dea8d52f61c0c2cab1a1405cbce87cec0cbfe69710f2a0b068723073270a40c9be666fd4c234aa9c9bd8f591548c8067a91f8a075b63d4d982b8e14ca4fcb694229cfd4e98876c08ef4aaaeef74fac980e684a9b6ce40daba25a8fd31d2356c6e5b6fe991ed61a220675afcca28644c1d898179d4ef9c8657e6a12a50d0e75d56d7bbfc3da79e48d0a1a0b69c681153a94ee2cb5abf751cdb5d09e7cf8c4b42b7ffb91c9a85822377590963fc32d22737d07c00504b030414000000080000003f0044755bf0e8000000b90200001a000000786c2f5f72656c732f776f726b626f6f6b2e786d6c2e72656c73ad92c16ac3301044effd0ab1f75a76124a29917329855cdbf40384b4b64c6c4968b769fdf711094d1d08a1079fc48cd89907bbebcdcfd08b0326ea825750152508f426d8ceb70a3e776f8fcf2088b5b7ba0f1e158c48b0a91fd6efd86bce33e4ba4822877852e098e38b94641c0e9a8a10d1e79f26a4417396a995519bbd6e512ecaf249a66906d45799626b15a4adad40ecc688ffc90e4dd3197c0de66b40cf372ae477487b72889c43756a91155c2c92a7a72a722ac8db308b396138cfe21fc8499ecdbb0ccb391988c73e2ff40271d6f7ea57b3d63b9dd07e70cad736a598dabf30f2eae2ea23504b030414000000080000003f00e1b9b9b08c0100008e03000018000000786c2f776f726b7368656574732f7368656574312e786d6c8d93c94ec3301040ef7c85e53bb59b125aaa240828050e4888edee2693c422f144b669e1efb153a89cc0819bc74fb33c2fc9f947db902d682351a5743ae19480cab190aa4ae9cbf3fa784189b14215a2410529fd0443cfb3a36487facdd40096b802caa4b4b6b65b3266f21a5a6126d88172a444dd0aeb425d31d36910459fd4362ce2fc94b5422abaafb0d4ffa9816529735861fede82b2fb221a1a61ddf8a6969da1595248c7bc0fd150a6f462babc8928cb92bef3ab849d09d6c48acd1334905b289c3f255e6c83f8e6e19ddbe23e95fdca5df7433d68524029de1bfb88bb5b90556d5d91f8d06d25acc8128d3ba2fbe2a613feaca6cbb99b33f79b176ed7e5f8b9b7194fd8d635cbbfd965c8a6437615b268c856219b0dd975c84e866c1db278c86e42767a60ccb91d04a33f05a3fdf89cf391c26514949c8ff442b618e9f93efe387b8578b6182b86b96723c5e84fb9ef1927f1488c05b7d8890aee85aea432a481d275e09339257a7fe9fdda62d7af624a36682db63f51ed1e3e681fcd282911ed4fe0dfd6e12b655f504b030414000000080000003f00bdacce1749010000260200000f000000786c2f776f726b626f6f6b2e786d6c8d51cb4ec33010bcf315d6de691e4a225a35a9c44b5442944369cf26de34561d3bb21dd2fe3d9b542970e3b43be3ddd1cc7ab93a358a7da175d2e81ca259080c756984d4871c3eb6cfb777c09ce75a706534e6704607abe266d91b7bfc34e6c8685fbb1c6aefdb4510b8b2c686bb996951d34b656cc33d417b085c6b910b5723fa460571186641c3a5868bc2c2fe47c354952cf1d1945d83da5f442c2aeec9bdab65eba0585652e1ee1288f1b67de30dd93e29608a3bff24a447914342d0f4f887b05d7bdf493580344c2128ae21df2d1358f14ef92d599bd4e95c7112c7d930394ced24f6ee676980ecb4975a983e8738a1cb9e2714a5c0fab1df4be16b22b2707ee55e501e6a9fc33ccbc2413cf8a53ede6faa4c8fe136569023faa7815b93ff88c22c2435762da251615a2bb92a29cd50c6c13849a339b0aa53ea81b88d7e357c141896a624c537504b030414000000080000003f00906190a3de0000009501000014000000786c2f736861726564537472696e67732e786d6c65d0dd4a03311005e07b9f22e4decdea85886453a555100415ed030cc9d80de4cfcc6c69dfde484121bd9cef306760f4ea1083d863259fd324af86510a4c363b9f7693dc7e3e5dde4a410cc941c809277944922b73a18958b4d544939c99cb9d5264678c40432e985af2956b046e63dd292a15c1d18cc831a8eb71bc51117c92c2e625713bdbae2ec97f2fb8fe03a3c91bcde6b53aace279a3151bad7eede4eb853847acbd3fb6e6d0e3a964038c7df2c1c00bf5facec79eb6c9b378abde9e553c38102f798f01ce3370708f078825e06073ec639a7d29e8fe59b5bf9a1f504b030414000000080000003f00610cac63c2010000060400000d000000786c2f7374796c65732e786d6c9d934d8bdb301086effd1542f7ac12d386b6d8dec3426061bb1436855e654b7604fa30d238c4fdf51d59aa63c3424b7dd1e8d5cc33e319a97cbc194daed207e56c450f0f7b4aa46d9d50b6afe88ff369f7999200dc0aae9d95159d64a08ff58732c0a4e5db454a2048b0a1a21780e12b63a1bd48c3c3831ba4c593ce79c301b7be6761f0928b10838c66c57e7f64862b4bebd28ee6642090d68d16b08c4522697916281e3f5292704f4ec452f0db19b31382b2ba649951979db35b5414ea32fc2257ae513944f7d669e70960ad323aa162b991c9e3896bd57815c58e1ba5a7241751987f2ffb19659d9f73a70cf3120b505a2f0514340975397000e9ed093724dbe769c0f4163b9b30b3df5fbc7bcfa743f16915302f98b7715ee024d7bf9ea4bad4b2030cf0aabfc415dcc0e22180336808c57b67b98ec83f11d9406c2bb57e8be3fed96dd8b76e359d7d9c8d5d4c2c289b09933691bfa625f60a5bfc1796dcba85bf89ce57e69fe3091f063dbd8ea691fe34dfb47c3758ae73d58c4d2b1695c45b54d1d718ac57e066541a947da70dc814b77b07e653e00d3eae4d166408d9f151c37939ace8ddfe26851acd97c5ebbbba3ac85e77fb25ceff709c2bb8bfe0fa37504b030414000000080000003f0018fa4654b0050000521b000013000000786c2f7468656d652f7468656d65312e786d6ced594d8fdb4418bef32b46beb78e133bcdae9aad36d9a485edb6abddb4a8c7893db1a7197bac99c96e7343ed110909511017246e1c1050a995b8945fb3500445ea5fe0f54792f166b2cdb68b00b539249ef1f37e7ff81de7eab5073143474448ca93b6e55cae5988243e0f6812b6ad3b83fea59685a4c24980194f48db9a12695ddbfae02ade5411890902f2446ee2b61529956edab6f4611bcbcb3c2509dc1b711163054b11da81c0c7c0366676bd566bda31a68985121c03d7dba311f5091a642cadad19f31e83af44c96cc367e2d0cf25ea143936183bd98f9cca2e13e808b3b60572027e3c200f948518960a6eb4ad5afeb1ecadabf69c88a915b41a5d3fff9474254130aee774221cce099dbebb716567cebf5ef05fc6f57abd6ecf99f3cb01d8f7c1526709ebf65b4e67c653031597cbbcbb35afe656f11affc6127ea3d3e9781b157c63817797f0ad5ad3ddae57f0ee02ef2debdfd9ee769b15bcb7c03797f0fd2b1b4db78acf4111a3c978099dc5731e993964c4d90d23bc05f0d62c0116285bcbae823e51ab722dc6f7b9e803200f2e5634416a9a9211f601d7c5f150509c09c09b046b778a2d5f2e6d65b290f4054d55dbfa28c550110bc8abe73fbc7afe14bd7afee4e4e1b393873f9f3c7a74f2f02703e10d9c843ae1cbef3effeb9b4fd09f4fbf7df9f84b335eeaf8df7efcf4d75fbe3003950e7cf1d593df9f3d79f1f5677f7cffd800df1678a8c307342612dd22c7e880c7609b4100198af3510c224c2b143802a401d8535105786b8a9909d72155e7dd15d0004cc0eb93fb155d0f233151d400dc8de20a708f73d6e1c268ce6e264b3767928466e162a2e30e303e32c9ee9e0a6d6f9242265313cb6e442a6aee3388360e494214caeef1312106b27b9456fcba477dc1251f29748fa20ea646970ce85099896ed018e232352908a1aef866ef2eea706662bf438eaa482808cc4c2c09abb8f13a9e281c1b35c631d39137b18a4c4a1e4e855f71b85410e990308e7a0191d244735b4c2beaee62e844c6b0efb1695c450a45c726e44dccb98edce1e36e84e3d4a8334d221dfba11c438a62b4cf9551095ead906c0d71c0c9ca70dfa5449dafacefd030322748766722caae5de9bf314dce6ac68c42377edf8c67f06d7834994ae2740b5e85fb1f36de1d3c49f609e4fafbbefbbeefbe8b7d77552dafdb6d170dd6d6e7e29c5fbc72481e51c60ed594919b326fcd12940efab0992f72a2f94c9e4670598aabe04281f36b24b8fa98aae830c22988717209a12c598712a55cc249c05ac93b3f4e52303edff36667404063b5c78362bba19f0de76cf2552875418d8cc1bac21a57de4e985300d794e6786669de99d26ccd9b500d0867077fa7592f4443c6604682ccef058359582e3c4432c2012963e4180d711a6bbaadf57aaf69d2361a6f276d9d20e9e2dc15e2bc0b88526d294af67239b2a4ba42c7a09557f72ce4e3b46d8d609282cb38057e326b40988549dbf25569ca6b8bf9b4c1e6b4746a2b0dae884885543b584605557e6bf6ea2459e85ff7dccc0f176380a11bada745a3e5fc8b5ad8a7434b4623e2ab153b8b65798f4f14118751708c866c220e30e8ed16d9155009cf8cfa6c21a042dd32f1aa955f56c1e957346575609646b8ec492d2df6053cbf9eeb90af34f5ec15babfa1298d0b34c57b774dc93217c6d646901fa8600c10186539dab6b85011872e9446d4ef0b181c7259a01782b2c854422c7bdf9ce94a8e167dabe05134b930520734448242a7539120645f9576be869953d79faf3346659f99ab2bd3e277488e081b64d5dbccecb75034eb26a52372dce9a0d9a6ea1a86fdfff0e4e3ae987cce1e0f1682dcf3cc22aed6f4b547c1c6dba970ce476ddd6c71dd5bfb519bc2e103655fd0b8a9f0d962be1df003883e9a4f940812f152ab2cbff9e610746e69c665acfed9316a1182d68a785fe4f0a939bbb1c2d9678b7b73677b065f7b67bbda5e2e515b3bc8e4aba53f9ef8f03ec8de8183d2842959bc4d7a0047cdeeec2f03e0632f48b7fe06504b030414000000080000003f00a2319ada250100005002000011000000646f6350726f70732f636f72652e786d6c9d92cb4ec3301045f77c45e47de2248582ac249500754525248240ec2c7bda5ac40fd986b47f8f9b575b292b96e37be7cc9d918bd54136d12f5827b42a5196a42802c534176a57a2f77a1d3fa0c879aa386db482121dc1a1557553304398b6f06ab501eb05b828809423cc9468efbd21183bb607495d121c2a885b6d25f5a1b43b6c28fba63bc0799a2eb1044f39f5149f80b199886840723621cd8f6d3a0067181a90a0bcc35992e1b3d783956eb6a1532e9c52f8a38159eb284eee831393b16ddba45d74d6903fc39f9b97b76ed558a8d3a918a0aae08c300bd46b5b15f8b208876ba8f39b70e2ad00fe780cfaccdbb048df073c0a01481f77543e164fcff51a55799a2fe32c8fd3bb3a5b90fc9ee4b75fa79157fd67a01c86fc9b3802fadcd79fa0fa03504b030414000000080000003f00b20d7dcb790100001003000010000000646f6350726f70732f6170702e786d6c9d52c16edb300cbdef2b0cdd1b39c1300c81aca24837f4b0a10192766756a663a1b22488ac91eceb273b88ebac3bcda7c7c787a76792eaf6d8b9a2c74436f84a2c17a528d09b505b7fa8c4d3fefbcd57511083afc1058f953821895bfd496d538898d82215d9c153255ae6b896924c8b1dd022b77dee342175c0b94c07199ac61abc0fe6ad43cf7255965f241e197d8df54d9c0cc5d971ddf3ff9ad6c10cf9e8797f8ad94fabbb189d35c0f927f54f6b52a0d070f1ed68d029396faa6cb443f3962c9f74a9e4bc543b030e37d95837e008957c27d403c230b32dd8445af5bceed1704805d9df796a2b51bc00e110a7123d240b9ec559762e46ec2271d2bf427aa5169149c9891ce15c3bc7f6b35e8e820cae85720a92f175c4bd6587f4d86c21f13f122fe789c70c6296f131d5f9643ee4bbbcf497f72674117c1ea09cd00feb5fe929eec33d305ec6794daa5d0b09ebbc8169dc13a11e72aee406fda6057fc0faa2f9d81896ff7c3e70bd5c2dcafc8d3bbf704abedfb2fe03504b0102140314000000080000003f00615d493a4f0100008f0400001300000000000000000000008081000000005b436f6e74656e745f54797065735d2e786d6c504b0102140314000000080000003f00f29f49dae90000004b0200000b00000000000000000000008081800100005f72656c732f2e72656c73504b0102140314000000080000003f0044755bf0e8000000b90200001a0000000000000000000000808192020000786c2f5f72656c732f776f726b626f6f6b2e786d6c2e72656c73504b0102140314000000080000003f00e1b9b9b08c0100008e0300001800000000000000000000008081b2030000786c2f776f726b7368656574732f7368656574312e786d6c504b0102140314000000080000003f00bdacce1749010000260200000f0000000000000000000000808174050000786c2f776f726b626f6f6b2e786d6c504b0102140314000000080000003f00906190a3de000000950100001400000000000000000000008081ea060000786c2f736861726564537472696e67732e786d6c504b0102140314000000080000003f00610cac63c2010000060400000d00000000000000000000008081fa070000786c2f7374796c65732e786d6c504b0102140314000000080000003f0018fa4654b0050000521b00001300000000000000000000008081e7090000786c2f7468656d652f7468656d65312e786d6c504b0102140314000000080000003f00a2319ada25010000500200001100000000000000000000008081c80f0000646f6350726f70732f636f72652e786d6c504b0102140314000000080000003f00b20d7dcb790100001003000010000000000000000000000080811c110000646f6350726f70732f6170702e786d6c504b0506000000000a000a0080020000c31200000000', '2026-12-05 13:27:25.505631+00', NULL);
INSERT INTO public.import_files VALUES ('e4347263a82d942cf597f663e78a664575bc782ff0c6dc9d83efc76781c40817', 7962, '\x504b030414000000080000003f00389d86d83e01000007040000130000005b436f6e74656e745f54797065735d2e786d6cad93cb6ec3201045f7fd0ac4b632245d545515278b3e966d16e9075018c7281810334993bf2fb69348add23c946e8cccdcb9e70e82d164dd38b6828436f8920fc58033f03a18ebe725ff98bd160f9c21296f940b1e4abe01e493f1cd68b689802c377b2c794d141fa5445d43a35084083e57aa901a45f937cd65547aa1e620ef06837ba98327f05450ebc1c7a367a8d4d2117b59e7ed3e4802879c3df5c296557215a3b35a51aecb9537bf28c596207267a7c1da46bccd022e0f12dacadf806ddf7b3e99640db0a94af4a69aac9226e8690a1165d68be32e076286aab21ab2c7b2c92d02da40064c11b32524b2b0cf7c94ad4382cbe1bb336abbcf24ae9d44da38c0ab47c5984019ac01a871a2373d41a67c9fa0ff0eafe6773627805f212d3e4358fcf7b0ed2a1a65fd19fc4e8cb25bae9ffa6790bdff2e87ecdef1f81b504b030414000000080000003f00f29f49dae90000004b0200000b0000005f72656c732f2e72656c73ad92c14ec3300c40ef7c45e4fb9a6e4808a1a5bb20a4dd26343ec0246e1bb58da3c483eeef8990400c8d69078e71ece767cbebcd3c8dea8d52f61c0c2cab1a1405cbce87cec0cbfe69710f2a0b068723073270a40c9be666fd4c234aa9c9bd8f591548c8067a91f8a075b63d4d982b8e14ca4fcb694229cfd4e98876c08ef4aaaeef74fac980e684a9b6ce40daba25a8fd31d2356c6e5b6fe991ed61a220675afcca28644c1d898179d4ef9c8657e6a12a50d0e75d56d7bbfc3da79e48d0a1a0b69c681153a94ee2cb5abf751cdb5d09e7cf8c4b42b7ffb91c9a85822377590963fc32d22737d07c00504b030414000000080000003f00e5441ba3d50000002c0200001a000000786c2f5f72656c732f776f726b626f6f6b2e786d6c2e72656c73ad91cf8a02310c87ef3e45c97d27330a2262c7cbb2e055f4014a27f30767dad264779db7b728ba2b8878f0147e09f9f24156ebe3d0ab1f8adc79a7a1c87250e4acaf3ad768d8efbe3e16a0588cab4cef1d691889615d4e565bea8da41d6ebbc02a411c6b6845c212916d4b83e1cc07726952fb3818493136188c3d9886709ae7738cff1950de31d5a6d2103755016a37067a85edebbab3f4e9edf7404e1e9cc05f1f0fdc1249829ad89068b8b518cfa5c81215f0b1ccf49d329276e94fe41c2fcda70eb3773ab08c7d7ae84de292afe7f1eec9e509504b030414000000080000003f001168dbb6c70c00008856000018000000786c2f776f726b7368656574732f7368656574312e786d6c8d9cdd73e2c815c5dff35750bc47a63fc4c794c79b65076986aaa43699249557a62d8fa9b5c105ccccee7fbf025d9039ee736ffc64379ccba10fe8aa7f6ee9f6a7df9f9f06df9bdd7ebdddbc1fba62341c349bb4bd5f6fbebe1ffee7dfd55fa7c3c1feb0dadcaf9eb69be6fdf08f663ffce9ee2fb73fb6bbdff68f4d7318b40536fbf7c3c7c3e1e5ddcdcd3e3d36cfab7db17d6936ed230fdbddf3ead0feb9fb7ab37fd935abfb93e8f9e9c68f46e39be7d57a33ec2abcdbfd3f35b60f0febd47cd8a66fcfcde6d015d9354fab436b7fffb87ed90fef6eefd7ed63c7f733d8350fef873fbb77cbd20d6fee6e4f2ffddf75f363ffeaf7c161f5e573f3d4a44373df4ec070707c675fb6dbdf8e0f7e6a874647e9cd1b6d7572f5eb6e70df3cacbe3d1dfeb5fdf1b1597f7d3cb445cacbab7d581d5677b7bbed8fc1ee58fcee361d7ff9b97d99f679ebcdd37ad37c3eecdaf1755bf770f7e9c3edcda17db5e35f37499e3d67cffee5dbfeb07d6e7619cd2f4cb368a7fc2923f8c004ff3cfc9179fa823dfdd75d9b4f465031413b43b9e7d7ecf99f0fabc3b77d46f1915a5aadef33cfffc49eff8f6dd6d192c6b0bd87e7dfb4815f52f797d48fbf7dbf73b737df5fa7eb8d74072e972f5325f7b7e6f7d5f3cb5353a4ed732ee8cec5f4dac5a21b1d156172fd40d5bed0befbe87ebf8ba59f85ebc76b66e4253feb1fbbe77fe95eeebad627566bd326929d862553fc6f74fa714a2ee1924b3899f1904bb072f1b95c982a792b97ce852b219820c14c220413201878bc664e8e87c997269b4d78950d7c4c3fb172a76c7253b1640ac9c62bd9c44b36f164063e74f368651372d930550a56369d0b0f1f914537ec0a07935545c80642ada993d526354f4ff974a2f2cd61054fe9e42663c914924e50d2292fe994dd3b84744a2b9d984b87a952b4d2e95cf819a4534a3a118e755509e98c211de664d3fcc8e5522adf1a5aea984b6e1a964c21b9442597f12597f1c90c7ceae6632b9732970b53a5d2caa57311607a1763c9650afeaa31e402ada8664e58ab192b5f1856eb144c6e1e964c21c1944a30934b309393199891f9c40a669c0b86a9d2d80aa67311e1a8bae8867d81c7b96a02c1c017aa664e94563351be34acdc299bdc542c9942b2192bd94c2fd94c4f66e043379f5ad94c72d930559a58d9742e4af8bc2ea6924d0947b96a0ad9c0e33575a2b59aa9f2cd61054fe9e42663c91492ce444967764967963b6d9dcfac74a6b974982a4dad7466b9cfc86226e16027a96657e18411cc65cd8c904e3353be34b4d43196dc2c2c994262992ab1b851bf941d9decc0c76ede0e1bc9ccb2cb56264b332b1a31e2e06c6421e3a10870bcab8e2f76150fcc694dddb08e2382fc1787563b45949b8e25954846332da357b8a17b8b6e84215964617094645262bae446664c9d17ef30262731e102f4f8625729794c89b951da8f68f25f255ab05b87e6a66449355d5228ba4eaa47044e180142026753822c26a0bae44c50205e3ca202198fc5e84d541ea24258c0ed68ddc869cc8096ecc2ca5203aa91b0346ce07a6ee064c98ee4c099e8c065d901d52567d203f112101fc8782c22f20317202c0408d40ee94e4ec307bcd829a62c40a01a89492308ae47084e96e908119c49115c1623505d722648102f1149c279bc98224a701162429640edd026a581045aed9453fed0a7a3049cc4eb987a96e0ca6cff9e3b1327b82c4fa0bae44ca2205e222205192f0b874cc195101342056a47eb521a5aa005392da512494a830baea70b4e56f0c8179c09185c9630505d722663102fc81864b82c4a840c6e0c412165e06ed41ea5c1065a92c3532a91a834dce07adee0ba35bd43e2e04ce4e0b2cc81ea9233a9c3d90b6207192f8b1972073781ac103c503bac4569d88117a310954a24250d3cb89e3cb86e75ef903d38133eb82c7da0bae44cfe205e3c0208191f17c8592b3785941041503bb44369fc8156e34c954a24268d40b81e41b86e9d8fc7feb9332984cb6208aa4bce0411e2c5238a90f171314616e10046e06ab0a676b40ea521095a9043562a91a43428e17b28e185052095f0269570592c4175c9995c42bc04e412323e2970955479e012b81aacb91dad45790d4ed0921cba528964a5c109dfc309efb2079cb937e184cfc209aa4bde8413e225229c90f149818b280f7002d7823575433a94d7c0042f46d92b957421e1145e87f46aeb82cf529bb937b984cf6f5fa020c0db1b18843fbcd9c2e025a4c99b3d0cc025f014a4a676e82e06751b838a24b22c964a24268d48f89e4878d9ca8044c2db9b19b24482ea9237898478412021c3d3c2c5d1ab1f5cf67aa013b82caca935a55b798d50d0821ccf5289a4a6010adf030a2fdb0b1050781350f82ca0a0bae44d40215ef038b690f16951be490a00052e0b6b6e47ed561aa5a02515424b35129686297c8f29bcec36404ce14d4ce1b39882ea9237318578c1d39c858c4f8be954fd8e01b3c055624dbdb1e6a5f10a5e8c835aaa91cc3460e17b60e13b1ae01158781358f82cb0a0bae44d6071f682c442c66705baac3c100b5c26d6d40eed5e1aaca0d514524b359293462b7c4f2bfc243b37736fd20a9fa5155497bc492bc40bfed37021e3b362ec66af7f30344017b868aca937ad7f69f88216e4e4964a24360d5ff81e5ff869762d3af726bef0597c4175c99bf842bc44c417323e2bde2605f8028fa635b7a3f62f8d61d092ca4e579d61e04c5e67d5330c2fdc001986371986cf320caa4bde6418e22522c39071372a70ef58e50162e0aab1a67e58cbd200062f46b92d95484c1ac0083dc0081d1c40d6360f26c0f059804175c99b0043bc20bf90e136a509028c000003978d35b5c33a56d0d805adc6c12d95484c1abb083dbb08b26901d94530d945c8b20baa4bc16417e20561d1e2325ee0f95f007881cbc69adad1f6906b008316e4ec964abaa4701eaf93ea0146e8e0404080114c8011b20083ea5230018678c15382c579dc157848ac02100c5c2bd6dc8fd6a482863168498e6fa944c252afc7787541866c6678734986893142fea20c8a31827d5946c8ae1d1632de86357d736506b00b5c2bd6d40f695241bd3043e51659724b251293c62d42cf2d42cc9e22cf837d7946965b505d0a26b7387b416e11ce3ca3c0265405001718714dfdd02ea5310b5a8dc35b2a919c3464117a64113a1c80ff8198071359842cb2a0ba144c6471f682c842c6db9c4adc5a110053e0f2b0a67eb436a5a10a5a90035c2a91a83452117a5211e49a092415c12415214b2aa82e059354889788a442c6dba8f0baa62a00aac02561cdfda86d4ae315b424e7b654226169b822f4b8220822405c114c5c11b2b882ea523071c5d90b6675de7351e091b10a4028704958533bac4b69748217e3c4966a24260d4f841e4f846ee98f57b6ce83892742164f505d0a269e102ff8bff7c5793c1463e41301f804ae096bea87b6290d4dd06a0aa6a51a094a6313a16713a15bf7076413c1641321cb26a82e05934d881764ad8bf3782c70875f15804de0aab0a67eb43ea5f1095a5041b5542359698022f680228eb27d7c1e4d4011b28082ea5230018578c1d3ec453c5f1152e0a56e55044281ebc29afb512fd1d530052dc9012d9548581aa6883da688f23e1153441353c42ca6a0ba144d4c215e70c21732de8685e77f11300576b29ada218d2a6a888217a368964aba94700eaf53ea1145947d0d8828a28928621651505d8a26a2102f78285ec8b82b0b3c32561110052e0b6bea87f5a9a8d1095a8db3592a919c343a117b3a11e5920aa413d1a413314b27a82e45934e9cbd209d88e7bb491425d289087402978535f5a3b4a9a8110a5a50b93b814e287022afa37a75f708b9ace2cdfd234c4211f37790a08422daf790905d1e98543c27357b7317090014b82aacb91db549a9379250294596d0528964a5518ad8538a28d75c20a588f6ed24b29482ea5234298578414821c36e5ce062a98a0029705158533bac4969808217a368964a24250d50c41e50c471f680338f26a08859404175299a8042bce0b695c565bc1823a0880028705158533fb449696c8256e36c964a24278d4dc49e4dc44916decca3c92662964d505d8a269b102ff83f8b858cbb4981d7f45611e0049e88d4d48fd6a43440410b723c4b251295c62762cf27a26c59403e114d3e11b37c82ea5234f98478c1a5eb229eaf502970c55745e013f8849afb51bb94062968490e68a944c2d21845ec1945943d0bc828a2c928629651505d8a26a3102f780c5bc433bb2826c82822300a5c12d6d40f6b531a9fe0c5289aa5128949c313658f274ad9b38078a234f144cce209aa4bd1c413672f882764dc4d0bdc8f5e958027704d58533fac4d951a99a0d514384b3512948626ca1e4d94dd7bc4fbddcc4b134d9459344175a934d184784132711e9e167836510299c025614ddd285daad4e8042da8d059aae992c279ec92ba7975fbd297d5d7e6efabddd7f5663f786a1eda5aa3a26d7dbbee6ea7a7df0fdb97d36fed49e697eda10de8fcd763b3ba6f76c7bfda15ddc3b675297f1c6faa7ab989ecdd9f504b030414000000080000003f00c0c1b45248010000240200000f000000786c2f776f726b626f6f6b2e786d6c8d51cb4ec33010bcf315d6de691e4a225a35a9040551090187d29e4dbc69ac3a76643ba4fd7b36a952e0c66977c63ba39df572756a14fb42eba4d13944b31018ead208a90f397c6c9f6eef8039cfb5e0ca68cce18c0e56c5cdb237f6f869cc91915ebb1c6aefdb4510b8b2c686bb996951d34b656cc33d417b085c6b910b5723fa460571186641c3a5868bc3c2fec7c354952c716dcaae41ed2f261615f7b4bdab65eba0585652e1ee1288f1b67de50dad7d52c01477fe51488f228784a0e9f10f61bbf6be936a00699842505c43be5b26b0e29df25b5a6d72a773c5491c67c3e430b593d8bb1fd100d9692fb5307d0e7142973d4f284a81f563bf97c2d74464e1fcca3da33cd43e877996858379f0cb7dbcdf54991ec3adb9e7f44b03b3a1ed238ab290d4d88d8846fd242ab92a29cb50c6c13849a339b0aa53ea81b837fd62f8683088a61cc537504b030414000000080000003f00610cac63c2010000060400000d000000786c2f7374796c65732e786d6c9d934d8bdb301086effd1542f7ac12d386b6d8dec3426061bb1436855e654b7604fa30d238c4fdf51d59aa63c3424b7dd1e8d5cc33e319a97cbc194daed207e56c450f0f7b4aa46d9d50b6afe88ff369f7999200dc0aae9d95159d64a08ff58732c0a4e5db454a2048b0a1a21780e12b63a1bd48c3c3831ba4c593ce79c301b7be6761f0928b10838c66c57e7f64862b4bebd28ee6642090d68d16b08c4522697916281e3f5292704f4ec452f0db19b31382b2ba649951979db35b5414ea32fc2257ae513944f7d669e70960ad323aa162b991c9e3896bd57815c58e1ba5a7241751987f2ffb19659d9f73a70cf3120b505a2f0514340975397000e9ed093724dbe769c0f4163b9b30b3df5fbc7bcfa743f16915302f98b7715ee024d7bf9ea4bad4b2030cf0aabfc415dcc0e22180336808c57b67b98ec83f11d9406c2bb57e8be3fed96dd8b76e359d7d9c8d5d4c2c289b09933691bfa625f60a5bfc1796dcba85bf89ce57e69fe3091f063dbd8ea691fe34dfb47c3758ae73d58c4d2b1695c45b54d1d718ac57e066541a947da70dc814b77b07e653e00d3eae4d166408d9f151c37939ace8ddfe26851acd97c5ebbbba3ac85e77fb25ceff709c2bb8bfe0fa37504b030414000000080000003f0018fa4654b0050000521b000013000000786c2f7468656d652f7468656d65312e786d6ced594d8fdb4418bef32b46beb78e133bcdae9aad36d9a485edb6abddb4a8c7893db1a7197bac99c96e7343ed110909511017246e1c1050a995b8945fb3500445ea5fe0f54792f166b2cdb68b00b539249ef1f37e7ff81de7eab5073143474448ca93b6e55cae5988243e0f6812b6ad3b83fea59685a4c24980194f48db9a12695ddbfae02ade5411890902f2446ee2b61529956edab6f4611bcbcb3c2509dc1b711163054b11da81c0c7c0366676bd566bda31a68985121c03d7dba311f5091a642cadad19f31e83af44c96cc367e2d0cf25ea143936183bd98f9cca2e13e808b3b60572027e3c200f948518960a6eb4ad5afeb1ecadabf69c88a915b41a5d3fff9474254130aee774221cce099dbebb716567cebf5ef05fc6f57abd6ecf99f3cb01d8f7c1526709ebf65b4e67c653031597cbbcbb35afe656f11affc6127ea3d3e9781b157c63817797f0ad5ad3ddae57f0ee02ef2debdfd9ee769b15bcb7c03797f0fd2b1b4db78acf4111a3c978099dc5731e993964c4d90d23bc05f0d62c0116285bcbae823e51ab722dc6f7b9e803200f2e5634416a9a9211f601d7c5f150509c09c09b046b778a2d5f2e6d65b290f4054d55dbfa28c550110bc8abe73fbc7afe14bd7afee4e4e1b393873f9f3c7a74f2f02703e10d9c843ae1cbef3effeb9b4fd09f4fbf7df9f84b335eeaf8df7efcf4d75fbe3003950e7cf1d593df9f3d79f1f5677f7cffd800df1678a8c307342612dd22c7e880c7609b4100198af3510c224c2b143802a401d8535105786b8a9909d72155e7dd15d0004cc0eb93fb155d0f233151d400dc8de20a708f73d6e1c268ce6e264b3767928466e162a2e30e303e32c9ee9e0a6d6f9242265313cb6e442a6aee3388360e494214caeef1312106b27b9456fcba477dc1251f29748fa20ea646970ce85099896ed018e232352908a1aef866ef2eea706662bf438eaa482808cc4c2c09abb8f13a9e281c1b35c631d39137b18a4c4a1e4e855f71b85410e990308e7a0191d244735b4c2beaee62e844c6b0efb1695c450a45c726e44dccb98edce1e36e84e3d4a8334d221dfba11c438a62b4cf9551095ead906c0d71c0c9ca70dfa5449dafacefd030322748766722caae5de9bf314dce6ac68c42377edf8c67f06d7834994ae2740b5e85fb1f36de1d3c49f609e4fafbbefbbeefbe8b7d77552dafdb6d170dd6d6e7e29c5fbc72481e51c60ed594919b326fcd12940efab0992f72a2f94c9e4670598aabe04281f36b24b8fa98aae830c22988717209a12c598712a55cc249c05ac93b3f4e52303edff36667404063b5c78362bba19f0de76cf2552875418d8cc1bac21a57de4e985300d794e6786669de99d26ccd9b500d0867077fa7592f4443c6604682ccef058359582e3c4432c2012963e4180d711a6bbaadf57aaf69d2361a6f276d9d20e9e2dc15e2bc0b88526d294af67239b2a4ba42c7a09557f72ce4e3b46d8d609282cb38057e326b40988549dbf25569ca6b8bf9b4c1e6b4746a2b0dae884885543b584605557e6bf6ea2459e85ff7dccc0f176380a11bada745a3e5fc8b5ad8a7434b4623e2ab153b8b65798f4f14118751708c866c220e30e8ed16d9155009cf8cfa6c21a042dd32f1aa955f56c1e957346575609646b8ec492d2df6053cbf9eeb90af34f5ec15babfa1298d0b34c57b774dc93217c6d646901fa8600c10186539dab6b85011872e9446d4ef0b181c7259a01782b2c854422c7bdf9ce94a8e167dabe05134b930520734448242a7539120645f9576be869953d79faf3346659f99ab2bd3e277488e081b64d5dbccecb75034eb26a52372dce9a0d9a6ea1a86fdfff0e4e3ae987cce1e0f1682dcf3cc22aed6f4b547c1c6dba970ce476ddd6c71dd5bfb519bc2e103655fd0b8a9f0d962be1df003883e9a4f940812f152ab2cbff9e610746e69c665acfed9316a1182d68a785fe4f0a939bbb1c2d9678b7b73677b065f7b67bbda5e2e515b3bc8e4aba53f9ef8f03ec8de8183d2842959bc4d7a0047cdeeec2f03e0632f48b7fe06504b030414000000080000003f00e60fe564250100005002000011000000646f6350726f70732f636f72652e786d6c9d92cb6ac3301045f7fd0aa3bd2ddba16911b6036dc9aa81425d5ab213d22411b51e486a9dfc7d15bf9280575d8eee9d33770615aba36ca25fb04e6855a22c4951048a692ed4be441ff53a7e4491f35471da6805253a8143abeaae6086306de1cd6a03d60b70510029479829d1c17b433076ec0092ba2438541077da4aea4369f7d850f64df780f3345d62099e72ea293e03633311d180e46c429a1fdb7400ce303420417987b324c317af072bdd6c43a75c39a5f02703b3d6519cdc47272663dbb649bbe8ac217f86bf36afefddaab150e753314055c1196116a8d7b62af075110ed750e737e1c43b01fce914f499b76191be0f781402903eeea87c2e9e5fea35aaf2345fc6591ea7f775b620f903c997dbf3c89bfe0b500e43fe4d1c017deedb4f50fd01504b030414000000080000003f00793a3ce0760100000e03000010000000646f6350726f70732f6170702e786d6c9d52416edb3010bcf71502ef3165a3280a8362103829726851037692f3965a59442892e06e04bbaf2f25c38adcf4549d666707c3d190eaf6d8b9a2c74436f84a2c17a528d09b505b7fa8c4d3fedbcd57511083afc1058f953821895bfd496d538898d82215d9c153255ae6b896924c8b1dd022af7dde342175c0794c07199ac61abc0fe6ad43cf7255965f241e197d8df54d9c0cc5d971ddf3ff9ad6c10cf9e8797f8ad94fabbb189d35c0f927f50f6b52a0d070f17034e8949c2f5536daa1794b964fba54723eaa9d01879b6cac1b70844abe13ea1161e86c0b3691563daf7b341c5241f6776e6d258a5f4038c4a9440fc9826771969d8711bb489cf44b48afd42232293991239c6be7d87ed6cb5190c1b5504e4132be8eb8b7ec907e365b48fc8fc4cb79e231839865bc07860fe92ee7fce5bc095d049feb9313fa6efd2b3dc57dc83e7829f39a54bb1612d6b9ffa9ec89508f395572837ed3823f607dd17c5c0c57ff7c7ede7ab95a94f91b6ffcc229f9fe92f51f504b0102140314000000080000003f00389d86d83e010000070400001300000000000000000000008081000000005b436f6e74656e745f54797065735d2e786d6c504b0102140314000000080000003f00f29f49dae90000004b0200000b000000000000000000000080816f0100005f72656c732f2e72656c73504b0102140314000000080000003f00e5441ba3d50000002c0200001a0000000000000000000000808181020000786c2f5f72656c732f776f726b626f6f6b2e786d6c2e72656c73504b0102140314000000080000003f001168dbb6c70c00008856000018000000000000000000000080818e030000786c2f776f726b7368656574732f7368656574312e786d6c504b0102140314000000080000003f00c0c1b45248010000240200000f000000000000000000000080818b100000786c2f776f726b626f6f6b2e786d6c504b0102140314000000080000003f00610cac63c2010000060400000d0000000000000000000000808100120000786c2f7374796c65732e786d6c504b0102140314000000080000003f0018fa4654b0050000521b00001300000000000000000000008081ed130000786c2f7468656d652f7468656d65312e786d6c504b0102140314000000080000003f00e60fe56425010000500200001100000000000000000000008081ce190000646f6350726f70732f636f72652e786d6c504b0102140314000000080000003f00793a3ce0760100000e0300001000000000000000000000008081221b0000646f6350726f70732f6170702e786d6c504b050600000000090009003e020000c61c00000000', '2026-12-05 13:27:27.299288+00', NULL);
INSERT INTO public.import_files VALUES ('e89274670521c84b1ad5b8d0c9e80e3df4775442ae59553e54cb924b73f4ab38', 27154, '\x504b030414000000080000003f00389d86d83e01000007040000130000005b436f6e74656e745f54797065735d2e786d6cad93cb6ec3201045f7fd0ac4b632245d545515278b3e966d16e9075018c7281810334993bf2fb69348add23c946e8cccdcb9e70e82d164dd38b6828436f8920fc58033f03a18ebe725ff98bd160f9c21296f940b1e4abe01e493f1cd68b689802c377b2c794d141fa5445d43a35084083e57aa901a45f937cd65547aa1e620ef06837ba98327f05450ebc1c7a367a8d4d2117b59e7ed3e4802879c3df5c296557215a3b35a51aecb9537bf28c596207267a7c1da46bccd022e0f12dacadf806ddf7b3e99640db0a94af4a69aac9226e8690a1165d68be32e076286aab21ab2c7b2c92d02da40064c11b32524b2b0cf7c94ad4382cbe1bb336abbcf24ae9d44da38c0ab47c5984019ac01a871a2373d41a67c9fa0ff0eafe6773627805f212d3e4358fcf7b0ed2a1a65fd19fc4e8cb25bae9ffa6790bdff2e87ecdef1f81b504b030414000000080000003f00f29f49dae90000004b0200000b0000005f72656c732f2e72656c73ad92c14ec3300c40ef7c45e4fb9a6e4808a1a5bb20a4dd26343ec0246e1bb58da3c483eeef8990400c8d69078e71ece767cbebcd3c8dea8d52f61c0c2cab1a1405cbce87cec0cbfe69710f2a0b068723073270a40c9be666fd4c234aa9c9bd8f591548c8067a91f8a075b63d4d982b8e14ca4fcb694229cfd4e98876c08ef4aaaeef74fac980e684a9b6ce40daba25a8fd31d2356c6e5b6fe991ed61a220675afcca28644c1d898179d4ef9c8657e6a12a50d0e75d56d7bbfc3da79e48d0a1a0b69c681153a94ee2cb5abf751cdb5d09e7cf8c4b42b7ffb91c9a85822377590963fc32d22737d07c00504b030414000000080000003f00e5441ba3d50000002c0200001a000000786c2f5f72656c732f776f726b626f6f6b2e786d6c2e72656c73ad91cf8a02310c87ef3e45c97d27330a2262c7cbb2e055f4014a27f30767dad264779db7b728ba2b8878f0147e09f9f24156ebe3d0ab1f8adc79a7a1c87250e4acaf3ad768d8efbe3e16a0588cab4cef1d691889615d4e565bea8da41d6ebbc02a411c6b6845c212916d4b83e1cc07726952fb3818493136188c3d9886709ae7738cff1950de31d5a6d2103755016a37067a85edebbab3f4e9edf7404e1e9cc05f1f0fdc1249829ad89068b8b518cfa5c81215f0b1ccf49d329276e94fe41c2fcda70eb3773ab08c7d7ae84de292afe7f1eec9e509504b030414000000080000003f00cd17d61abf57000027af020018000000786c2f776f726b7368656574732f7368656574312e786d6c9dbd5fb3e4c891e5f7ae4fd1d6ef4227fe46608ce46a4116c06933c9563b2b995e6b9245b26d9addb4ee9ae1eeb75700e971337022ce71adf8d484d7f1f0ca53177ee39701c76ffed37fffdb8fdffcc7975f7efde1e79f7efb6ddf3dbefde6cb4fcf9ffff4c34f7ff9edb7ffd77fdbffd7f8ed37bf7efdfcd39f3efff8f34f5f7efbedfff8f2ebb7ffe977ffcb6ffef1f32ffff6eb5fbf7cf9fa4d4af0d3afbffdf6af5fbffefd9fbefbeed7e75fbffcedf3afddcf7ffff2538afcf9e75ffef6f96bfabfbffce5bb5ffffecb97cf7fba447ffbf1bbe1f158befbdbe71f7efaf695e19f7ef9ff92e3e73ffff987e7973ffcfcfcf7bf7df9e9eb2bc92f5f7efcfc3595ffeb5f7ff8fbafdffeee377ffa21c5cebfcf37bf7cf9f36fbffdcffd3f7d3f3dfa6fbffbdd6faeb5ffef1fbefce3d7e2bfbff9faf95fffe5cb8f5f9e5fbffc297d02df7e73fed5fef5e79fffed0cfe73baf438a5df55dafd2aebbffcf2cd9fbefcf9f3bffff8f5bffefc8f3f7ef9e12f7ffd9a92cc1fabfde1f3d7cfbffbcd2f3fffe39b5fcee4bffbcdf3fc8fff9c96497fee879f7efce1a72ffff2f59774fd8794f7ebeffef90fbff9ee6b5aedfc7fdf3ded4f6fec4ffffedf7ffdfaf3dfbefcd2d0fc9e693ea5cffcc786e00f4cf07f7efd1f8d3ffe89fdf1fff24b32a821d899207d42ad3f7fb03fff2f5f3f7ffdf75f1b8a3fd2923efff0a7c69fff67f6e7ff8f9f9b157d4f6df8f94ff0e7bf4b867fb83e7cb87efed77ffcaeffcd77ff51ba3b38ee7ed3b7fc65aa67ffbf7df9ef9ffff6f71fbf74cf9fffd632fa5545bc57f1e975f5d18de11ed8d342bfbefee9fec7efa67958c77bfc6085fcbdfda9fff1f5e7fff5b5dc3dd73fb35c3f25479a1fc3f74cf1ff3caefff5c297f1c397f12a66005f46cf97a1e50b533d07cf975715fd0cc68c664c98c098118c81f8c12a39ef937fffd2f4662cbc817fa6ffccd25ddeb43e8aef99c2bc198437d38737d3550cfca3db26cf9bb1e50d533d47cf9b571503fc13f9f4badc773d7c58fb04de80a907ade4f34fcf2f3ffed87667123f392ce1e54eebc3f89e29cc9d51b8337fb833bffe86e0ceecb933b5dc61aae7e4b9f3aa6258c19dd9dc99e05eb7cfe0ce02eeb04a7efaf28f962fb3f8a9a1a94e5f5a1fc3f74c61be4cc297e5c397e52a06fed56d8be7cbdcf285a99eb3e7cbab8a113ede4f8bf912a1be7d015fa0151dac12d66a16f103c3725dc6b43e87ef99c28c998531e1c3987015039fc8163c639696314cf55c3c635e554c7057fdf4ba3c74789fdb0318033f5007ab44b49a207e6858bacb9bd647f13d5398378bf0267e7813af62e01fdd163d6f42cb1ba67a06cf9b571533fc7bfd14cd9b19ee727b046f207ed04a54ab89e2278725bcdc697d18df3385b913843beb873b6bebd7d66df5dc892d7798ea193d77d6d6bf914fab99839d645f6fe68c0ff82c0f5608e934abf8a1a1a94e5b5a9fc2f74c61b644614bff786f651f5739f0cf6e4b971d67d6e6b695c99eab678d15d2c36f239fecfad88d70bfdbcfc56ef6c0677ad06a58c73141fb078766bb2c6a7d1cdf538979b42a8f0adcf0fa2bf60f34c9230bdf9c92864b4cf7ec1fae4d4cfbd3779f9ba0a137fb70637a26bab937a07b6c25d1964cd3fe11e3a55ffbd3d647f53dd5bc1c44d1ddc1373ae88d1d203ce87d7ad0c40754f7ec5d8060b50c8810ecfad43d2aab06b00a21022f4775a95eb1049af265569326508d99a57042ffe609bd6de59128f42e52e89b4c81ea9ebd4b15ac9611b1825d9fba09b9423f825908166839a46bf50a2bf064974d4db040356693220bfd1b2df4b67d47b8d0bb74a16fe205aa7bf62e60a05a76579cccbe88e8a19fc03e640f7429dad41478e0859ffeb56f891a3de0877bb7efcd1efab9d9efb7dec50f7d933f50ddb3770984d5322182b0eb73d72383e867b00921042d47752f852268424e57a9c49c5230a27fd388de76fcc8237a1748f44d224175cfde6512560b3209bb3c773342897e01a3904af06a64ef527082a6e4b0954acc2a8527fa379fe85f0ca04742d1bb88a26f320aaa7bf62ea5c8b520a6b0eb73b722a7e8037885a08296c35a97c2143c1985ae54622e2950d1bf4945ffa2013db28ade85157d935650ddb3777985d53220b0b0eb4b875c76ef23b884c88296433b94e215341b67b05462362962d1bf9145ffe20278efdf7a975af44d6c4175cfde051756cb80e8c2ae2fdd82eca2077881bbc78396a33a944218342187b254624e298831bc21c660ec0029c6e0528cbe8931a8eed9bb1cc36a199163d8f5d0e1ee691f8063e02ef1a0e5b47fbbfce3a030064f46f12c95984b0a630c6f8c31f4cd5bcd36b8186368620caa7b0e2ec6b05aa61e5deacd25dc560d802b707778d06a486f1a14aae0c928a5a5929749f811de4d2a0e39181da88e39b8a462681f74a06860f08f3a1891a80e3b0c6652a84e3b00a9c05f3e0e5a0e3def200f3c4848d1a4b6546236294631bc19c560871e90510cfeb18726a3a0bae7e0320aab0511855d8e5d3f3d8affe18677005e811bc2839626fad4a098054dc8412e95986b0a590c6f6431d841044416838b2c8626b2a0bae7e0220bab05ef639fec7aece6ca294013b8213c78396a2b35283e41530a664b3566960214c31b500c762e0101c5e0028aa10928a8ee39b880c26ac15f703ed9f5d8c5287fc68056e0fef0a0b5b1e6a548054fc6d12dd598670a550c6f5431e4c309c82a0697550c4d564175cfc1651556cc80b0c2aeafdd80b0620058813bc4839643db97e214349b80b7546346295031bc41c5109a9fcd36b8a06268820aaa7b0e2ea8b05af0fbc54f767ded967e2dff87a601b5c0fde2416b530d4c910b9a90435b2a31db14b918dee46288cd6de836b8e46268920baa7b0e2eb9b05a262417767ded6aa7805ce0edf4e0e5c806a6f0054d290ec56a7c819fe4ddab37be180c1920be185c7c3134f105d53d07175f582d13e20bbbde3f3a3c66b60fc02f70db78d07a58cf52ec8227a3c8964acc26c52ec637bb185f5c0031db36baec6268b20baa7b0e2ebbb05a105dd8e5e45240763102bbc07de341cb611d6b54f08266e3cc964acc26052fc637bc18ed1c03c28bd1851763135e50dd7374e185d5829ce8d3c7f50e7f011c815ee0bef1a0e5a8e3e68a60d0841cdb52c9cb29fc1cef4ebd09c6f8a20323128cd1251863936050dd73740986d582bf127ccad7fb0e6f89fb080803378b07af4735a951710c9a92935b2a31b3e4a31bc5b31b76bea17a7ac3e51863fbf90dca3146ff090e632ad5231c63362b560f7100bcc0cde241eb214d6a94cf704870d144b7546236297031bec1c538357f45de46ff498e26b8a0bae7e8828b5c0b828b31038d0e9bd03e02b9408b0f5a0fed520a5ad06c9cde5289f9a498c5f86616e38b07e0970fdbe8328bb1c92ca8ee39bacc22d782ccc2ae279f663c553102a7c0ede141eb516d4ab10a9a90135c2a31ab14aa18dfa862b4c72b90548c2ea9189ba482ea9ea34b2aac960949855d4f56e12350fb08a802b78407af47b629c52b684a0e6ea9c4cc52b8627ce38ad11001e28ad1c51563135750dd73747145ae05bdcac72d3abc33ee23100adc121eb41cd6a5149de0c938b2a51ab349e189f18d27c6d7d61f1f82dd46174f8c4d3c4175cfd1c513560b7eedfe295f1fbb05f9c4087c02f78407ad87b62985266836c169a9c68c526c627cb389f1b5ef1f914d8c2e9b189b6c82ea9ea3cb26ac1664ad9ff2f5a9c3c37dfb086c02778507ad47f529c5276842816aa9c6bc5280627a038ae9d1ece3dbe4028ab10928a8ee39ba80c26ac15fb33f4df9e1910e9f8adb272014b82f3c783df2695e8529684a0e68a9c4cc5298627a638ac9fe9e88292617534c4d4c4175cfc9c514560b7ee09fec7a320b7fff9b005360273b6839a4514d0a51f06414cd52c9cb25fc0cef2ebd11c564071b10514c2ea2989a8882ea9e938b28ac16bc157fb2ebfddce19d719f0051e0b6f0a0f5b03e35293a41b371364b25e693a213d39b4e4cf69405d289c9a51353934e50dd7372e944ae05e9c494074f7433d28909e8046e0b0f5a8f685393221434a11864a009057e9077ab8a4113f64445356ac22514537bd8042514933f6ec28e79a05353766aad064e00a0c05de1c1cb914d4ace9c9094a24968a9c4bc5294627a538ac91eb7404a31f993279a9482ea9e934b29ac16841476b95f3adc2ced13400adc141eb41cd6a414a0e0c9289aa5127349018ae90d28a6a579c3d92617504c4d404175cfc90514560b9e5bf9f471bd5b10504c0028705378d07a6893526c8266e36c964acc27c526a6379b984213de6c93cb26a6269ba0bae7e4b209ab05bfb3f864d7fbd0e163befb0470027f1139683daa4929404113723c4b256695e213d39b4f4c766401f9c4e4f289a9c927a8ee39b97cc26ac1adeba7293f9cd2e18e6f9f804fe01f38783db24b2948415372404b2566966214d39b514c76660119c5e4328aa9c928a8ee39b98cc26ac17bd8a729b38b2e20a3988051e096f0a0f5b036a5f8044f46d12c95984d0a4fcc6f3c31db9905c413b38b27a6269ea0bae7e4e2895c0be209bbdec70e0fa4ef33e009dc131eb41ed6a666452668360167a9c68c5268627ea389f9f577c4d138dbeca289b98926a8ee39bb68c26a4132912f473c3fbacf4026704b78d06a44979a159da009059da59a9753f839de9d7ae389f9b5f5c703e0dbece289b98927a8ee39bb78c26a413a31e783155d443a31039dc02de1c1cb515d6a568882a61478966acc2cc528e637a398ede90b6414b3cb28e626a3a0bae7ec328a990cc1ccd7d70ec9ed3e03a3c07be741eb61e3fc149fe0c92898a512b349f189f9cd27e6d7e67f463e31bb7c626ef209aa7bce2e9f98c93c4cbbde9f279ed1260014b82b3c683db44d293641b371344b25e6939c88598cc4b4910fd5504c974dccedb198944dccfe604c3619333f0dd2e128bf7d063881bbc283d6a3fa941c91290145fbcea701057e9077abde8062b6a10f0828667f5066135050dd737601c54c8665daf5e1d121d2db670014b82b3c783db24f294a4153723e4b256696a214f39b52cc36f50129c5ec528ab94929a8ee39bb9462260334ed7a322b20a5988152e0aef0a0f5b036a508054fc6e7ce6a42811fe2dda637a1986d7e25128ad9251473935050dd737609c54c6669daf5a1ef70f4c43e03a1c05de141eba16d4ac1099a8dc3592a319f149c98df70627e6dfcf104dd36bb70626ec209aa7bce2e9c98db5335ed72b2099bd03e039b408b0f5a8eea528a4fd0841ccf528939a5f8c4f2e613cb6bef8f835fb7c5e51373934f50dd7376f9c442666cdaf56455443eb1009fc04de1c1eb515d6a519082a6e480964acc2cc5289637a3585e7fcf0519c5e2328aa5c928a8eeb9b88cc26ac1c3cc9ff2f5a1c326b500a4c03de141cb214d6a51808227a364964a5e2ee1677877e9cd2796d7e61f3729dbe2f289a5c927a8eeb9b87cc26aa9a669e6eb4387bd745f0050e09ef0a0f5d049e98a4dd06c1ccd5289f9a4d0c4f24613cb6bdbbf209a585c34b134d104d53d17174d2c6490e692076974f8068e7d0134817bc283d623bad4a2f0044d28e82cd598578a4f2c6f3eb1bcf6fe0bf289c5e5134b934f50dd7371f984d5828cf5d392c7677478a66c5f804fe0a6f0e0f5c836a520054d29082dd5985b8a522c6f4ab1bc08c08294627129c5d2a41454f75c5c4ab190e199763db9b520a5588052e0aef0a0f5b046a508054fc6e12cd5984ff23d1ec58b3c6c5c65f52a0f17512ced97795024b0f8aff3688fceb4cbc3d4e1a8d97d0142819deca0e5d04625dfe921e144fbe6a7e1047e88779bde7062b1f77a209c58fc377b34e104d53d17174e2c646ca65d4f3ee17d715f004ee0aef0a0f5a846a500054dc8f92c9598550a502c6f40b1d85c4a04148b0b289626a0a0bae7e2028a85ccceccd7a72e20a0580050e0b6f0e0f5c83ea528054dc9092d9598598a522c6f4ab1d8744aa4148b4b299626a5a0bae7e2528a854cd0ccd7e70e4f97ed0b600adc161eb41ed6a614a2e0c9289ba512b349218af04614e1b5fdc7e791b6e0228aa58928a8eeb9b8882290f199763dd984dba53d00a2c07de141eb616d2a283a41b371384b25e693a213e14d27820da7443a115c3a119a7482ea9ec1a513810cd0b4ebc927bcf505a013b82d3c6839ea3d548a50d0841ccf52c9cb29fc1cef4ebd094578edfe03128ae0128ad0241454f70c2ea1b05aaa299a767d583abc27ee010805ee0a0f5e8fea5241610a9a52bc364c630afc28ef66bd3145782100fcce670b2ea6084d4c4175cfe0628ad09ea569979357b8e5db03500afc03072d8734a9a008054f46d12c95984b0a508437a008afcd3f4e20da820b2842135050dd33b8802290d999767d085d35823100a0c02de141eba14d4ab1099a8dc3592a319f149a086f34115edb7e7cdfed165c34119a6882ea9ec14513818ccdb4ebc9273c6dbe074013b8273c683daa4b293c4113723e4b256695a213e14d27c26beb1f904e04974e84269da0ba6770e94420c332f3f5d061997b003c817bc283d723bb94621434a520b454636ec9578f16ef1e7d01003ce8bd05175284f6fb4729a408fe1b48c9c84cbb3ec40eef8d7b0048819bc283d6c3fa947c07a906144d424135e6932214e14d2882bd88140945f05f45da241454f70c2ea1086446a65d4f3e21b6dd03100adc151eb41edaa8149ca0d9049ca51a334ad189f0a613c11e9ea8860507174f84269ea0ba6770f144201332439ee2d945c41301f004ee0b0f5a8f6a550a51d0849cd0528979a510457c238a686fcf4044115d44119a8882ea9ec14514b13d2533e6419e1d3efeb6472014b82f3c7839f235bf0a53d0941cd1528979a530457c638af8fa7b46c414d1c514b18929a8ee195d4c11c9a84cbb9eccc29faa089802b785072d87f4a9a810054f46d92c95bc5cc2cff0eed21b51c4d7f61f5f40b8451751c426a2a0ba67741185d5528dc9b4ebc9257c99fc1e0151e0bef0a0f5b03615159da0d9389ca512f349d189f8a613d15ea3817422ba742236e904d53da34b2722999069d7c74787dc768f8027705f78d07a44938a0a51d0849ccf528959a510457c238a68afce4044115d44119b8882ea9ed14514914cc9ccd71f1d36a13d02a2c00dd7c1eb915d4a710a9a92235a2a31b314a7886f4e11edd519c829a2cb2962935350dd33ba9c22925199f97adfe1ab10f7089c02b78507ad87b529c52878320a67a9c46c528c22be19457cedff23fe8e1e5d46119b8c82ea9ed16514918cc9b4ebc9267c2c6a8fc028705778d07a689b52788266e378964acc274527e29b4ec4d7ce1f37295b74e9446cd209aa7b46974ec4f684cc7cb9efb099ee11e044403841cb515d4a010a9a90035a2a31a7149f886f3e115f7b7f7c6e768b2e9f884d3e4175cfe8f289488664daf571e890ddee11f8046e090f5e8fec520a52d0941cd1528999a518457c338af8dafe473c41115d44119b8882ea9ed14514910ccab4ebc92c3cc7b7474014b8273c683dac4b293cc19371384b35e693e213eb9b4facafcd7f443eb1ba7c2236f904d53da3cb27563224d3ae279f5604142b000adc151eb41ef20ad255a1099e8cc359aa319f149b58df6c627dfd15576413abcb26d6269ba0bae7eab28995ccc7ccd7c7aeb209d804f6b1839623dad4aaf8044d28f02cd5bcacc20ff26ed51b50acafcd3fcecadb561750ac4d404175cfd50514564b3524335f1f3bfcf2695f0150e0aef0e0f5a83eb52a4a4153723e4b256696a214eb9b52ac2f0280af74df569752ac4d4a4175cfd5a5142b999469d7c7a97b20a5588152e0aef0a0f5903eb52a42c19351344b2566932214eb9b50acafdd3fdeffb7d525146b935050dd737509c5da9e926997934b78b66c5f0150e0a6f0a0e5b0cdd4aad804cdc6d92c95984d8a4dac6f36b1da504a6413abcb26d6269ba0bae7eab289b53d2073cd6f1ae970afb4af8026704f78d072549752788226e474964acc298527d6379e58ed5d9e882756174fac4d3c4175cfd5c5132b1992b9e6378d743898675f014fe0a6f0e0f5c826a518054dc9f92c9598598a51ac6f46b1da0b3d9151ac2ea3589b8c82ea9eabcb28563229d3ae27b3f0e9dd7d0548819bc283d6c39a9402143c1925b35462362940b1be01c56a2ff04440b1ba80626d020aaa7bae2ea058c994cc7c7dee70cbb7af0028f00f1cb41edaa5149ba0d9389aa512f349b189f5cd26d6d7be1f67106dabcb26d6269ba0bae7eab289950cc8ccd7970e4f96ed2bb009dc131eb41ed5a6149fa009399da512b34ae189fef1e613afff4e6621a038039e5b4d42c185cfd54514b99c6a52660e24c3f0d0f97ead78730c2985a849b5ab2c6bff80f1a41cd5728df9a67045ffe80bdfec00c30389c519718cbb442de728b4480adfbaf6eccc7c1d7f04f76bb99b6d482d7841a4716541fbc74ca4a3b8966b2ec3aa4f120c1b0ac3ec2c039e00dfce886b58935c706532cc6517b9226417f9fa18ba8667402f70c778f09a5817cb0af653a6476836e10517996b8a5ef48fb170cd2654e278f2ed8cb8ae3511065726d75c88f15111528c1c48b6e1598afd5af2661b720c5e1401b959c07ed434ca68b20c2e32d714cce81f53e19a3d87f1409e71465cd79a44832b936b2ed3c81555a33573608c1d9e45dbaf256fae21d71045e9bea6f0064f2ad82e1799778a70f48fb9f0ce9ecd4016b79d11d7bb26e6e0cae49d0b3a7245d5b8cd1c48dee14374fbb5e4cd3b841dbc28dadc14ea10e928e3e51a334dc18efeb114a61962c05111db19714d6b120fae4ca6b9cc2357540ddefc08c40e31e17e2d79330db1072f8a7737c53c783e8e7cb9c65c53d4a37f84c2351b29511d743f23ae6b4df4c195c935177ee48aaa099c3930ae1dde42f76bc99b6bc83f785162c79645ecc74d6210728f941ca4fa44c1b85818978f47200a3923ae714d18c295c9381787e48aaa999c39908cc39116fbb5e4cd382422a228dddf1418e1493915e61ab34ea191feb116d6d961093cb8b79d11d7ba261fe1ca649d4b4872454848f2f5e41cf6aefd5ab1706ec25de8c16ba2dd4d1112918ec261ae31cf2423e90b46d2db784c1c2bbb9d11d7b33625a1cae4998f497a32b03307a64787cfe0edd79237d32a4c428ba2ddad978484e6e3ac986bcc354948fa8290f4f9118f8a90f43e2169ee2b7fcf95cfa4f05d23933b7320b9566db8fb1e4cab2009ad4935b75e82129a92b363ae79f9861f28f8568092de4009ee87b633e2fad6062554997cf341895554cdf2cc81a9efb013efd79237e32a52c28b92cdad97b88426e52c996bcc3a494bfa8296f4c626f021dfed8cb8d6b569095526eb7c5ad293f19e3990ac43d6bc5f4bdeacab68092d8a75b75ed2129e8e9364aa31d3242ce90b58d21b2cc1c972db19714d6bc312aa4ca6f9b0a427733e3f027d870711f76bc99b69152ca145f1ee263909cd277032d5986b1293f40526e90d93e0af00db19715d6b6312aa4caef998a427f33e3f0243870ff2edd79237d72a4c428b6260b2979884a71338998acc35c949fa8293f4c64990de6e67c475adcd49a832b9e67392be3dfd335f4fa6e1c8dcfd5af1665a8549784dbab5495642932aa64c45669d84257d014b7a8325788c663b23ae756d584295c93a1f96f46422680e24eff02bb5fd5af2e65d054b6851b4b74950c2d3099a4c45e69a24257d414a7a2325f870c276465cd7daa4842a936b3e29e9c970d01c98c60e49f37e2d7973ad2225b428dedc2424a1f9044ea61a734d4292be8024bd4112ec17db19715d6b4312aa4caef990a42753427320b98613a1f66bc9d235dc891ebc28b97793a484a61444996acc38494a8682940cc625f0e9aced8cb8c6b549095526e37c523290b9a139304d1deeccf66bc99b711529e145c90637485c42930aa64c35669dc42543814b06c3257863dace8867ddd0c62554f94c0adf3a324af4233075d5d66d005c823bd183d7c4dadb2051094fc76132d5bc3cc30f133c2b50c960a80489d276465ccfdaa8842a93673e2ab18aaaa1a21f81a9c3479df76bc99b69152aa145d1ee36484a42f3099c4c35e69aa42443414906a324f84dd676465cd7da94842a936b3e2519dad345f3f569ee709bb95f2bde4cab2009ad4935b74182129a520065aa31df2428190a5032e4e99e1528197c5032b441095526df7c50329079a339908cc3f772edd79237e32a50c28bd2cd4dd2129a543065aa31eb242d190a5a32182dc1675fb733e25ad7a6255499acf369c9404690e640b20ecff1efd79237eb2a5a428ba2dd4dd2129e8ed364aa31d3242c190a5832182cc1b142db19714d6bc312aa4ca6f9b06420c34873605a3a2c76bf96bc9956d1125a14ef6e1294d07c0227538db92639c9507092c1a8047e48db19715d6b7312aa4caef99c642043497320b98633e7f76bc99b6b1527a145c9f62659094d298832d5987112950c052a190c95e01e773b23ae716d544295c9381f950c644ae94760e9f0c8c87e2d7933ae4225bc28ddde242fa1491557a622f34e0293a10026830113fc8a723b23ae776d604295c93b1f980c646ee93bd0e1d9bcfd5ab2f40ef7a2072f8af637094b783a8194a9c85c93b4642c68c968b40479df76465cd7dab4842a936b3e2d19db234c3fae870ee729eed78a37d32a58426ba2fd6d949c84e65348998acc35094ac602948c064af0d9bfed8c78ae8d6d504295cfa4f05d23c34c73608a5db50b180194e066f4e035a9fe364a5842530aa84c352fdff00305df0a58321a2cc1b92adb19717d6bc312aa4cbef9b0245754c1923153940eef9ffbb5e4cdb80a96f0a2647f1b2531a1490556a61ab34e1293b12026a311139c5ab99d11d7ba3631a1ca649d4f4c4632f134079275382b64bf96bc595721135a146b6fa3c4253c1d07ca5463a6495c3216b864343881bf776f67c435ad8d4ba83299e6e39291cc3ecd8169edb079edd79237d32a5c428be2ed4d92129a4f2065aa31d72429190b52321a97c02f4cb633e2bad6262554995cf349c94886a0e640720d5f6cb95f4bde5cab48092d4ab637494b684a4195a9c68c93b4642c68c968b4048fba6d67c435ae4d4ba83219e7d392918c45fd08ac1d3ed1b65f4bde8cab68092f4ab737894c68520196a9c6ac93c8642c90c9980f7254c864f491c9d846265499acf391c9d89e949aafcf8f0e6fa2fbb5e2cdb98a98d09a687793b484a7e344996acc33494bc682968c464bf011e9ed8cb89eb569095526cf7c5a329299a939904cc377b6ecd79237d32a5a428be2dd4d82129a4f2065aa31d72427190b4e321a27c1817ddb19715d6b7312aa4caef99c6424c3537360ee3b3c13b95f4b96aee156f4e045c9ee2659094d29a832d5987112954c052a990c95e06f01db19718d6ba312aa4cc6f9a86422d354732019878f31eed79237e32a56c28b92dd6d92c08426155c996acc3ac94ba682974c462710e36e67c4b36e6af312aa7c26856f1d19b09a03c9baea17ca097809f6bf83d7c4badb2459094f27803215bd4cc34f134c2b60c96468020fdf6c67c435ad0d4ba83299e6c312aba81ab59a03f3d0e14d74bf96bcb956c1125a146d6f93e424349f22ca5464b649503215a0643250828f4e6c67c4b5ad0d4aa832d9e68392890c5dcd8164db5c81920940096e460f5e94ea6f93842534a5a2ca5464ce495a3215b464325a823d633b23ae736d5a4295c9399f964ced39acf97a320ee76cedd78a37e32a58c26bd2fd4d12139a547065aa31e72431990a62321931c1e7c8b633e23ad7262654999cf389c9d41ecd9aafcf63877bb3fd5af1e65c054c684db4bf4958c2d371a04c35e699842553014b268325f5e48bc98725531b965065f2cc87251319d29a03c9347c35f47e2d7933ad8225b428dede2427a1f90451a61a734d7292a9e024937112244adb19715d6b7312aa4caef99c6422d35a73609e3a7c607bbf96bcb95681125a94ec6e1296d094022a538d192761c954c092c9d0047e9bb59d11d7b8362ca1ca649c0f4b2632bf35079271b8d5dcaf256fc655b08417a5bb9b242634a9c0ca5463d649623215c464323e8127bab733e25ad726265499acf389c94446bae640b20e5f7ab65f4b96d6e166f4e045d1f62669094fc78132d598699296cc052d99f378908a96cc3e2d99dab4842a93693e2d99d95c570bcc7387a7fef76bc99b69152da145d1f6364b5042f309a44c35e69a042573014a6603253844693b239e6b731b9450e533297cd7c84857bb9e4cab7e25998193e04ef4e025a9e6364b5642530aa64c352fdbf0f304db0a54321b2ac193f6db19716d6ba312aa4cb6f9a8c42aaa48895d4fb6e13cfffd5af1e65b454a784db2b7cd1297d0a4022a538d392769c95cd092398f52ad68c9ecd392b94d4ba83239e7d392990d77b5c0bc74089cf76bc99b75152da145b1de364b52c2d3719c4c35669a042573014a66032573054a661f94cc6d504295c9341f94cc6cb6ab0592694b454a66202508c80e5e14ef6d1292d07c0a285391d92629c95c5092d92809c2beed8cb8b6b529095526db7c4a32b3b1ae1648b6e124c9fd5af2665b85496851b2bd495442532aa64c45e69c642573c14a6623133807643b23ae736d564295c9399f95cc6cb6ab05e6d02178dcaf256fce55ac8416c526cdcc1295f07482275391b92659c95cb092d95809be7a733b23ae6b6d564295c9359f95cc6cb6ab05926ba1622533b012dc861ebc28dadb2427e1e9384aa61a334d7292b9e024b37192b9e224b3cf49e63627a1ca649acf496636d735076287b348f66bc99b691527a145f1de261109cd276032d5986b1291cc0522990d91e029c4ed8cb8aeb511095526d77c44329391ae763d99867d6bbf562c4d43cb0f5e93ec6c9292d0940227538df92629c9525092c528090e26dece88eb5b9b925065f2cda7240b1beb6a81641cbe2e74bf96bc195751125e94dcb92d1295d0a40228538d592751c952a092c5c0c452a192c547254b1b9550e533297cebd86c570bcc6b5735b7055809ee430f5e136b6e8be4243c1d27c954f3f20c3f4cf0ace0248b7112dc0b6d67c4f5accd49a83279e67312aba89eeb6a81e41976e2fd5af2665a054a6851b4b92d9291d07c0225538db92619c9523092c588043e21bd9d11d7b53623a1cae49acf481636d2d502c9357cbdcd7e2d7973ad6224b428d5dd16c949684a4193a9c68c939c642938c9629c045f97b69d11d7b83627a1ca649ccf491636d6d502cba3c32379fbb5e4cdb88a93f0a2747793b084261544996acc3ac94a9682952cc64a968a952c3e2b59daac842a93753e2b59d86c570b24eb968a952cc04a702b7af0a2687b939c84a7e330996acc3489499602932cf900478549161f932c6d4c4295c9341f932c64b46bbede77382379bf56bc795651125a13ef6e1293d07c0226538d992629c9525092c52809ce6edcce886b5a9b92506532cda7240b1bea6a81e41ade40f76bc99b6b1525a145c9ee2649094da9783215997312952c052a590c952c152a597c54b2b451095526e77c54b2b0c1ae1648ce850a952c804a702f7a88a2747b93bc84265544998acc3b094c9602982c064cb0656c67c4f5ae0d4ca83279e70393858d77b5c0327478326fbf962cbdc3cde8c18ba2fd4dd2129e4e10652a32d7242e09052e090627f021b2ed8cb8aeb571095526d77c5c12d86c570b24d77077b65f4bde5cab70092d8a76b8204909cd279032d5986b9294848294042325f549d7e09392d0262554f94c0adf3536d6d502c9b5ea36198094e06ef4e035a90617242da1290554a69a976ff881826f052d09464b42454b824f4b429b965065f2cda72556513ddad502cbd8e1fd73bf96bc1957d1125e94ec6f4122139a547065aa31eb243209053209864cf0dbaced8cb8d6b591095526eb7c6412c87c57bb9e9cc3ade67ead7873ae2226b426d6dd82a4253c1d07ca54639e495a120a5a128c96e078abed8cb89eb569095526cf7c5a12d86c570b2c5377be7efce37f153909404e70637af00279a393d084e61378996acc41094d42014d8241137cf9f576465c07dbd0842a93833e34096cc4ab05928378f47fbf96bcb95641135a94ec74129cd0948230538d1927c14928c049307012eadf507c7012dae0842a93713e38096cccab05927158ec7e2d7933ae2227bc28dde9243ea1490563a61ab34ee29350e09360b002cfdb6f67c4b5ae8d4fa83259e7e393c066bd5a60993bbca3eed79237eb2a7c428ba2ad4ea2139e8ed365aa31d3243909053909464e700eff76465cd3dae4842a93693e39096cceab059269535c8bff55060245c12deac10be4ad4e02149a4fa066aa3107253f09053f09796648c54f82cf4f429b9f506572d0e727814d7bb540723056fc24003f09153fa145c95627190a4d297033d5987112a1c402a1c407db8c471fa1843642a1ca649c8f502219f86ad797a5c3671bf76bc59b6f1541e135c94e172546a149156fa622b34e7294587094681c2556274ea2cf51629ba350e533297cebd8d4570b24efe655dd35234015dcaf1ebc40d6f6a2042a3c9da0ce54f472103f5a70b0202ad1880abe3a743b23ae836da24295c9419fa87c545439386407d78aa844202ab8633d7851b4d7450953683e859da9c86c9334251634251a4d89154d893e4d896d9a4295c9369fa64436fbd5024be81049efd79237db2a9c428b52cd2e4aa442530af24c35669c442ab1402ad100069e58dcce886b5c1ba9506532ce472a91cd7fb540322e3ce41d13900aee020f51a0ee7c92abd0a40244538dd928b94a2cb84a348a81e38cb733e2dad8e62a54996cf4b94a6403612db0c40edf6aba5f4bdeacabb80a2d8a363bc954783a8ea0a9c64c934c25164c251a5389f52f9a3e53896da64295c9349fa944360cd602c9347c046ebf96bc995631155a14ef7512a7d07c0242538db926714a2c704a349c825ba5ed8cb8aeb5710a5526d77c9c12c91c58bb9e4c8bbdbc610259c11debc1eb935d4fd2159a526068aa310f255d89055d894657f009ebed8cb81eb6e90a55260f7dba12d95c580b2c6b87887abf96bc195711155e94ee7412abd0a40244538d5927b14a2cb04a34ac82ef5ddbce886b5d1bab5065b2cec72a910d87b540b20e0f55eed792a575b8633d7851b4d349a4c2d371044d35669a442a6b815456432ab13a95b2fa4825b6910a5526d37ca4b2b2c1b01648a6ada3fae26e05be821bd6831748bbde2ad10acd277834d5988392acac0559598d63ac1559597db2b2b6c90a553e93c27790cd87b540787415145b01a6e076f5e035a94eb74aa042530a0a4d352fdff00305df0a9eb21abdc02990db19717d6bf314aa4cbef93cc52aaa47c45a20f986dfcaedd79237e32a9ec28b929d6e95508526151c9a6acc3ac954d682a9acc6546a0ebdfa4c656d3315aa4cd6f94c656563622d10faee31c99b26f015dcae1ebc40d6f556c956783a81a3a9c81c9470652de0ca6a7065ade0caeac395b50d57a83239e8c395958c8bb5ebc9403cf1b75f2bde4cab780aad89773a8952683e85a0a9c85c932c652d58ca9a4f84542c65f559cada662954995cf359ca4a46c5daf5e41a6ed9f66bc59b6b154aa135c95627710a4da9203415997192a7ac054f598da7e0fb6ab633e21ad7e62954998cf379cacae6c55a200c5d3fcb1b26b015dcb01ea240ddf72460a1490592a61ab3510296b5002cab0196b5022cab0f58d63660a1ca64a30f58563640d602c9467c2a7cbf96bc595751155a14ed7592a8f0741c40538d992689ca5a1095d5f8057e15b69d11d7b43651a1ca649a4f5456363cd602c934dc8eeed79237d32aa2428be2bd4ec2149a4f1068aa31d7244c590b98b21abac0115adb19715d6bc314aa4caef930656573632d10c66e58e41d13c00a6e580f5ea0ec7b12aed0940248538d99a8e0caf078c395d77f9f26225c3923ae894db8c295c94417aee48aaa39b239904cc4470cf66bc99b7108544451aad56559fbe78f27e51c9a6bcc3a455586475f5867f3481e4855ce8863dd256a5947a94a52f8d6b587c9e6ebf885f87e2d77b30d910a2f88b4b92c68ffac8974943e73cd6558f54982614361d86086214e3923ae614d9cc295c93017a7e48a90a6e4eb61eaf05eba5f2bde3c439ac26b625d2e2bd84f9904294dfacc35669a0229c3632c4cb3a32038e47f3b23ae694d90c295c93417a4e48aaa09b239905c0ba3f8caee5afee62082145ea0e87259c47ef2244c690268ae3113154b191e5361a2918b07b29433e29ad864295c994c7459ca474508537220cc1d1efbdbaf256fc6214c1145e92ea7880a4fca1934d798750aa80c8fb9b0ce66b83e10a89c11d7ba2650e1ca649d0b543e2a42a29203e13ccb5e59074405f7a7072f8a763a4553443a4a9fb9c64c533065782c8569f6780d4e1fd9ce886b5a13a6706532cd8529b9a26aa06c0e24d3e2246f9a005370af7af00279db531c85e713f8998bcc4205528647282c346c81af26ddce886b6113a47065b2d00529b9a26aba6c0e84a5c3dbe97e2d79b30d410a2f4af63a0553784a81a0b9c89c53346578c4c2b93ca50469ca19719d6bd214ae4cceb9342557548d98cd81709e63af9c039a823f9287284a373b8554785241a1b9c8bc534c6578ac8577c654aaafedce88eb5d93a97065f2ce652ab922442a1fd7976e9de57df38e5466dcad1ebc3edaf8144e11e9287ee61af34fe294bec029bd9d0cc189c9db1971fd6be314aa4cfef938a52703677320840e1fa5dcaf256fa655388516459b5d2f490acdc7f933d7986b92a4f40549e9f364d78aa4f43e496936e2df73e533297cd7c8acd91c48ae551bf3be07d32a98426b52adae974085a6e4049a6b5ebee1070abe1540a537a0823ba5ed8cb8beb5810a5526df7ca0922baa888a0542ec1e8bba5df6039858d1155ea0ec7abd442c342967d05c63364ac4d21788a537c4828f6d6f67c4b5b18d58a832d9e823969e0ca0cd816423f2e9fd5af2665d85556851acd3f512a9f0749c3e538d9926914a5f2095de00068e31dcce886b5a1ba9506532cd472a3d193e9b03e13cca5e993681691552a145f14e27690acd271034d5986b92a6f4054de98d5de0af03db19715d6bd314aa4caef934a52773677320ac5d1fc57776d7f237072bb2420b946d4fd2159a522069aa3113255de90bbad21b5d4102bc9d11d7c4365da1ca64a24f57faf61cda7c3d7988439df76bc59b6f1550e135e94e27a90a4d2a3834d5987312aaf40554e90daae0999eed8cb8ceb5a10a5526e77ca8d29361b43990acc32fe5f66bc99b751554a145d14e27810a4fc70934d5986992a7f4054fe98da7e0331adb19714d6bf314aa4ca6f93ca527736873203eba6195f7cc0806566c8516c8bb9ec42a349fc0d154630e4aaad21754a5b7d9aff818fe76465c07db54852a93833e55e9c934da1c480ee258b0fd5ab2740db7ab072f4a763a8953684a45a1a9c89c933c652878ca603c051f5fdbce88eb5c9ba7506572cee7290399489b03b1ef70cfb65f4bde9cab780a2f4af6ba4142159a5471682a32ef2455190aaa3218c3c0dbd476463cef863655a1ca6752f8de91b9b43990bc2b9f40a8ef9b032016dcb11ebc40d6f8068957783a41a3a9e8e5207eb4e060c15706a31988a1b633e23ad8e62b54991cf4f98a55544da8cd81e4203e41be5f4bde5cab980a2d8a76bb41e2149a4f3068aa31d7244e190a9c32184ec12fc3b633e2bad6c62954995cf371cad01e4e9bafc7a1c3fde87ead7833ada229b426d5ec064954684a41a1a9c67c9344652888ca908f84544465f089cad0262a54997cf389ca4006d4e640326e56036aafe56f2656748517a8fb9e442c34a980d25463364ac43214886530c4824f076f67c4b5b18d58a832d9e82396814ca9cd8164233e5fb05f4bdeacabb00a2d8ab63a8954783a8ea0a9c64c9348652890ca60cfdad4dfbb0e3e5219da48852a93693e5219c884da1c886387e3a9f66bc99b691553a145f14e27710acd271834d5986b12a70c054e190ca7e087b49d11d7b5364ea1cae49a8f5306329c3607926bf86283fd5af2e65a85536851b2d549a442530a0c4d35669c442a438154060318b8ffddce886b5c1ba9506532ce472a0319509b03c9b8550da8bd96bf995821155ea06e7592abd0a40244538dd928b9ca507095c128067eddb99d11d7c63657a1ca64a3cf550632a53607e2d4e111c0fd5ab2b40e37ac072f8ab63ac954783acea0a9c64c9348652c90ca684805cfaf6e67c435ad8d54a83299e62395b13da1365f8fe77976f46c04a2825bd483d7443bdd28610acd271834d5986992a58c054b198da5e00389db19f14c1bdb2c852a9f49e19b4666d3e6409cbbdba0c5ea8639024bc1edeac10b545d6f943c85a614189a6a5e26e2a70b26163865349c825367b633e29ad8c62954994cf4718a55548da7cd816422de4af76bc99b71154ee145c94e374aa642932a104d45e69d842a63015546832a3859743b23ae776da84295c93b1faa8c64466d0ec4f3447be51d5015dca41ebc28d6ea464954783a81a0a9c85c9348652c90ca6848057f1fdfce88eb5a1ba9506572cd472a2319509b0371e90635a0f65afee66085546881bcf1499a42f329064d4566a1c42963815346c329f885cb76465c0bdb38852a93853e4e19c970da1c4816e2db59f76bc99b6d154ea145c96e27910a4d293034d5987112a98c0552190d60e021baed8cb8c6b5910a5526e37ca4329201b53910cfb3ec9571805470cb7a88a274b7935c852615249a6acc3ac955c682ab8c796449c555469fab8c6dae4295c93a9fab8ced29b5f97a0cdda8a6d45eabdf5cac100bad8ff63d8957783a8ea0a9c6fc9378652cf0ca6878051fdedece88eb5f1baf5065f2cfc72b2399509b03c9407ca3cf7e2d7933ad422ab428deea244da1f90483a61a734dd294b1a029a3d1141c6eb89d11d7b5364da1cae49a4f5346329c3607e2799abd720d680a6e590f5e94ec7492a8d0940243538d192789ca541095c9880afe46b09d11d7b83651a1ca649c4f542632a036079271931a507b2d7f33b1c22bbc40d9f526c958685201a5a9c66c948c652a18cb648c0519f076463c1ba73663a1ca6752f8369229b539906cac7ed19c00abe04ee3e035b14e3749a4c2d371024d352fcff0c304cf0aa4321952c1233ddb19713d6b2315aa4c9ef948c52aaa26d4e6405c3bbc9feed79237d32aa4428ba29d6e923485e613089a6acc350953a602a64c862ef0518ded8cb8aeb5610a5526d77c983291e1b439905c9bd570da6bf99b831558a105aaae3749b842530a244d3566a2642b53c15626632bf83cfe76465c13db6c852a93893e5ba1ea9fbefbdc107cca7f85642ece0bdbaf6437432bcec28bd51d50c216fe77e0809a6acc52c95aa682b54cc65af0d9b6ed8cb896b6590b55264b7dd632b587d77e5c7f74b893dbaf156fce55a885d6d4fe87f2c72c603f867a706d9bb35091992639cb547096c9380bdebbb633e29ad6e62c54994cf3390b55d39fc325bbb9a881b657e29bb3158ba14bf33629310cffab087c4d4566ade43053c16126e33048acb633e25adbe6305499acf539cc4486d9e6c0da77f8d8f97e2d79b3ad822fb428d91b2580a12915b5a622734e1298a92030931118fcf66c3b23ae736d024395c9399fc04c64a26d0e24e770ffba5f4bde9cab080c2f4a374189616852c1ada9c6ac9318662a30cc4447b04c3e8699da18862a93753e8699c858db1c48d60535d6f65abeb41177b8072f90ee09258ee1e938bda61a3350e298b9c03173861f158e997d1c33b5710c5526037d1c33b391b61658870e9f49d8af256fa655088616459bdd2ce90bcd279835d5986b92becc057d998dbee090a8ed8c78aecd6dfa4295cfa4f05d23d36ced7a32adfab26806f8821bdc8397a43add2c010c4d29a035d5bc6cc3cf136c2b00cc6c0066ae00ccec0398b90d60a832d9e60318aba8e22f763dd986ef41d8af156fbe55fc85d724fbdc2c210c4d2aa835d5987312c2cc058499f3f9910ac2cc3e8499db10862a93733e8499d9605b0bac6337c8c1b6334018bce11ebc40d6e7660960783aceaba9c60c9400662e00cc6c0066ae00ccec0398b90d60a83219e80398990db5b5403270a97e399901b4e03ef6e045f13e27190bcd278835d5986b92b1cc0563998db1cc1563997dc632b7190b5526d77cc632b379b61658cfa3ef956b0059708b7af0a264a793a085a614d09a6acc38c959e682b3ccc6597092c976465ce3da9c852a93713e6799d94c5b0bac5337ca99b633f014dcad1ea240ddf62454a14905b6a61ab3513295b9602ab3110c7cabea76465c1bdb4c852a938d3e5399d95c5b0b241b43c55466602af844f4c18ba2ad4ef2149e8e8369aa31d3244e990b9c321b4e992b9c32fb38656ee314aa4ca6f9386566236d2db09ec7df2bd300a7e00ef5e045f15627490acda7d03415996d12a5cc054a99ed440b1e87dcce886b5b1ba55065b2cd47293399666bd7936b939c663b034941ff0f5e9f6c7b92a6d0940a425391992871ca52e094c5700a4e68dece886b621ba7506532d1c7290b1b696b81e422bee275bf96bc3957e1145e94ec758b642a34a9c2d05464de49a8b214506531a8b2545065f1a1cad2862a54f94c0adf3b36d8d602ebd255bd6e01aa823bd683d7c47add22890a4fc7f933d5bc3cc30f133c2b88ca624405774adb19713d6b1315aa4c9ef94425575421150b24cf6639d47601bc823bd6831748fbde22c90acd270034d5988392ac2c0559598cace093dedb19711d6c9315aa4c0efa646561f36c2d901cc49700edd79237d72a9a428b52bd6e914485a6140c9a6acc3849549682a82cc62ff0fd72db19718d6b1315aa4cc6f9446561336d2db09e07df2be380a8e08ef51045e95627b10a4d2a3834d5987512ab2c0556590c622c1556597cacb2b4b10a5526eb7cacb2b0c1b61648d62d72b0ed02880577ac072f90b63d8957783a8ea3a9c60c94786529f0ca92e79d547865f1f1cad2c62b54990cf4f1ca4286dadaf53576382c7abf56bc795611155a13ef7412a6d07c0241538d992661ca52c094c5600aceaadcce886b5a1ba6506532cd872954cdce1ed95f21b98937d9fd4a7673b3822c7439d9012568e17f034ea7a9c60c95a0652940cb62a065a940cbe28396a50d5aa83219ea839685cdbab540322ec859b70b4017dcc71ea240dd0d2579a14905aba61ab3518297a5002f8b8197a5022f8b0f5e963678a1ca64a30f5e1636f0d602ebdae184b1fd5ab2b40eb7b1072f8a7640495a783a4ea6a9c64c93a02514a0251868c107e1b633e29ad6062d54994cf3414b60b36e2d904cc3addc7e2d7933ad022db428da0283642c349f40d35463ae49c4120ac4120c68840ab1041fb1843662a1ca6752f8aeb129b71648ae9537ccfa8e1980b7e03ef6e005aab6172473a12915a9a6a2978bf8f1828b057409863842055d820f5d421bba506572d1872e56513de9d6028f0eefa5fbb5e2cdb88ab3f09a64ab0b12b6d0a48a4f53915927694b28684b30da82df916d67c4b5ae4d5ba83259e7d39640c6dddaf547879bd4fd5af0e65cc55a6849acd305c959783ac1a5a9c83c93a02514a0251868c1b95edb19713d6b8316aa4c9ef9a025b051b739d035ee93c05970eb7af09a78a7938885e613609a6acc348958428158822196502196e02396d0462c54994cf3114b60836d73a0c3470df66bc59b691555a135c9e626c90a4d297034d5986f92ac8482ac04232ba1222bc1272ba14d56a832f9e69395c066db863c86176bddaf156fbe556485d7a47b9bc42b34a9e0d15463ce49bc120abc120caf840aaf041faf84365ea1cae49c8f57029b6f9b4bedf00eba5f2bde9cab280aad89f6364950783a0ea2a9c63c93042514042518afc0d7106c67c4f5ac4d50a83279e61394c046dbe6523b64d4fbb5e2cdb30a9ad09a786b93bc84e613f0996acc34c94b42c14b42a613152f093e2f096d5e4295c9349f970436c83697dac50a9704c025b8253d784db2b5496442530afe4c35e69b4426b14026d19049a89049f49149682313aa4cbef9c8249259b676fd3cc18eb6450026b8073d4449b2b345494d6852c199a9c68c93d42416d4241a35891535893e35896d6a4295cfa4f08d63f36c2d3076d5cf5b044e823bd08397c41a5b948c84a7e34c996a5e96e1670996158824e653201522893e22896d444295c9321f915845f5f45a0b8cdd5a219208880477a007af8936b628e908cd279832d59869128ec4028e448323b18223d18723b10d47a83299e6c391c8c6d65ae03cb35e9906740477a007af4935b62809094d29a832d5986f1290c40290440324788e713b23ae6f6d404295c9371f904436b8d60253877d6bbf56bcf95601125e93ee6c9292d0a40a255391592731492c3049344c82c397b733e25ad7c6245499acf3314964036b2d3077f802d7fd5af1665d8549684db4b74944c2d309884c45669a6424b16024d18844ac1849f419496c3312aa4ca6f98c24b261b516384faa57a60123c13de8c16be2cd4de2119a4f61642a32d7241f89051f89061d702bb49d11d7b5361fa1cae49acf472299536bd7e70e1bf17e2d7833adc223b424d9dc2422a1290548a61ab34d229258209268dc019fc3dece886b5b1b915065b2cd4724918da7b5c0d22163deaf156fbe558884d7a49b9be42434a940c95463ce494e120b4e120d3ee0ebe2b633e23ad7e62454999cf3394964236a2d701e4daf9c034e829bd083d7447b9b64243c1d87c854639e4946b2168c643546122b46b2fa8c24b619095526cf7c46b2b2e9b41658bab582242b4012dc851ebc26dada56c947683e4191a9c64c937c642df8c86a7c64adf8c8eaf391b5cd47a8f29914be696c16ad0542577b067c047bdfc14b529d6d958c84a6141c996a5eb6e1e709b6158c64354682e324b733e2dad6662454996cf3198955548fa3b540e8f08bb4fd5af1e65bc548784db2b3ad1294d0a48224538d392741c95a8092d5b0c45a8192d507256b1b94506572ce07252b1b496b81d83d6ec350aa5f5056a026b8213d7881accdad9298f0749c28538d192889c95a1093d58809b68eed8cb806b689095526037d62922baafcb3a9b31d9ed0dbaf056f9655c08496c4bb9c6425349f40ca54639e4954b216a864cdc734aa5df7eaa392b58d4aa83279e6a39295cc9bb5ebb10b41ffcc0136c19de9c1eb932d4fa2139a521066aa310f2539590b72b21a39c137e76c67c4f5b04d4ea83279e89313ab088f937fca81b5c30953fbb5e2cdb78a9cf09a74cb93f88426158c996acc39494fd6829eac464fd68a9eac3e3d59dbf4842a93733e3d59d974590bac1d3efabd5f2bde9cabf009ad897639894e783a4197a9c84c93ec642dd8c96aec04bfd9dace886b5a9b9d506532cd67272b1b2c6b81b58bfab8f90a200537aa072f90373dc950683ec59aa9c82c9410652d20ca6a1005876a6d67c4b5b00d51a83259e84394950d98b540ffe8f0acde7e2d59da865bd58317255b9d242934a5e2cd5464ce2994323ede28e5f5dfa7738852ce88eb5c13a5706572ce4529b9a26ab26c0e24e7f02180fd5af2e61cb21451946a7659d6fea9e3493973e61ab34e0195f1d117d619be78205039238e7597a8651d052a49e15bd71e2ffb711def93d77237db10a7f08248a7cb82f60f9b48475133d75c86559f241836148619b8c07eb19d11d7b0264ae1ca64988b5272454852f2f5beeff006ba5f2bde3c4394c26b62bd2d2bd84f99a428cd1b24d798698aa28c8fb130cde68ce03b00b633e29ad6a4285c994c73294aaea89a29fb11e83b3c4db25f4bde5c4372c28b12ad2d8bd84f9ba4274ddecc35669ca227e3632a8cb3d31d0fa42767c435ae494fb83219e7d2935c51354b3607faa16bdc22819fe0a6f41045e9cea6200a4fca9933d798750aa28c8fb9b08e419433e25ad784285c99ac73214aaea81a28fb51ead0e1638dfbb5e4cd3a2427bc28dadd143511e9286ee61a334d5193f1b114a6d9e8569c20b29d11d7b42635e1ca649a4b4d3e2a426a9203c934a491fbb5e4cd34c426bc28dede1431e1f93863e61a734d1193f1110ad7ec7407bef4743b23ae6b4d62c295c9359798e48aaad9b139d08f1dde41f76bc99b6b884c7851b2bd296cc25372d0cc35669ca226e32316c6654681d4e48cb8c635a9095726e35c6a922baae6c7e640320e0795ecd79237e3909488a2747b53b88427e57c996bcc3a454bc6c75a58676c028f286e67c4b5ae494bb83259e7d2925c11c2927c3d3987bd6bbf562c9c5b701b7af09a687753a044a4a364996bcc33c949fa8293f40ff62b49ef7292f1d1e62454993cf339494f46c6be031d3ed3b85f4bde4cab38092d8a76b75e22129a4fb0652e32db2423e90b46d2e7231e1523e97d46d22ceef75cf94c0adf36322d3607926dd596bbefc1b50a93d09a5477eb252aa1290551e6a29771f8898271052be98d95e086683b23ae716d564295c9389f955845d5c8d81ce8e70e7bf17e2d7973ae8225bc28d9de7a494c6852c194b9c8bc93c8a42f90496fc8049f9bdece88eb5d1b995065f2ce47263d19169b03c93be4cdfbb5e4cdbb0a99d0a25883eb252ee1e9384da61a334de292bec025bde1127c6bdb76465cd3dab8842a93693e2ee9c9a0d81c48a6e191c9fd5af2665a854b6851bcc1495242f309a44c35e69a24257d414a7a7b0e067f0bd8ce88eb5a9b94506572cd27253d99119b03fdd2e1d38dfbb5e4cdb58a94d0a2648393b484a61458996acc38494bfa8296f4c62690e26e67c435ae4d4ba83219e7d392be3d1b365f4fbee1d0e5fd5af1e65b054b784dbabd496242930aae4c35e69c24267d414c7a23267818673b23ae736d624295c9399f98f4198c54d6856c1d7eb1b65f4bdeacab88092d8a7637494b783a4e94a9c64c93b4a42f68496fb4041faad8ce886b5a9b96506532cda7253d19029b037de89036efd79237d32a5a428be2dd4d82129a4f2065aa31d72428e90b50d21b28c186b19d11d7b53628a1cae49a0f4a7a32f33507926b387d6bbf962c5dc3cde8c18b92dd4dd2129a525065aa31e3242d190a5a32d868107cc46c3b23ae716d5a4295c9389f960c64ee6b0ef4e7d973346e005a829bd1431425dbdb2091094d2ab832d5987592980c0531198c98e08d693b239e75439b9850e533297cebc8f0d71c48d6557bb70188096e450f5e13eb6e83a4253c1d07ca54f3f20c3f4cf0ac802583c112844adb19713d6bc312aa4c9ef9b0c42aaa46bde6407f1e3baf4c035882bfd01cbc28dadd06c949683e8194a9c65c9398642830c9605002bfcddace88eb5a1b93506572cdc724437bca6bbedeaf1dee33f76bc59b691525a135a9e636485242532aa84c45669c442543814a863c37a44225838f4a86362aa1ca649c8f4a0632eaf523b076f872b8fd5af2e65c854a7851babb495e42932aae4c45e69d042643014c060326f8a4ee76465cefdac0842a93773e3019c8c4d777a0c30700f66bc99b771530a145d1fe2661094f27883215996b92960c052d198c96e088a5ed8cb8aeb569095526d77c5a329079af1f814787c5eed79237d72a5c428be20d4e92129a4f2065aa31d72429190a52321829c10f693b23ae6b6d524295c9359f940c64d66b0e24d7f0cd00fbb5e4cdb58a94d0a2648793b484a61454996acc38494b8682960c464b709bbb9d11d7b8362da1ca649c4f4b0632f035079271d5938bd79237e32a5ac28bd20d4e22139a547065aa31eb2432190a64321832c1af29b733e25ad746265499acf391c940c6bee6c0d07778426fbf962cadc3dde8c18ba2fd4de2129e8e2365aa31d3242e190b5c321a9c40e0b79d11d7b4362ea1ca649a8f4bc6f6ccd77c3d79865326f76bc59b67152da135d1ee364a5042f309a44c35669a042563014a460325f894e076463cd3c63628a1ca6752f8a69179af39300c5db509180194e066f4e035a9e6364a5842530aa84c352fdff00305df0a58321a2cc1b12fdb19717d6bc312aa4cbef9b084aac90bfef25f21f98977d5fd4a7633b48228bc58d9f4464952f8df81e366aa314b2549190b92321a49c1499edb19712d6d9314aa4c96fa24652423613f024387b34bf66bc99b75154aa145b1a6374a8cc2d371d04c35669aa42863415146a328f8cbf876465cd3da14852a93693e4519c93cd81c18c60e7bda7e2d7933ada228b428def52440a1f9046aa61a734df293b1e027a3f113fc22653b23ae6b6d7e4295c9359f9f8c64146c0e24d7f025a7fbb5e4cdb58a9fd0a264db930c85a614b4996acc388950c602a18c8650f00cdc76465ce3da08852a93713e4219c938d81c48c6e1c36efbb5e4cdb80aa1f0a2747b931c852655c0998acc3b0952c602a48c195b542065f441cad806295499bcf341cad81e0a9baf0f538777d1fd5af1665dc551684db4bd4986c2d309d24c45669a8428630151468328f804f576465cd3da10852a93693e4419c948d81c48aee14b71f66bc99b6b1544a145f1fe26f909cda7503315996d12a08c0540190da0e078c1ed8cb8b6b5010a5526db7c80329279b03930cc1d9e97dcaf254bdb70977af0a26483931085a614b4996acc380951a602a24c0651f01781ed8cb8c6b5210a5526e37c883291a1b01f81b9c3a71cf76bc99b711545e145c90637499442930ade4c35669d44295381522643298877b733e25937b5510a553e93c2b78e8c86cd81645df53be50428053be0c16b62fd6d921885a7e3a0996a5e9ee187099e151865328c82c772b633e27ad6c62854993cf3314aaea83a73628161e9f01eba5f4bde4cab70092daa4d67fe9805ec074d82923668a61a334d8292a900259381127ca6623b23ae696d504295c9341f944c64246c0e24d3e60a944c004a70337af0a254739b242ca129056ca61a334ec292a9802593a109ec17db19718d6bc312aa4cc6f9b0646a8f82fdb8be7438836bbf56bcf956b1125e93ee6d1298d0a40237538d392781c9540093c9f0043e5fb69d11d7b93630a1cae49c0f4ca6f640d87c7d081deeccf66bc59b73152fa135d1de2659094fc77932d5986792954c052b998c95e05d693b23ae676d564295c9339f954c64006c0e24d3f055ddfbb5e4cdb48a95d0a2e8d66d929884e61340996acc354949a682924cc62410286d67c475ad4d49a832b9e65392890c7ffd08c40e1fe5deaf256fae55988416259b9b442534a560ca5463c649523215a4643252825f666d67c435ae4d4aa83219e79392890c80cd81641c6e33f76bc99b711529e145e9ee2671094d2aa832d5987592964c052d998c96e041efed8cb8d6b569095526eb7c5a3291c1af3990acc317bfedd792a575b8113d7851b4bd4952c2d3099e4c45e69a442573814ae6fc304c854a661f954c6d544295c9351f95cc6ce8eb9ce7d376f834c07e2d7973ad4225b428dadf664949683e4594a9c86c9398642e30c96c5002272c6d67c4b36d6e6312aa7c26856f1b2510e4e4c29c5f02847374f62bd7cdcd0a9fd0d554df9b2542e17f01c19aa9e865287ed26068c15066231678367f3b23aea16d864295c9509fa158451542b1ebc9377c8dc07ead7833ae4228bc26d9f76609526852019ba9c69c9320652e40ca9c078a542065f641cadc062954999cf341cacca6c2e6521f1d82e8fd5af2665d05526851acefcd12a2f0741c33538d992621ca5c4094d920ca5c4194d98728731ba2506532cd8728339b089b4b7d744b455166a028b84b3d7851bced498042f309d04c35e69a04287301506603288801b733e2bad6062854995cf301cacc86c1e6521f1dce9fdcaf256fae5504851625db9ba42834a580cd5463c6498a32171465368a826343b633e21ad7a62854998cf329cacc06c2e640df2192dcaf256fc655148517a5db9b442934a9c0cd5463d64994321728653694822f1addce886b5d1ba55065b2ce4729339b0a9b4bedbb50a19419500aee520f5e14fb7267961885a7e3a4996acc348951e602a3cc062de60aa3cc3e4699db18852a93693e4699d944d85cead0e10493fd5af2665a85516851bcbd498242f309d64c35e69a242873415066e3157846713b23ae6b6d824295c9359fa0cc64186cae74e8b077edd78aa56968f9c16b92dd4d42149a52d066aa31df2443590a86b21843c191c6db19717d6b3314aa4cbef90c6561036173a94387af3dddaf256fc6550c851725bbdb22410a4d2a7833d5987592a32c0547598ca32c1547597c8eb2b4390a553e93c2b78e0d85cda58e5dd5dc16e025b8153d784d6cefb64856c2d371d04c352fcff0c304cf0a54b2182ac1edd076465ccfdaa8842a93673e2ab18aea79b0b9d4b1c34ebc5f4bde4cab58092d8a36b74562129a4f91662a32db2427590a4eb2187cc0a7aab733e2dad6e62454996cf339c9c246c1e6c0d8e1bb71f66bc99b6d1527a145a9f6b6485642532ad84c45e69c84254b014b162310f8aeb5ed8cb8ceb561095526e77c58b2b079b0b9d4a9c3f37afbb5e4cdb90a96f0a2747f93c48426555c998acc3b894c9602992cc621960a992c3e3259dac8842a93773e3259d854d85cead42d1532590099e06ef4e045d10e2771094fc79132d5986912972c052e59329ca870c9e2e392a58d4ba83299e6e392854c84cd95ce1d4e57deaf150bcfaa97cf1fbc26dee02428a1f90452a61a334d8292a500258bd1071cfab89d11d7b43628a1ca649a0f4a16360c36973a777807ddaf256faed5bf96fccf82924582129e8e1365aa31d32428590a50b2187d582a50b2f8a064698312aa4ca6f9a06461c36073a973172a50b24430adfea5e4ffdf799345d2129a543065aa31eb242d590a5ab21883c066b19d11d7ba362da1ca649d4f4b163611f6a3d40e4fededd79237ebeadf4afe67cf9b2c1295f0749c26538d9926514928504930fe800f976d67c435ad8d4aa83299e6a392c0a6c17e94dae1ce6cbf96bc9956fd3a428ba2ad2d484a42f3099c4c35e69aa424a1a024c1d043a82849f02949685312aa7c2685ef1a1b049b4b5dbaea26197a30adfaf686d6a4766e4192129a520065aa79f9861f28f856909260f82154a424f8a424b449095526df7c526215d5c3603f4aedf0f6b95f4bde8cabbebbe145c9ee16242ea1490553a61ab34ed29250d092600802bfc9dace886b5d9b965065b2cea725814c84fda8b4c33de67ead7873aefa0287d6c49a5b90a084a7e330996acc33c94942c14982c1079c87b59d11d7b33627a1cae499cf49021b069b4b8d1dbef66dbf962c4cab5e2a7ff0a27873938884e61338996acc3549484241488261077c51f676465cd7da84842a936b3e21096c0c6c2e3576f824c07e2d7973adfaf6861625bb9ba42434a522ca5464ce494c120a4c120c3e840a93041f93843626a1cae49c8f49021b059b4b8d1d16bb5f4bde9cab38092f4ab737094b6852c594a9c8bc93b42414b4241882c003f8db1971bd6bd312aa4cdef9b424b081b039b076781fddaf256fde55b48416451b9ca4253c9da0c95464ae495c120a5c128c41e0c0feed8cb8aeb571095526d77c5c12d834d85ceada2169deaf256fae55b88416c53b9c2425349fc0c95463ae4952120a5212f273301529093e29096d524295c9359f940436083697ba76b122256105d72a52428b921d4ed2129a522065aa31e3242d89052d89862010f86d67c435ae4d4ba83219e7d3924886c1e6eb8f0e9f70dcaf156fbe55b084d724fb5b94c48426155c996acc39494c62414ca26188581193e81393d8262654f94c0adf393611d602c9baea272ef6e05c454c684dacbb45494b783a0e94a9e6e5197e98e059414ba221087c93e876465ccfdab4842a93673e2db18a70cafca71c489e21c4daaf256fa655b48416459b5b94a084e61344996acc35094a62014aa2e187588192e88392d8062554995cf3414964035f2d30f51dd2e6fd5af2e65a454a6851aab945494b684a0195a9c68c93b42416b424660451d192e8d392d8a62554998cf3694964435f2d908c4392ba5f4b96c6d56ff4e345e9ee2691094d2ab832d598751299c40299c4cc212a64127d6412dbc8842a93753e32896cf2ab05a6a1c3fbe07e2d79b3ae4226b428dade242ee1e93851a61a334dd29258d092981144454ba24f4b629b96506532cda725914d7dcd81a1c307daf66bc99b69152da145f1f6264109cd279832d5986b9293c4829344830fb81ddace88eb5a9b93506572cde72491cc7bb5ebc9346cc5fbb5e2cdb40a93d09a647793a884a61454996acc37494a62414aa2e1077c467a3b23ae6f6d524295c9379f944436f2d502d3d82171deaf256fc655a48417a5bb9bc42534a9e2ca5464de495e120b5e120d42e0bbd6b633e27ad7e6255499bcf3794964735f2d90bcc31391fbb5e4cdbb8a97d0a2687b93ac84a71344998acc35094bd60296ac064b62054b561f96c4362ca1cae49a0f4b5636f4d502c9353c5db75f4bde5cab68092d8af6b75582129a4f21652a32db2429590b52b21a29592b52b2faa4646d9312aa7c26856f1b1bf86a8169ea6ad78094d4aff3a335a906b74a5a42530aa84c352fdff00305df0a5ab21a2dc1d18edb19717d6bd312aa4cbef9b4245754d1120b24dff098e77e2d7933aea225bc28d9e056894c68528195a9c6ac93c8642d90c96ac8040f646f67c4b5ae8d4ca83259e72393958d7efd0874f81dcd7e2d79b3ae4226b428d6df56894b783a4e94a9c64c93b8642d70c96a70023bc676465cd3dab8842a93693e2e59c9d857bb9e3cc3e379fbb562e959fd323f5a13ef6e1294d07c0229538d992641c95a80923563890a94ac3e2859dba0842a93693e2859c9c457bb9e4cc36f09f76bc59b691527a135c9e62659094d29a032d5986f9295ac052b598d95e061eced8cb8beb559095526df7c56b2b2a9af6b86281dfe7ebf5f4bde8cab58092f4a3737094c68528195a9c6ac93c0642d80c99a4f6b54c064f581c9da06265499acf381c9ca46bf5a2059870f6cefd79237eb2a62428ba2cd4dd2129e8e0365aa31d3242d590b5ab2e6c31a152d597d5ab2b669095526d37c5ab2b2b1af1648a6e14673bf96bc9956d1125a14ef6e1294d07c8228538db92639c95a7092351fd6a838c9ea7392b5cd49a832b9e67392954d7c5df381930ecfe6edd79237d72a4e428b92ed4db2129a524065aa31e3142a991e6f54f2faefd338442567c435ae894ab83219e7a2925c5135f4f523103a7cfa7cbf96bc1987a84414a5da5b96b57fe67852ce95b9c6ac53b8647af48575f9b406e29233e25877895ad6515c9214be757deb5ff8a78f4af1d7c96bb99b6dc84a7841a4b56541fb674da4e334998b2ec7aa8ff2e5d877bffef5cb97af7ff8fcf5f3ef7ef3f7cf7ff9f2bf7ffee52f3ffcf4eb373f7ef973caf5e852bffce587bffc35fff7d79fff7efd57fab5f55f7ffe9a4ccaffefaf5f3effe9cb2fe7ff4bdbc73fff9ccab4fff35d5ae31f3ffff26fd73abffb7f01504b030414000000080000003f00c0c1b45248010000240200000f000000786c2f776f726b626f6f6b2e786d6c8d51cb4ec33010bcf315d6de691e4a225a35a9040551090187d29e4dbc69ac3a76643ba4fd7b36a952e0c66977c63ba39df572756a14fb42eba4d13944b31018ead208a90f397c6c9f6eef8039cfb5e0ca68cce18c0e56c5cdb237f6f869cc91915ebb1c6aefdb4510b8b2c686bb996951d34b656cc33d417b085c6b910b5723fa460571186641c3a5868bc3c2fec7c354952c716dcaae41ed2f261615f7b4bdab65eba0585652e1ee1288f1b67de50dad7d52c01477fe51488f228784a0e9f10f61bbf6be936a00699842505c43be5b26b0e29df25b5a6d72a773c5491c67c3e430b593d8bb1fd100d9692fb5307d0e7142973d4f284a81f563bf97c2d74464e1fcca3da33cd43e877996858379f0cb7dbcdf54991ec3adb9e7f44b03b3a1ed238ab290d4d88d8846fd242ab92a29cb50c6c13849a339b0aa53ea81b837fd62f8683088a61cc537504b030414000000080000003f00610cac63c2010000060400000d000000786c2f7374796c65732e786d6c9d934d8bdb301086effd1542f7ac12d386b6d8dec3426061bb1436855e654b7604fa30d238c4fdf51d59aa63c3424b7dd1e8d5cc33e319a97cbc194daed207e56c450f0f7b4aa46d9d50b6afe88ff369f7999200dc0aae9d95159d64a08ff58732c0a4e5db454a2048b0a1a21780e12b63a1bd48c3c3831ba4c593ce79c301b7be6761f0928b10838c66c57e7f64862b4bebd28ee6642090d68d16b08c4522697916281e3f5292704f4ec452f0db19b31382b2ba649951979db35b5414ea32fc2257ae513944f7d669e70960ad323aa162b991c9e3896bd57815c58e1ba5a7241751987f2ffb19659d9f73a70cf3120b505a2f0514340975397000e9ed093724dbe769c0f4163b9b30b3df5fbc7bcfa743f16915302f98b7715ee024d7bf9ea4bad4b2030cf0aabfc415dcc0e22180336808c57b67b98ec83f11d9406c2bb57e8be3fed96dd8b76e359d7d9c8d5d4c2c289b09933691bfa625f60a5bfc1796dcba85bf89ce57e69fe3091f063dbd8ea691fe34dfb47c3758ae73d58c4d2b1695c45b54d1d718ac57e066541a947da70dc814b77b07e653e00d3eae4d166408d9f151c37939ace8ddfe26851acd97c5ebbbba3ac85e77fb25ceff709c2bb8bfe0fa37504b030414000000080000003f0018fa4654b0050000521b000013000000786c2f7468656d652f7468656d65312e786d6ced594d8fdb4418bef32b46beb78e133bcdae9aad36d9a485edb6abddb4a8c7893db1a7197bac99c96e7343ed110909511017246e1c1050a995b8945fb3500445ea5fe0f54792f166b2cdb68b00b539249ef1f37e7ff81de7eab5073143474448ca93b6e55cae5988243e0f6812b6ad3b83fea59685a4c24980194f48db9a12695ddbfae02ade5411890902f2446ee2b61529956edab6f4611bcbcb3c2509dc1b711163054b11da81c0c7c0366676bd566bda31a68985121c03d7dba311f5091a642cadad19f31e83af44c96cc367e2d0cf25ea143936183bd98f9cca2e13e808b3b60572027e3c200f948518960a6eb4ad5afeb1ecadabf69c88a915b41a5d3fff9474254130aee774221cce099dbebb716567cebf5ef05fc6f57abd6ecf99f3cb01d8f7c1526709ebf65b4e67c653031597cbbcbb35afe656f11affc6127ea3d3e9781b157c63817797f0ad5ad3ddae57f0ee02ef2debdfd9ee769b15bcb7c03797f0fd2b1b4db78acf4111a3c978099dc5731e993964c4d90d23bc05f0d62c0116285bcbae823e51ab722dc6f7b9e803200f2e5634416a9a9211f601d7c5f150509c09c09b046b778a2d5f2e6d65b290f4054d55dbfa28c550110bc8abe73fbc7afe14bd7afee4e4e1b393873f9f3c7a74f2f02703e10d9c843ae1cbef3effeb9b4fd09f4fbf7df9f84b335eeaf8df7efcf4d75fbe3003950e7cf1d593df9f3d79f1f5677f7cffd800df1678a8c307342612dd22c7e880c7609b4100198af3510c224c2b143802a401d8535105786b8a9909d72155e7dd15d0004cc0eb93fb155d0f233151d400dc8de20a708f73d6e1c268ce6e264b3767928466e162a2e30e303e32c9ee9e0a6d6f9242265313cb6e442a6aee3388360e494214caeef1312106b27b9456fcba477dc1251f29748fa20ea646970ce85099896ed018e232352908a1aef866ef2eea706662bf438eaa482808cc4c2c09abb8f13a9e281c1b35c631d39137b18a4c4a1e4e855f71b85410e990308e7a0191d244735b4c2beaee62e844c6b0efb1695c450a45c726e44dccb98edce1e36e84e3d4a8334d221dfba11c438a62b4cf9551095ead906c0d71c0c9ca70dfa5449dafacefd030322748766722caae5de9bf314dce6ac68c42377edf8c67f06d7834994ae2740b5e85fb1f36de1d3c49f609e4fafbbefbbeefbe8b7d77552dafdb6d170dd6d6e7e29c5fbc72481e51c60ed594919b326fcd12940efab0992f72a2f94c9e4670598aabe04281f36b24b8fa98aae830c22988717209a12c598712a55cc249c05ac93b3f4e52303edff36667404063b5c78362bba19f0de76cf2552875418d8cc1bac21a57de4e985300d794e6786669de99d26ccd9b500d0867077fa7592f4443c6604682ccef058359582e3c4432c2012963e4180d711a6bbaadf57aaf69d2361a6f276d9d20e9e2dc15e2bc0b88526d294af67239b2a4ba42c7a09557f72ce4e3b46d8d609282cb38057e326b40988549dbf25569ca6b8bf9b4c1e6b4746a2b0dae884885543b584605557e6bf6ea2459e85ff7dccc0f176380a11bada745a3e5fc8b5ad8a7434b4623e2ab153b8b65798f4f14118751708c866c220e30e8ed16d9155009cf8cfa6c21a042dd32f1aa955f56c1e957346575609646b8ec492d2df6053cbf9eeb90af34f5ec15babfa1298d0b34c57b774dc93217c6d646901fa8600c10186539dab6b85011872e9446d4ef0b181c7259a01782b2c854422c7bdf9ce94a8e167dabe05134b930520734448242a7539120645f9576be869953d79faf3346659f99ab2bd3e277488e081b64d5dbccecb75034eb26a52372dce9a0d9a6ea1a86fdfff0e4e3ae987cce1e0f1682dcf3cc22aed6f4b547c1c6dba970ce476ddd6c71dd5bfb519bc2e103655fd0b8a9f0d962be1df003883e9a4f940812f152ab2cbff9e610746e69c665acfed9316a1182d68a785fe4f0a939bbb1c2d9678b7b73677b065f7b67bbda5e2e515b3bc8e4aba53f9ef8f03ec8de8183d2842959bc4d7a0047cdeeec2f03e0632f48b7fe06504b030414000000080000003f00c490da3b250100005002000011000000646f6350726f70732f636f72652e786d6c9d92cb6ac3301045f7fd0aa3bd2d3f685a84ed405bb26aa0d09496ec84344944ad07925a277f5fd9b19d04bc2a6823dd3b67ee0c2a9747d944bf609dd0aa425992a20814d35ca87d853e36abf81145ce53c569a31554e8040e2debbb9219c2b48537ab0d582fc04501a41c61a64207ef0dc1d8b10348ea92e05041dc692ba90f57bbc786b26fba079ca7e9024bf094534f71078ccd44440392b309697e6cd30338c3d08004e51dce920c5fbc1eac74b305bd72e594c29f0ccc5a4771721f9d988c6ddb266dd15b43fe0c7fad5fdffb5163a1ba55314075c9196116a8d7b62ef1f5252caea1ceafc38a7702f8d329e8336fc320e73ae0510840ce7147e5b3787ed9ac509da7f922cef238bddf6405c91fc2d9762d6fea2f403934f93771049c73df7e82fa0f504b030414000000080000003f00793a3ce0760100000e03000010000000646f6350726f70732f6170702e786d6c9d52416edb3010bcf71502ef3165a3280a8362103829726851037692f3965a59442892e06e04bbaf2f25c38adcf4549d666707c3d190eaf6d8b9a2c74436f84a2c17a528d09b505b7fa8c4d3fedbcd57511083afc1058f953821895bfd496d538898d82215d9c153255ae6b896924c8b1dd022af7dde342175c0794c07199ac61abc0fe6ad43cf7255965f241e197d8df54d9c0cc5d971ddf3ff9ad6c10cf9e8797f8ad94fabbb189d35c0f927f50f6b52a0d070f17034e8949c2f5536daa1794b964fba54723eaa9d01879b6cac1b70844abe13ea1161e86c0b3691563daf7b341c5241f6776e6d258a5f4038c4a9440fc9826771969d8711bb489cf44b48afd42232293991239c6be7d87ed6cb5190c1b5504e4132be8eb8b7ec907e365b48fc8fc4cb79e231839865bc07860fe92ee7fce5bc095d049feb9313fa6efd2b3dc57dc83e7829f39a54bb1612d6b9ffa9ec89508f395572837ed3823f607dd17c5c0c57ff7c7ede7ab95a94f91b6ffcc229f9fe92f51f504b0102140314000000080000003f00389d86d83e010000070400001300000000000000000000008081000000005b436f6e74656e745f54797065735d2e786d6c504b0102140314000000080000003f00f29f49dae90000004b0200000b000000000000000000000080816f0100005f72656c732f2e72656c73504b0102140314000000080000003f00e5441ba3d50000002c0200001a0000000000000000000000808181020000786c2f5f72656c732f776f726b626f6f6b2e786d6c2e72656c73504b0102140314000000080000003f00cd17d61abf57000027af020018000000000000000000000080818e030000786c2f776f726b7368656574732f7368656574312e786d6c504b0102140314000000080000003f00c0c1b45248010000240200000f00000000000000000000008081835b0000786c2f776f726b626f6f6b2e786d6c504b0102140314000000080000003f00610cac63c2010000060400000d00000000000000000000008081f85c0000786c2f7374796c65732e786d6c504b0102140314000000080000003f0018fa4654b0050000521b00001300000000000000000000008081e55e0000786c2f7468656d652f7468656d65312e786d6c504b0102140314000000080000003f00c490da3b25010000500200001100000000000000000000008081c6640000646f6350726f70732f636f72652e786d6c504b0102140314000000080000003f00793a3ce0760100000e03000010000000000000000000000080811a660000646f6350726f70732f6170702e786d6c504b050600000000090009003e020000be6700000000', '2026-12-05 13:27:28.66229+00', NULL);


--
-- Data for Name: import_job_replacements; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.import_job_replacements VALUES (1, 2);
INSERT INTO public.import_job_replacements VALUES (2, 3);


--
-- Data for Name: import_jobs; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.import_jobs VALUES (1, 'partially_succeeded', 'orders', 1, 'fe546d17fbad5376e5716c1c8c87ea79b9d6103e6c6c16a93cad82f7f9be5096', 'orders.xlsx', 'Orders', 'calamine', '["Order ID", "Customer", "Email", "Order Date", "Status", "Qty", "Unit Price", "Zip Code", "Gift Wrap", "Notes"]', 300, 285, 15, 1, 5, NULL, NULL, '2026-12-05 13:27:23.218548+00', false, NULL, 'ordersOrdersfe546d17fbad5376e5716c1c8c87ea79b9d6103e6c6c16a93cad82f7f9be5096', '2026-12-05 13:27:23.033395+00', '2026-12-05 13:27:23.033395+00', '2026-12-05 13:27:23.218548+00', '2026-12-05 13:27:23.033395+00', 1, 301, 285, 0, 0, NULL, '2026-12-05 13:27:23.033395+00', 0, '{}', NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO public.import_jobs VALUES (2, 'succeeded', 'orders', 1, 'c23dd9329af49828bd54dfc1ae9043a27462adbb828d39c06dc01a8f474ba40a', 'orders_fix.xlsx', 'Orders', 'calamine', '["Order ID", "Customer", "Email", "Order Date", "Status", "Qty", "Unit Price"]', 5, 5, 0, 1, 5, NULL, NULL, '2026-12-05 13:27:24.05686+00', false, NULL, 'ordersOrdersc23dd9329af49828bd54dfc1ae9043a27462adbb828d39c06dc01a8f474ba40a', '2026-12-05 13:27:23.927388+00', '2026-12-05 13:27:23.927388+00', '2026-12-05 13:27:24.05686+00', '2026-12-05 13:27:23.927388+00', 1, 6, 2, 3, 0, NULL, '2026-12-05 13:27:23.927388+00', 0, '{}', NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO public.import_jobs VALUES (5, 'running', 'deliveries', 1, 'e89274670521c84b1ad5b8d0c9e80e3df4775442ae59553e54cb924b73f4ab38', 'deliveries_400.xlsx', 'Data', 'calamine', '["ID", "Customer", "Email", "Qty", "Price", "Date", "Status", "Paid", "Note", "Code"]', 400, 186, 14, 1, 5, 'vm:8517:68c040da:8563d8133e764c42-4026531836.163598', '2026-12-05 13:27:48.775858+00', '2026-12-05 13:27:28.775858+00', false, NULL, 'deliveriesDatae89274670521c84b1ad5b8d0c9e80e3df4775442ae59553e54cb924b73f4ab38', '2026-12-05 13:27:28.66229+00', '2026-12-05 13:27:28.66229+00', NULL, '2026-12-05 13:27:28.66229+00', 1, 201, NULL, NULL, NULL, NULL, '2026-12-05 13:27:28.66229+00', 0, '{}', NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO public.import_jobs VALUES (3, 'succeeded', 'orders', 1, '0bf07b0f0cd8e917c7b627357d87b5b484121c1e90ede4ad7a62c3f4e4d2a515', 'orders_fix2.xlsx', 'Orders', 'calamine', '["Order ID", "Customer", "Email", "Order Date", "Status", "Qty", "Unit Price"]', 1, 1, 0, 1, 5, NULL, NULL, '2026-12-05 13:27:25.649351+00', false, NULL, 'ordersOrders0bf07b0f0cd8e917c7b627357d87b5b484121c1e90ede4ad7a62c3f4e4d2a515', '2026-12-05 13:27:25.505631+00', '2026-12-05 13:27:25.505631+00', '2026-12-05 13:27:25.649351+00', '2026-12-05 13:27:25.505631+00', 1, 2, 0, 1, 0, NULL, '2026-12-05 13:27:25.505631+00', 0, '{}', NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO public.import_jobs VALUES (4, 'pending', 'deliveries', 1, 'e4347263a82d942cf597f663e78a664575bc782ff0c6dc9d83efc76781c40817', 'deliveries_50.xlsx', 'Data', 'calamine', '["ID", "Customer", "Email", "Qty", "Price", "Date", "Status", "Paid", "Note", "Code"]', NULL, 0, 0, 0, 5, NULL, NULL, NULL, false, NULL, 'deliveriesDatae4347263a82d942cf597f663e78a664575bc782ff0c6dc9d83efc76781c40817', '2026-12-05 13:27:27.299288+00', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '{}', NULL, NULL, NULL, NULL, NULL, NULL);


--
-- Data for Name: import_rejected_rows; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.import_rejected_rows VALUES (1, 48, '["10047", "Ken Lovelace", "ken.lovelace46@example.com", "2024-11-23", "shipped", "10.5", "113.6", "02134", "FALSE", null]', '[10047.0, "Ken Lovelace", "ken.lovelace46@example.com", {"date": "2024-11-23"}, "shipped", 10.5, 113.6, {"text": "02134", "number": 2134.0}, false, null]');
INSERT INTO public.import_rejected_rows VALUES (1, 54, '["10053", "Edsger Dijkstra", "edsger.dijkstra52@example.com", "31/02/2024", "shipped", "17", "92.17", "60614", "TRUE", null]', '[10053.0, "Edsger Dijkstra", "edsger.dijkstra52@example.com", "31/02/2024", "shipped", 17.0, 92.17, {"text": "60614", "number": 60614.0}, true, null]');
INSERT INTO public.import_rejected_rows VALUES (1, 64, '["10063", null, "ken.knuth62@example.com", "2024-02-05", "new", "11", "100.63", "94103", "TRUE", "leave at door"]', '[10063.0, null, "ken.knuth62@example.com", {"date": "2024-02-05"}, "new", 11.0, 100.63, {"text": "94103", "number": 94103.0}, true, "leave at door"]');
INSERT INTO public.import_rejected_rows VALUES (1, 124, '["10123", "Grace Hopper", "grace.hopper25@example.com", "2024-12-09", "new", "18.5", "62.77", "94103", "TRUE", "leave at door"]', '[10123.0, "Grace Hopper", "grace.hopper25@example.com", {"date": "2024-12-09"}, "new", 18.5, 62.77, {"text": "94103", "number": 94103.0}, true, "leave at door"]');
INSERT INTO public.import_rejected_rows VALUES (1, 139, '["10138", "Donald Lovelace", "donald.lovelace40@example.com", "2024-09-24", "pending", "4", "138.69", "00501", "FALSE", "call first"]', '[10138.0, "Donald Lovelace", "donald.lovelace40@example.com", {"date": "2024-09-24"}, "pending", 4.0, 138.69, {"text": "00501", "number": 501.0}, false, "call first"]');
INSERT INTO public.import_rejected_rows VALUES (1, 161, '["10160", "Ken Turing", "ken.turing62@example.com", "2024-01-02", "new", "11", "115.78", "ABCDE", "FALSE", null]', '[10160.0, "Ken Turing", "ken.turing62@example.com", {"date": "2024-01-02"}, "new", 11.0, 115.78, "ABCDE", false, null]');
INSERT INTO public.import_rejected_rows VALUES (1, 165, '["10164", null, "ken.lovelace66@example.com", "2024-07-05", "paid", "10", "216.33", "02134", "FALSE", "fragile"]', '[10164.0, null, "ken.lovelace66@example.com", {"date": "2024-07-05"}, "paid", 10.0, 216.33, {"text": "02134", "number": 2134.0}, false, "fragile"]');
INSERT INTO public.import_rejected_rows VALUES (1, 203, '["10202", "Grace Hopper", "grace.hopper7@example.com", "2024-01-11", "new", "10", "156.82", "ABCDE", "FALSE", null]', '[10202.0, "Grace Hopper", "grace.hopper7@example.com", {"date": "2024-01-11"}, "new", 10.0, 156.82, "ABCDE", false, null]');
INSERT INTO public.import_rejected_rows VALUES (1, 206, '["10205", "Edsger Hopper", "edsger.hopper10 at example.com", "2024-11-06", "cancelled", "19", "144.07", "00501", "FALSE", "call first"]', '[10205.0, "Edsger Hopper", "edsger.hopper10 at example.com", {"date": "2024-11-06"}, "cancelled", 19.0, 144.07, {"text": "00501", "number": 501.0}, false, "call first"]');
INSERT INTO public.import_rejected_rows VALUES (1, 216, '["10215", null, "ken.allen20@example.com", "2024-09-17", "paid", "6", "193.77", "60614", "FALSE", "leave at door"]', '[10215.0, null, "ken.allen20@example.com", {"date": "2024-09-17"}, "paid", 6.0, 193.77, {"text": "60614", "number": 60614.0}, false, "leave at door"]');
INSERT INTO public.import_rejected_rows VALUES (1, 227, '["10226", "Tim Liskov", "tim.liskov31 at example.com", "2024-11-17", "paid", "4", "92.32", "02134", "FALSE", "call first"]', '[10226.0, "Tim Liskov", "tim.liskov31 at example.com", {"date": "2024-11-17"}, "paid", 4.0, 92.32, {"text": "02134", "number": 2134.0}, false, "call first"]');
INSERT INTO public.import_rejected_rows VALUES (1, 235, '["10234", "Grace Allen", "grace.allen39@example.com", "2024-12-01", "paid", "17", "#N/A", "94103", "FALSE", null]', '[10234.0, "Grace Allen", "grace.allen39@example.com", {"date": "2024-12-01"}, "paid", 17.0, {"error": "#N/A"}, {"text": "94103", "number": 94103.0}, false, null]');
INSERT INTO public.import_rejected_rows VALUES (1, 258, '["10257", "Tim Knuth", "tim.knuth62@example.com", "2024-04-20", "cancelled", "8", "#N/A", "10001", "TRUE", "call first"]', '[10257.0, "Tim Knuth", "tim.knuth62@example.com", {"date": "2024-04-20"}, "cancelled", 8.0, {"error": "#N/A"}, {"text": "10001", "number": 10001.0}, true, "call first"]');
INSERT INTO public.import_rejected_rows VALUES (1, 270, '["10269", "Grace Allen", "grace.allen74@example.com", "31/02/2024", "new", "12", "148.02", "10001", "FALSE", "call first"]', '[10269.0, "Grace Allen", "grace.allen74@example.com", "31/02/2024", "new", 12.0, 148.02, {"text": "10001", "number": 10001.0}, false, "call first"]');
INSERT INTO public.import_rejected_rows VALUES (1, 272, '["10271", "Ada Thompson", "ada.thompson76@example.com", "31/02/2024", "paid", "14", "172.85", "00501", "FALSE", null]', '[10271.0, "Ada Thompson", "ada.thompson76@example.com", "31/02/2024", "paid", 14.0, 172.85, {"text": "00501", "number": 501.0}, false, null]');
INSERT INTO public.import_rejected_rows VALUES (5, 11, '["10", "Customer 10", "c10@example.com", "n/a", "3.7", "2024-01-11", "shipped", "TRUE", "note 10", "X0000010"]', '[10.0, "Customer 10", "c10@example.com", "n/a", 3.7, {"date": "2024-01-11"}, "shipped", true, "note 10", "X0000010"]');
INSERT INTO public.import_rejected_rows VALUES (5, 14, '["13", "Customer 13", "c13@example.com", "n/a", "4.81", "2024-01-14", "paid", "FALSE", "note 0", "X0000013"]', '[13.0, "Customer 13", "c13@example.com", "n/a", 4.81, {"date": "2024-01-14"}, "paid", false, "note 0", "X0000013"]');
INSERT INTO public.import_rejected_rows VALUES (5, 20, '["19", "Customer 19", "c19@example.com", "34", "7.03", "2024-01-20", "n/a", "FALSE", "note 6", "X0000019"]', '[19.0, "Customer 19", "c19@example.com", 34.0, 7.03, {"date": "2024-01-20"}, "n/a", false, "note 6", "X0000019"]');
INSERT INTO public.import_rejected_rows VALUES (5, 26, '["1.5", "Customer 25", "c25@example.com", "26", "9.25", "2024-01-26", "paid", "FALSE", "note 12", "X0000025"]', '[1.5, "Customer 25", "c25@example.com", 26.0, 9.25, {"date": "2024-01-26"}, "paid", false, "note 12", "X0000025"]');
INSERT INTO public.import_rejected_rows VALUES (5, 79, '["1.5", "Customer 78", "c78@example.com", "47", "28.86", "2024-03-19", "shipped", "TRUE", "note 0", "X0000078"]', '[1.5, "Customer 78", "c78@example.com", 47.0, 28.86, {"date": "2024-03-19"}, "shipped", true, "note 0", "X0000078"]');
INSERT INTO public.import_rejected_rows VALUES (5, 90, '["89", "Customer 89", "c89@example.com", "24", "32.93", "2024-03-30", "n/a", "FALSE", "note 11", "X0000089"]', '[89.0, "Customer 89", "c89@example.com", 24.0, 32.93, {"date": "2024-03-30"}, "n/a", false, "note 11", "X0000089"]');
INSERT INTO public.import_rejected_rows VALUES (5, 103, '["102", "Customer 102", "c102@example.com", "15", "37.74", "2024-04-12", "n/a", "TRUE", "note 11", "X0000102"]', '[102.0, "Customer 102", "c102@example.com", 15.0, 37.74, {"date": "2024-04-12"}, "n/a", true, "note 11", "X0000102"]');
INSERT INTO public.import_rejected_rows VALUES (5, 107, '["1.5", "Customer 106", "c106@example.com", "43", "39.22", "2024-04-16", "shipped", "TRUE", "note 2", "X0000106"]', '[1.5, "Customer 106", "c106@example.com", 43.0, 39.22, {"date": "2024-04-16"}, "shipped", true, "note 2", "X0000106"]');
INSERT INTO public.import_rejected_rows VALUES (5, 115, '["114", "Customer 114", "c114@example.com", "49", "42.18", "2024-04-24", "n/a", "TRUE", "note 10", "X0000114"]', '[114.0, "Customer 114", "c114@example.com", 49.0, 42.18, {"date": "2024-04-24"}, "n/a", true, "note 10", "X0000114"]');
INSERT INTO public.import_rejected_rows VALUES (5, 146, '["1.5", "Customer 145", "c145@example.com", "16", "53.65", "2024-05-25", "paid", "FALSE", "note 2", "X0000145"]', '[1.5, "Customer 145", "c145@example.com", 16.0, 53.65, {"date": "2024-05-25"}, "paid", false, "note 2", "X0000145"]');
INSERT INTO public.import_rejected_rows VALUES (5, 156, '["155", "Customer 155", "c155@example.com", "36", "57.35", "2024-06-04", "n/a", "FALSE", "note 12", "X0000155"]', '[155.0, "Customer 155", "c155@example.com", 36.0, 57.35, {"date": "2024-06-04"}, "n/a", false, "note 12", "X0000155"]');
INSERT INTO public.import_rejected_rows VALUES (5, 171, '["1.5", "Customer 170", "c170@example.com", "41", "62.9", "2024-06-19", "shipped", "TRUE", "note 1", "X0000170"]', '[1.5, "Customer 170", "c170@example.com", 41.0, 62.9, {"date": "2024-06-19"}, "shipped", true, "note 1", "X0000170"]');
INSERT INTO public.import_rejected_rows VALUES (5, 180, '["1.5", "Customer 179", "c179@example.com", "4", "66.23", "2024-06-28", "cancelled", "FALSE", "note 10", "X0000179"]', '[1.5, "Customer 179", "c179@example.com", 4.0, 66.23, {"date": "2024-06-28"}, "cancelled", false, "note 10", "X0000179"]');
INSERT INTO public.import_rejected_rows VALUES (5, 193, '["1.5", "Customer 192", "c192@example.com", "45", "71.04", "2024-07-11", "new", "TRUE", "note 10", "X0000192"]', '[1.5, "Customer 192", "c192@example.com", 45.0, 71.04, {"date": "2024-07-11"}, "new", true, "note 10", "X0000192"]');


--
-- Data for Name: import_row_errors; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.import_row_errors VALUES (1, 1, 48, 'Qty', '10.5', '''10.5'' is not a whole number');
INSERT INTO public.import_row_errors VALUES (2, 1, 54, 'Order Date', '31/02/2024', '''31/02/2024'': February 2024 has no day 31');
INSERT INTO public.import_row_errors VALUES (3, 1, 64, 'Customer', NULL, 'a value is required but the cell is empty');
INSERT INTO public.import_row_errors VALUES (4, 1, 124, 'Qty', '18.5', '''18.5'' is not a whole number');
INSERT INTO public.import_row_errors VALUES (5, 1, 139, 'Status', 'pending', '''pending'' is not one of: new, paid, shipped, cancelled');
INSERT INTO public.import_row_errors VALUES (6, 1, 161, 'Zip Code', 'ABCDE', 'a zip code is 5 digits, such as 02134');
INSERT INTO public.import_row_errors VALUES (7, 1, 165, 'Customer', NULL, 'a value is required but the cell is empty');
INSERT INTO public.import_row_errors VALUES (8, 1, 203, 'Zip Code', 'ABCDE', 'a zip code is 5 digits, such as 02134');
INSERT INTO public.import_row_errors VALUES (9, 1, 206, 'Email', 'edsger.hopper10 at example.com', '''edsger.hopper10 at example.com'' is not a valid email address');
INSERT INTO public.import_row_errors VALUES (10, 1, 216, 'Customer', NULL, 'a value is required but the cell is empty');
INSERT INTO public.import_row_errors VALUES (11, 1, 227, 'Email', 'tim.liskov31 at example.com', '''tim.liskov31 at example.com'' is not a valid email address');
INSERT INTO public.import_row_errors VALUES (12, 1, 235, 'Unit Price', '#N/A', 'the cell shows the error #N/A (value not available)');
INSERT INTO public.import_row_errors VALUES (13, 1, 258, 'Unit Price', '#N/A', 'the cell shows the error #N/A (value not available)');
INSERT INTO public.import_row_errors VALUES (14, 1, 270, 'Order Date', '31/02/2024', '''31/02/2024'': February 2024 has no day 31');
INSERT INTO public.import_row_errors VALUES (15, 1, 272, 'Order Date', '31/02/2024', '''31/02/2024'': February 2024 has no day 31');
INSERT INTO public.import_row_errors VALUES (16, 5, 11, 'Qty', 'n/a', '''n/a'' is not a whole number');
INSERT INTO public.import_row_errors VALUES (17, 5, 14, 'Qty', 'n/a', '''n/a'' is not a whole number');
INSERT INTO public.import_row_errors VALUES (18, 5, 20, 'Status', 'n/a', '''n/a'' is not one of: new, paid, shipped, cancelled');
INSERT INTO public.import_row_errors VALUES (19, 5, 26, 'ID', '1.5', '''1.5'' is not a whole number');
INSERT INTO public.import_row_errors VALUES (20, 5, 79, 'ID', '1.5', '''1.5'' is not a whole number');
INSERT INTO public.import_row_errors VALUES (21, 5, 90, 'Status', 'n/a', '''n/a'' is not one of: new, paid, shipped, cancelled');
INSERT INTO public.import_row_errors VALUES (22, 5, 103, 'Status', 'n/a', '''n/a'' is not one of: new, paid, shipped, cancelled');
INSERT INTO public.import_row_errors VALUES (23, 5, 107, 'ID', '1.5', '''1.5'' is not a whole number');
INSERT INTO public.import_row_errors VALUES (24, 5, 115, 'Status', 'n/a', '''n/a'' is not one of: new, paid, shipped, cancelled');
INSERT INTO public.import_row_errors VALUES (25, 5, 146, 'ID', '1.5', '''1.5'' is not a whole number');
INSERT INTO public.import_row_errors VALUES (26, 5, 156, 'Status', 'n/a', '''n/a'' is not one of: new, paid, shipped, cancelled');
INSERT INTO public.import_row_errors VALUES (27, 5, 171, 'ID', '1.5', '''1.5'' is not a whole number');
INSERT INTO public.import_row_errors VALUES (28, 5, 180, 'ID', '1.5', '''1.5'' is not a whole number');
INSERT INTO public.import_row_errors VALUES (29, 5, 193, 'ID', '1.5', '''1.5'' is not a whole number');


--
-- Data for Name: import_unique_claims; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: schema_migrations; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.schema_migrations VALUES (1, 'initial', '2026-12-05 13:27:20.202311+00');
INSERT INTO public.schema_migrations VALUES (2, 'resume_position', '2026-12-05 13:27:20.27684+00');
INSERT INTO public.schema_migrations VALUES (3, 'keyed_counts', '2026-12-05 13:27:20.278734+00');
INSERT INTO public.schema_migrations VALUES (4, 'forms_schema', '2026-12-05 13:27:20.282327+00');
INSERT INTO public.schema_migrations VALUES (6, 'column_map', '2026-12-05 13:27:20.301581+00');
INSERT INTO public.schema_migrations VALUES (7, 'rejected_row_types', '2026-12-05 13:27:20.303504+00');
INSERT INTO public.schema_migrations VALUES (8, 'form_tables', '2026-12-05 13:27:20.305277+00');
INSERT INTO public.schema_migrations VALUES (9, 'retired_forms', '2026-12-05 13:27:20.315846+00');
INSERT INTO public.schema_migrations VALUES (10, 'unique_claims', '2026-12-05 13:27:20.317601+00');
INSERT INTO public.schema_migrations VALUES (11, 'sheet_layout', '2026-12-05 13:27:20.324087+00');
INSERT INTO public.schema_migrations VALUES (12, 'job_groups', '2026-12-05 13:27:20.325281+00');
INSERT INTO public.schema_migrations VALUES (13, 'undo_and_limits', '2026-12-05 13:27:20.329814+00');
INSERT INTO public.schema_migrations VALUES (14, 'notify_outbox', '2026-12-05 13:27:20.33943+00');


--
-- Data for Name: timer_jobs; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.timer_jobs VALUES (1, 'scheduled_import', '4', '{}', 'pending', '2026-12-05 13:27:57.299288+00', NULL, NULL, 0, 5, NULL, '2026-12-05 13:27:27.299288+00', NULL);


--
-- Data for Name: workers; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.workers VALUES ('vm:8517:68c040da:8563d8133e764c42-4026531836.163598', 'submit', 'vm', 8517, '2026-12-05 13:27:28.689129+00', '2026-12-05 13:27:28.689129+00');


--
-- Name: forms_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.forms_id_seq', 2, true);


--
-- Name: import_attempt_failures_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.import_attempt_failures_id_seq', 1, false);


--
-- Name: import_group_ids; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.import_group_ids', 1, false);


--
-- Name: import_jobs_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.import_jobs_id_seq', 5, true);


--
-- Name: import_row_errors_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.import_row_errors_id_seq', 29, true);


--
-- Name: timer_jobs_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.timer_jobs_id_seq', 1, true);


--
-- Name: form_versions form_versions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.form_versions
    ADD CONSTRAINT form_versions_pkey PRIMARY KEY (form_id, version);


--
-- Name: forms forms_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.forms
    ADD CONSTRAINT forms_name_key UNIQUE (name);


--
-- Name: forms forms_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.forms
    ADD CONSTRAINT forms_pkey PRIMARY KEY (id);


--
-- Name: import_attempt_failures import_attempt_failures_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.import_attempt_failures
    ADD CONSTRAINT import_attempt_failures_pkey PRIMARY KEY (id);


--
-- Name: import_files import_files_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.import_files
    ADD CONSTRAINT import_files_pkey PRIMARY KEY (sha256);


--
-- Name: import_job_replacements import_job_replacements_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.import_job_replacements
    ADD CONSTRAINT import_job_replacements_pkey PRIMARY KEY (job_id, replaced_by);


--
-- Name: import_jobs import_jobs_idempotency_key_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.import_jobs
    ADD CONSTRAINT import_jobs_idempotency_key_key UNIQUE (idempotency_key);


--
-- Name: import_jobs import_jobs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.import_jobs
    ADD CONSTRAINT import_jobs_pkey PRIMARY KEY (id);


--
-- Name: import_rejected_rows import_rejected_rows_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.import_rejected_rows
    ADD CONSTRAINT import_rejected_rows_pkey PRIMARY KEY (import_job_id, row_number);


--
-- Name: import_row_errors import_row_errors_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.import_row_errors
    ADD CONSTRAINT import_row_errors_pkey PRIMARY KEY (id);


--
-- Name: import_unique_claims import_unique_claims_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.import_unique_claims
    ADD CONSTRAINT import_unique_claims_pkey PRIMARY KEY (import_job_id, unique_set, value);


--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (version);


--
-- Name: timer_jobs timer_jobs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.timer_jobs
    ADD CONSTRAINT timer_jobs_pkey PRIMARY KEY (id);


--
-- Name: workers workers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.workers
    ADD CONSTRAINT workers_pkey PRIMARY KEY (owner);


--
-- Name: orders:replaced_by; Type: INDEX; Schema: form_history; Owner: -
--

CREATE INDEX "orders:replaced_by" ON form_history.orders USING brin (replaced_by_job);


--
-- Name: deliveries:job_row; Type: INDEX; Schema: forms; Owner: -
--

CREATE UNIQUE INDEX "deliveries:job_row" ON forms.deliveries USING btree (import_job_id, row_number);


--
-- Name: orders:job_row; Type: INDEX; Schema: forms; Owner: -
--

CREATE UNIQUE INDEX "orders:job_row" ON forms.orders USING btree (import_job_id, row_number);


--
-- Name: orders:key; Type: INDEX; Schema: forms; Owner: -
--

CREATE UNIQUE INDEX "orders:key" ON forms.orders USING btree (order_id);


--
-- Name: import_attempt_failures_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX import_attempt_failures_at ON public.import_attempt_failures USING btree (failed_at);


--
-- Name: import_job_replacements_by; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX import_job_replacements_by ON public.import_job_replacements USING btree (replaced_by);


--
-- Name: import_jobs_claimable; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX import_jobs_claimable ON public.import_jobs USING btree (created_at) WHERE (status = ANY (ARRAY['pending'::text, 'running'::text]));


--
-- Name: import_jobs_finished; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX import_jobs_finished ON public.import_jobs USING btree (finished_at) WHERE (status = ANY (ARRAY['succeeded'::text, 'partially_succeeded'::text, 'failed'::text, 'cancelled'::text, 'reverted'::text]));


--
-- Name: import_jobs_group; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX import_jobs_group ON public.import_jobs USING btree (group_id) WHERE (group_id IS NOT NULL);


--
-- Name: import_jobs_status; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX import_jobs_status ON public.import_jobs USING btree (status);


--
-- Name: import_row_errors_job; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX import_row_errors_job ON public.import_row_errors USING btree (import_job_id, row_number);


--
-- Name: timer_jobs_due; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX timer_jobs_due ON public.timer_jobs USING btree (due_at) WHERE (status = ANY (ARRAY['pending'::text, 'processing'::text]));


--
-- Name: timer_jobs_failed; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX timer_jobs_failed ON public.timer_jobs USING btree (finished_at) WHERE (status = 'failed'::text);


--
-- Name: timer_jobs_finished; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX timer_jobs_finished ON public.timer_jobs USING btree (finished_at) WHERE (status = ANY (ARRAY['completed'::text, 'failed'::text, 'cancelled'::text]));


--
-- Name: timer_jobs_leased; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX timer_jobs_leased ON public.timer_jobs USING btree (lease_expires_at) WHERE (status = 'processing'::text);


--
-- Name: timer_jobs_live_target; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX timer_jobs_live_target ON public.timer_jobs USING btree (kind, target) WHERE (status = ANY (ARRAY['pending'::text, 'processing'::text]));


--
-- Name: timer_jobs_notices; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX timer_jobs_notices ON public.timer_jobs USING btree ((((payload ->> 'job_id'::text))::bigint)) WHERE (kind = 'notify'::text);


--
-- Name: timer_jobs_retention_day; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX timer_jobs_retention_day ON public.timer_jobs USING btree (target) WHERE (kind = 'retention'::text);


--
-- Name: import_jobs import_job_notice_on_end; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER import_job_notice_on_end AFTER UPDATE OF status ON public.import_jobs FOR EACH ROW WHEN (((old.status IS DISTINCT FROM new.status) AND (new.status = ANY (ARRAY['succeeded'::text, 'partially_succeeded'::text, 'failed'::text, 'cancelled'::text, 'reverted'::text])) AND (jsonb_typeof((new.notify -> 'events'::text)) = 'array'::text) AND ((new.notify -> 'events'::text) ? new.status))) EXECUTE FUNCTION public.import_job_notice();


--
-- Name: import_jobs import_job_notice_on_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER import_job_notice_on_insert AFTER INSERT ON public.import_jobs FOR EACH ROW WHEN (((new.status = ANY (ARRAY['succeeded'::text, 'partially_succeeded'::text, 'failed'::text, 'cancelled'::text, 'reverted'::text])) AND (jsonb_typeof((new.notify -> 'events'::text)) = 'array'::text) AND ((new.notify -> 'events'::text) ? new.status))) EXECUTE FUNCTION public.import_job_notice();


--
-- Name: form_versions form_versions_form_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.form_versions
    ADD CONSTRAINT form_versions_form_id_fkey FOREIGN KEY (form_id) REFERENCES public.forms(id) ON DELETE CASCADE;


--
-- Name: import_attempt_failures import_attempt_failures_import_job_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.import_attempt_failures
    ADD CONSTRAINT import_attempt_failures_import_job_id_fkey FOREIGN KEY (import_job_id) REFERENCES public.import_jobs(id) ON DELETE CASCADE;


--
-- Name: import_jobs import_jobs_file_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.import_jobs
    ADD CONSTRAINT import_jobs_file_fkey FOREIGN KEY (file) REFERENCES public.import_files(sha256);


--
-- Name: import_rejected_rows import_rejected_rows_import_job_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.import_rejected_rows
    ADD CONSTRAINT import_rejected_rows_import_job_id_fkey FOREIGN KEY (import_job_id) REFERENCES public.import_jobs(id) ON DELETE CASCADE;


--
-- Name: import_row_errors import_row_errors_import_job_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.import_row_errors
    ADD CONSTRAINT import_row_errors_import_job_id_fkey FOREIGN KEY (import_job_id) REFERENCES public.import_jobs(id) ON DELETE CASCADE;


--
-- Name: import_unique_claims import_unique_claims_import_job_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.import_unique_claims
    ADD CONSTRAINT import_unique_claims_import_job_id_fkey FOREIGN KEY (import_job_id) REFERENCES public.import_jobs(id) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--


