import { useTranslation } from '../../../lib/i18n/translator';
import type { OtcPaymentDetail } from '@custos/contract';

/** How one of my payment methods reads in a picker: "Bank card · Bank of China **** 1234", holder. */
export function paymentMethodTitle(method: OtcPaymentDetail, typeLabel: string): string {
  const what = method.type === 'bank' ? [method.bankName, method.cardNumber].filter(Boolean).join(' ') : (method.account ?? '');
  return what ? `${typeLabel} · ${what}` : typeLabel;
}

export function PaymentMethodOption({ method }: { method: OtcPaymentDetail }) {
  const { t } = useTranslation();
  return (
    <span data-testid="otc-method-option" data-method-id={method.id} data-type={method.type}>
      {paymentMethodTitle(method, t(`otc.paymentTypes.${method.type}`))}
    </span>
  );
}
