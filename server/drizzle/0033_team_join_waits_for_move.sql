-- A registration reads its inviter's depth for its own team node. Read before a concurrent inviter move
-- (team_move, which locks team_nodes and team_closure in EXCLUSIVE mode) commits, that depth was the
-- old one: the registration then waited at its INSERT and wrote the stale depth (decision 025's known
-- limit). Taking ROW SHARE on team_nodes first makes the registration wait for a move in progress (and
-- a later move wait for it) before it reads anything; ROW SHARE conflicts only with EXCLUSIVE and ACCESS
-- EXCLUSIVE, so custody writers and other registrations are not held up.
CREATE OR REPLACE FUNCTION team_account_joined() RETURNS trigger AS $$
DECLARE
  parent_seq bigint;
  parent_depth integer;
  new_seq bigint;
BEGIN
  IF NEW.main_account_id IS NOT NULL THEN
    RETURN NULL;
  END IF;
  LOCK TABLE team_nodes IN ROW SHARE MODE;
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
