-- The seeded custody plans (product.md §5: 7/30/90/180/360 days with a daily rate); operators change them.
INSERT INTO "hosting_plans" ("name", "period_days", "daily_rate", "min_amount", "max_amount", "early_penalty_rate", "auto_renew_allowed") VALUES
  ('7 days', 7, 0.0010, 100, 100000, 0.05, true),
  ('30 days', 30, 0.0012, 100, 100000, 0.05, true),
  ('90 days', 90, 0.0015, 100, 200000, 0.05, true),
  ('180 days', 180, 0.0018, 100, 500000, 0.05, true),
  ('360 days', 360, 0.0020, 100, 1000000, 0.05, true);
