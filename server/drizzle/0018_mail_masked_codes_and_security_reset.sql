ALTER TABLE "mail_outbox" ADD COLUMN "pending_delivery" jsonb;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "security_reset_at" timestamp with time zone;--> statement-breakpoint
-- Mails stored before this change carry their codes in clear: mask them as new mails are (decision 016).
UPDATE "mail_outbox" SET "subject" = regexp_replace("subject", '\m[0-9]{6}\M', '••••••', 'g'), "body" = regexp_replace("body", '\m[0-9]{6}\M', '••••••', 'g') WHERE "template" IN ('register_code', 'login_code', 'reset_code', 'trade_code');
