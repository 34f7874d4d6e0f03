-- Decision 053: packages, documents and content images live in the file store (STORAGE_DIR), named
-- by their SHA-256. The server moves any bytes still here into the store before it migrates (and
-- empties the column); a database whose bytes were not moved is refused, never emptied.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM "app_release_packages" WHERE "content" IS NOT NULL)
    OR EXISTS (SELECT 1 FROM "document_versions" WHERE "content" IS NOT NULL)
    OR EXISTS (SELECT 1 FROM "content_images" WHERE "content" IS NOT NULL) THEN
    RAISE EXCEPTION 'stored files are still in the database: start the server once (it moves them into STORAGE_DIR before migrating, decision 053)';
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE "app_release_packages" DROP COLUMN "content";--> statement-breakpoint
ALTER TABLE "document_versions" DROP COLUMN "content";--> statement-breakpoint
ALTER TABLE "content_images" DROP COLUMN "content";--> statement-breakpoint
ALTER TABLE "app_releases" ADD COLUMN "signature" text;
