import { useEffect, useState } from 'react';
import { App, Descriptions, Table, Typography } from 'antd';
import type { AdminMemberTeam, AdminTeamNode } from '@custos/contract';
import { getMemberTeam } from '../api/get-member-team';

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

/** A member's place in the referral tree: level and figures, the upline to the top, the downline paged. */
export function MemberTeam({ memberId }: { memberId: string }) {
  const { message } = App.useApp();
  const [page, setPage] = useState(1);
  const [team, setTeam] = useState<AdminMemberTeam | null>(null);

  useEffect(() => {
    getMemberTeam(memberId, page, PAGE_SIZE).then(
      setTeam,
      (reason: unknown) => void message.error(reason instanceof Error ? reason.message : String(reason)),
    );
  }, [memberId, page, message]);

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
        style={{ marginTop: 16 }}
      />
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
