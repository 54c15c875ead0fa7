-- The personal ledger on PostgreSQL (ALFRED_LEDGER_BACKEND=postgres): one row per scope (a state
-- folder, or the ALFRED_LEDGER_SCOPE a developer carries from laptop to CI runner), locked by every
-- transaction on it, and its event log, each event once by id (a replay after an outage adds nothing).

CREATE TABLE alfred_ledgers (
  scope       text        PRIMARY KEY,
  -- The ledger (ledgerFormat.ts) without the local file positions; null until the first transaction.
  ledger      jsonb,
  -- The newest seq of the scope's events: where a state folder's local copy of the log catches up from.
  last_seq    bigint      NOT NULL DEFAULT 0,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE alfred_ledger_events (
  seq         bigserial   PRIMARY KEY,
  id          text        NOT NULL UNIQUE,
  ts          timestamptz NOT NULL,
  type        text        NOT NULL,
  scope       text        NOT NULL,
  session     text        NOT NULL,
  role        text        NOT NULL,
  event       jsonb       NOT NULL
);
CREATE INDEX alfred_ledger_events_scope ON alfred_ledger_events (scope, seq);
CREATE INDEX alfred_ledger_events_ts ON alfred_ledger_events (ts);
