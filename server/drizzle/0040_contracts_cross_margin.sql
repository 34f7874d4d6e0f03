-- Decision 049: cross margin. A closed order's result is P&L + swap in full (only the account's equity is
-- floored at zero), so an order's loss may exceed its own margin.
ALTER TABLE "contract_orders" DROP CONSTRAINT "contract_orders_loss_capped_check";
