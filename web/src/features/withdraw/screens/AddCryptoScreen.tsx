import { SingleSelector } from '../../../components/forms/SingleSelector';
import { useState } from 'react';
import { Button, Form, Input } from 'antd-mobile';
import type { RuleObject } from 'antd-mobile/es/components/form';
import { useTranslation } from '../../../lib/i18n/translator';
import { useNavigate } from '../../../lib/router/router';
import { NETWORKS, addCryptoMethodRequest, type Network } from '@custos/contract';
import { currentLocale } from '../../../lib/i18n/i18n';
import { showToast } from '../../../lib/toast';
import { addCryptoMethod } from '../api/add-crypto-method';
import { goBackOr } from '../../../lib/go-back';
import { requestProblems } from '../methods';
import { METHODS_PATH } from '../paths';

interface CryptoValues {
  network?: Network[];
  address?: string;
}

/** withdraw3: a USDT receiving address on BEP20 or TRC20, checked (format and checksum) before it is sent. */
export default function AddCryptoScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<CryptoValues>();
  const [busy, setBusy] = useState(false);
  const network: Network = Form.useWatch<Network[] | undefined>('network', form)?.[0] ?? 'BEP20';

  const submit = (values: CryptoValues) => {
    setBusy(true);
    addCryptoMethod({ network: values.network?.[0] ?? 'BEP20', address: (values.address ?? '').trim() })
      .then(
        () => {
          showToast(t('withdraw.methods.added'));
          goBackOr(navigate, METHODS_PATH);
        },
        // The server's message has been shown.
        () => undefined,
      )
      .finally(() => setBusy(false));
  };

  return (
    <div className="withdraw-add-screen">
      <Form
        form={form}
        layout="vertical"
        initialValues={{ network: ['BEP20'] }}
        onFinish={submit}
        footer={
          <Button block type="submit" color="primary" size="large" loading={busy} data-testid="withdraw-crypto-submit">
            {t('withdraw.methods.save')}
          </Button>
        }
      >
        <Form.Item
          name="network"
          label={t('withdraw.methods.network')}
          rules={[{ required: true, type: 'array', min: 1, message: t('withdraw.methods.chooseNetwork') }]}
        >
          <SingleSelector<Network>
            columns={2}
            data-testid="withdraw-crypto-network"
            options={NETWORKS.map((network) => ({
              value: network,
              label: <span data-testid={`withdraw-crypto-network-${network}`}>{network}</span>,
            }))}
            onPicked={() => {
              // The same text may be valid on one network and not on the other.
              if (form.getFieldValue('address')) void form.validateFields(['address']).catch(() => undefined);
            }}
          />
        </Form.Item>
        <Form.Item
          name="address"
          label={t('withdraw.methods.address')}
          description={t('withdraw.methods.addressHint', { network })}
          dependencies={['network']}
          required
          rules={[
            ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
              validator: async (_rule: RuleObject, value: string | undefined) => {
                const chosen = (getFieldValue('network') as Network[] | undefined)?.[0] ?? 'BEP20';
                const problem = requestProblems(
                  addCryptoMethodRequest,
                  { network: chosen, address: value ?? '' },
                  currentLocale(),
                ).address;
                if (problem) throw new Error(problem);
              },
            }),
          ]}
        >
          <Input
            placeholder={t('withdraw.methods.addressPlaceholder', { network })}
            autoComplete="off"
            autoCapitalize="off"
            data-testid="withdraw-crypto-address"
          />
        </Form.Item>
      </Form>
    </div>
  );
}
