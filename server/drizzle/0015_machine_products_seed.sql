-- The seeded mining machines (product.md §5); operators change them.
INSERT INTO "machine_products" ("name", "hashrate", "price_usdt", "price_tickets", "daily_output_per_t", "lifetime_days") VALUES
  ('S1 Lite 10T', 10, 100, 100, 0.5, 180),
  ('S2 Pro 50T', 50, 480, 480, 0.5, 360),
  ('S3 Max 100T', 100, 900, 900, 0.55, 360);
