-- Hashes typed by operators before this migration were only lower-cased: bring chain hashes to the one
-- stored form (BEP20 `0x` + 64 lower-case hex, TRC20 64 bare lower-case hex) so the unique index sees
-- `0x…`, bare and upper-case spellings of one transaction as the same hash.
UPDATE "withdrawals" SET "tx_hash" = CASE
    WHEN "network" = 'BEP20' THEN '0x' || lower(regexp_replace("tx_hash", '^0[xX]', ''))
    ELSE lower(regexp_replace("tx_hash", '^0[xX]', ''))
  END
  WHERE "method_type" = 'crypto' AND "tx_hash" ~ '^(0[xX])?[0-9a-fA-F]{64}$';--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_tx_hash" ON "withdrawals" USING btree ("network","tx_hash") WHERE "withdrawals"."tx_hash" is not null;
