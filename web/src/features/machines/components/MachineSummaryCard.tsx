import { useTranslation } from '../../../lib/i18n/translator';
import { displayMoney } from '../../../lib/format/money';
import type { MachineSummary } from '../machines';

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="machines-summary-figure">
      <div className="assets-summary-label">{label}</div>
      <div className="assets-summary-part" data-testid={testId}>
        {value}
      </div>
    </div>
  );
}

/** My mining at a glance: total hashrate, running machines, output so far and of the last day, tickets. */
export function MachineSummaryCard({ summary }: { summary: MachineSummary }) {
  const { t } = useTranslation();
  return (
    <section className="hosting-summary" data-testid="machines-summary">
      <div className="assets-summary-label">{t('machines.summary.totalHashrate')}</div>
      <div className="assets-summary-total" data-testid="machines-total-hashrate">
        {summary.totalHashrate}
        <span className="assets-summary-unit">T</span>
      </div>
      <div className="machines-summary-grid">
        <Figure label={t('machines.summary.running')} value={String(summary.running)} testId="machines-running" />
        <Figure
          label={t('machines.summary.outputSoFar')}
          value={`${displayMoney(summary.outputSoFar)} RAB`}
          testId="machines-output-so-far"
        />
        <Figure
          label={t('machines.summary.lastDayOutput')}
          value={`${displayMoney(summary.lastDayOutput)} RAB`}
          testId="machines-last-day-output"
        />
        <Figure
          label={t('machines.summary.tickets')}
          value={t('machines.summary.ticketsValue', {
            available: displayMoney(summary.ticketsAvailable),
            used: displayMoney(summary.ticketsUsed),
          })}
          testId="machines-tickets"
        />
      </div>
    </section>
  );
}
