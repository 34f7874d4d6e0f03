CREATE TABLE "contract_quote_proposals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"bid" numeric(30, 8) NOT NULL,
	"ask" numeric(30, 8) NOT NULL,
	"why" text NOT NULL,
	"reference_mid" numeric(30, 8),
	"reference_tick_id" bigint,
	"deviation_bps" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"proposed_by" uuid NOT NULL,
	"proposed_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	"tick_id" bigint,
	CONSTRAINT "contract_quote_proposals_prices_check" CHECK ("contract_quote_proposals"."bid" > 0 and "contract_quote_proposals"."ask" >= "contract_quote_proposals"."bid"),
	CONSTRAINT "contract_quote_proposals_why_check" CHECK ("contract_quote_proposals"."why" in ('out_of_band', 'no_reference', 'feed_live')),
	CONSTRAINT "contract_quote_proposals_status_check" CHECK ("contract_quote_proposals"."status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "contract_quote_proposals_four_eyes" CHECK ("contract_quote_proposals"."decided_by" is null or "contract_quote_proposals"."decided_by" <> "contract_quote_proposals"."proposed_by"),
	CONSTRAINT "contract_quote_proposals_approved_tick" CHECK (("contract_quote_proposals"."status" = 'approved') = ("contract_quote_proposals"."tick_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "contract_manual_ticks" (
	"tick_id" bigint PRIMARY KEY NOT NULL,
	"product_id" uuid NOT NULL,
	"entered_by" uuid NOT NULL,
	"approved_by" uuid,
	"proposal_id" uuid,
	CONSTRAINT "contract_manual_ticks_four_eyes" CHECK ("contract_manual_ticks"."approved_by" is null or "contract_manual_ticks"."approved_by" <> "contract_manual_ticks"."entered_by")
);
--> statement-breakpoint
ALTER TABLE "contract_quote_proposals" ADD CONSTRAINT "contract_quote_proposals_product_id_market_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."market_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_quote_proposals" ADD CONSTRAINT "contract_quote_proposals_proposed_by_operators_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_quote_proposals" ADD CONSTRAINT "contract_quote_proposals_decided_by_operators_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_manual_ticks" ADD CONSTRAINT "contract_manual_ticks_tick_id_contract_ticks_id_fk" FOREIGN KEY ("tick_id") REFERENCES "public"."contract_ticks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_manual_ticks" ADD CONSTRAINT "contract_manual_ticks_entered_by_operators_id_fk" FOREIGN KEY ("entered_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_manual_ticks" ADD CONSTRAINT "contract_manual_ticks_approved_by_operators_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contract_quote_proposals_pending_idx" ON "contract_quote_proposals" USING btree ("expires_at") WHERE "contract_quote_proposals"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "contract_manual_ticks_product_idx" ON "contract_manual_ticks" USING btree ("product_id","tick_id") WHERE "contract_manual_ticks"."approved_by" is not null;
