import { Button, Form, Input } from 'antd-mobile';
import { useTranslation } from '../../lib/i18n/translator';
import type { Money } from '@custos/contract';
import { normaliseAmountInput } from '../../lib/money/amount';
import { rules } from './rules';

interface AmountFieldProps {
  label: string;
  placeholder?: string;
  /** Extra checks after the format (minimum, balance); a message refuses the amount. */
  check?: (amount: Money) => string | null;
  /** Fills in everything available. */
  onAll?: () => void;
  description?: string;
}

/** An amount: decimal keyboard, a decimal comma becomes a point, the server's rules, an "all" button. */
export function AmountField({ label, placeholder, check, onAll, description }: AmountFieldProps) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="amount"
      label={label}
      rules={rules.amount(check)}
      normalize={(value: string | undefined) => normaliseAmountInput(value ?? '')}
      description={description}
      extra={
        onAll && (
          <Button size="mini" fill="none" color="primary" onClick={onAll} data-testid="amount-all">
            {t('money.all')}
          </Button>
        )
      }
    >
      <Input placeholder={placeholder} inputMode="decimal" autoComplete="off" data-testid="amount-input" />
    </Form.Item>
  );
}

/** The trading password that confirms a money request. */
export function TradePasswordField() {
  const { t } = useTranslation();
  return (
    <Form.Item name="tradePassword" label={t('tradePassword.password')} rules={rules.tradePassword()}>
      <Input
        type="password"
        placeholder={t('money.tradePasswordPlaceholder')}
        autoComplete="off"
        data-testid="trade-password-input"
      />
    </Form.Item>
  );
}
