CREATE TABLE "dividend_allocations" (
	"day" date NOT NULL,
	"account_id" uuid NOT NULL,
	"custody" numeric(38, 4) NOT NULL,
	"amount" numeric(38, 4) NOT NULL,
	"status" text DEFAULT 'claimable' NOT NULL,
	"claimed_at" timestamp with time zone,
	"claim_entry_id" bigint,
	CONSTRAINT "dividend_allocations_day_account_id_pk" PRIMARY KEY("day","account_id"),
	CONSTRAINT "dividend_allocations_status_check" CHECK ("dividend_allocations"."status" in ('claimable', 'claimed')),
	CONSTRAINT "dividend_allocations_claim_check" CHECK (("dividend_allocations"."status" = 'claimed') = ("dividend_allocations"."claim_entry_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "dividend_pools" (
	"day" date PRIMARY KEY NOT NULL,
	"amount" numeric(38, 4) NOT NULL,
	"set_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dividend_allocations" ADD CONSTRAINT "dividend_allocations_day_dividend_pools_day_fk" FOREIGN KEY ("day") REFERENCES "public"."dividend_pools"("day") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dividend_allocations" ADD CONSTRAINT "dividend_allocations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dividend_allocations" ADD CONSTRAINT "dividend_allocations_claim_entry_id_journal_entries_id_fk" FOREIGN KEY ("claim_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dividend_pools" ADD CONSTRAINT "dividend_pools_set_by_operators_id_fk" FOREIGN KEY ("set_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dividend_allocations_account_idx" ON "dividend_allocations" USING btree ("account_id","status");