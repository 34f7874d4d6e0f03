CREATE TABLE "otc_appeals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"by_role" text NOT NULL,
	"by_member_id" uuid NOT NULL,
	"opening" boolean NOT NULL,
	"reason" text NOT NULL,
	"description" text NOT NULL,
	"image_ids" uuid[] NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"ruling" text,
	"ruling_note" text,
	"ruled_by" uuid,
	"ruled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "otc_appeals_role_check" CHECK ("otc_appeals"."by_role" in ('buyer', 'seller')),
	CONSTRAINT "otc_appeals_status_check" CHECK ("otc_appeals"."status" in ('open', 'ruled')),
	CONSTRAINT "otc_appeals_ruling_check" CHECK (("otc_appeals"."status" = 'ruled') = ("otc_appeals"."ruling" is not null and "otc_appeals"."ruled_at" is not null)),
	CONSTRAINT "otc_appeals_ruling_value_check" CHECK ("otc_appeals"."ruling" is null or "otc_appeals"."ruling" in ('release_to_buyer', 'return_to_seller'))
);
--> statement-breakpoint
CREATE TABLE "otc_listings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"listing_no" text NOT NULL,
	"member_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"side" text NOT NULL,
	"state" text DEFAULT 'matching' NOT NULL,
	"price" numeric(38, 4) NOT NULL,
	"quantity" numeric(38, 4) NOT NULL,
	"available" numeric(38, 4) NOT NULL,
	"completed" numeric(38, 4) DEFAULT '0' NOT NULL,
	"min_per_order" numeric(38, 4) NOT NULL,
	"max_per_order" numeric(38, 4) NOT NULL,
	"splittable" boolean NOT NULL,
	"payment_method_ids" uuid[] NOT NULL,
	"payment_types" text[] NOT NULL,
	"payment_window_minutes" integer NOT NULL,
	"terms" text DEFAULT '' NOT NULL,
	"fee_pct" text NOT NULL,
	"fee_remaining" numeric(38, 4) DEFAULT '0' NOT NULL,
	"escrow_seq" integer DEFAULT 0 NOT NULL,
	"deposit" numeric(38, 4) DEFAULT '0' NOT NULL,
	"deposit_status" text DEFAULT 'none' NOT NULL,
	"client_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "otc_listings_listing_no_unique" UNIQUE("listing_no"),
	CONSTRAINT "otc_listings_side_check" CHECK ("otc_listings"."side" in ('sell', 'buy')),
	CONSTRAINT "otc_listings_state_check" CHECK ("otc_listings"."state" in ('matching', 'ended', 'cancelled')),
	CONSTRAINT "otc_listings_deposit_status_check" CHECK ("otc_listings"."deposit_status" in ('none', 'held', 'released', 'forfeited')),
	CONSTRAINT "otc_listings_amounts_check" CHECK ("otc_listings"."available" >= 0 and "otc_listings"."fee_remaining" >= 0 and "otc_listings"."completed" >= 0),
	CONSTRAINT "otc_listings_quantity_check" CHECK ("otc_listings"."quantity" > 0 and "otc_listings"."available" <= "otc_listings"."quantity"),
	CONSTRAINT "otc_listings_limits_check" CHECK ("otc_listings"."min_per_order" > 0 and "otc_listings"."min_per_order" <= "otc_listings"."max_per_order"),
	CONSTRAINT "otc_listings_buy_no_escrow_check" CHECK ("otc_listings"."side" = 'sell' or "otc_listings"."fee_remaining" = 0),
	CONSTRAINT "otc_listings_closed_check" CHECK (("otc_listings"."state" = 'matching') = ("otc_listings"."closed_at" is null))
);
--> statement-breakpoint
CREATE TABLE "otc_orders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"order_no" text NOT NULL,
	"listing_id" uuid NOT NULL,
	"listing_side" text NOT NULL,
	"buyer_member_id" uuid NOT NULL,
	"buyer_account_id" uuid NOT NULL,
	"seller_member_id" uuid NOT NULL,
	"seller_account_id" uuid NOT NULL,
	"taker_member_id" uuid NOT NULL,
	"taker_role" text NOT NULL,
	"state" text DEFAULT 'pending_payment' NOT NULL,
	"amount" numeric(38, 4) NOT NULL,
	"price" numeric(38, 4) NOT NULL,
	"fiat_amount" numeric(38, 2) NOT NULL,
	"fee" numeric(38, 4) NOT NULL,
	"escrow" numeric(38, 4) NOT NULL,
	"payment_details" jsonb NOT NULL,
	"terms" text DEFAULT '' NOT NULL,
	"conversation_id" uuid,
	"pay_deadline" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"appeal_allowed_at" timestamp with time zone,
	"release_overdue_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancel_reason" text,
	"taker_cancel_day" date,
	"client_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "otc_orders_order_no_unique" UNIQUE("order_no"),
	CONSTRAINT "otc_orders_state_check" CHECK ("otc_orders"."state" in ('pending_payment', 'paid', 'appeal', 'completed', 'cancelled')),
	CONSTRAINT "otc_orders_side_check" CHECK ("otc_orders"."listing_side" in ('sell', 'buy')),
	CONSTRAINT "otc_orders_taker_role_check" CHECK ("otc_orders"."taker_role" in ('buyer', 'seller')),
	CONSTRAINT "otc_orders_parties_check" CHECK ("otc_orders"."buyer_member_id" <> "otc_orders"."seller_member_id"),
	CONSTRAINT "otc_orders_amounts_check" CHECK ("otc_orders"."amount" > 0 and "otc_orders"."fee" >= 0 and "otc_orders"."escrow" >= "otc_orders"."amount"),
	CONSTRAINT "otc_orders_cancel_reason_check" CHECK ("otc_orders"."cancel_reason" is null or "otc_orders"."cancel_reason" in ('buyer_cancelled', 'seller_cancelled', 'payment_timeout', 'ruling')),
	CONSTRAINT "otc_orders_completed_check" CHECK (("otc_orders"."state" = 'completed') = ("otc_orders"."completed_at" is not null)),
	CONSTRAINT "otc_orders_cancelled_check" CHECK (("otc_orders"."state" = 'cancelled') = ("otc_orders"."cancelled_at" is not null)),
	CONSTRAINT "otc_orders_paid_check" CHECK ("otc_orders"."state" not in ('paid', 'appeal') or "otc_orders"."paid_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "otc_steps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"scope" text NOT NULL,
	"listing_id" uuid NOT NULL,
	"order_id" uuid,
	"step" text NOT NULL,
	"actor" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "otc_steps_scope_check" CHECK ("otc_steps"."scope" in ('listing', 'order')),
	CONSTRAINT "otc_steps_actor_check" CHECK ("otc_steps"."actor" in ('buyer', 'seller', 'lister', 'system', 'operator')),
	CONSTRAINT "otc_steps_order_check" CHECK ("otc_steps"."scope" = 'listing' or "otc_steps"."order_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "otc_suspensions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	"order_id" uuid,
	"created_by" uuid NOT NULL,
	"lifted_at" timestamp with time zone,
	"lifted_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_conversations" DROP CONSTRAINT "chat_conversations_kind_check";--> statement-breakpoint
ALTER TABLE "chat_participants" DROP CONSTRAINT "chat_participants_role_check";--> statement-breakpoint
ALTER TABLE "otc_appeals" ADD CONSTRAINT "otc_appeals_order_id_otc_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."otc_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otc_appeals" ADD CONSTRAINT "otc_appeals_by_member_id_members_id_fk" FOREIGN KEY ("by_member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otc_appeals" ADD CONSTRAINT "otc_appeals_ruled_by_operators_id_fk" FOREIGN KEY ("ruled_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otc_listings" ADD CONSTRAINT "otc_listings_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otc_listings" ADD CONSTRAINT "otc_listings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otc_orders" ADD CONSTRAINT "otc_orders_listing_id_otc_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."otc_listings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otc_orders" ADD CONSTRAINT "otc_orders_buyer_member_id_members_id_fk" FOREIGN KEY ("buyer_member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otc_orders" ADD CONSTRAINT "otc_orders_buyer_account_id_accounts_id_fk" FOREIGN KEY ("buyer_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otc_orders" ADD CONSTRAINT "otc_orders_seller_member_id_members_id_fk" FOREIGN KEY ("seller_member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otc_orders" ADD CONSTRAINT "otc_orders_seller_account_id_accounts_id_fk" FOREIGN KEY ("seller_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otc_orders" ADD CONSTRAINT "otc_orders_taker_member_id_members_id_fk" FOREIGN KEY ("taker_member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otc_steps" ADD CONSTRAINT "otc_steps_listing_id_otc_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."otc_listings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otc_steps" ADD CONSTRAINT "otc_steps_order_id_otc_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."otc_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otc_suspensions" ADD CONSTRAINT "otc_suspensions_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otc_suspensions" ADD CONSTRAINT "otc_suspensions_order_id_otc_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."otc_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otc_suspensions" ADD CONSTRAINT "otc_suspensions_created_by_operators_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otc_suspensions" ADD CONSTRAINT "otc_suspensions_lifted_by_operators_id_fk" FOREIGN KEY ("lifted_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "otc_appeals_once_per_side" ON "otc_appeals" USING btree ("order_id","by_role");--> statement-breakpoint
CREATE UNIQUE INDEX "otc_appeals_one_opening" ON "otc_appeals" USING btree ("order_id") WHERE "otc_appeals"."opening";--> statement-breakpoint
CREATE INDEX "otc_appeals_queue_idx" ON "otc_appeals" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "otc_listings_client_key" ON "otc_listings" USING btree ("member_id","client_key");--> statement-breakpoint
CREATE INDEX "otc_listings_market_idx" ON "otc_listings" USING btree ("state","side","price");--> statement-breakpoint
CREATE INDEX "otc_listings_member_idx" ON "otc_listings" USING btree ("member_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "otc_orders_client_key" ON "otc_orders" USING btree ("taker_member_id","client_key");--> statement-breakpoint
CREATE INDEX "otc_orders_listing_idx" ON "otc_orders" USING btree ("listing_id");--> statement-breakpoint
CREATE INDEX "otc_orders_buyer_idx" ON "otc_orders" USING btree ("buyer_member_id","created_at");--> statement-breakpoint
CREATE INDEX "otc_orders_seller_idx" ON "otc_orders" USING btree ("seller_member_id","created_at");--> statement-breakpoint
CREATE INDEX "otc_orders_due_idx" ON "otc_orders" USING btree ("pay_deadline") WHERE "otc_orders"."state" = 'pending_payment';--> statement-breakpoint
CREATE INDEX "otc_orders_overdue_idx" ON "otc_orders" USING btree ("appeal_allowed_at") WHERE "otc_orders"."state" = 'paid' and "otc_orders"."release_overdue_at" is null;--> statement-breakpoint
CREATE INDEX "otc_orders_taker_cancel_idx" ON "otc_orders" USING btree ("taker_member_id","taker_cancel_day");--> statement-breakpoint
CREATE INDEX "otc_steps_listing_idx" ON "otc_steps" USING btree ("listing_id","id");--> statement-breakpoint
CREATE INDEX "otc_steps_order_idx" ON "otc_steps" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "otc_suspensions_member_idx" ON "otc_suspensions" USING btree ("member_id","until");--> statement-breakpoint
ALTER TABLE "chat_conversations" ADD CONSTRAINT "chat_conversations_kind_check" CHECK ("chat_conversations"."kind" in ('support', 'otc_order'));--> statement-breakpoint
ALTER TABLE "chat_participants" ADD CONSTRAINT "chat_participants_role_check" CHECK ("chat_participants"."role" in ('member', 'buyer', 'seller'));