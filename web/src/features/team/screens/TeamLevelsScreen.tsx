import { DotLoading } from 'antd-mobile';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { QuoteRow } from '../../../components/QuoteRow';
import { displayMoney, displayRate } from '../../../lib/format/money';
import { teamKeys } from '../api/keys';
import { getTeamLevelConfig } from '../api/team-api';
import { LevelBadge } from '../components/LevelBadge';

/** blance_record8: the level table the operator set, in force today, with my level marked. */
export default function TeamLevelsScreen() {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: teamKeys.levels(), queryFn: getTeamLevelConfig });
  const config = query.data;

  if (!config && query.isError) {
    return (
      <div className="recharge-failed" data-testid="team-levels-failed">
        <span>{t('records.loadFailed')}</span>{' '}
        <button type="button" className="link-button" onClick={() => void query.refetch()}>
          {t('records.retry')}
        </button>
      </div>
    );
  }
  if (!config) {
    return (
      <div className="page-loading">
        <DotLoading color="primary" />
      </div>
    );
  }
  return (
    <div className="hosting-screen team-levels-screen" data-testid="team-levels">
      <p className="hosting-note" data-testid="team-levels-since">
        {t('team.effectiveFrom', { date: config.effectiveFrom })}
      </p>
      {config.levels.map((level) => {
        const mine = level.level === config.myLevel;
        return (
          <section
            key={level.level}
            className={`withdraw-section team-level-card${mine ? ' team-level-mine' : ''}`}
            data-testid="team-level-row"
            data-level={level.level}
            data-mine={String(mine)}
          >
            <div className="hosting-summary-head">
              <LevelBadge level={level.level} name={level.name} />
              {mine && <span className="team-you">{t('team.youAreHere')}</span>}
            </div>
            <QuoteRow
              label={t('team.requireOwn')}
              value={`${displayMoney(level.minOwnCustody)} USDT`}
              testId={`team-level-own-${level.level}`}
            />
            <QuoteRow
              label={t('team.requireDirect')}
              value={String(level.minValidDirect)}
              testId={`team-level-direct-${level.level}`}
            />
            <QuoteRow
              label={t('team.requirePerformance')}
              value={`${displayMoney(level.minTeamPerformance)} USDT`}
              testId={`team-level-performance-${level.level}`}
            />
            {level.minLegs > 0 && (
              <QuoteRow
                label={t('team.requireLegs')}
                value={t('team.legsValue', { count: level.minLegs, level: `V${level.legsLevel ?? 0}` })}
                testId={`team-level-legs-${level.level}`}
              />
            )}
            <QuoteRow
              label={t('team.rateDirect')}
              value={`${displayRate(level.directRatePct)} %`}
              testId={`team-level-rate-direct-${level.level}`}
            />
            <QuoteRow
              label={t('team.rateIndirect', { count: level.indirectGenerations })}
              value={`${displayRate(level.indirectRatePct)} %`}
              testId={`team-level-rate-indirect-${level.level}`}
            />
            <QuoteRow
              label={t('team.rateCommunity')}
              value={`${displayRate(level.communityRatePct)} %`}
              testId={`team-level-rate-community-${level.level}`}
            />
            <QuoteRow
              label={t('team.rateManagement')}
              value={`${displayRate(level.managementRatePct)} %`}
              testId={`team-level-rate-management-${level.level}`}
            />
            <QuoteRow
              label={t('team.rateDividend')}
              value={`${displayRate(level.dividendRatePct)} %`}
              testId={`team-level-rate-dividend-${level.level}`}
            />
            <QuoteRow
              label={t('team.promotion')}
              value={`${displayMoney(level.promotionBonus)} USDT`}
              testId={`team-level-promotion-${level.level}`}
            />
          </section>
        );
      })}
    </div>
  );
}
