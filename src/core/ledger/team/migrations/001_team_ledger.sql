-- The team ledger: what each budget has spent in each period, every charge once (its id is unique,
-- so a charge replayed after an outage is never counted twice), and the team's audit trail.

CREATE TABLE team_usage (
  budget        text        NOT NULL,
  period_start  timestamptz NOT NULL,
  tokens        bigint      NOT NULL DEFAULT 0,
  shell         bigint      NOT NULL DEFAULT 0,
  cost_usd      numeric(20, 9) NOT NULL DEFAULT 0,
  PRIMARY KEY (budget, period_start)
);

CREATE TABLE team_charges (
  id          text        PRIMARY KEY,
  ts          timestamptz NOT NULL,
  team        text        NOT NULL,
  repository  text        NOT NULL,
  role        text        NOT NULL,
  user_id     text        NOT NULL,
  machine     text        NOT NULL,
  tags        text[]      NOT NULL DEFAULT '{}',
  model       text,
  tool        text,
  tokens      bigint      NOT NULL DEFAULT 0,
  shell       bigint      NOT NULL DEFAULT 0,
  cost_usd    numeric(20, 9) NOT NULL DEFAULT 0,
  -- The budgets it counted against, each with its period's start (ISO), as decided when it was made.
  budgets     jsonb       NOT NULL DEFAULT '[]',
  offline     boolean     NOT NULL DEFAULT false
);
CREATE INDEX team_charges_ts ON team_charges (ts);

CREATE TABLE team_events (
  id          text        PRIMARY KEY,
  ts          timestamptz NOT NULL,
  type        text        NOT NULL,
  team        text        NOT NULL,
  repository  text        NOT NULL,
  user_id     text        NOT NULL,
  machine     text        NOT NULL,
  role        text        NOT NULL,
  session     text        NOT NULL,
  event       jsonb       NOT NULL
);
CREATE INDEX team_events_ts ON team_events (ts);
