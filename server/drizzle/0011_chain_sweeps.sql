CREATE TABLE "chain_sweeps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"network" text NOT NULL,
	"deposit_address_id" uuid NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"raw_amount" numeric(78, 0) NOT NULL,
	"amount" numeric(38, 4) NOT NULL,
	"gas_tx_hash" text,
	"tx_hash" text,
	"status" text NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_sweeps_status_check" CHECK ("chain_sweeps"."status" in ('sent', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "chain_sweeps" ADD CONSTRAINT "chain_sweeps_deposit_address_id_deposit_addresses_id_fk" FOREIGN KEY ("deposit_address_id") REFERENCES "public"."deposit_addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chain_sweeps_created_idx" ON "chain_sweeps" USING btree ("created_at");