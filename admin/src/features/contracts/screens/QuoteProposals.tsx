import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { operatorMay, type ContractQuoteProposal, type ContractQuoteProposalWhy, type Operator } from '@custos/contract';
import { formatTime } from '../../../lib/dates';
import { errorText } from '../../../lib/query/query-client';
import { decideQuoteProposal, listQuoteProposals } from '../api/contracts';
import { contractKeys } from '../api/keys';

/** Proposals expire in minutes: the list is read again this often. */
const PROPOSALS_REFETCH_MS = 5_000;
const NOTE_MAX_LENGTH = 140;

/** Why a manual quote waits for a second operator (decision 050), as the console says it. */
export const PROPOSAL_WHY_TEXT: Record<ContractQuoteProposalWhy, string> = {
  out_of_band: 'outside the band around the last independent price',
  no_reference: 'no recent feed, replay or approved price to measure it against',
  feed_live: 'the feed is live',
};

/** "50 000.5 (21 bps off)", or "no reference". */
export function referenceText(proposal: Pick<ContractQuoteProposal, 'referenceMid' | 'deviationBps'>): string {
  if (proposal.referenceMid === null) return 'no reference';
  return `${proposal.referenceMid} (${proposal.deviationBps ?? '?'} bps off)`;
}

/**
 * Pending manual quote proposals (decision 050): another operator with `contracts.manage` approves
 * (the quote applies as proposed) or rejects; the proposer cannot decide their own.
 */
export function QuoteProposals({ operator }: { operator: Operator }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const mayDecide = operatorMay(operator.role, 'contracts.manage');
  const [notes, setNotes] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const proposals = useQuery({
    queryKey: contractKeys.quoteProposals('pending'),
    queryFn: () => listQuoteProposals('pending'),
    refetchInterval: PROPOSALS_REFETCH_MS,
  });
  const decide = (proposal: ContractQuoteProposal, decision: 'approve' | 'reject') => {
    setBusy(proposal.id);
    setRefusal(null);
    decideQuoteProposal(proposal.id, decision, notes[proposal.id] ?? '')
      .then(
        (decided) => {
          void message.success(
            decided.status === 'approved'
              ? `${decided.symbol} ${decided.bid} / ${decided.ask} approved and applied`
              : `${decided.symbol} ${decided.bid} / ${decided.ask} rejected`,
          );
        },
        (failure: unknown) => setRefusal(errorText(failure)),
      )
      .finally(() => {
        setBusy(null);
        // A decision (or a refusal: someone else may have decided) changes the list and the quotes.
        void queryClient.invalidateQueries({ queryKey: contractKeys.all });
      });
  };
  return (
    <Card title="Quote proposals waiting for a second operator" size="small" data-testid="quote-proposals">
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">
          A manual quote applies at once only near a recent independent price while no feed is live; any other waits here until
          another operator approves or rejects it, for a few minutes at most.
        </Typography.Text>
        {proposals.isError && <Alert type="error" showIcon title={errorText(proposals.error)} />}
        {refusal && (
          <Alert
            type="error"
            showIcon
            closable
            onClose={() => setRefusal(null)}
            title={refusal}
            data-testid="quote-proposal-error"
          />
        )}
        <Table<ContractQuoteProposal>
          rowKey="id"
          size="small"
          pagination={false}
          loading={!proposals.data && proposals.isFetching}
          dataSource={proposals.data?.items ?? []}
          locale={{ emptyText: 'No quote waits for approval' }}
          onRow={(proposal) => ({ 'data-testid': 'quote-proposal-row', 'data-symbol': proposal.symbol }) as object}
          columns={[
            { title: 'Product', dataIndex: 'symbol' },
            {
              title: 'Bid / ask',
              align: 'right',
              render: (_: unknown, proposal) => (
                <span data-testid="quote-proposal-quote">
                  {proposal.bid} / {proposal.ask}
                </span>
              ),
            },
            {
              title: 'Why',
              render: (_: unknown, proposal) => (
                <Space orientation="vertical" size={0}>
                  <Tag color="orange" data-testid="quote-proposal-why">
                    {PROPOSAL_WHY_TEXT[proposal.why]}
                  </Tag>
                  <Typography.Text type="secondary">reference {referenceText(proposal)}</Typography.Text>
                </Space>
              ),
            },
            {
              title: 'Proposed',
              render: (_: unknown, proposal) => (
                <Space orientation="vertical" size={0}>
                  <span>by {proposal.proposedBy}</span>
                  <Typography.Text type="secondary">
                    {formatTime(proposal.proposedAt)} · expires {formatTime(proposal.expiresAt)}
                  </Typography.Text>
                </Space>
              ),
            },
            {
              title: '',
              key: 'decide',
              render: (_: unknown, proposal) => {
                if (!mayDecide) return null;
                const own = proposal.proposedBy === operator.username;
                const buttons = (
                  <Space>
                    <Input
                      size="small"
                      placeholder="Note (optional)"
                      maxLength={NOTE_MAX_LENGTH}
                      disabled={own}
                      value={notes[proposal.id] ?? ''}
                      onChange={(event) => setNotes({ ...notes, [proposal.id]: event.target.value })}
                      data-testid="quote-proposal-note"
                    />
                    <Button
                      size="small"
                      type="primary"
                      disabled={own}
                      loading={busy === proposal.id}
                      onClick={() => decide(proposal, 'approve')}
                      data-testid="quote-proposal-approve"
                    >
                      Approve
                    </Button>
                    <Button
                      size="small"
                      danger
                      disabled={own}
                      loading={busy === proposal.id}
                      onClick={() => decide(proposal, 'reject')}
                      data-testid="quote-proposal-reject"
                    >
                      Reject
                    </Button>
                  </Space>
                );
                return own ? <Tooltip title="Another operator must approve a quote you proposed">{buttons}</Tooltip> : buttons;
              },
            },
          ]}
        />
      </Space>
    </Card>
  );
}
