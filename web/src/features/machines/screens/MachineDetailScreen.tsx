import { useCallback, useEffect, useState } from 'react';
import { DotLoading, ErrorBlock, Tag } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { useNavigate, useSearchParams } from '../../../lib/router/router';
import type { MachineProduct } from '@custos/contract';
import { getUserAssets } from '../../../api/get-user-assets';
import { QuoteRow } from '../../../components/QuoteRow';
import { displayMoney, displayRate } from '../../../lib/format/money';
import { goBackOr } from '../../../lib/go-back';
import { showToast } from '../../../lib/toast';
import { getMachineProduct } from '../api/get-machine-product';
import { BuyForm } from '../components/BuyForm';
import { MACHINES_PATH, isMachineId, productOutput, type BuyBalances } from '../machines';

type DetailState = { product: MachineProduct; balances: BuyBalances } | 'loading' | 'failed';

/** The product's terms: hashrate, prices, output per T and per day, lifetime and its total output. */
function ProductTerms({ product }: { product: MachineProduct }) {
  const { t } = useTranslation();
  const output = productOutput(product);
  return (
    <section className="hosting-summary machine-detail" data-testid="machine-detail" data-product-id={product.id}>
      <div className="hosting-summary-head">
        <div className="machine-detail-name" data-testid="machine-detail-name">
          {product.name}
        </div>
        {product.status === 'active' && <Tag color="success">{t('machines.onSaleTag')}</Tag>}
      </div>
      <div className="assets-summary-total" data-testid="machine-detail-hashrate">
        {product.hashrate}
        <span className="assets-summary-unit">T</span>
      </div>
      <div className="machine-detail-terms">
        <QuoteRow
          label={t('machines.priceUsdt')}
          value={`${displayMoney(product.priceUsdt)} USDT`}
          testId="machine-detail-price-usdt"
        />
        <QuoteRow
          label={t('machines.priceTickets')}
          value={`${displayMoney(product.priceTickets)} ${t('assetNames.TICKET')}`}
          testId="machine-detail-price-tickets"
        />
        <QuoteRow
          label={t('machines.outputPerT')}
          value={t('machines.perTDay', { amount: displayRate(product.dailyOutputPerT) })}
          testId="machine-detail-output-per-t"
        />
        <QuoteRow
          label={t('machines.dailyOutput')}
          value={t('machines.perDay', { amount: displayMoney(output.daily) })}
          testId="machine-detail-daily"
        />
        <QuoteRow
          label={t('machines.lifetime')}
          value={t('machines.days', { days: product.lifetimeDays })}
          testId="machine-detail-lifetime"
        />
        <QuoteRow
          label={t('machines.totalOutput', { days: product.lifetimeDays })}
          value={`${displayMoney(output.lifetime)} RAB`}
          testId="machine-detail-total-output"
        />
      </div>
    </section>
  );
}

/** goods_detail?id=…: a machine's terms and the form that buys it with USDT or tickets. */
export default function MachineDetailScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  const valid = isMachineId(id);
  const [state, setState] = useState<DetailState>('loading');

  const load = useCallback(() => {
    if (!isMachineId(id)) return;
    Promise.all([getMachineProduct(id), getUserAssets()]).then(
      ([product, assets]) => setState({ product, balances: { usdt: assets.USDT.available, tickets: assets.TICKET.available } }),
      () => setState((previous) => (typeof previous === 'object' ? previous : 'failed')),
    );
  }, [id]);
  useEffect(load, [load]);

  if (!valid) {
    return (
      <ErrorBlock
        status="empty"
        className="record-empty"
        title={t('machines.notFound')}
        description=""
        data-testid="machine-not-found"
      />
    );
  }
  if (state === 'loading') {
    return (
      <div className="page-loading">
        <DotLoading color="primary" />
      </div>
    );
  }
  if (state === 'failed') {
    return (
      <div className="recharge-failed" data-testid="machine-detail-failed">
        <span>{t('records.loadFailed')}</span>{' '}
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setState('loading');
            load();
          }}
        >
          {t('records.retry')}
        </button>
      </div>
    );
  }

  return (
    <div className="hosting-screen machine-detail-screen">
      <ProductTerms product={state.product} />
      <BuyForm
        key={state.product.id}
        product={state.product}
        balances={state.balances}
        onRefused={load}
        onDone={(machine) => {
          showToast(t('machines.buy.done', { name: machine.name }));
          goBackOr(navigate, MACHINES_PATH);
        }}
      />
    </div>
  );
}
