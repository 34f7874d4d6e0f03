import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n/translator';
import type { ForexProduct } from '@custos/contract';
import { getForexProducts } from '../../api/quotes';
import { PlainList, PlainListItem } from '../plain-list/PlainList';
import { quoteKeys } from '../../api/quotes-keys';
import { changeDirection, changeText, groupDigits } from './quote-format';

/** Quotes move without a member event: Home asks again this often while it is open (decision 027). */
export const QUOTES_REFETCH_MS = 30_000;

function ChangeBadge({ change }: { change: string | null }) {
  if (change === null) return <span className="quote-change quote-change-flat">—</span>;
  const direction = changeDirection(change);
  return (
    <span className={`quote-change quote-change-${direction}`} data-testid="quote-change" data-direction={direction}>
      {changeText(change)}
    </span>
  );
}

function QuoteLine({ item }: { item: ForexProduct }) {
  const { t } = useTranslation();
  const age =
    item.ageS === null
      ? null
      : item.ageS < 3600
        ? t('quotes.ageMinutes', { count: Math.max(1, Math.floor(item.ageS / 60)) })
        : t('quotes.ageHours', { count: Math.floor(item.ageS / 3600) });
  return (
    <PlainListItem
      data-testid="home-quote"
      data-symbol={item.symbol}
      data-stale={item.stale ? 'true' : 'false'}
      description={item.displayName !== item.symbol ? item.displayName : undefined}
      extra={
        <div className="quote-figures">
          <span className="quote-price" data-testid="quote-price">
            {item.price === null ? '—' : groupDigits(item.price)}
          </span>
          <ChangeBadge change={item.changePct24h} />
        </div>
      }
    >
      <span className="quote-symbol">{item.symbol}</span>
      {item.stale && (
        <span className="quote-stale" data-testid="quote-stale" title={t('quotes.staleHint')}>
          {t('quotes.stale')}
          {age ? ` · ${age}` : ''}
        </span>
      )}
    </PlainListItem>
  );
}

/** Home's quotes: each pair's price and 24 h change (green up, red down); a stale price says so. */
export function HomeQuotes() {
  const { t } = useTranslation();
  const { data } = useQuery({ queryKey: quoteKeys.home(), queryFn: getForexProducts, refetchInterval: QUOTES_REFETCH_MS });
  const items = data?.items ?? [];
  // While the first answer is on its way the list keeps a place, so what is below does not jump
  // when it arrives (decision 036, layout shift).
  if (!data) return <div className="home-quotes home-quotes-pending" aria-hidden="true" />;
  if (items.length === 0) return null;
  return (
    <div className="home-quotes" data-testid="home-quotes">
      <PlainList header={<span>{t('quotes.title')}</span>}>
        {items.map((item) => (
          <QuoteLine key={item.id} item={item} />
        ))}
      </PlainList>
    </div>
  );
}
