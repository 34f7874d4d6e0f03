CREATE TABLE "account_login_guards" (
	"key" text PRIMARY KEY NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"failures" integer NOT NULL,
	"last_failure_at" timestamp with time zone NOT NULL,
	"noticed_window_started_at" timestamp with time zone,
	CONSTRAINT "account_login_guards_failures_check" CHECK ("account_login_guards"."failures" >= 0)
);
