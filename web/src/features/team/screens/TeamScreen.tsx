import { DotLoading, List, PullToRefresh } from 'antd-mobile';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { useNavigate } from '../../../lib/router/router';
import type { TeamEarningType, TeamInfo } from '@custos/contract';
import { QuoteRow } from '../../../components/QuoteRow';
import { displayMoney } from '../../../lib/format/money';
import { teamKeys } from '../api/keys';
import { getTeamEarnings, getTeamInfo } from '../api/team-api';
import { LevelBadge } from '../components/LevelBadge';
import { INCOME_PATH, SHARE_POSTER_PATH, TEAM_LEVELS_PATH, TEAM_MEMBERS_PATH, missingParts } from '../team';

/** The next level and what is still missing for it, or that the top has been reached. */
function NextLevel({ info }: { info: TeamInfo }) {
  const { t } = useTranslation();
  if (!info.next) {
    return (
      <p className="hosting-note" data-testid="team-top-level">
        {t('team.topLevel')}
      </p>
    );
  }
  const parts = missingParts(info.next);
  return (
    <section className="withdraw-section" data-testid="team-next">
      <div className="hosting-summary-head">
        <div className="withdraw-label">{t('team.nextLevel')}</div>
        <LevelBadge level={info.next.level} name={info.next.name} testId="team-next-badge" />
      </div>
      <QuoteRow
        label={t('team.requireOwn')}
        value={`${displayMoney(info.next.requires.ownCustody)} USDT`}
        testId="team-require-own"
      />
      <QuoteRow label={t('team.requireDirect')} value={String(info.next.requires.validDirect)} testId="team-require-direct" />
      <QuoteRow
        label={t('team.requirePerformance')}
        value={`${displayMoney(info.next.requires.teamPerformance)} USDT`}
        testId="team-require-performance"
      />
      {info.next.requires.legs > 0 && (
        <QuoteRow
          label={t('team.requireLegs')}
          value={t('team.legsValue', { count: info.next.requires.legs, level: `V${info.next.requires.legsLevel ?? 0}` })}
          testId="team-require-legs"
        />
      )}
      <ul className="team-missing" data-testid="team-missing">
        {parts.map((part) => (
          <li key={part.key}>{t(part.key, part.values)}</li>
        ))}
      </ul>
    </section>
  );
}

/** The label of a team earning type: the income log's, or "Level dividend". */
export function teamEarningKey(
  type: TeamEarningType,
): `income.types.${Exclude<TeamEarningType, 'level_dividend'>}` | 'teamEarnings.levelDividend' {
  return type === 'level_dividend' ? 'teamEarnings.levelDividend' : `income.types.${type}`;
}

/** My team earnings per type, to arrive and arrived (docs/decisions/024-team-earnings.md). */
function TeamEarnings() {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: teamKeys.earnings(), queryFn: getTeamEarnings });
  if (!query.data) return null;
  return (
    <section className="withdraw-section" data-testid="team-earnings">
      <div className="withdraw-label">{t('teamEarnings.title')}</div>
      <div className="team-earnings-row team-earnings-head">
        <span />
        <span>{t('teamEarnings.toArrive')}</span>
        <span>{t('teamEarnings.arrived')}</span>
      </div>
      {query.data.map((row) => (
        <div key={row.type} className="team-earnings-row" data-testid="team-earning" data-type={row.type}>
          <span>{t(teamEarningKey(row.type))}</span>
          <span data-testid="team-earning-to-arrive">{displayMoney(row.toArrive)}</span>
          <span data-testid="team-earning-arrived">{displayMoney(row.arrived)}</span>
        </div>
      ))}
      <p className="hosting-note">{t('teamEarnings.summaryHint')}</p>
    </section>
  );
}

/** blance_record6 (Team tab): my level, team performance, member counts, the next level, and the way to members, levels and the poster. */
export default function TeamScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const query = useQuery({ queryKey: teamKeys.info(), queryFn: getTeamInfo });
  const info = query.data;
  const queryClient = useQueryClient();
  const refresh = async () => {
    await Promise.all([query.refetch(), queryClient.invalidateQueries({ queryKey: teamKeys.earnings() })]);
  };

  if (!info && query.isError) {
    return (
      <div className="recharge-failed" data-testid="team-failed">
        <span>{t('records.loadFailed')}</span>{' '}
        <button type="button" className="link-button" onClick={() => void refresh()}>
          {t('records.retry')}
        </button>
      </div>
    );
  }
  if (!info) {
    return (
      <div className="page-loading">
        <DotLoading color="primary" />
      </div>
    );
  }

  return (
    <PullToRefresh
      onRefresh={refresh}
      pullingText={t('assets.pullToRefresh')}
      canReleaseText={t('assets.releaseToRefresh')}
      refreshingText={t('common.loading')}
      completeText={t('assets.refreshed')}
    >
      <div className="hosting-screen team-screen">
        <section className="hosting-summary" data-testid="team-summary">
          <div className="hosting-summary-head">
            <div className="assets-summary-label">{t('team.myLevel')}</div>
            <LevelBadge level={info.level} name={info.levelName} testId="team-level" />
          </div>
          <div className="assets-summary-label">{t('team.performanceTotal')}</div>
          <div className="assets-summary-total" data-testid="team-performance-total">
            {displayMoney(info.performance.total)}
            <span className="assets-summary-unit">USDT</span>
          </div>
          <div className="team-figures">
            <div>
              <div className="assets-summary-label">{t('team.performanceToday')}</div>
              <div className="assets-summary-part" data-testid="team-performance-today">
                {displayMoney(info.performance.today)}
              </div>
            </div>
            <div>
              <div className="assets-summary-label">{t('team.performanceMonth')}</div>
              <div className="assets-summary-part" data-testid="team-performance-month">
                {displayMoney(info.performance.month)}
              </div>
            </div>
          </div>
        </section>

        <section className="withdraw-section" data-testid="team-counts">
          <QuoteRow label={t('team.direct')} value={String(info.directCount)} testId="team-direct" />
          <QuoteRow label={t('team.indirect')} value={String(info.indirectCount)} testId="team-indirect" />
          <QuoteRow label={t('team.validDirect')} value={String(info.validDirectCount)} testId="team-valid-direct" />
          <QuoteRow label={t('team.valid')} value={String(info.validTeamCount)} testId="team-valid" />
          <QuoteRow label={t('team.ownCustody')} value={`${displayMoney(info.ownCustody)} USDT`} testId="team-own" />
          <p className="hosting-note">{t('team.validHint', { threshold: displayMoney(info.validThreshold) })}</p>
        </section>

        <NextLevel info={info} />

        <TeamEarnings />

        <List className="team-links">
          <List.Item onClick={() => void navigate(TEAM_MEMBERS_PATH)} data-testid="team-members-link">
            {t('team.members')}
          </List.Item>
          <List.Item onClick={() => void navigate(TEAM_LEVELS_PATH)} data-testid="team-levels-link">
            {t('team.levels')}
          </List.Item>
          <List.Item onClick={() => void navigate(SHARE_POSTER_PATH)} data-testid="team-share-link">
            {t('team.invite')}
          </List.Item>
          <List.Item onClick={() => void navigate(INCOME_PATH)} data-testid="team-income-link">
            {t('team.earnings')}
          </List.Item>
        </List>
      </div>
    </PullToRefresh>
  );
}
