-- Every transaction on a scope's row counts in `version`. A state folder whose copy was written at the
-- row's version commits its next transaction in one round trip, on that copy, when the row is still
-- there (state/pgLedger/pgLedgerStore.ts); any other writer since moved it, and the transaction then
-- runs on the row, locked, as before.

ALTER TABLE alfred_ledgers ADD COLUMN version bigint NOT NULL DEFAULT 0;
