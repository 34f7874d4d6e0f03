CREATE TABLE "team_closure" (
	"ancestor_seq" bigint NOT NULL,
	"descendant_seq" bigint NOT NULL,
	"depth" integer NOT NULL,
	CONSTRAINT "team_closure_ancestor_seq_descendant_seq_pk" PRIMARY KEY("ancestor_seq","descendant_seq"),
	CONSTRAINT "team_closure_depth_check" CHECK ("team_closure"."depth" >= 1)
);
--> statement-breakpoint
CREATE TABLE "team_level_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"effective_from" date NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_level_versions_effective_from_unique" UNIQUE("effective_from")
);
--> statement-breakpoint
CREATE TABLE "team_levels" (
	"version_id" uuid NOT NULL,
	"level" integer NOT NULL,
	"name" text NOT NULL,
	"min_own_custody" numeric(38, 4) NOT NULL,
	"min_valid_direct" integer NOT NULL,
	"min_team_performance" numeric(38, 4) NOT NULL,
	"min_legs" integer DEFAULT 0 NOT NULL,
	"legs_level" integer,
	"direct_rate_pct" numeric(7, 4) DEFAULT '0' NOT NULL,
	"indirect_rate_pct" numeric(7, 4) DEFAULT '0' NOT NULL,
	"indirect_generations" integer DEFAULT 0 NOT NULL,
	"community_rate_pct" numeric(7, 4) DEFAULT '0' NOT NULL,
	"management_rate_pct" numeric(7, 4) DEFAULT '0' NOT NULL,
	"dividend_rate_pct" numeric(7, 4) DEFAULT '0' NOT NULL,
	"promotion_bonus" numeric(38, 4) DEFAULT '0' NOT NULL,
	CONSTRAINT "team_levels_version_id_level_pk" PRIMARY KEY("version_id","level"),
	CONSTRAINT "team_levels_values_check" CHECK ("team_levels"."level" >= 0 and "team_levels"."min_own_custody" >= 0 and "team_levels"."min_valid_direct" >= 0 and "team_levels"."min_team_performance" >= 0
        and "team_levels"."min_legs" >= 0 and ("team_levels"."min_legs" = 0 or ("team_levels"."legs_level" is not null and "team_levels"."legs_level" < "team_levels"."level"))
        and "team_levels"."indirect_generations" >= 0 and "team_levels"."promotion_bonus" >= 0
        and "team_levels"."direct_rate_pct" between 0 and 100 and "team_levels"."indirect_rate_pct" between 0 and 100
        and "team_levels"."community_rate_pct" between 0 and 100 and "team_levels"."management_rate_pct" between 0 and 100
        and "team_levels"."dividend_rate_pct" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "team_nodes" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"inviter_seq" bigint,
	"depth" integer NOT NULL,
	"own_custody" numeric(38, 4) DEFAULT '0' NOT NULL,
	"team_performance" numeric(38, 4) DEFAULT '0' NOT NULL,
	"direct_count" integer DEFAULT 0 NOT NULL,
	"team_count" integer DEFAULT 0 NOT NULL,
	"valid_direct_count" integer DEFAULT 0 NOT NULL,
	"valid_team_count" integer DEFAULT 0 NOT NULL,
	"joined_at" timestamp with time zone NOT NULL,
	CONSTRAINT "team_nodes_seq_unique" UNIQUE("seq"),
	CONSTRAINT "team_nodes_figures_check" CHECK ("team_nodes"."own_custody" >= 0 and "team_nodes"."team_performance" >= 0 and "team_nodes"."direct_count" >= 0
        and "team_nodes"."team_count" >= "team_nodes"."direct_count" and "team_nodes"."valid_direct_count" between 0 and "team_nodes"."direct_count"
        and "team_nodes"."valid_team_count" between "team_nodes"."valid_direct_count" and "team_nodes"."team_count")
);
--> statement-breakpoint
CREATE TABLE "team_performance_days" (
	"account_seq" bigint NOT NULL,
	"day" date NOT NULL,
	"opened" numeric(38, 4) NOT NULL,
	CONSTRAINT "team_performance_days_account_seq_day_pk" PRIMARY KEY("account_seq","day")
);
--> statement-breakpoint
ALTER TABLE "team_level_versions" ADD CONSTRAINT "team_level_versions_created_by_operators_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_levels" ADD CONSTRAINT "team_levels_version_id_team_level_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."team_level_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_nodes" ADD CONSTRAINT "team_nodes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_closure_descendant_idx" ON "team_closure" USING btree ("descendant_seq","depth");--> statement-breakpoint
CREATE INDEX "team_nodes_inviter_idx" ON "team_nodes" USING btree ("inviter_seq","seq");--> statement-breakpoint
-- Team figures are kept by the database in the same transaction as the change that moves them
-- (docs/decisions/020-team-tree-and-levels.md): a new account joins its inviter's tree, and every
-- custody order that opens or stops being active moves its account's own custody, and its
-- ancestors' team performance and valid counts. Every writer locks the team nodes it changes in
-- `seq` order, so two writers never wait on each other in a circle.
CREATE OR REPLACE FUNCTION team_account_joined() RETURNS trigger AS $$
DECLARE
  parent_seq bigint;
  parent_depth integer;
  new_seq bigint;
BEGIN
  SELECT seq, depth INTO parent_seq, parent_depth FROM team_nodes WHERE account_id = NEW.inviter_account_id;
  INSERT INTO team_nodes (account_id, inviter_seq, depth, joined_at)
    VALUES (NEW.id, parent_seq, coalesce(parent_depth + 1, 0), NEW.created_at)
    RETURNING seq INTO new_seq;
  IF parent_seq IS NOT NULL THEN
    INSERT INTO team_closure (ancestor_seq, descendant_seq, depth)
      SELECT ancestor_seq, new_seq, depth + 1 FROM team_closure WHERE descendant_seq = parent_seq
      UNION ALL SELECT parent_seq, new_seq, 1;
    PERFORM 1 FROM team_nodes WHERE seq IN (SELECT ancestor_seq FROM team_closure WHERE descendant_seq = new_seq)
      ORDER BY seq FOR UPDATE;
    UPDATE team_nodes t SET team_count = t.team_count + 1,
        direct_count = t.direct_count + (CASE WHEN t.seq = parent_seq THEN 1 ELSE 0 END)
      WHERE t.seq IN (SELECT ancestor_seq FROM team_closure WHERE descendant_seq = new_seq);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER team_account_joined AFTER INSERT ON "accounts" FOR EACH ROW EXECUTE FUNCTION team_account_joined();
--> statement-breakpoint
-- Applies custody changes (account, amount ±) to the accounts and their ancestors. Valid means
-- own custody of at least 500 USDT (VALID_CUSTODY_USDT in the contract, product.md §5).
CREATE OR REPLACE FUNCTION team_apply_custody(p_accounts uuid[], p_deltas numeric[]) RETURNS void AS $$
DECLARE
  changed_seqs bigint[];
  changed_deltas numeric[];
  changed_valid integer[];
BEGIN
  PERFORM 1 FROM team_nodes WHERE account_id = ANY(p_accounts)
      OR seq IN (SELECT c.ancestor_seq FROM team_closure c JOIN team_nodes n ON n.seq = c.descendant_seq
                 WHERE n.account_id = ANY(p_accounts))
    ORDER BY seq FOR UPDATE;
  WITH d AS (
    SELECT account_id, sum(delta) AS delta FROM unnest(p_accounts, p_deltas) AS u(account_id, delta)
    GROUP BY account_id HAVING sum(delta) <> 0
  ), moved AS (
    UPDATE team_nodes t SET own_custody = t.own_custody + d.delta FROM d WHERE t.account_id = d.account_id
    RETURNING t.seq, d.delta,
      (CASE WHEN t.own_custody >= 500 THEN 1 ELSE 0 END) - (CASE WHEN t.own_custody - d.delta >= 500 THEN 1 ELSE 0 END) AS valid_change
  )
  SELECT array_agg(seq), array_agg(delta), array_agg(valid_change) INTO changed_seqs, changed_deltas, changed_valid FROM moved;
  IF changed_seqs IS NULL THEN
    RETURN;
  END IF;
  UPDATE team_nodes a SET team_performance = a.team_performance + s.delta,
      valid_team_count = a.valid_team_count + s.valid_change,
      valid_direct_count = a.valid_direct_count + s.valid_direct_change
    FROM (
      SELECT c.ancestor_seq, sum(x.delta) AS delta, sum(x.valid_change)::int AS valid_change,
        sum(CASE WHEN c.depth = 1 THEN x.valid_change ELSE 0 END)::int AS valid_direct_change
      FROM unnest(changed_seqs, changed_deltas, changed_valid) AS x(seq, delta, valid_change)
      JOIN team_closure c ON c.descendant_seq = x.seq
      GROUP BY c.ancestor_seq
    ) s
    WHERE a.seq = s.ancestor_seq;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION team_orders_inserted() RETURNS trigger AS $$
DECLARE
  ids uuid[];
  deltas numeric[];
BEGIN
  SELECT array_agg(account_id), array_agg(amount) INTO ids, deltas FROM new_orders WHERE status = 'active';
  IF ids IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM team_apply_custody(ids, deltas);
  -- A renewal keeps the same custody: it is not new performance.
  INSERT INTO team_performance_days (account_seq, day, opened)
    SELECT c.ancestor_seq, o.start_date, sum(o.amount)
    FROM new_orders o JOIN team_nodes n ON n.account_id = o.account_id JOIN team_closure c ON c.descendant_seq = n.seq
    WHERE o.status = 'active' AND o.renewed_from_id IS NULL
    GROUP BY c.ancestor_seq, o.start_date
    ORDER BY c.ancestor_seq, o.start_date
  ON CONFLICT (account_seq, day) DO UPDATE SET opened = team_performance_days.opened + excluded.opened;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER team_orders_inserted AFTER INSERT ON "hosting_orders"
  REFERENCING NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION team_orders_inserted();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION team_orders_closed() RETURNS trigger AS $$
DECLARE
  ids uuid[];
  deltas numeric[];
BEGIN
  SELECT array_agg(o.account_id), array_agg(-o.amount) INTO ids, deltas
    FROM old_orders o JOIN new_orders n ON n.id = o.id
    WHERE o.status = 'active' AND n.status <> 'active';
  IF ids IS NOT NULL THEN
    PERFORM team_apply_custody(ids, deltas);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER team_orders_closed AFTER UPDATE ON "hosting_orders"
  REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION team_orders_closed();
--> statement-breakpoint
-- Backfill: every existing account joins in the order it was created.
INSERT INTO team_nodes (account_id, depth, joined_at) SELECT id, 0, created_at FROM accounts ORDER BY created_at, id;
--> statement-breakpoint
UPDATE team_nodes t SET inviter_seq = p.seq
  FROM accounts a JOIN team_nodes p ON p.account_id = a.inviter_account_id
  WHERE a.id = t.account_id;
--> statement-breakpoint
INSERT INTO team_closure (ancestor_seq, descendant_seq, depth)
  WITH RECURSIVE up (descendant_seq, ancestor_seq, depth) AS (
    SELECT seq, inviter_seq, 1 FROM team_nodes WHERE inviter_seq IS NOT NULL
    UNION ALL
    SELECT up.descendant_seq, n.inviter_seq, up.depth + 1 FROM up JOIN team_nodes n ON n.seq = up.ancestor_seq
    WHERE n.inviter_seq IS NOT NULL
  )
  SELECT ancestor_seq, descendant_seq, depth FROM up;
--> statement-breakpoint
UPDATE team_nodes t SET depth = coalesce((SELECT max(depth) FROM team_closure c WHERE c.descendant_seq = t.seq), 0),
  own_custody = coalesce((SELECT sum(amount) FROM hosting_orders o WHERE o.account_id = t.account_id AND o.status = 'active'), 0);
--> statement-breakpoint
UPDATE team_nodes t SET team_performance = s.performance, direct_count = s.direct, team_count = s.team,
    valid_direct_count = s.valid_direct, valid_team_count = s.valid_team
  FROM (
    SELECT c.ancestor_seq, sum(d.own_custody) AS performance, count(*) FILTER (WHERE c.depth = 1)::int AS direct,
      count(*)::int AS team, count(*) FILTER (WHERE c.depth = 1 AND d.own_custody >= 500)::int AS valid_direct,
      count(*) FILTER (WHERE d.own_custody >= 500)::int AS valid_team
    FROM team_closure c JOIN team_nodes d ON d.seq = c.descendant_seq GROUP BY c.ancestor_seq
  ) s
  WHERE t.seq = s.ancestor_seq;
--> statement-breakpoint
INSERT INTO team_performance_days (account_seq, day, opened)
  SELECT c.ancestor_seq, o.start_date, sum(o.amount)
  FROM hosting_orders o JOIN team_nodes n ON n.account_id = o.account_id JOIN team_closure c ON c.descendant_seq = n.seq
  WHERE o.renewed_from_id IS NULL
  GROUP BY c.ancestor_seq, o.start_date;
--> statement-breakpoint
-- The default level table, in force from the start (the operator's first edit applies from the next day).
INSERT INTO team_level_versions (id, effective_from) VALUES ('00000000-0000-4000-8000-000000000020', '2000-01-01');
--> statement-breakpoint
INSERT INTO team_levels (version_id, level, name, min_own_custody, min_valid_direct, min_team_performance, min_legs, legs_level,
    direct_rate_pct, indirect_rate_pct, indirect_generations, community_rate_pct, management_rate_pct, dividend_rate_pct, promotion_bonus)
  VALUES
    ('00000000-0000-4000-8000-000000000020', 0, 'V0', 0, 0, 0, 0, NULL, 0, 0, 0, 0, 0, 0, 0),
    ('00000000-0000-4000-8000-000000000020', 1, 'V1', 500, 3, 10000, 0, NULL, 10, 5, 2, 1, 5, 0, 50),
    ('00000000-0000-4000-8000-000000000020', 2, 'V2', 1000, 5, 50000, 2, 1, 12, 5, 4, 1.5, 10, 1, 200),
    ('00000000-0000-4000-8000-000000000020', 3, 'V3', 2000, 8, 200000, 2, 2, 15, 6, 6, 2, 15, 2, 800),
    ('00000000-0000-4000-8000-000000000020', 4, 'V4', 5000, 10, 1000000, 3, 3, 18, 6, 8, 2.5, 20, 3, 3000),
    ('00000000-0000-4000-8000-000000000020', 5, 'V5', 10000, 15, 5000000, 3, 4, 20, 8, 10, 3, 25, 4, 10000);
