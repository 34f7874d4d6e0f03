import { Space, Tag, Typography } from 'antd';
import type { AdminOtcParty } from '@custos/contract';
import { formatTime } from '../../../lib/dates';
import { reputationText } from '../otc';

/** A party of an order or a listing: e-mail, nickname, and whether OTC is barred for them. */
export function PartyCell({ party, testId }: { party: AdminOtcParty; testId: string }) {
  return (
    <Space orientation="vertical" size={0}>
      <span data-testid={testId}>{party.email}</span>
      <Typography.Text type="secondary">{party.nickname}</Typography.Text>
      {party.suspendedUntil && <Tag color="red">suspended until {formatTime(party.suspendedUntil)}</Tag>}
    </Space>
  );
}

/** The same with the trader's reputation (computed from orders, never edited). */
export function PartyWithReputation({ party, role, testId }: { party: AdminOtcParty; role: string; testId: string }) {
  return (
    <Space orientation="vertical" size={0} data-testid={testId}>
      <Typography.Text strong>
        {role}: <span data-testid={`${testId}-email`}>{party.email}</span>
      </Typography.Text>
      <Typography.Text type="secondary">{party.nickname}</Typography.Text>
      <Typography.Text type="secondary" data-testid={`${testId}-reputation`}>
        {reputationText(party.reputation)}
      </Typography.Text>
      {party.suspendedUntil && (
        <Tag color="red" data-testid={`${testId}-suspended`}>
          OTC suspended until {formatTime(party.suspendedUntil)}
        </Tag>
      )}
    </Space>
  );
}
