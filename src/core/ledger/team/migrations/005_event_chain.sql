-- The personal ledger's event log as a hash chain, as the state folder's file is (core/events/chain.ts):
-- each event row carries `prev`, the hash of the scope's row before it, and `hash`, the SHA-256 of its
-- prev, its seq and its event (jsonb's text, which PostgreSQL writes one way). Set by a trigger, so no
-- writer can leave it out; writers of a scope hold its alfred_ledgers row's lock (pgLedgerStore.ts),
-- so its rows are linked one after the other. A row inserted earlier in the same statement is seen.
-- Rows written before this migration keep no link; the first linked row names the zero hash.

ALTER TABLE alfred_ledger_events ADD COLUMN prev text, ADD COLUMN hash text;

CREATE FUNCTION alfred_ledger_events_link() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT hash INTO NEW.prev FROM alfred_ledger_events WHERE scope = NEW.scope ORDER BY seq DESC LIMIT 1;
  NEW.prev := coalesce(NEW.prev, repeat('0', 64));
  NEW.hash := encode(sha256(convert_to(NEW.prev || ' ' || NEW.seq::text || ' ' || NEW.event::text, 'UTF8')), 'hex');
  RETURN NEW;
END $$;

CREATE TRIGGER alfred_ledger_events_link BEFORE INSERT ON alfred_ledger_events FOR EACH ROW EXECUTE FUNCTION alfred_ledger_events_link();
