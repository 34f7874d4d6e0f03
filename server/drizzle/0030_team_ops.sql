CREATE TABLE "airdrop_campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"asset" text DEFAULT 'RAB' NOT NULL,
	"amount" numeric(38, 4) NOT NULL,
	"selection" text NOT NULL,
	"min_level" integer,
	"day" date NOT NULL,
	"arrive_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"recipients" integer NOT NULL,
	"total" numeric(38, 4) NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_by" uuid,
	"cancelled_at" timestamp with time zone,
	"arrived_at" timestamp with time zone,
	CONSTRAINT "airdrop_campaigns_status_check" CHECK ("airdrop_campaigns"."status" in ('scheduled', 'arriving', 'arrived', 'cancelled')),
	CONSTRAINT "airdrop_campaigns_selection_check" CHECK ("airdrop_campaigns"."selection" in ('level', 'list')
      and ("airdrop_campaigns"."selection" = 'list') = ("airdrop_campaigns"."min_level" is null)),
	CONSTRAINT "airdrop_campaigns_amount_check" CHECK ("airdrop_campaigns"."amount" > 0 and "airdrop_campaigns"."asset" = 'RAB' and "airdrop_campaigns"."recipients" > 0),
	CONSTRAINT "airdrop_campaigns_cancel_check" CHECK (("airdrop_campaigns"."status" = 'cancelled') = ("airdrop_campaigns"."cancelled_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "airdrop_recipients" (
	"campaign_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"entry_id" bigint,
	"paid_at" timestamp with time zone,
	CONSTRAINT "airdrop_recipients_campaign_id_account_id_pk" PRIMARY KEY("campaign_id","account_id"),
	CONSTRAINT "airdrop_recipients_paid_check" CHECK (("airdrop_recipients"."entry_id" is null) = ("airdrop_recipients"."paid_at" is null))
);
--> statement-breakpoint
ALTER TABLE "airdrop_campaigns" ADD CONSTRAINT "airdrop_campaigns_created_by_operators_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "airdrop_campaigns" ADD CONSTRAINT "airdrop_campaigns_cancelled_by_operators_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "airdrop_recipients" ADD CONSTRAINT "airdrop_recipients_campaign_id_airdrop_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."airdrop_campaigns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "airdrop_recipients" ADD CONSTRAINT "airdrop_recipients_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "airdrop_recipients" ADD CONSTRAINT "airdrop_recipients_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "airdrop_campaigns_due_idx" ON "airdrop_campaigns" USING btree ("status","arrive_at");--> statement-breakpoint
CREATE INDEX "airdrop_recipients_account_idx" ON "airdrop_recipients" USING btree ("account_id");