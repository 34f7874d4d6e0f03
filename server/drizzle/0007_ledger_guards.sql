-- Journal entries and postings are the ledger's history: rows are only ever inserted. Mistakes are
-- corrected by new entries, so the database refuses UPDATE, DELETE and TRUNCATE outright.
CREATE OR REPLACE FUNCTION ledger_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '% is append-only (% refused)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER journal_entries_append_only BEFORE UPDATE OR DELETE ON "journal_entries"
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE TRIGGER journal_entries_no_truncate BEFORE TRUNCATE ON "journal_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE TRIGGER postings_append_only BEFORE UPDATE OR DELETE ON "postings"
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE TRIGGER postings_no_truncate BEFORE TRUNCATE ON "postings"
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
-- At commit, every entry a transaction wrote must sum to zero per asset: a half-written or
-- unbalanced entry cannot be committed, whatever the code above it does.
CREATE OR REPLACE FUNCTION ledger_check_entry_balanced() RETURNS trigger AS $$
DECLARE
  unbalanced numeric;
BEGIN
  SELECT sum(amount) INTO unbalanced FROM postings WHERE entry_id = NEW.entry_id AND asset = NEW.asset;
  IF unbalanced <> 0 THEN
    RAISE EXCEPTION 'journal entry % does not balance in %: off by %', NEW.entry_id, NEW.asset, unbalanced
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER postings_entry_balanced AFTER INSERT ON "postings"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION ledger_check_entry_balanced();
--> statement-breakpoint
-- The platform accounts every money feature posts against, in each asset. Those that stand for the
-- outside world may go below zero: treasury (issues RAB, takes the other side of exchanges),
-- deposits (money that came in from chains), adjustments, interest and rewards (expenses).
INSERT INTO "ledger_accounts" ("platform_code", "asset", "purpose", "allow_negative")
SELECT code.platform_code, asset.asset, 'platform', code.allow_negative
FROM (VALUES ('treasury', true), ('deposits', true), ('adjustments', true), ('interest', true), ('rewards', true),
             ('fees', false), ('withdrawals', false)) AS code(platform_code, allow_negative)
CROSS JOIN (VALUES ('USDT'), ('RAB'), ('FUEL'), ('TICKET')) AS asset(asset)
ON CONFLICT DO NOTHING;
