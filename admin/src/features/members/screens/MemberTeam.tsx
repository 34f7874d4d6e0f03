import { useCallback, useEffect, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Input, Space, Table, Tree, Typography } from 'antd';
import { VALID_CUSTODY_USDT, money, operatorMay, type AdminTeamNode, type Operator } from '@custos/contract';
import { listTeamChildren, moveMember } from '../api/team-tree-api';
import { TREE_PAGE_SIZE, childEntries, treeTitle, withChildren, type TreeEntry } from '../tree';
import { errorText } from '../../../lib/query/query-client';
import { getMemberTeam } from '../api/get-member-team';
import { memberKeys } from '../api/keys';

const PAGE_SIZE = 20;

const NODE_COLUMNS = [
  { title: 'Generation', dataIndex: 'generation' },
  { title: 'E-mail', dataIndex: 'email' },
  { title: 'Nickname', dataIndex: 'nickname' },
  { title: 'Level', dataIndex: 'level', render: (value: number) => `V${value}` },
  { title: 'Own custody', dataIndex: 'ownCustody' },
  { title: 'Team performance', dataIndex: 'teamPerformance' },
  { title: 'Team', render: (_value: unknown, node: AdminTeamNode) => `${node.directCount} direct / ${node.teamCount} all` },
];

/** The member's downline as a tree: each level loaded when its node is opened. */
function DownlineTree({ root, version }: { root: AdminTeamNode; version: number }) {
  const { message } = App.useApp();
  const [entries, setEntries] = useState<TreeEntry[]>([]);

  useEffect(() => {
    const valid = money.compare(money.parseMoney(root.ownCustody), money.parseMoney(VALID_CUSTODY_USDT)) >= 0;
    setEntries([
      {
        key: root.accountId,
        title: treeTitle({ ...root, isValid: valid }),
        isLeaf: root.directCount === 0,
      },
    ]);
  }, [root, version]);

  const load = useCallback(
    async (key: string) => {
      try {
        const page = await listTeamChildren(key, 1, TREE_PAGE_SIZE);
        setEntries((current) => withChildren(current, key, childEntries(key, page.items, page.total)));
      } catch (reason) {
        void message.error(errorText(reason));
      }
    },
    [message],
  );

  return (
    <Tree<TreeEntry>
      key={`${root.accountId}:${version}`}
      data-testid="member-team-tree"
      showLine
      treeData={entries}
      loadData={(entry) => load(String(entry.key))}
      titleRender={(entry) => (
        <span data-testid="member-team-tree-node" data-account-id={entry.key} data-email={entry.node?.email ?? ''}>
          {entry.title}
        </span>
      )}
    />
  );
}

/** Super admins move a member (and everyone below) under another inviter; audited, figures moved with it. */
function MoveMember({ node, onMoved }: { node: AdminTeamNode; onMoved: () => void }) {
  const { message, modal } = App.useApp();
  const [inviter, setInviter] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);

  const move = () => {
    setRefusal(null);
    modal.confirm({
      title: `Move ${node.email} and ${node.teamCount} members below under ${inviter.trim()}?`,
      content: 'The old and new upline’s team figures change with it. The move is recorded in the audit log.',
      okText: 'Move',
      okButtonProps: { 'data-testid': 'member-team-move-confirm' },
      onOk: () =>
        moveMember({ accountId: node.accountId, inviter: inviter.trim() }).then(
          (result) => {
            void message.success(`${result.email} moved under ${result.to.email} (${result.moved} members)`);
            setInviter('');
            onMoved();
          },
          (reason: unknown) => setRefusal(errorText(reason)),
        ),
    });
  };

  return (
    <Card size="small" title="Move to another inviter" style={{ marginTop: 16 }}>
      <Space>
        <Input
          placeholder="New inviter's e-mail or member id"
          value={inviter}
          onChange={(event) => setInviter(event.target.value)}
          style={{ width: 320 }}
          data-testid="member-team-move-inviter"
        />
        <Button disabled={inviter.trim() === ''} onClick={move} data-testid="member-team-move">
          Move
        </Button>
      </Space>
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginTop: 8 }} data-testid="member-team-move-refusal" />}
    </Card>
  );
}

/** A member's place in the referral tree: level and figures, the upline to the top, the downline as a tree and paged. */
export function MemberTeam({ memberId, operator }: { memberId: string; operator: Operator }) {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  // The lazily opened tree starts again after a move.
  const [version, setVersion] = useState(0);
  const teamQuery = useQuery({
    queryKey: memberKeys.team(memberId, page),
    queryFn: () => getMemberTeam(memberId, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });

  const team = teamQuery.data;
  if (teamQuery.isError) return <Alert type="error" showIcon title={errorText(teamQuery.error)} />;
  if (!team) return <Typography.Text type="secondary">Loading…</Typography.Text>;
  return (
    <>
      <Descriptions column={2} size="small" bordered>
        <Descriptions.Item label="Level">
          <span data-testid="member-team-level">V{team.self.level}</span>
        </Descriptions.Item>
        <Descriptions.Item label="Own custody">{team.self.ownCustody}</Descriptions.Item>
        <Descriptions.Item label="Team performance">{team.self.teamPerformance}</Descriptions.Item>
        <Descriptions.Item label="Members">
          {team.self.directCount} direct, {team.self.teamCount} in all, {team.self.validTeamCount} valid
        </Descriptions.Item>
      </Descriptions>
      <Table
        size="small"
        rowKey="accountId"
        pagination={false}
        title={() => 'Upline (from the direct inviter to the top)'}
        dataSource={team.upline}
        columns={NODE_COLUMNS}
        onRow={(node) => ({ 'data-testid': 'member-team-upline', 'data-email': node.email }) as object}
        style={{ marginTop: 16 }}
      />
      <Card size="small" title="Downline tree (open a member to see their direct members)" style={{ marginTop: 16 }}>
        <DownlineTree root={team.self} version={version} />
      </Card>
      {operatorMay(operator.role, 'team.restructure') && (
        <MoveMember
          node={team.self}
          onMoved={() => {
            setVersion((current) => current + 1);
            // A move changes this member's upline and both uplines' figures: every member view.
            void queryClient.invalidateQueries({ queryKey: memberKeys.all });
          }}
        />
      )}
      <Table
        size="small"
        rowKey="accountId"
        title={() => 'Downline (newest first)'}
        dataSource={team.downline.items}
        columns={NODE_COLUMNS}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: team.downline.total, onChange: setPage, showSizeChanger: false }}
        style={{ marginTop: 16 }}
      />
    </>
  );
}
