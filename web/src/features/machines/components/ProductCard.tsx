import { useTranslation } from '../../../lib/i18n/translator';
import type { MachineProduct } from '@custos/contract';
import { QuoteRow } from '../../../components/QuoteRow';
import { displayMoney } from '../../../lib/format/money';
import { productOutput } from '../machines';

/** A machine on sale: hashrate, price in USDT and in tickets, daily output, lifetime; a tap opens it. */
export function ProductCard({ product, onOpen }: { product: MachineProduct; onOpen: (product: MachineProduct) => void }) {
  const { t } = useTranslation();
  const output = productOutput(product);
  return (
    <button
      type="button"
      className="machine-card"
      onClick={() => onOpen(product)}
      data-testid="machine-card"
      data-product-id={product.id}
    >
      <div className="machine-card-head">
        <span className="machine-card-name" data-testid="machine-card-name">
          {product.name}
        </span>
        <span className="machine-card-hashrate" data-testid="machine-card-hashrate">
          {t('machines.hashrateValue', { value: product.hashrate })}
        </span>
      </div>
      <QuoteRow
        label={t('machines.price')}
        value={t('machines.priceBoth', {
          usdt: displayMoney(product.priceUsdt),
          tickets: displayMoney(product.priceTickets),
        })}
        testId="machine-card-price"
      />
      <QuoteRow
        label={t('machines.dailyOutput')}
        value={t('machines.perDay', { amount: displayMoney(output.daily) })}
        testId="machine-card-daily"
      />
      <QuoteRow
        label={t('machines.lifetime')}
        value={t('machines.days', { days: product.lifetimeDays })}
        testId="machine-card-lifetime"
      />
    </button>
  );
}
