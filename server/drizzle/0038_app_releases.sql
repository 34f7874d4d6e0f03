CREATE TABLE "app_release_packages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"content" "bytea" NOT NULL,
	"uploaded_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_release_packages_kind_check" CHECK ("app_release_packages"."kind" in ('full', 'hot')),
	CONSTRAINT "app_release_packages_size_check" CHECK ("app_release_packages"."size_bytes" between 1 and 157286400),
	CONSTRAINT "app_release_packages_sha256_check" CHECK ("app_release_packages"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "app_releases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"package_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"version_code" integer NOT NULL,
	"version_name" text NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"rollout_percent" integer DEFAULT 0 NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	"rolled_back_at" timestamp with time zone,
	CONSTRAINT "app_releases_kind_check" CHECK ("app_releases"."kind" in ('full', 'hot')),
	CONSTRAINT "app_releases_status_check" CHECK ("app_releases"."status" in ('draft', 'published', 'rolled_back')),
	CONSTRAINT "app_releases_rollout_check" CHECK ("app_releases"."rollout_percent" between 0 and 100),
	CONSTRAINT "app_releases_version_code_check" CHECK ("app_releases"."version_code" > 0)
);
--> statement-breakpoint
ALTER TABLE "app_release_packages" ADD CONSTRAINT "app_release_packages_uploaded_by_operators_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_releases" ADD CONSTRAINT "app_releases_package_id_app_release_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."app_release_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_releases" ADD CONSTRAINT "app_releases_created_by_operators_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_releases_version_code_unique" ON "app_releases" USING btree ("version_code");--> statement-breakpoint
CREATE UNIQUE INDEX "app_releases_package_unique" ON "app_releases" USING btree ("package_id");--> statement-breakpoint
CREATE INDEX "app_releases_status_idx" ON "app_releases" USING btree ("status","kind","version_code");