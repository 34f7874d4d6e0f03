CREATE TABLE "contract_orders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"order_no" text NOT NULL,
	"member_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"parent_id" uuid,
	"side" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"lots" numeric(12, 2) NOT NULL,
	"leverage" integer NOT NULL,
	"contract_size" numeric(20, 0) NOT NULL,
	"digits" smallint NOT NULL,
	"open_price" numeric(30, 8) NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"open_tick_id" bigint NOT NULL,
	"margin" numeric(38, 4) NOT NULL,
	"spread_cost" numeric(38, 4) NOT NULL,
	"take_profit" numeric(30, 8),
	"stop_loss" numeric(30, 8),
	"swap" numeric(38, 4) DEFAULT '0' NOT NULL,
	"swap_day" date,
	"close_price" numeric(30, 8),
	"closed_at" timestamp with time zone,
	"close_tick_id" bigint,
	"close_reason" text,
	"pnl" numeric(38, 4),
	"close_note" text,
	"closed_by" uuid,
	"client_key" text,
	"request_hash" text,
	"close_key" text,
	"close_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contract_orders_order_no_unique" UNIQUE("order_no"),
	CONSTRAINT "contract_orders_side_check" CHECK ("contract_orders"."side" in ('buy', 'sell')),
	CONSTRAINT "contract_orders_state_check" CHECK ("contract_orders"."state" in ('open', 'closed')),
	CONSTRAINT "contract_orders_amounts_check" CHECK ("contract_orders"."lots" > 0 and "contract_orders"."leverage" > 0 and "contract_orders"."margin" > 0),
	CONSTRAINT "contract_orders_close_reason_check" CHECK ("contract_orders"."close_reason" is null or "contract_orders"."close_reason" in ('member', 'take_profit', 'stop_loss', 'stop_out', 'operator')),
	CONSTRAINT "contract_orders_closed_check" CHECK (("contract_orders"."state" = 'closed') = ("contract_orders"."closed_at" is not null and "contract_orders"."close_price" is not null and "contract_orders"."close_reason" is not null and "contract_orders"."pnl" is not null)),
	CONSTRAINT "contract_orders_loss_capped_check" CHECK ("contract_orders"."pnl" is null or "contract_orders"."pnl" >= -"contract_orders"."margin")
);
--> statement-breakpoint
CREATE TABLE "contract_products" (
	"product_id" uuid PRIMARY KEY NOT NULL,
	"digits" smallint NOT NULL,
	"contract_size" numeric(20, 0) NOT NULL,
	"leverages" integer[] NOT NULL,
	"min_lots" numeric(12, 2) NOT NULL,
	"lot_step" numeric(12, 2) NOT NULL,
	"max_lots" numeric(12, 2) NOT NULL,
	"spread_markup_points" integer DEFAULT 0 NOT NULL,
	"sessions" jsonb NOT NULL,
	"swap_enabled" boolean DEFAULT false NOT NULL,
	"swap_long_pct" numeric(8, 4) DEFAULT '0' NOT NULL,
	"swap_short_pct" numeric(8, 4) DEFAULT '0' NOT NULL,
	"trading_enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contract_products_digits_check" CHECK ("contract_products"."digits" between 0 and 8),
	CONSTRAINT "contract_products_size_check" CHECK ("contract_products"."contract_size" > 0),
	CONSTRAINT "contract_products_lots_check" CHECK ("contract_products"."min_lots" > 0 and "contract_products"."lot_step" > 0 and "contract_products"."min_lots" <= "contract_products"."max_lots"),
	CONSTRAINT "contract_products_markup_check" CHECK ("contract_products"."spread_markup_points" >= 0),
	CONSTRAINT "contract_products_leverages_check" CHECK (cardinality("contract_products"."leverages") > 0)
);
--> statement-breakpoint
CREATE TABLE "contract_ticks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" uuid NOT NULL,
	"bid" numeric(30, 8) NOT NULL,
	"ask" numeric(30, 8) NOT NULL,
	"source" text NOT NULL,
	"observed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contract_ticks_prices_check" CHECK ("contract_ticks"."bid" > 0 and "contract_ticks"."ask" >= "contract_ticks"."bid"),
	CONSTRAINT "contract_ticks_source_check" CHECK ("contract_ticks"."source" in ('manual', 'feed', 'replay'))
);
--> statement-breakpoint
CREATE TABLE "contract_watch" (
	"product_id" uuid PRIMARY KEY NOT NULL,
	"watched_tick_id" bigint DEFAULT 0 NOT NULL,
	"swap_day" date,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contract_orders" ADD CONSTRAINT "contract_orders_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_orders" ADD CONSTRAINT "contract_orders_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_orders" ADD CONSTRAINT "contract_orders_product_id_market_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."market_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_orders" ADD CONSTRAINT "contract_orders_closed_by_operators_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_products" ADD CONSTRAINT "contract_products_product_id_market_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."market_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_ticks" ADD CONSTRAINT "contract_ticks_product_id_market_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."market_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_watch" ADD CONSTRAINT "contract_watch_product_id_market_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."market_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contract_orders_client_key" ON "contract_orders" USING btree ("member_id","client_key");--> statement-breakpoint
CREATE UNIQUE INDEX "contract_orders_close_key" ON "contract_orders" USING btree ("member_id","close_key");--> statement-breakpoint
CREATE INDEX "contract_orders_account_open_idx" ON "contract_orders" USING btree ("account_id","opened_at") WHERE "contract_orders"."state" = 'open';--> statement-breakpoint
CREATE INDEX "contract_orders_account_closed_idx" ON "contract_orders" USING btree ("account_id","closed_at") WHERE "contract_orders"."state" = 'closed';--> statement-breakpoint
CREATE INDEX "contract_orders_product_open_idx" ON "contract_orders" USING btree ("product_id","side") WHERE "contract_orders"."state" = 'open';--> statement-breakpoint
CREATE INDEX "contract_orders_take_profit_idx" ON "contract_orders" USING btree ("product_id","side","take_profit") WHERE "contract_orders"."state" = 'open' and "contract_orders"."take_profit" is not null;--> statement-breakpoint
CREATE INDEX "contract_orders_stop_loss_idx" ON "contract_orders" USING btree ("product_id","side","stop_loss") WHERE "contract_orders"."state" = 'open' and "contract_orders"."stop_loss" is not null;--> statement-breakpoint
CREATE INDEX "contract_orders_closed_idx" ON "contract_orders" USING btree ("closed_at") WHERE "contract_orders"."state" = 'closed';--> statement-breakpoint
CREATE INDEX "contract_ticks_product_idx" ON "contract_ticks" USING btree ("product_id","id");--> statement-breakpoint
-- The contracts book (decision 034): the platform's side of every contract order. Members' losses come
-- in, their profits go out, so it may go below zero (the platform's own money at risk).
INSERT INTO "ledger_accounts" ("platform_code", "asset", "purpose", "allow_negative")
SELECT 'contracts_book', asset.asset, 'platform', true
FROM (VALUES ('USDT'), ('RAB'), ('FUEL'), ('TICKET')) AS asset(asset)
ON CONFLICT DO NOTHING;
