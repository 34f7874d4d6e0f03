CREATE TABLE "team_day_levels" (
	"day" date NOT NULL,
	"seq" bigint NOT NULL,
	"account_id" uuid NOT NULL,
	"level" integer NOT NULL,
	"own_custody" numeric(38, 4) NOT NULL,
	"valid_direct" integer NOT NULL,
	"team_performance" numeric(38, 4) NOT NULL,
	CONSTRAINT "team_day_levels_day_seq_pk" PRIMARY KEY("day","seq")
);
--> statement-breakpoint
CREATE TABLE "team_earning_days" (
	"day" date PRIMARY KEY NOT NULL,
	"version_id" uuid NOT NULL,
	"arrival_delay_days" integer NOT NULL,
	"static_total" numeric(38, 4) NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team_earning_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"day" date NOT NULL,
	"type" text NOT NULL,
	"source_account_id" uuid,
	"generation" integer,
	"level" integer NOT NULL,
	"base" numeric(38, 4) NOT NULL,
	"rate_pct" numeric(7, 4),
	"shared_by" integer,
	"amount" numeric(38, 4) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team_earnings" (
	"account_id" uuid NOT NULL,
	"day" date NOT NULL,
	"type" text NOT NULL,
	"seq" bigint NOT NULL,
	"amount" numeric(38, 4) NOT NULL,
	"arrive_on" date NOT NULL,
	"status" text DEFAULT 'to_arrive' NOT NULL,
	"entry_id" bigint,
	"arrived_at" timestamp with time zone,
	CONSTRAINT "team_earnings_account_id_day_type_pk" PRIMARY KEY("account_id","day","type"),
	CONSTRAINT "team_earnings_values_check" CHECK ("team_earnings"."type" in ('direct', 'indirect', 'community', 'management', 'promotion', 'level_dividend')
        and "team_earnings"."amount" > 0 and "team_earnings"."status" in ('to_arrive', 'arrived')
        and ("team_earnings"."status" = 'arrived') = ("team_earnings"."entry_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "team_promotions" (
	"account_id" uuid NOT NULL,
	"level" integer NOT NULL,
	"day" date NOT NULL,
	"bonus" numeric(38, 4) NOT NULL,
	CONSTRAINT "team_promotions_account_id_level_pk" PRIMARY KEY("account_id","level")
);
--> statement-breakpoint
ALTER TABLE "team_day_levels" ADD CONSTRAINT "team_day_levels_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_earning_days" ADD CONSTRAINT "team_earning_days_version_id_team_level_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."team_level_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_earning_items" ADD CONSTRAINT "team_earning_items_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_earning_items" ADD CONSTRAINT "team_earning_items_source_account_id_accounts_id_fk" FOREIGN KEY ("source_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_earnings" ADD CONSTRAINT "team_earnings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_earnings" ADD CONSTRAINT "team_earnings_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_promotions" ADD CONSTRAINT "team_promotions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_earning_items_account_idx" ON "team_earning_items" USING btree ("account_id","day","type");--> statement-breakpoint
CREATE INDEX "team_earnings_due_idx" ON "team_earnings" USING btree ("arrive_on","seq") WHERE status = 'to_arrive';--> statement-breakpoint
CREATE INDEX "team_earnings_day_idx" ON "team_earnings" USING btree ("day","type");--> statement-breakpoint
CREATE INDEX "team_promotions_day_idx" ON "team_promotions" USING btree ("day");--> statement-breakpoint
CREATE INDEX "hosting_accruals_day_idx" ON "hosting_accruals" USING btree ("day");--> statement-breakpoint
CREATE INDEX "team_performance_days_day_idx" ON "team_performance_days" USING btree ("day");