CREATE TABLE "account_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"from_account_id" uuid NOT NULL,
	"to_account_id" uuid NOT NULL,
	"client_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"asset" text NOT NULL,
	"amount" numeric(38, 4) NOT NULL,
	"entry_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_transfers_distinct" CHECK ("account_transfers"."from_account_id" <> "account_transfers"."to_account_id"),
	CONSTRAINT "account_transfers_amount_positive" CHECK ("account_transfers"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "exchange_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"client_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"direction" text NOT NULL,
	"from_asset" text NOT NULL,
	"to_asset" text NOT NULL,
	"from_amount" numeric(38, 4) NOT NULL,
	"to_amount" numeric(38, 4) NOT NULL,
	"price" numeric(20, 8) NOT NULL,
	"fee" numeric(38, 4) NOT NULL,
	"fee_fuel" numeric(38, 4) NOT NULL,
	"fee_usdt" numeric(38, 4) NOT NULL,
	"entry_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_orders_direction_check" CHECK ("exchange_orders"."direction" in ('rab_to_usdt', 'usdt_to_rab')),
	CONSTRAINT "exchange_orders_amounts_check" CHECK ("exchange_orders"."from_amount" > 0 and "exchange_orders"."to_amount" > 0),
	CONSTRAINT "exchange_orders_fee_check" CHECK ("exchange_orders"."fee" = "exchange_orders"."fee_fuel" + "exchange_orders"."fee_usdt" and "exchange_orders"."fee_fuel" >= 0 and "exchange_orders"."fee_usdt" >= 0)
);
--> statement-breakpoint
CREATE TABLE "journal_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "journal_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"idempotency_key" text NOT NULL,
	"kind" text NOT NULL,
	"reference_type" text,
	"reference_id" text,
	"memo" text,
	"operator_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "journal_entries_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_account_id" uuid,
	"platform_code" text,
	"asset" text NOT NULL,
	"purpose" text NOT NULL,
	"allow_negative" boolean DEFAULT false NOT NULL,
	"balance" numeric(38, 4) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_id_asset" UNIQUE("id","asset"),
	CONSTRAINT "ledger_accounts_asset_check" CHECK (asset in ('USDT', 'RAB', 'FUEL', 'TICKET')),
	CONSTRAINT "ledger_accounts_purpose_check" CHECK ("ledger_accounts"."purpose" in ('available', 'held', 'custody', 'used', 'platform')),
	CONSTRAINT "ledger_accounts_owner_check" CHECK (("ledger_accounts"."owner_account_id" is not null and "ledger_accounts"."platform_code" is null and "ledger_accounts"."purpose" <> 'platform' and not "ledger_accounts"."allow_negative")
        or ("ledger_accounts"."owner_account_id" is null and "ledger_accounts"."platform_code" is not null and "ledger_accounts"."purpose" = 'platform')),
	CONSTRAINT "ledger_accounts_non_negative" CHECK ("ledger_accounts"."allow_negative" or "ledger_accounts"."balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_adjustments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"asset" text NOT NULL,
	"direction" text NOT NULL,
	"amount" numeric(38, 4) NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'proposed' NOT NULL,
	"proposed_by" uuid NOT NULL,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	"entry_id" bigint,
	CONSTRAINT "ledger_adjustments_asset_check" CHECK (asset in ('USDT', 'RAB', 'FUEL', 'TICKET')),
	CONSTRAINT "ledger_adjustments_direction_check" CHECK ("ledger_adjustments"."direction" in ('credit', 'debit')),
	CONSTRAINT "ledger_adjustments_status_check" CHECK ("ledger_adjustments"."status" in ('proposed', 'approved', 'rejected')),
	CONSTRAINT "ledger_adjustments_amount_positive" CHECK ("ledger_adjustments"."amount" > 0),
	CONSTRAINT "ledger_adjustments_four_eyes" CHECK ("ledger_adjustments"."decided_by" is null or "ledger_adjustments"."decided_by" <> "ledger_adjustments"."proposed_by"),
	CONSTRAINT "ledger_adjustments_approved_posted" CHECK (("ledger_adjustments"."status" = 'approved') = ("ledger_adjustments"."entry_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "ledger_holds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_account_id" uuid NOT NULL,
	"asset" text NOT NULL,
	"amount" numeric(38, 4) NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reference_type" text NOT NULL,
	"reference_id" text NOT NULL,
	"hold_entry_id" bigint NOT NULL,
	"settle_entry_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "ledger_holds_asset_check" CHECK (asset in ('USDT', 'RAB', 'FUEL', 'TICKET')),
	CONSTRAINT "ledger_holds_amount_positive" CHECK ("ledger_holds"."amount" > 0),
	CONSTRAINT "ledger_holds_status_check" CHECK ("ledger_holds"."status" in ('pending', 'captured', 'released')),
	CONSTRAINT "ledger_holds_settled_check" CHECK (("ledger_holds"."status" = 'pending') = ("ledger_holds"."settle_entry_id" is null and "ledger_holds"."settled_at" is null))
);
--> statement-breakpoint
CREATE TABLE "postings" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "postings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"entry_id" bigint NOT NULL,
	"ledger_account_id" uuid NOT NULL,
	"asset" text NOT NULL,
	"amount" numeric(38, 4) NOT NULL,
	"balance_after" numeric(38, 4) NOT NULL,
	"record_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "postings_amount_non_zero" CHECK ("postings"."amount" <> 0)
);
--> statement-breakpoint
ALTER TABLE "account_transfers" ADD CONSTRAINT "account_transfers_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_transfers" ADD CONSTRAINT "account_transfers_from_account_id_accounts_id_fk" FOREIGN KEY ("from_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_transfers" ADD CONSTRAINT "account_transfers_to_account_id_accounts_id_fk" FOREIGN KEY ("to_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_transfers" ADD CONSTRAINT "account_transfers_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_orders" ADD CONSTRAINT "exchange_orders_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_orders" ADD CONSTRAINT "exchange_orders_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_owner_account_id_accounts_id_fk" FOREIGN KEY ("owner_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_adjustments" ADD CONSTRAINT "ledger_adjustments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_adjustments" ADD CONSTRAINT "ledger_adjustments_proposed_by_operators_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_adjustments" ADD CONSTRAINT "ledger_adjustments_decided_by_operators_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_adjustments" ADD CONSTRAINT "ledger_adjustments_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_holds" ADD CONSTRAINT "ledger_holds_owner_account_id_accounts_id_fk" FOREIGN KEY ("owner_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_holds" ADD CONSTRAINT "ledger_holds_hold_entry_id_journal_entries_id_fk" FOREIGN KEY ("hold_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_holds" ADD CONSTRAINT "ledger_holds_settle_entry_id_journal_entries_id_fk" FOREIGN KEY ("settle_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_account_asset_fk" FOREIGN KEY ("ledger_account_id","asset") REFERENCES "public"."ledger_accounts"("id","asset") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_transfers_client_key" ON "account_transfers" USING btree ("from_account_id","client_key");--> statement-breakpoint
CREATE INDEX "account_transfers_from_idx" ON "account_transfers" USING btree ("from_account_id","created_at");--> statement-breakpoint
CREATE INDEX "account_transfers_to_idx" ON "account_transfers" USING btree ("to_account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_orders_client_key" ON "exchange_orders" USING btree ("account_id","client_key");--> statement-breakpoint
CREATE INDEX "exchange_orders_account_idx" ON "exchange_orders" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "journal_entries_reference_idx" ON "journal_entries" USING btree ("reference_type","reference_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_member_key" ON "ledger_accounts" USING btree ("owner_account_id","asset","purpose") WHERE "ledger_accounts"."owner_account_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_platform_key" ON "ledger_accounts" USING btree ("platform_code","asset") WHERE "ledger_accounts"."platform_code" is not null;--> statement-breakpoint
CREATE INDEX "ledger_adjustments_status_idx" ON "ledger_adjustments" USING btree ("status","proposed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_holds_reference_key" ON "ledger_holds" USING btree ("reference_type","reference_id");--> statement-breakpoint
CREATE INDEX "ledger_holds_owner_idx" ON "ledger_holds" USING btree ("owner_account_id","asset","status");--> statement-breakpoint
CREATE INDEX "postings_account_idx" ON "postings" USING btree ("ledger_account_id","id");--> statement-breakpoint
CREATE INDEX "postings_entry_idx" ON "postings" USING btree ("entry_id");