-- The state database: organizations, users, tokens, money and limits, runs and uploads.
-- Never shipped; replacing the corpus file never touches it. Applied idempotently on every open.
PRAGMA user_version = 2;

CREATE TABLE IF NOT EXISTS organizations (
  id                 TEXT PRIMARY KEY,
  name               TEXT NOT NULL,
  plan               TEXT NOT NULL CHECK (plan IN ('free', 'starter', 'professional', 'enterprise')),
  require_two_factor INTEGER NOT NULL DEFAULT 0,
  created_at         TEXT NOT NULL,
  deleted_at         TEXT
);

CREATE TABLE IF NOT EXISTS users (
  id                 TEXT PRIMARY KEY,
  organization_id    TEXT NOT NULL REFERENCES organizations(id),
  name               TEXT NOT NULL,
  email              TEXT,
  verified_at        TEXT,
  two_factor_enabled INTEGER NOT NULL DEFAULT 0,
  created_at         TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS users_by_org ON users(organization_id);

-- A token is `jl_<id>_<secret>`: only sha256(secret) is stored. organization_id NULL marks a token created before
-- tokens named an organization (409 token_org_missing).
CREATE TABLE IF NOT EXISTS tokens (
  id              TEXT PRIMARY KEY,
  organization_id TEXT REFERENCES organizations(id),
  user_id         TEXT REFERENCES users(id),
  secret_sha256   BLOB NOT NULL,
  abilities       TEXT NOT NULL,            -- comma-separated
  name            TEXT,
  created_at      TEXT NOT NULL,
  expires_at      TEXT NOT NULL,
  revoked_at      TEXT
);

-- The credit ledger, append-only (the triggers refuse changes). Two pools: the monthly allotment (month-scoped,
-- renewed by an 'allotment' row on first use in a month) and bonus credits (starter grants, manual grants) that do not
-- expire. The balance is a sum; a charge takes from the monthly pool first.
CREATE TABLE IF NOT EXISTS ledger (
  id              INTEGER PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  at              TEXT NOT NULL,
  month           TEXT NOT NULL,             -- YYYY-MM (UTC)
  kind            TEXT NOT NULL CHECK (kind IN ('allotment', 'starter', 'grant', 'charge')),
  monthly_delta   INTEGER NOT NULL DEFAULT 0,
  bonus_delta     INTEGER NOT NULL DEFAULT 0,
  operation       TEXT,
  result_key      TEXT,
  note            TEXT
);
-- No index on (organization_id, month) for all rows: balances read ledger_sums, and such an index cost every charge a
-- page of its own in the commit (state version 2 drops it from older files).
DROP INDEX IF EXISTS ledger_by_org_month;
CREATE UNIQUE INDEX IF NOT EXISTS ledger_one_allotment ON ledger(organization_id, month) WHERE kind = 'allotment';
CREATE INDEX IF NOT EXISTS ledger_bonus ON ledger(organization_id) WHERE bonus_delta <> 0;
CREATE TRIGGER IF NOT EXISTS ledger_no_update BEFORE UPDATE ON ledger
  BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
CREATE TRIGGER IF NOT EXISTS ledger_no_delete BEFORE DELETE ON ledger
  BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;

-- Running sums of the ledger, kept by a trigger in the same statement as each ledger row, so a balance is read in
-- constant time however many charges a month holds. The ledger stays the record; these are derived from it
-- (src/accounts/state-db.ts derives them once for a state file written before they existed).
-- month '' holds the bonus pool, which has no month.
CREATE TABLE IF NOT EXISTS ledger_sums (
  organization_id TEXT NOT NULL,
  month           TEXT NOT NULL,
  monthly         INTEGER NOT NULL DEFAULT 0,
  allotted        INTEGER NOT NULL DEFAULT 0,
  bonus           INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, month)
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS ledger_sums_follow AFTER INSERT ON ledger BEGIN
  INSERT INTO ledger_sums (organization_id, month, monthly, allotted)
    VALUES (NEW.organization_id, NEW.month, NEW.monthly_delta, NEW.kind = 'allotment')
    ON CONFLICT DO UPDATE SET monthly = monthly + excluded.monthly, allotted = allotted + excluded.allotted;
  INSERT INTO ledger_sums (organization_id, month, bonus) VALUES (NEW.organization_id, '', NEW.bonus_delta)
    ON CONFLICT DO UPDATE SET bonus = bonus + excluded.bonus;
END;

-- Results an organization paid for this month: the same operation with the same normalized arguments is free.
CREATE TABLE IF NOT EXISTS paid_results (
  organization_id TEXT NOT NULL,
  month           TEXT NOT NULL,
  operation       TEXT NOT NULL,
  result_key      TEXT NOT NULL,
  ledger_id       INTEGER NOT NULL REFERENCES ledger(id),
  PRIMARY KEY (organization_id, month, operation, result_key)
) WITHOUT ROWID;

-- Rate windows live in memory (src/accounts/limits.ts, RateWindows); state files of earlier releases held them here.
DROP TABLE IF EXISTS rate_windows;

-- Daily volume per organization and unit; the day is the calendar day in Europe/Berlin.
CREATE TABLE IF NOT EXISTS daily_counters (
  organization_id TEXT NOT NULL,
  day             TEXT NOT NULL,
  unit            TEXT NOT NULL CHECK (unit IN ('rows', 'documents')),
  amount          INTEGER NOT NULL,
  PRIMARY KEY (organization_id, day, unit)
) WITHOUT ROWID;

-- Citation check runs, stored whole as the JSON answered (without the per-call envelope).
CREATE TABLE IF NOT EXISTS runs (
  id              TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  source          TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  body            TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_by_org ON runs(organization_id);

-- Uploads for the citation check; the file lives under the data directory until consumed or expired.
CREATE TABLE IF NOT EXISTS uploads (
  id                       TEXT PRIMARY KEY,
  organization_id          TEXT NOT NULL REFERENCES organizations(id),
  filename                 TEXT NOT NULL,
  format                   TEXT NOT NULL,
  status                   TEXT NOT NULL CHECK (status IN ('uploaded', 'ready', 'failed', 'consumed', 'expired')),
  stored_path              TEXT,
  byte_size                INTEGER NOT NULL,
  char_count               INTEGER,
  page_count               INTEGER,
  pages_without_text_layer INTEGER,
  quoted_credits           INTEGER,
  error_code               TEXT,
  text                     TEXT,
  created_at               TEXT NOT NULL,
  expires_at               TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS uploads_by_org ON uploads(organization_id, status);
