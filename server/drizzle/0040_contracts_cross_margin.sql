-- Decision 049: cross margin. A closed order's result is P&L + swap in full (only the account's equity is
-- floored at zero), so an order's loss may exceed its own margin.
ALTER TABLE "contract_orders" DROP CONSTRAINT "contract_orders_loss_capped_check";
--> statement-breakpoint
-- Issue 31: targets set on an open order act only on ticks after the product's last tick when they were set.
ALTER TABLE "contract_orders" ADD COLUMN "targets_tick_id" bigint;
