import { Button } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import type { OtcPaymentDetail } from '@custos/contract';
import { copyText } from '../../../lib/clipboard';
import { showToast } from '../../../lib/toast';

function CopyRow({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="quote-row otc-copy-row">
      <span className="quote-label">{label}</span>
      <span>
        <span data-testid={testId}>{value}</span>{' '}
        <Button
          size="mini"
          fill="none"
          color="primary"
          onClick={() =>
            void copyText(value).then(
              () => showToast(t('otc.order.copied')),
              () => showToast(t('otc.order.copyFailed')),
            )
          }
        >
          {t('otc.order.copy')}
        </Button>
      </span>
    </div>
  );
}

/** The seller's payment details, shown to the buyer only while the order is open (the server sends none otherwise). */
export function PaymentDetails({ methods }: { methods: readonly OtcPaymentDetail[] }) {
  const { t } = useTranslation();
  return (
    <>
      {methods.map((method) => (
        <div key={method.id} className="otc-payment-detail" data-testid="otc-payment-detail" data-type={method.type}>
          <div className="withdraw-label">{t(`otc.paymentTypes.${method.type}`)}</div>
          <CopyRow label={t('otc.order.holder')} value={method.holderName} testId="otc-payment-holder" />
          {method.bankName && <CopyRow label={t('otc.order.bankName')} value={method.bankName} testId="otc-payment-bank" />}
          {method.branch && <CopyRow label={t('otc.order.branch')} value={method.branch} testId="otc-payment-branch" />}
          {method.cardNumber && <CopyRow label={t('otc.order.cardNumber')} value={method.cardNumber} testId="otc-payment-card" />}
          {method.account && <CopyRow label={t('otc.order.account')} value={method.account} testId="otc-payment-account" />}
        </div>
      ))}
    </>
  );
}
