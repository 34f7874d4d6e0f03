CREATE TABLE "market_feed_state" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"claimed_slot" integer DEFAULT 0 NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_error" text,
	"last_updated" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "market_feed_state_single_check" CHECK ("market_feed_state"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "market_prices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" uuid NOT NULL,
	"price" numeric(30, 8) NOT NULL,
	"change_pct_24h" numeric(20, 4),
	"source" text NOT NULL,
	"observed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "market_prices_price_check" CHECK ("market_prices"."price" > 0),
	CONSTRAINT "market_prices_source_check" CHECK ("market_prices"."source" in ('manual', 'feed', 'exchange'))
);
--> statement-breakpoint
CREATE TABLE "market_products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"symbol" text NOT NULL,
	"display_name" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "market_products_source_check" CHECK ("market_products"."source" in ('manual', 'feed', 'exchange')),
	CONSTRAINT "market_products_symbol_check" CHECK ("market_products"."symbol" ~ '^[A-Z0-9]{2,12}/[A-Z0-9]{2,12}$')
);
--> statement-breakpoint
ALTER TABLE "market_prices" ADD CONSTRAINT "market_prices_product_id_market_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."market_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "market_prices_product_observed_key" ON "market_prices" USING btree ("product_id","observed_at");--> statement-breakpoint
CREATE INDEX "market_prices_observed_idx" ON "market_prices" USING btree ("observed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "market_products_symbol_key" ON "market_products" USING btree ("symbol");--> statement-breakpoint
-- RAB/USDT: the one product priced by the platform's own exchange setting (decision 027).
INSERT INTO "market_products" ("symbol", "display_name", "sort_order", "enabled", "source") VALUES ('RAB/USDT', 'RAB', 0, true, 'exchange');--> statement-breakpoint
INSERT INTO "market_feed_state" ("id") VALUES (1);
