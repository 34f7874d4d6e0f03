CREATE TABLE "identity_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"document_type" text NOT NULL,
	"id_number" text NOT NULL,
	"real_name" text NOT NULL,
	"front_upload_id" uuid NOT NULL,
	"back_upload_id" uuid NOT NULL,
	"selfie_upload_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"fail_reason" text,
	"reviewer_id" uuid,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone,
	CONSTRAINT "identity_status_check" CHECK ("identity_verifications"."status" in ('pending', 'approved', 'failed')),
	CONSTRAINT "identity_document_type_check" CHECK ("identity_verifications"."document_type" in ('id_card', 'passport', 'driver_license'))
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_member_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "uploads_content_type_check" CHECK ("uploads"."content_type" in ('image/jpeg', 'image/png', 'image/webp')),
	CONSTRAINT "uploads_size_check" CHECK ("uploads"."size_bytes" between 1 and 2097152)
);
--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD CONSTRAINT "identity_verifications_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD CONSTRAINT "identity_verifications_front_upload_id_uploads_id_fk" FOREIGN KEY ("front_upload_id") REFERENCES "public"."uploads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD CONSTRAINT "identity_verifications_back_upload_id_uploads_id_fk" FOREIGN KEY ("back_upload_id") REFERENCES "public"."uploads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD CONSTRAINT "identity_verifications_selfie_upload_id_uploads_id_fk" FOREIGN KEY ("selfie_upload_id") REFERENCES "public"."uploads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD CONSTRAINT "identity_verifications_reviewer_id_operators_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_owner_member_id_members_id_fk" FOREIGN KEY ("owner_member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "identity_one_active_per_member" ON "identity_verifications" USING btree ("member_id") WHERE "identity_verifications"."status" in ('pending', 'approved');--> statement-breakpoint
CREATE INDEX "identity_status_idx" ON "identity_verifications" USING btree ("status","submitted_at");--> statement-breakpoint
CREATE INDEX "uploads_owner_idx" ON "uploads" USING btree ("owner_member_id");