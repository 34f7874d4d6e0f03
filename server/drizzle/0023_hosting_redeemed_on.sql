ALTER TABLE "hosting_orders" ADD COLUMN "redeemed_on" date;--> statement-breakpoint
-- Orders redeemed before this column: the platform day their redemption was logged on (same transaction).
UPDATE "hosting_orders" o SET "redeemed_on" = coalesce(
  (SELECT min(e."day") FROM "hosting_order_events" e WHERE e."order_id" = o."id" AND e."event" = 'redeemed'),
  (o."closed_at" AT TIME ZONE 'UTC')::date)
WHERE o."status" = 'redeemed';--> statement-breakpoint
ALTER TABLE "hosting_orders" ADD CONSTRAINT "hosting_orders_redeemed_on_check" CHECK (("hosting_orders"."status" = 'redeemed') = ("hosting_orders"."redeemed_on" is not null));
