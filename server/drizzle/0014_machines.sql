CREATE TABLE "machine_outputs" (
	"machine_id" uuid NOT NULL,
	"day" date NOT NULL,
	"amount" numeric(38, 4) NOT NULL,
	"entry_id" bigint NOT NULL,
	CONSTRAINT "machine_outputs_machine_id_day_pk" PRIMARY KEY("machine_id","day")
);
--> statement-breakpoint
CREATE TABLE "machine_products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"hashrate" numeric(20, 4) NOT NULL,
	"price_usdt" numeric(38, 4) NOT NULL,
	"price_tickets" numeric(38, 4) NOT NULL,
	"daily_output_per_t" numeric(20, 8) NOT NULL,
	"lifetime_days" integer NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "machine_products_status_check" CHECK ("machine_products"."status" in ('active', 'retired')),
	CONSTRAINT "machine_products_terms_check" CHECK ("machine_products"."hashrate" > 0 and "machine_products"."price_usdt" > 0 and "machine_products"."price_tickets" > 0 and "machine_products"."daily_output_per_t" >= 0 and "machine_products"."lifetime_days" > 0)
);
--> statement-breakpoint
CREATE TABLE "member_machines" (
	"id" uuid PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"member_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"name" text NOT NULL,
	"hashrate" numeric(20, 4) NOT NULL,
	"daily_output" numeric(38, 4) NOT NULL,
	"paid_asset" text NOT NULL,
	"paid_amount" numeric(38, 4) NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"days_mined" integer DEFAULT 0 NOT NULL,
	"output_total" numeric(38, 4) DEFAULT '0' NOT NULL,
	"client_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_machines_seq_unique" UNIQUE("seq"),
	CONSTRAINT "member_machines_client_key" UNIQUE("account_id","client_key"),
	CONSTRAINT "member_machines_status_check" CHECK ("member_machines"."status" in ('running', 'expired')),
	CONSTRAINT "member_machines_paid_check" CHECK ("member_machines"."paid_asset" in ('USDT', 'TICKET') and "member_machines"."paid_amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "machine_outputs" ADD CONSTRAINT "machine_outputs_machine_id_member_machines_id_fk" FOREIGN KEY ("machine_id") REFERENCES "public"."member_machines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_outputs" ADD CONSTRAINT "machine_outputs_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_machines" ADD CONSTRAINT "member_machines_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_machines" ADD CONSTRAINT "member_machines_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_machines" ADD CONSTRAINT "member_machines_product_id_machine_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."machine_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_machines_account_idx" ON "member_machines" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "member_machines_due_idx" ON "member_machines" USING btree ("status","end_date");