-- Every member account gets its ledger accounts (each asset × available, held, custody, used) the
-- moment it is created, in the same transaction. Entries then only ever lock rows that exist, in
-- one fixed order; creating rows while holding locks could otherwise deadlock two entries.
CREATE OR REPLACE FUNCTION ledger_open_member_accounts() RETURNS trigger AS $$
BEGIN
  INSERT INTO ledger_accounts (owner_account_id, asset, purpose)
  SELECT NEW.id, asset.asset, purpose.purpose
  FROM (VALUES ('USDT'), ('RAB'), ('FUEL'), ('TICKET')) AS asset(asset)
  CROSS JOIN (VALUES ('available'), ('held'), ('custody'), ('used')) AS purpose(purpose)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER accounts_open_ledger_accounts AFTER INSERT ON "accounts"
  FOR EACH ROW EXECUTE FUNCTION ledger_open_member_accounts();
--> statement-breakpoint
INSERT INTO ledger_accounts (owner_account_id, asset, purpose)
SELECT account.id, asset.asset, purpose.purpose
FROM accounts AS account
CROSS JOIN (VALUES ('USDT'), ('RAB'), ('FUEL'), ('TICKET')) AS asset(asset)
CROSS JOIN (VALUES ('available'), ('held'), ('custody'), ('used')) AS purpose(purpose)
ON CONFLICT DO NOTHING;
