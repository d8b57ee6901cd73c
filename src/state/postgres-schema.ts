// The state's schema on PostgreSQL, as numbered migrations that the service applies itself on open (under an
// advisory lock, so nodes starting together migrate once). The tables mirror schema/state.sql column for column;
// times stay ISO text in the "C" collation, so that they compare as on SQLite. Never edit a migration once released:
// add the next one.

/** Each migration, in order; its number is its index + 1 and is recorded in juralite_schema. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE organizations (
    id                 text PRIMARY KEY,
    name               text NOT NULL,
    plan               text NOT NULL CHECK (plan IN ('free', 'starter', 'professional', 'enterprise')),
    require_two_factor integer NOT NULL DEFAULT 0,
    created_at         text COLLATE "C" NOT NULL,
    deleted_at         text COLLATE "C"
  );
  CREATE TABLE users (
    id                 text PRIMARY KEY,
    organization_id    text NOT NULL REFERENCES organizations(id),
    name               text NOT NULL,
    email              text,
    verified_at        text COLLATE "C",
    two_factor_enabled integer NOT NULL DEFAULT 0,
    created_at         text COLLATE "C" NOT NULL
  );
  CREATE INDEX users_by_org ON users(organization_id);
  CREATE TABLE tokens (
    id              text PRIMARY KEY,
    organization_id text REFERENCES organizations(id),
    user_id         text REFERENCES users(id),
    secret_sha256   bytea NOT NULL,
    abilities       text NOT NULL,
    name            text,
    created_at      text COLLATE "C" NOT NULL,
    expires_at      text COLLATE "C" NOT NULL,
    revoked_at      text COLLATE "C"
  );
  CREATE TABLE ledger (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations(id),
    at              text COLLATE "C" NOT NULL,
    month           text COLLATE "C" NOT NULL,
    kind            text NOT NULL CHECK (kind IN ('allotment', 'starter', 'grant', 'charge')),
    monthly_delta   bigint NOT NULL DEFAULT 0,
    bonus_delta     bigint NOT NULL DEFAULT 0,
    operation       text,
    result_key      text,
    note            text
  );
  CREATE INDEX ledger_by_org_month ON ledger(organization_id, month);
  CREATE UNIQUE INDEX ledger_one_allotment ON ledger(organization_id, month) WHERE kind = 'allotment';
  CREATE FUNCTION juralite_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'the ledger is append-only'; END $$;
  CREATE TRIGGER ledger_append_only BEFORE UPDATE OR DELETE ON ledger
    FOR EACH ROW EXECUTE FUNCTION juralite_ledger_append_only();
  CREATE TABLE ledger_sums (
    organization_id text NOT NULL,
    month           text COLLATE "C" NOT NULL,
    monthly         bigint NOT NULL DEFAULT 0,
    allotted        bigint NOT NULL DEFAULT 0,
    bonus           bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (organization_id, month)
  );
  CREATE FUNCTION juralite_ledger_sums_follow() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO ledger_sums AS s (organization_id, month, monthly, allotted)
        VALUES (NEW.organization_id, NEW.month, NEW.monthly_delta, CASE WHEN NEW.kind = 'allotment' THEN 1 ELSE 0 END)
        ON CONFLICT (organization_id, month) DO UPDATE SET monthly = s.monthly + excluded.monthly, allotted = s.allotted + excluded.allotted;
      INSERT INTO ledger_sums AS s (organization_id, month, bonus) VALUES (NEW.organization_id, '', NEW.bonus_delta)
        ON CONFLICT (organization_id, month) DO UPDATE SET bonus = s.bonus + excluded.bonus;
      RETURN NULL;
    END $$;
  CREATE TRIGGER ledger_sums_follow AFTER INSERT ON ledger FOR EACH ROW EXECUTE FUNCTION juralite_ledger_sums_follow();
  CREATE TABLE paid_results (
    organization_id text NOT NULL,
    month           text COLLATE "C" NOT NULL,
    operation       text NOT NULL,
    result_key      text NOT NULL,
    ledger_id       bigint NOT NULL REFERENCES ledger(id),
    PRIMARY KEY (organization_id, month, operation, result_key)
  );
  CREATE TABLE daily_counters (
    organization_id text NOT NULL,
    day             text COLLATE "C" NOT NULL,
    unit            text NOT NULL CHECK (unit IN ('rows', 'documents')),
    amount          bigint NOT NULL,
    PRIMARY KEY (organization_id, day, unit)
  );
  CREATE TABLE runs (
    id              text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations(id),
    source          text NOT NULL,
    created_at      text COLLATE "C" NOT NULL,
    body            text NOT NULL
  );
  CREATE INDEX runs_by_org ON runs(organization_id);
  CREATE TABLE uploads (
    id                       text PRIMARY KEY,
    organization_id          text NOT NULL REFERENCES organizations(id),
    filename                 text NOT NULL,
    format                   text NOT NULL,
    status                   text NOT NULL CHECK (status IN ('uploaded', 'ready', 'failed', 'consumed', 'expired')),
    stored_path              text,
    byte_size                bigint NOT NULL,
    char_count               integer,
    page_count               integer,
    pages_without_text_layer integer,
    quoted_credits           integer,
    error_code               text,
    text                     text,
    created_at               text COLLATE "C" NOT NULL,
    expires_at               text COLLATE "C" NOT NULL
  );
  CREATE INDEX uploads_by_org ON uploads(organization_id, status);
  -- Rate windows shared by every node: one row per token and bucket, the current fixed minute and its count.
  CREATE TABLE rate_windows (
    token_id     text NOT NULL,
    bucket       text NOT NULL,
    window_start bigint NOT NULL,
    count        integer NOT NULL,
    PRIMARY KEY (token_id, bucket)
  );
  -- Takes one slot of each bucket, all or none, in one round trip: the first bucket at its limit, or NULL when taken.
  CREATE FUNCTION juralite_take_rate(p_token text, p_buckets text[], p_limits integer[], p_window bigint)
    RETURNS text LANGUAGE plpgsql AS $$
    DECLARE i integer; used integer;
    BEGIN
      FOR i IN 1 .. array_length(p_buckets, 1) LOOP
        INSERT INTO rate_windows VALUES (p_token, p_buckets[i], p_window, 0) ON CONFLICT DO NOTHING;
      END LOOP;
      FOR i IN 1 .. array_length(p_buckets, 1) LOOP
        SELECT CASE WHEN window_start = p_window THEN count ELSE 0 END INTO used FROM rate_windows
          WHERE token_id = p_token AND bucket = p_buckets[i] FOR UPDATE;
        IF used >= p_limits[i] THEN RETURN p_buckets[i]; END IF;
      END LOOP;
      FOR i IN 1 .. array_length(p_buckets, 1) LOOP
        UPDATE rate_windows SET count = CASE WHEN window_start = p_window THEN count + 1 ELSE 1 END, window_start = p_window
          WHERE token_id = p_token AND bucket = p_buckets[i];
      END LOOP;
      RETURN NULL;
    END $$;
  `,
  // 2. Rate limits in a sliding minute, as RateWindows counts them (src/accounts/limits.ts): fixed windows let 120 calls
  // of one token through in one second across a minute's boundary. Each token's bucket keeps the times (ms) of its
  // calls within the last minute, at most its limit.
  `
  DROP FUNCTION juralite_take_rate(text, text[], integer[], bigint);
  ALTER TABLE rate_windows DROP COLUMN window_start, DROP COLUMN count, ADD COLUMN calls bigint[] NOT NULL DEFAULT '{}';
  -- Takes one slot of each bucket, all or none, in one statement (its own transaction), under the buckets' row locks
  -- taken in the caller's bucket order: the first bucket at its limit and its oldest call of the minute, or NULLs.
  CREATE FUNCTION juralite_take_rate(p_token text, p_buckets text[], p_limits integer[], p_now bigint,
    OUT refused text, OUT oldest bigint) LANGUAGE plpgsql AS $$
    DECLARE i integer; recent bigint[];
    BEGIN
      FOR i IN 1 .. array_length(p_buckets, 1) LOOP
        INSERT INTO rate_windows (token_id, bucket) VALUES (p_token, p_buckets[i]) ON CONFLICT DO NOTHING;
      END LOOP;
      FOR i IN 1 .. array_length(p_buckets, 1) LOOP
        SELECT array(SELECT t FROM unnest(calls) t WHERE t > p_now - 60000 ORDER BY t) INTO recent FROM rate_windows
          WHERE token_id = p_token AND bucket = p_buckets[i] FOR UPDATE;
        IF cardinality(recent) >= p_limits[i] THEN
          refused := p_buckets[i];
          oldest := recent[1];
          RETURN;
        END IF;
      END LOOP;
      FOR i IN 1 .. array_length(p_buckets, 1) LOOP
        UPDATE rate_windows SET calls = array(SELECT t FROM unnest(calls) t WHERE t > p_now - 60000 ORDER BY t) || p_now
          WHERE token_id = p_token AND bucket = p_buckets[i];
      END LOOP;
    END $$;
  `,
  // 3. No index over all of an organization's ledger rows by month: balances read ledger_sums (its running sums), and
  // the index cost every charge an index entry of its own (schema/state.sql drops it as well).
  `
  DROP INDEX IF EXISTS ledger_by_org_month;
  `,
];
