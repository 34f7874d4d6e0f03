CREATE TABLE "withdraw_holidays" (
	"day" date PRIMARY KEY NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdraw_methods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"type" text NOT NULL,
	"network" text,
	"address" text,
	"bank_name" text,
	"card_number" text,
	"holder_name" text,
	"branch" text,
	"account" text,
	"identity" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "withdraw_methods_type_check" CHECK ("withdraw_methods"."type" in ('crypto', 'bank', 'wechat', 'alipay')),
	CONSTRAINT "withdraw_methods_fields_check" CHECK (("withdraw_methods"."type" = 'crypto' and "withdraw_methods"."network" in ('BEP20', 'TRC20') and "withdraw_methods"."address" is not null)
        or ("withdraw_methods"."type" = 'bank' and "withdraw_methods"."card_number" is not null and "withdraw_methods"."bank_name" is not null)
        or ("withdraw_methods"."type" in ('wechat', 'alipay') and "withdraw_methods"."account" is not null))
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"member_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"method_id" uuid NOT NULL,
	"method_type" text NOT NULL,
	"network" text,
	"destination" text NOT NULL,
	"amount" numeric(38, 4) NOT NULL,
	"fee" numeric(38, 4) NOT NULL,
	"received" numeric(38, 4) NOT NULL,
	"status" text NOT NULL,
	"client_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"platform_day" date NOT NULL,
	"reason" text,
	"tx_hash" text,
	"payout_reference" text,
	"payout_raw_tx" text,
	"payout_nonce" bigint,
	"payout_error" text,
	"payout_attempts" integer DEFAULT 0 NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withdrawals_client_key" UNIQUE("account_id","client_key"),
	CONSTRAINT "withdrawals_status_check" CHECK ("withdrawals"."status" in ('pending', 'processing', 'success', 'failed', 'refunded')),
	CONSTRAINT "withdrawals_amounts_check" CHECK ("withdrawals"."amount" > 0 and "withdrawals"."fee" >= 0 and "withdrawals"."received" = "withdrawals"."amount" - "withdrawals"."fee" and "withdrawals"."received" > 0)
);
--> statement-breakpoint
ALTER TABLE "withdraw_holidays" ADD CONSTRAINT "withdraw_holidays_created_by_operators_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdraw_methods" ADD CONSTRAINT "withdraw_methods_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_method_id_withdraw_methods_id_fk" FOREIGN KEY ("method_id") REFERENCES "public"."withdraw_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_decided_by_operators_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "withdraw_methods_active_identity" ON "withdraw_methods" USING btree ("member_id","identity") WHERE "withdraw_methods"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_payout_nonce" ON "withdrawals" USING btree ("network","payout_nonce") WHERE "withdrawals"."payout_nonce" is not null;--> statement-breakpoint
CREATE INDEX "withdrawals_account_day_idx" ON "withdrawals" USING btree ("account_id","platform_day");--> statement-breakpoint
CREATE INDEX "withdrawals_status_idx" ON "withdrawals" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "withdrawals_member_idx" ON "withdrawals" USING btree ("member_id","created_at");