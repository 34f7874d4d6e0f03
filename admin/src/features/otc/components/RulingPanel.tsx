import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Checkbox, Descriptions, Input, InputNumber, Radio, Space, Typography } from 'antd';
import { adminOtcRuleRequest, type AdminOtcOrderDetail, type OtcRole, type OtcRuling } from '@custos/contract';
import type { z } from 'zod';
import { ledgerKeys } from '../../../api/keys';
import { errorText } from '../../../lib/query/query-client';
import { ruleOtcOrder } from '../api/otc';
import { otcKeys } from '../api/keys';
import { RULING_LABELS, contractIssueText } from '../otc';

const NOTE_MAX_LENGTH = 500;
const DEFAULT_SUSPENSION_DAYS = 7;

/** The party a ruling goes against: releasing to the buyer finds for the buyer, so the seller is the offender. */
export function offenderOf(ruling: OtcRuling): OtcRole {
  return ruling === 'release_to_buyer' ? 'seller' : 'buyer';
}

/** What a ruling will do, line by line, for the confirmation. */
function consequences(order: AdminOtcOrderDetail, request: z.output<typeof adminOtcRuleRequest>): string[] {
  const lines =
    request.ruling === 'release_to_buyer'
      ? [`${order.amount} USDT held in escrow goes to the buyer ${order.buyer.email}; the order completes.`]
      : [`${order.amount} USDT held in escrow returns to the seller ${order.seller.email}; the order is cancelled.`];
  if (request.forfeitDeposit) {
    const lister = order.lister === 'buyer' ? order.buyer : order.seller;
    lines.push(
      `The lister ${lister.email} loses the listing's security deposit of ${order.listingDeposit} USDT to the platform.`,
    );
  }
  if (request.suspend) {
    const party = request.suspend.role === 'buyer' ? order.buyer : order.seller;
    lines.push(`The ${request.suspend.role} ${party.email} may not trade OTC for ${request.suspend.days} day(s).`);
  }
  lines.push('Both parties are told at once, with your note.');
  return lines;
}

/**
 * A ruling on an appealed order (decision 031): release to the buyer or return to the seller, with
 * a note both parties see; optionally forfeit the lister's deposit (when the ruling goes against the
 * lister) and suspend a party from OTC. Checked with the contract's schema, confirmed, then sent once.
 */
