CREATE TABLE "contract_settlements_due" (
	"order_id" uuid PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_unseen_orders" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"product_id" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contract_settlements_due" ADD CONSTRAINT "contract_settlements_due_order_id_contract_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."contract_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_unseen_orders" ADD CONSTRAINT "contract_unseen_orders_order_id_contract_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."contract_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contract_unseen_orders_product_idx" ON "contract_unseen_orders" USING btree ("product_id");