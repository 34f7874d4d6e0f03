import { useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, List, NoticeBar, Selector, Tag } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { Link } from '../../../lib/router/router';
import { TRANSFER_ASSETS } from '@custos/contract';
import { getUserAssets } from '../../../api/get-user-assets';
import { accountKeys, assetKeys } from '../../../api/keys';
import { listAccounts } from '../../../api/list-accounts';
import { useUserInfo } from '../../../api/use-user-info';
import { AmountField, TradePasswordField } from '../../../components/forms/AmountField';
import { displayMoney, trimMoney } from '../../../lib/format/money';
import { currentLocale } from '../../../lib/i18n/i18n';
import { balanceProblem, normaliseAmountInput } from '../../../lib/money/amount';
import { IdempotencyKeyHolder } from '../../../lib/money/idempotency';
import { showToast } from '../../../lib/toast';
import { transfer } from '../api/transfer';

type TransferAsset = (typeof TRANSFER_ASSETS)[number];

interface TransferValues {
  to?: string[];
  asset?: TransferAsset[];
  amount?: string;
  tradePassword?: string;
}

/** withdraw5: USDT or RAB from the account in use to another of the member's accounts. */
export default function TransferScreen() {
  const { t } = useTranslation();
  const [form] = Form.useForm<TransferValues>();
  const queryClient = useQueryClient();
  const accounts = useQuery({ queryKey: accountKeys.list(), queryFn: listAccounts }).data ?? null;
  const assets = useQuery({ queryKey: assetKeys.summary(), queryFn: getUserAssets }).data ?? null;
  const user = useUserInfo().data ?? null;
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  const [keys] = useState(() => new IdempotencyKeyHolder());
  const asset: TransferAsset = Form.useWatch<TransferAsset[] | undefined>('asset', form)?.[0] ?? 'USDT';

  const current = accounts?.find((account) => account.current);
  const others = accounts?.filter((account) => !account.current) ?? [];
  const available = (of: TransferAsset) => (assets ? assets[of].available : null);

  const submit = async (values: TransferValues) => {
    const target = others.find((account) => account.id === values.to?.[0]);
    if (!target || sending.current) return;
    sending.current = true;
    setBusy(true);
    try {
      const done = await transfer({
        toAccountId: target.id,
        asset: values.asset?.[0] ?? 'USDT',
        amount: normaliseAmountInput(values.amount ?? ''),
        tradePassword: values.tradePassword ?? '',
        idempotencyKey: keys.current,
      });
      keys.succeeded();
      showToast(t('transfer.done', { amount: displayMoney(done.amount), asset: done.asset, name: done.toNickname }));
      form.resetFields(['amount', 'tradePassword']);
    } catch (error) {
      keys.failed(error);
    } finally {
      sending.current = false;
      setBusy(false);
      // Both accounts' balances moved (or a refusal may have shown a stale one).
      void queryClient.invalidateQueries({ queryKey: assetKeys.all });
    }
  };

  if (!accounts) return <div className="transfer-screen page-loading">{t('common.loading')}</div>;
  return (
    <div className="transfer-screen">
      {user && !user.hasTradePassword && (
        <NoticeBar
          color="info"
          wrap
          content={
            <span>
              {t('money.noTradePassword')} <Link to="/pages/update_pwd/update_pwd3">{t('money.setTradePassword')}</Link>
            </span>
          }
        />
      )}
      <List header={t('transfer.from')}>
        <List.Item
          data-testid="transfer-from"
          extra={
            current && (
              <Tag color="primary" fill="outline">
                {t(current.kind === 'main' ? 'accounts.main' : 'accounts.sub')}
              </Tag>
            )
          }
        >
          {current?.nickname ?? '—'}
        </List.Item>
      </List>
      {others.length === 0 ? (
        <div className="transfer-empty" data-testid="transfer-no-accounts">
          <p>{t('transfer.noOtherAccounts')}</p>
          <Link to="/pages/second/second">{t('accounts.create')}</Link>
        </div>
      ) : (
        <Form
          form={form}
          layout="vertical"
          initialValues={{ asset: ['USDT'], to: others.length === 1 ? [others[0]!.id] : [] }}
          onFinish={(values: TransferValues) => void submit(values)}
          footer={
            <Button block type="submit" color="primary" size="large" loading={busy} data-testid="transfer-submit">
              {t('transfer.submit')}
            </Button>
          }
        >
          <Form.Item
            name="to"
            label={t('transfer.to')}
            rules={[{ required: true, type: 'array', min: 1, message: t('transfer.chooseAccount') }]}
          >
            <Selector
              columns={2}
              data-testid="transfer-to"
              options={others.map((account) => ({
                value: account.id,
                label: account.nickname,
                description: t(account.kind === 'main' ? 'accounts.main' : 'accounts.sub'),
              }))}
            />
          </Form.Item>
          <Form.Item
            name="asset"
            label={t('transfer.asset')}
            rules={[{ required: true, type: 'array', min: 1, message: t('transfer.chooseAsset') }]}
          >
            <Selector
              columns={2}
              data-testid="transfer-asset"
              options={TRANSFER_ASSETS.map((option) => {
                const balance = available(option);
                return {
                  value: option,
                  label: option,
                  description: balance === null ? '—' : t('money.available', { amount: displayMoney(balance), asset: option }),
                };
              })}
              onChange={() => {
                form.resetFields(['amount']);
              }}
            />
          </Form.Item>
          <AmountField
            label={t('transfer.amount', { asset })}
            placeholder={t('transfer.amountPlaceholder')}
            check={(amount) => {
              const balance = available(asset);
              return balance === null ? null : balanceProblem(amount, balance, asset, currentLocale());
            }}
            onAll={() => {
              const balance = available(asset);
              if (balance === null) return;
              form.setFieldValue('amount', trimMoney(balance));
              void form.validateFields(['amount']).catch(() => undefined);
            }}
          />
          <TradePasswordField />
        </Form>
      )}
      <div className="money-links">
        <Link to="/pages/withdraw_record/withdraw_record6" data-testid="transfer-records-link">
          {t('routes.withdrawRecord6')}
        </Link>
      </div>
    </div>
  );
}
