CREATE TABLE "airdrop_campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"asset" text DEFAULT 'RAB' NOT NULL,
	"amount" numeric(38, 4) NOT NULL,
	"selection" text NOT NULL,
	"min_level" integer,
	"day" date NOT NULL,
	"arrive_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"recipients" integer NOT NULL,
	"total" numeric(38, 4) NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_by" uuid,
	"cancelled_at" timestamp with time zone,
	"arrived_at" timestamp with time zone,
	CONSTRAINT "airdrop_campaigns_status_check" CHECK ("airdrop_campaigns"."status" in ('scheduled', 'arriving', 'arrived', 'cancelled')),
	CONSTRAINT "airdrop_campaigns_selection_check" CHECK ("airdrop_campaigns"."selection" in ('level', 'list')
      and ("airdrop_campaigns"."selection" = 'list') = ("airdrop_campaigns"."min_level" is null)),
	CONSTRAINT "airdrop_campaigns_amount_check" CHECK ("airdrop_campaigns"."amount" > 0 and "airdrop_campaigns"."asset" = 'RAB' and "airdrop_campaigns"."recipients" > 0),
	CONSTRAINT "airdrop_campaigns_cancel_check" CHECK (("airdrop_campaigns"."status" = 'cancelled') = ("airdrop_campaigns"."cancelled_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "airdrop_recipients" (
	"campaign_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"entry_id" bigint,
	"paid_at" timestamp with time zone,
	CONSTRAINT "airdrop_recipients_campaign_id_account_id_pk" PRIMARY KEY("campaign_id","account_id"),
	CONSTRAINT "airdrop_recipients_paid_check" CHECK (("airdrop_recipients"."entry_id" is null) = ("airdrop_recipients"."paid_at" is null))
);
--> statement-breakpoint
ALTER TABLE "airdrop_campaigns" ADD CONSTRAINT "airdrop_campaigns_created_by_operators_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "airdrop_campaigns" ADD CONSTRAINT "airdrop_campaigns_cancelled_by_operators_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "airdrop_recipients" ADD CONSTRAINT "airdrop_recipients_campaign_id_airdrop_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."airdrop_campaigns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "airdrop_recipients" ADD CONSTRAINT "airdrop_recipients_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "airdrop_recipients" ADD CONSTRAINT "airdrop_recipients_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "airdrop_campaigns_due_idx" ON "airdrop_campaigns" USING btree ("status","arrive_at");--> statement-breakpoint
CREATE INDEX "airdrop_recipients_account_idx" ON "airdrop_recipients" USING btree ("account_id");--> statement-breakpoint
-- Moves a member (a main account) and everyone below them under another inviter
-- (docs/decisions/025-team-operations.md), set-based and in the caller's transaction: the moved
-- subtree's closure rows to its old ancestors are replaced by rows to the new inviter and its
-- ancestors, the subtree's depths shift, and the old and new ancestors' figures change by the
-- subtree's totals (one UPDATE, net per node, so a common ancestor is unchanged). The team tables are
-- locked EXCLUSIVE first: reads go on, but custody changes and registrations wait for the move and
-- then see the new tree, so no figure is applied through a closure row that is being rewritten.
-- Answers 'moved', or why not: 'unknown_member', 'sub_account', 'unknown_inviter', 'self', 'cycle',
-- 'same_inviter' (nothing changed).
CREATE OR REPLACE FUNCTION team_move(p_account uuid, p_inviter uuid) RETURNS text AS $$
DECLARE
  m team_nodes%ROWTYPE;
  n team_nodes%ROWTYPE;
  moved_performance numeric;
  moved_count integer;
  moved_valid integer;
  self_valid integer;
BEGIN
  LOCK TABLE team_nodes, team_closure IN EXCLUSIVE MODE;
  IF NOT EXISTS (SELECT 1 FROM accounts WHERE id = p_account) THEN
    RETURN 'unknown_member';
  END IF;
  IF EXISTS (SELECT 1 FROM accounts WHERE id = p_account AND main_account_id IS NOT NULL) THEN
    RETURN 'sub_account';
  END IF;
  SELECT * INTO m FROM team_nodes WHERE account_id = p_account;
  IF NOT FOUND THEN
    RETURN 'unknown_member';
  END IF;
  -- The new inviter is a person: a sub-account stands for its main account, as at registration.
  SELECT t.* INTO n FROM accounts a JOIN team_nodes t ON t.account_id = coalesce(a.main_account_id, a.id) WHERE a.id = p_inviter;
  IF NOT FOUND THEN
    RETURN 'unknown_inviter';
  END IF;
  IF n.seq = m.seq THEN
    RETURN 'self';
  END IF;
  IF EXISTS (SELECT 1 FROM team_closure WHERE ancestor_seq = m.seq AND descendant_seq = n.seq) THEN
    RETURN 'cycle';
  END IF;
  IF m.inviter_seq IS NOT DISTINCT FROM n.seq THEN
    RETURN 'same_inviter';
  END IF;

  self_valid := CASE WHEN m.own_custody >= 500 THEN 1 ELSE 0 END;
  moved_performance := m.own_custody + m.team_performance;
  moved_count := 1 + m.team_count;
  moved_valid := self_valid + m.valid_team_count;

  -- Figures: old ancestors lose the subtree, new ones (the new inviter and above) gain it.
  UPDATE team_nodes t SET team_performance = t.team_performance + d.performance,
      team_count = t.team_count + d.members,
      valid_team_count = t.valid_team_count + d.valid,
      direct_count = t.direct_count + d.direct,
      valid_direct_count = t.valid_direct_count + d.valid_direct
    FROM (
      SELECT s.seq, sum(s.sign * moved_performance) AS performance, sum(s.sign * moved_count)::int AS members,
        sum(s.sign * moved_valid)::int AS valid, sum(CASE WHEN s.direct THEN s.sign ELSE 0 END)::int AS direct,
        sum(CASE WHEN s.direct THEN s.sign * self_valid ELSE 0 END)::int AS valid_direct
      FROM (
        SELECT c.ancestor_seq AS seq, -1 AS sign, c.depth = 1 AS direct FROM team_closure c WHERE c.descendant_seq = m.seq
        UNION ALL
        SELECT c.ancestor_seq, 1, false FROM team_closure c WHERE c.descendant_seq = n.seq
        UNION ALL
        SELECT n.seq, 1, true
      ) s
      GROUP BY s.seq
    ) d
    WHERE t.seq = d.seq;

  -- Closure: drop the subtree's rows to the old ancestors, add rows to the new inviter and its ancestors.
  DELETE FROM team_closure c
    WHERE c.ancestor_seq IN (SELECT ancestor_seq FROM team_closure WHERE descendant_seq = m.seq)
      AND (c.descendant_seq = m.seq OR c.descendant_seq IN (SELECT descendant_seq FROM team_closure WHERE ancestor_seq = m.seq));
  INSERT INTO team_closure (ancestor_seq, descendant_seq, depth)
    SELECT up.ancestor_seq, down.descendant_seq, up.depth + down.depth
    FROM (SELECT ancestor_seq, depth + 1 AS depth FROM team_closure WHERE descendant_seq = n.seq
          UNION ALL SELECT n.seq, 1) up
    CROSS JOIN (SELECT descendant_seq, depth FROM team_closure WHERE ancestor_seq = m.seq
                UNION ALL SELECT m.seq, 0) down
    ORDER BY 1, 2;

  UPDATE team_nodes t SET depth = t.depth + (n.depth + 1 - m.depth)
    WHERE t.seq = m.seq OR t.seq IN (SELECT descendant_seq FROM team_closure WHERE ancestor_seq = m.seq);
  UPDATE team_nodes SET inviter_seq = n.seq WHERE seq = m.seq;
  UPDATE accounts SET inviter_account_id = n.account_id WHERE id = p_account;
  RETURN 'moved';
END;
$$ LANGUAGE plpgsql;
