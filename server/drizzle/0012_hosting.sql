CREATE TABLE "hosting_accruals" (
	"order_id" uuid NOT NULL,
	"day" date NOT NULL,
	"amount" numeric(38, 4) NOT NULL,
	"entry_id" bigint NOT NULL,
	CONSTRAINT "hosting_accruals_order_id_day_pk" PRIMARY KEY("order_id","day")
);
--> statement-breakpoint
CREATE TABLE "hosting_expiries" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"entry_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hosting_order_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"event" text NOT NULL,
	"amount" numeric(38, 4),
	"day" date,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hosting_orders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"member_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"plan_name" text NOT NULL,
	"amount" numeric(38, 4) NOT NULL,
	"period_days" integer NOT NULL,
	"daily_rate" numeric(20, 8) NOT NULL,
	"early_penalty_rate" numeric(20, 8) NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"auto_renew" boolean DEFAULT false NOT NULL,
	"renewed_from_id" uuid,
	"client_key" text,
	"request_hash" text,
	"days_accrued" integer DEFAULT 0 NOT NULL,
	"interest_total" numeric(38, 4) DEFAULT '0' NOT NULL,
	"returned_amount" numeric(38, 4),
	"penalty" numeric(38, 4),
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hosting_orders_seq_unique" UNIQUE("seq"),
	CONSTRAINT "hosting_orders_client_key" UNIQUE("account_id","client_key"),
	CONSTRAINT "hosting_orders_renewed_from" UNIQUE("renewed_from_id"),
	CONSTRAINT "hosting_orders_status_check" CHECK ("hosting_orders"."status" in ('active', 'expired', 'redeemed')),
	CONSTRAINT "hosting_orders_amount_check" CHECK ("hosting_orders"."amount" > 0 and "hosting_orders"."end_date" > "hosting_orders"."start_date")
);
--> statement-breakpoint
CREATE TABLE "hosting_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"period_days" integer NOT NULL,
	"daily_rate" numeric(20, 8) NOT NULL,
	"min_amount" numeric(38, 4) NOT NULL,
	"max_amount" numeric(38, 4) NOT NULL,
	"early_penalty_rate" numeric(20, 8) NOT NULL,
	"auto_renew_allowed" boolean DEFAULT true NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hosting_plans_status_check" CHECK ("hosting_plans"."status" in ('active', 'retired')),
	CONSTRAINT "hosting_plans_terms_check" CHECK ("hosting_plans"."period_days" > 0 and "hosting_plans"."daily_rate" >= 0 and "hosting_plans"."min_amount" > 0 and "hosting_plans"."max_amount" >= "hosting_plans"."min_amount"
        and "hosting_plans"."early_penalty_rate" >= 0 and "hosting_plans"."early_penalty_rate" < 1)
);
--> statement-breakpoint
CREATE TABLE "settlement_runs" (
	"day" date PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"orders_accrued" integer DEFAULT 0 NOT NULL,
	"interest_total" numeric(38, 4) DEFAULT '0' NOT NULL,
	"orders_expired" integer DEFAULT 0 NOT NULL,
	"orders_renewed" integer DEFAULT 0 NOT NULL,
	"error" text,
	"rerun_by" uuid,
	CONSTRAINT "settlement_runs_status_check" CHECK ("settlement_runs"."status" in ('running', 'completed', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "hosting_accruals" ADD CONSTRAINT "hosting_accruals_order_id_hosting_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."hosting_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hosting_accruals" ADD CONSTRAINT "hosting_accruals_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hosting_expiries" ADD CONSTRAINT "hosting_expiries_order_id_hosting_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."hosting_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hosting_expiries" ADD CONSTRAINT "hosting_expiries_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hosting_order_events" ADD CONSTRAINT "hosting_order_events_order_id_hosting_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."hosting_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hosting_orders" ADD CONSTRAINT "hosting_orders_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hosting_orders" ADD CONSTRAINT "hosting_orders_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hosting_orders" ADD CONSTRAINT "hosting_orders_plan_id_hosting_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."hosting_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_runs" ADD CONSTRAINT "settlement_runs_rerun_by_operators_id_fk" FOREIGN KEY ("rerun_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hosting_order_events_order_idx" ON "hosting_order_events" USING btree ("order_id","at");--> statement-breakpoint
CREATE INDEX "hosting_orders_account_idx" ON "hosting_orders" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "hosting_orders_due_idx" ON "hosting_orders" USING btree ("status","end_date");