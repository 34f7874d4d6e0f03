import { Typography } from 'antd';
import { signOf, signedText } from '../lib/decimal';

/** A four-place amount from the server, right as sent; negatives in red, optionally signed credits in green. */
export function Amount({ value, signed = false, testId }: { value: string; signed?: boolean; testId?: string }) {
  const sign = signOf(value);
  const type = sign < 0 ? 'danger' : signed && sign > 0 ? 'success' : undefined;
  return (
    <Typography.Text type={type} className="amount" data-testid={testId}>
      {signed ? signedText(value) : value}
    </Typography.Text>
  );
}
