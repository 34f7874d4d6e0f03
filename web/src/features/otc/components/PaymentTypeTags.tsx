import { Tag } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import type { OtcPaymentType } from '@custos/contract';

const COLOURS: Record<OtcPaymentType, string> = { bank: '#ff8a00', wechat: '#07c160', alipay: '#1677ff' };

/** The payment methods a listing accepts, as small coloured tags. */
export function PaymentTypeTags({ types }: { types: readonly OtcPaymentType[] }) {
  const { t } = useTranslation();
  return (
    <span className="otc-payment-tags" data-testid="otc-payment-types">
      {types.map((type) => (
        <Tag key={type} color={COLOURS[type]} fill="outline" data-type={type}>
          {t(`otc.paymentTypes.${type}`)}
        </Tag>
      ))}
    </span>
  );
}
