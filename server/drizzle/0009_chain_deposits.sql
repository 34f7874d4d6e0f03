CREATE SEQUENCE "public"."deposit_address_index" INCREMENT BY 1 MINVALUE 0 MAXVALUE 9223372036854775807 START WITH 0 CACHE 1;--> statement-breakpoint
CREATE TABLE "chain_cursors" (
	"network" text PRIMARY KEY NOT NULL,
	"scanned_block" bigint NOT NULL,
	"scanned_hash" text,
	"head_block" bigint,
	"last_scan_at" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_cursors_network_check" CHECK (network in ('BEP20', 'TRC20'))
);
--> statement-breakpoint
CREATE TABLE "chain_deposits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"network" text NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"from_address" text NOT NULL,
	"deposit_address_id" uuid NOT NULL,
	"raw_amount" numeric(78, 0) NOT NULL,
	"amount" numeric(38, 4) NOT NULL,
	"status" text NOT NULL,
	"entry_id" bigint,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"credited_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_deposits_event" UNIQUE("network","tx_hash","log_index"),
	CONSTRAINT "chain_deposits_network_check" CHECK (network in ('BEP20', 'TRC20')),
	CONSTRAINT "chain_deposits_status_check" CHECK ("chain_deposits"."status" in ('confirming', 'credited', 'below_minimum', 'orphaned')),
	CONSTRAINT "chain_deposits_credit_check" CHECK (("chain_deposits"."status" = 'credited') = ("chain_deposits"."entry_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "deposit_addresses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"network" text NOT NULL,
	"derivation_index" integer NOT NULL,
	"address" text NOT NULL,
	"match_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_addresses_member_network" UNIQUE("member_id","network"),
	CONSTRAINT "deposit_addresses_network_index" UNIQUE("network","derivation_index"),
	CONSTRAINT "deposit_addresses_network_match" UNIQUE("network","match_key"),
	CONSTRAINT "deposit_addresses_network_check" CHECK (network in ('BEP20', 'TRC20'))
);
--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_deposit_address_id_deposit_addresses_id_fk" FOREIGN KEY ("deposit_address_id") REFERENCES "public"."deposit_addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chain_deposits_address_idx" ON "chain_deposits" USING btree ("deposit_address_id","seen_at");--> statement-breakpoint
CREATE INDEX "chain_deposits_status_idx" ON "chain_deposits" USING btree ("network","status","block_number");