import { useRef, useState } from 'react';
import { Button, Form, Popup } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import type { OtcOrderDetail } from '@custos/contract';
import { assetKeys } from '../../../api/keys';
import { TradePasswordField } from '../../../components/forms/AmountField';
import { GoogleCodeField } from '../../../components/forms/GoogleCodeField';
import { displayMoney } from '../../../lib/format/money';
import { showToast } from '../../../lib/toast';
import { otcKeys } from '../api/keys';
import { releaseOrder } from '../api/release';

interface ReleaseValues {
  tradePassword?: string;
  googleCode?: string;
}

/**
 * The seller's release (spec "seller loan"): the trading password, and the authenticator code when
 * one is bound; a missing trading password is sent to update_pwd3 by the client (code 4900).
 */
export function ReleaseSheet({
  order,
  requiresAuthenticator,
  onClose,
}: {
  order: OtcOrderDetail;
  requiresAuthenticator: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ReleaseValues>();
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);

  const submit = async (values: ReleaseValues) => {
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    try {
      await releaseOrder({
        orderId: order.id,
        tradePassword: values.tradePassword ?? '',
        ...(requiresAuthenticator ? { googleCode: values.googleCode?.trim() ?? '' } : {}),
      });
      showToast(t('otc.order.released'));
      onClose();
    } catch {
      // The server's refusal (wrong password, frozen order) has been shown.
    } finally {
      sending.current = false;
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: otcKeys.all });
      void queryClient.invalidateQueries({ queryKey: assetKeys.all });
    }
  };

  return (
    <Popup visible onMaskClick={onClose} onClose={onClose} destroyOnClose bodyClassName="otc-sheet">
      <div data-testid="otc-release-sheet">
        <h3 className="otc-sheet-title">{t('otc.order.releaseTitle', { amount: displayMoney(order.amount) })}</h3>
        <p className="withdraw-unavailable">{t('otc.order.releaseWarning')}</p>
        <Form
          form={form}
          layout="vertical"
          onFinish={(values: ReleaseValues) => void submit(values)}
          footer={
            <Button block type="submit" color="danger" size="large" loading={busy} data-testid="otc-release-submit">
              {t('otc.order.release')}
            </Button>
          }
        >
          <TradePasswordField />
          {requiresAuthenticator && <GoogleCodeField testId="otc-release-google-code" />}
        </Form>
      </div>
    </Popup>
  );
}
