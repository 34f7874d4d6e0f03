import { useCallback, useState } from 'react';
import { List, SearchBar, Tabs, Tag } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import type { TeamMember, TeamScope } from '@custos/contract';
import { PagedList } from '../../../components/lists/PagedList';
import { displayMoney } from '../../../lib/format/money';
import { formatDateTime } from '../../../lib/format/time';
import { usePagedQuery } from '../../../lib/paging/use-paged-query';
import { teamKeys } from '../api/keys';
import { listTeamMembers } from '../api/team-api';
import { LevelBadge } from '../components/LevelBadge';
import { withMemberIds } from '../team';

function MemberRow({ member }: { member: TeamMember }) {
  const { t } = useTranslation();
  return (
    <List.Item
      data-testid="team-member"
      data-nickname={member.nickname}
      description={
        <div className="team-member-details">
          <div data-testid="team-member-email">{member.maskedEmail}</div>
          <div>
            {t('team.memberCustody')}: <span data-testid="team-member-custody">{displayMoney(member.ownCustody)}</span> USDT
          </div>
          <div>
            {t('team.memberPerformance')}:{' '}
            <span data-testid="team-member-performance">{displayMoney(member.teamPerformance)}</span> USDT
          </div>
          <div>{t('team.joined', { date: formatDateTime(member.joinedAt) })}</div>
        </div>
      }
      extra={
        <div className="team-member-tags">
          <LevelBadge level={member.level} name={member.levelName} />
          <Tag color={member.isValid ? 'success' : 'default'} data-testid="team-member-valid" data-valid={String(member.isValid)}>
            {t(member.isValid ? 'team.validTag' : 'team.notValidTag')}
          </Tag>
        </div>
      }
    >
      <span data-testid="team-member-nickname">{member.nickname}</span>{' '}
      <span className="team-generation">{t('team.generation', { count: member.generation })}</span>
    </List.Item>
  );
}

/** blance_record7: my direct and indirect members, newest first, filtered and searchable by nickname. */
export default function TeamMembersScreen() {
  const { t } = useTranslation();
  const [scope, setScope] = useState<TeamScope>('all');
  const [query, setQuery] = useState('');
  const fetchPage = useCallback(
    (page: number, pageSize: number) =>
      listTeamMembers({ page, pageSize, scope, ...(query ? { query } : {}) }).then(withMemberIds),
    [scope, query],
  );
  const members = usePagedQuery(teamKeys.members(scope, query), fetchPage);
  return (
    <div className="team-members-screen">
      <Tabs activeKey={scope} onChange={(key) => setScope(key === 'direct' ? 'direct' : 'all')}>
        <Tabs.Tab title={t('team.scopeAll')} key="all" data-testid="team-scope-all" />
        <Tabs.Tab title={t('team.scopeDirect')} key="direct" data-testid="team-scope-direct" />
      </Tabs>
      <div className="team-search">
        <SearchBar
          placeholder={t('team.search')}
          onSearch={(value) => setQuery(value.trim())}
          onClear={() => setQuery('')}
          data-testid="team-search"
        />
      </div>
      <PagedList {...members} testId="team-members" renderItem={(member) => <MemberRow key={member.id} member={member} />} />
    </div>
  );
}
