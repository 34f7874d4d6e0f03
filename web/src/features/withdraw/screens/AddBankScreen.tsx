import { useEffect, useState } from 'react';
import { Button, Form, Input, Segmented } from 'antd-mobile';
import type { RuleObject } from 'antd-mobile/es/components/form';
import { useTranslation } from '../../../lib/i18n/translator';
import { useNavigate, useSearchParams } from '../../../lib/router/router';
import type { z } from 'zod';
import { addBankMethodRequest, addWalletMethodRequest, type WithdrawSettings } from '@custos/contract';
import { currentLocale } from '../../../lib/i18n/i18n';
import { showToast } from '../../../lib/toast';
import { addBankMethod } from '../api/add-bank-method';
import { addWalletMethod } from '../api/add-wallet-method';
import { getWithdrawIndex } from '../api/get-withdraw-index';
import { goBackOr } from '../../../lib/go-back';
import { requestProblems, walletTypesOffered } from '../methods';
import { METHODS_PATH } from '../paths';

type Kind = 'bank' | 'wechat' | 'alipay';

interface MethodValues {
  bankName?: string;
  cardNumber?: string;
  holderName?: string;
  branch?: string;
  account?: string;
}

const BANK_FIELDS = ['bankName', 'cardNumber', 'holderName', 'branch'] as const;
const WALLET_FIELDS = ['holderName', 'account'] as const;

function trimmed(values: MethodValues, fields: readonly (keyof MethodValues)[]): Record<string, string> {
  return Object.fromEntries(fields.map((field) => [field, (values[field] ?? '').trim()]));
}

/** A form rule that runs the contract's request schema (as the server does) and shows this field's refusal. */
function schemaRule(schema: z.ZodType, field: keyof MethodValues, fields: readonly (keyof MethodValues)[]) {
  return ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
    validator: async (_rule: RuleObject) => {
      const values = Object.fromEntries(fields.map((name) => [name, (getFieldValue(name) as string | undefined) ?? '']));
      const problem = requestProblems(schema, values, currentLocale())[field];
      if (problem) throw new Error(problem);
    },
  });
}

/**
 * withdraw4: a bank card (bank, card number, holder, branch). When the operator has turned on WeChat
 * Pay or Alipay, a switch above offers those too (holder and account). Opened from OTC (`?for=otc`),
 * it always offers them: they are OTC payment details (product.md §5, decision 032).
 */
export default function AddBankScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<MethodValues>();
  const [busy, setBusy] = useState(false);
  const [settings, setSettings] = useState<WithdrawSettings | null>(null);
  const [kind, setKind] = useState<Kind>('bank');
  const [params] = useSearchParams();
  const forOtc = params.get('for') === 'otc';

  useEffect(() => {
    getWithdrawIndex().then(
      (index) => {
        setSettings(index.settings);
        // Bank cards closed but a wallet open: start on the wallet.
        if (!index.settings.methods.bank && !forOtc) setKind((current) => walletTypesOffered(index.settings)[0] ?? current);
      },
      () => undefined,
    );
  }, [forOtc]);

  const wallets = forOtc ? (['wechat', 'alipay'] as const) : walletTypesOffered(settings);
  const kinds: Kind[] = [...(forOtc || settings === null || settings.methods.bank ? (['bank'] as const) : []), ...wallets];

  const submit = (values: MethodValues) => {
    setBusy(true);
    const request =
      kind === 'bank'
        ? addBankMethod(trimmed(values, BANK_FIELDS) as Parameters<typeof addBankMethod>[0])
        : addWalletMethod(kind, trimmed(values, WALLET_FIELDS) as Parameters<typeof addWalletMethod>[1]);
    request
      .then(
        () => {
          showToast(forOtc ? t('withdraw.methods.otcAdded') : t('withdraw.methods.added'));
          goBackOr(navigate, METHODS_PATH);
        },
        // The server's message has been shown.
        () => undefined,
      )
      .finally(() => setBusy(false));
  };

  const field = (name: keyof MethodValues, schema: z.ZodType, fields: readonly (keyof MethodValues)[], inputMode?: 'numeric') => (
    <Form.Item
      key={`${kind}-${name}`}
      name={name}
      label={t(`withdraw.methods.${name}`)}
      required
      rules={[schemaRule(schema, name, fields)]}
    >
      <Input
        placeholder={t(`withdraw.methods.${name}Placeholder`)}
        autoComplete="off"
        inputMode={inputMode}
        data-testid={`withdraw-${kind}-${name}`}
      />
    </Form.Item>
  );

  return (
    <div className="withdraw-add-screen">
      {kinds.length > 1 && (
        <div className="withdraw-kind">
          <Segmented
            block
            value={kind}
            options={kinds.map((value) => ({ value, label: t(`withdraw.methods.${value}`) }))}
            onChange={(value) => {
              setKind(value as Kind);
              form.resetFields();
            }}
            data-testid="withdraw-method-kind"
          />
        </div>
      )}
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        footer={
          <Button block type="submit" color="primary" size="large" loading={busy} data-testid={`withdraw-${kind}-submit`}>
            {t('withdraw.methods.save')}
          </Button>
        }
      >
        {kind === 'bank'
          ? [
              field('bankName', addBankMethodRequest, BANK_FIELDS),
              field('cardNumber', addBankMethodRequest, BANK_FIELDS, 'numeric'),
              field('holderName', addBankMethodRequest, BANK_FIELDS),
              field('branch', addBankMethodRequest, BANK_FIELDS),
            ]
          : [field('holderName', addWalletMethodRequest, WALLET_FIELDS), field('account', addWalletMethodRequest, WALLET_FIELDS)]}
      </Form>
      {kind === 'bank' && <p className="money-note">{t('withdraw.methods.bankNote')}</p>}
      {forOtc && (
        <p className="money-note" data-testid="withdraw-otc-note">
          {t('withdraw.methods.otcNote')}
        </p>
      )}
    </div>
  );
}
