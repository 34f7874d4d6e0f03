ALTER TABLE "settlement_runs" ADD COLUMN "machines_mined" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "settlement_runs" ADD COLUMN "output_total" numeric(38, 4) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "settlement_runs" ADD COLUMN "dividend_shares" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "settlement_runs" ADD COLUMN "dividend_total" numeric(38, 4) DEFAULT '0' NOT NULL;