export function RulingPanel({ order }: { order: AdminOtcOrderDetail }) {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [ruling, setRuling] = useState<OtcRuling | null>(null);
  const [note, setNote] = useState('');
  const [forfeit, setForfeit] = useState(false);
  const [suspend, setSuspend] = useState(false);
  const [days, setDays] = useState<number | null>(DEFAULT_SUSPENSION_DAYS);
  const [problem, setProblem] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  const offender = ruling ? offenderOf(ruling) : null;
  // Only the lister has a deposit, and only one still held can be forfeited.
  const mayForfeit = offender !== null && offender === order.lister && order.listingDepositStatus === 'held';

  const submit = () => {
    setRefusal(null);
    if (!ruling || !offender) {
      setProblem('Choose a ruling');
      return;
    }
    const parsed = adminOtcRuleRequest.safeParse({
      ruling,
      note: note.trim(),
      forfeitDeposit: mayForfeit && forfeit,
      suspend: suspend ? { role: offender, days: days ?? 0 } : null,
    });
    if (!parsed.success) {
      setProblem(contractIssueText(parsed.error.issues[0]!));
      return;
    }
    setProblem(null);
    const request = parsed.data;
    modal.confirm({
      title: 'Confirm the ruling',
      width: 560,
      content: (
        <Space orientation="vertical" data-testid="otc-ruling-summary">
          <Typography.Text strong>
            {RULING_LABELS[request.ruling]} · order {order.orderNo}
          </Typography.Text>
          {consequences(order, request).map((line) => (
            <Typography.Text key={line}>{line}</Typography.Text>
          ))}
          <Typography.Text type="secondary">Note: {request.note}</Typography.Text>
          <Typography.Text type="warning">A ruling cannot be undone.</Typography.Text>
        </Space>
      ),
      okText: 'Rule',
      okButtonProps: { danger: true },
      onOk: () =>
        ruleOtcOrder(order.id, request).then(
          (ruled) => {
            queryClient.setQueryData(otcKeys.order(order.id), ruled);
            void queryClient.invalidateQueries({ queryKey: otcKeys.all });
            void queryClient.invalidateQueries({ queryKey: ledgerKeys.all });
            void message.success(`Ruled: ${RULING_LABELS[request.ruling].toLowerCase()}`);
          },
          (reason: unknown) => {
            // Shown here and as a toast: a refusal because the order left the appeal (another
            // operator ruled) refreshes the order, and this panel then goes with the appeal.
            setRefusal(errorText(reason));
            void message.error(`Not ruled: ${errorText(reason)}`);
            void queryClient.invalidateQueries({ queryKey: otcKeys.order(order.id) });
          },
        ),
    });
  };

  return (
    <Card size="small" title="Rule on the appeal" data-testid="otc-ruling">
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Radio.Group
          value={ruling}
          onChange={(event) => {
            setRuling(event.target.value as OtcRuling);
            setProblem(null);
          }}
          data-testid="otc-ruling-choice"
        >
          <Space orientation="vertical">
            <Radio value="release_to_buyer" data-testid="otc-ruling-release">
              {RULING_LABELS.release_to_buyer}: the buyer paid; the escrowed {order.amount} USDT goes to the buyer
            </Radio>
            <Radio value="return_to_seller" data-testid="otc-ruling-return">
              {RULING_LABELS.return_to_seller}: the buyer did not pay; the escrowed {order.amount} USDT returns to the seller
            </Radio>
          </Space>
        </Radio.Group>
        <Descriptions size="small" column={1}>
          <Descriptions.Item label="Security deposit">
            {order.listingDepositStatus === 'none'
              ? 'none on this listing'
              : `${order.listingDeposit} USDT of the ${order.lister} (lister), ${order.listingDepositStatus}`}
          </Descriptions.Item>
        </Descriptions>
        <Checkbox
          checked={mayForfeit && forfeit}
          disabled={!mayForfeit}
          onChange={(event) => setForfeit(event.target.checked)}
          data-testid="otc-ruling-forfeit"
        >
          Forfeit the lister&apos;s deposit ({order.listingDeposit} USDT)
          {!mayForfeit && ruling && (
            <Typography.Text type="secondary">
              {' '}
              — only when the ruling goes against the lister and the deposit is still held
            </Typography.Text>
          )}
        </Checkbox>
        <Space>
          <Checkbox
            checked={suspend}
            disabled={!offender}
            onChange={(event) => setSuspend(event.target.checked)}
            data-testid="otc-ruling-suspend"
          >
            Suspend the {offender ?? 'offender'} from OTC for
          </Checkbox>
          <InputNumber
            min={1}
            max={3650}
            precision={0}
            value={days}
            disabled={!suspend}
            onChange={(value) => setDays(value)}
            style={{ width: 100 }}
            data-testid="otc-ruling-days"
          />
          days
        </Space>
        <Input.TextArea
          aria-label="Note to both parties"
          placeholder="Note to both parties (required): what you found"
          maxLength={NOTE_MAX_LENGTH}
          showCount
          rows={3}
          value={note}
          onChange={(event) => {
            setNote(event.target.value);
            setProblem(null);
          }}
          data-testid="otc-ruling-note"
        />
        {problem && <Alert type="error" showIcon title={problem} data-testid="otc-ruling-problem" />}
        {refusal && <Alert type="error" showIcon title={`Not ruled: ${refusal}`} data-testid="otc-ruling-refused" />}
        <Button type="primary" danger onClick={submit} data-testid="otc-ruling-submit">
          Rule…
        </Button>
      </Space>
    </Card>
  );
}
