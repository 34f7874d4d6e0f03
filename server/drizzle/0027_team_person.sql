-- A member is one person in the team tree: their main account. Their own sub-accounts are not team
-- members (decision 020): they have no team node, their custody counts as the main account's own
-- custody, and anyone invited with a sub-account's code joins under the main account. Otherwise a
-- member could make their own sub-accounts "valid direct members" and climb levels on their own money.
CREATE OR REPLACE FUNCTION team_account_joined() RETURNS trigger AS $$
DECLARE
  parent_seq bigint;
  parent_depth integer;
  new_seq bigint;
BEGIN
  IF NEW.main_account_id IS NOT NULL THEN
    RETURN NULL;
  END IF;
  SELECT n.seq, n.depth INTO parent_seq, parent_depth
    FROM accounts i JOIN team_nodes n ON n.account_id = coalesce(i.main_account_id, i.id)
    WHERE i.id = NEW.inviter_account_id;
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
-- Applies custody changes (account, amount ±) to the accounts' people (a sub-account's custody is its
-- main account's) and their ancestors. Valid means a person's custody of at least 500 USDT
-- (VALID_CUSTODY_USDT in the contract, product.md §5).
CREATE OR REPLACE FUNCTION team_apply_custody(p_accounts uuid[], p_deltas numeric[]) RETURNS void AS $$
DECLARE
  people uuid[];
  changed_seqs bigint[];
  changed_deltas numeric[];
  changed_valid integer[];
BEGIN
  SELECT array_agg(coalesce(a.main_account_id, u.id) ORDER BY u.ord) INTO people
    FROM unnest(p_accounts) WITH ORDINALITY AS u(id, ord) LEFT JOIN accounts a ON a.id = u.id;
  PERFORM 1 FROM team_nodes WHERE account_id = ANY(people)
      OR seq IN (SELECT c.ancestor_seq FROM team_closure c JOIN team_nodes n ON n.seq = c.descendant_seq
                 WHERE n.account_id = ANY(people))
    ORDER BY seq FOR UPDATE;
  WITH d AS (
    SELECT account_id, sum(delta) AS delta FROM unnest(people, p_deltas) AS u(account_id, delta)
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
    FROM new_orders o JOIN accounts a ON a.id = o.account_id
      JOIN team_nodes n ON n.account_id = coalesce(a.main_account_id, a.id) JOIN team_closure c ON c.descendant_seq = n.seq
    WHERE o.status = 'active' AND o.renewed_from_id IS NULL
    GROUP BY c.ancestor_seq, o.start_date
    ORDER BY c.ancestor_seq, o.start_date
  ON CONFLICT (account_seq, day) DO UPDATE SET opened = team_performance_days.opened + excluded.opened;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Backfill: drop the sub-accounts' nodes and rebuild the closure and every figure from the people
-- that remain. The main accounts keep their `seq`, so the join order is unchanged.
DELETE FROM team_performance_days;
--> statement-breakpoint
DELETE FROM team_closure;
--> statement-breakpoint
DELETE FROM team_nodes n USING accounts a WHERE a.id = n.account_id AND a.main_account_id IS NOT NULL;
--> statement-breakpoint
UPDATE team_nodes t SET inviter_seq = (
    SELECT p.seq FROM accounts a JOIN accounts i ON i.id = a.inviter_account_id
      JOIN team_nodes p ON p.account_id = coalesce(i.main_account_id, i.id)
    WHERE a.id = t.account_id),
  own_custody = 0, team_performance = 0, direct_count = 0, team_count = 0, valid_direct_count = 0, valid_team_count = 0;
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
  own_custody = coalesce((SELECT sum(o.amount) FROM hosting_orders o JOIN accounts a ON a.id = o.account_id
    WHERE coalesce(a.main_account_id, a.id) = t.account_id AND o.status = 'active'), 0);
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
  FROM hosting_orders o JOIN accounts a ON a.id = o.account_id
    JOIN team_nodes n ON n.account_id = coalesce(a.main_account_id, a.id) JOIN team_closure c ON c.descendant_seq = n.seq
  WHERE o.renewed_from_id IS NULL
  GROUP BY c.ancestor_seq, o.start_date;
