import { useCallback, useEffect, useRef, useState } from 'react';
import { Dropdown, List, Tag, type DropdownRef } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import type { IncomeType } from '@custos/contract';
import { SingleSelector } from '../../../components/forms/SingleSelector';
import { PagedList } from '../../../components/lists/PagedList';
import { displayMoney } from '../../../lib/format/money';
import { usePagedList } from '../../../lib/paging/use-paged-list';
import { listIncome } from '../api/list-income';
import { listIncomeTypes } from '../api/list-income-types';
import {
  ALL_TYPES,
  INCOME_STATE_COLOURS,
  incomeStateKey,
  incomeTypeKey,
  typeOptions,
  withIncomeIds,
  type IncomeRow,
  type TypeFilter,
} from '../income';

/** What a team earning was computed from, so the member can check it (docs/decisions/024-team-earnings.md). */
function TeamDetail({ item }: { item: IncomeRow }) {
  const { t } = useTranslation();
  const team = item.team!;
  const level = `V${team.level}`;
  const lines: string[] = [];
  if (team.sourceNickname !== null) {
    lines.push(
      t('teamEarnings.fromMember', { nickname: team.sourceNickname, email: team.sourceEmail, generation: team.generation }),
    );
    lines.push(t('teamEarnings.rate', { base: displayMoney(team.base), rate: team.ratePct }));
  } else if (item.type === 'community') {
    lines.push(t('teamEarnings.community', { base: displayMoney(team.base), rate: team.ratePct }));
  } else if (team.sharedBy !== null) {
    lines.push(t('teamEarnings.pool', { level, base: displayMoney(team.base), count: team.sharedBy }));
  } else {
    lines.push(t('teamEarnings.bonus', { level }));
  }
  return (
    <div className="income-team-detail" data-testid="income-team-detail">
      {lines.map((line) => (
        <div key={line}>{line}</div>
      ))}
    </div>
  );
}

function IncomeLine({ item }: { item: IncomeRow }) {
  const { t } = useTranslation();
  return (
    <List.Item
      data-testid="income-item"
      data-type={item.type}
      data-state={item.state}
      description={
        <>
          {item.team ? <TeamDetail item={item} /> : <div data-testid="income-source">{item.source}</div>}
          <div className="record-time" data-testid="income-day">
            {t('income.day', { day: item.day })}
          </div>
        </>
      }
      extra={
        <div className="balance-amounts">
          <div className="amount-plus" data-testid="income-amount">
            +{displayMoney(item.amount)} {item.asset}
          </div>
          <Tag color={INCOME_STATE_COLOURS[item.state]} data-testid="income-state" data-state={item.state}>
            {t(incomeStateKey(item.state))}
          </Tag>
        </div>
      }
    >
      <span data-testid="income-type">{t(incomeTypeKey(item.type))}</span>
    </List.Item>
  );
}

/** blance_record5: every earning (custody interest, mining, dividends, team earnings), by type, newest first. */
export default function IncomeScreen() {
  const { t } = useTranslation();
  const [type, setType] = useState<TypeFilter>(ALL_TYPES);
  const [types, setTypes] = useState<{ type: IncomeType; available: boolean }[] | null>(null);
  const dropdown = useRef<DropdownRef>(null);

  useEffect(() => {
    listIncomeTypes().then(setTypes, () => undefined);
  }, []);

  const fetchPage = useCallback(
    (page: number, pageSize: number) =>
      listIncome({ page, pageSize, ...(type === ALL_TYPES ? {} : { type }) }).then(withIncomeIds),
    [type],
  );
  const list = usePagedList(fetchPage);
  const label = (value: TypeFilter) => (value === ALL_TYPES ? t('records.allTypes') : t(incomeTypeKey(value)));

  return (
    <div className="records-screen">
      <Dropdown ref={dropdown} className="record-type-filter" data-testid="income-type-filter">
        <Dropdown.Item key="type" title={<span data-testid="income-type-chosen">{label(type)}</span>}>
          <div className="record-type-options">
            <SingleSelector<TypeFilter>
              columns={2}
              value={[type]}
              options={typeOptions(types).map((option) => ({
                value: option.value,
                disabled: option.disabled,
                label: (
                  <span data-testid="income-type-option" data-type={option.value}>
                    {label(option.value)}
                  </span>
                ),
                description: option.disabled ? t('income.notYetOpen') : undefined,
              }))}
              onPicked={(value) => {
                setType(value);
                dropdown.current?.close();
              }}
            />
          </div>
        </Dropdown.Item>
      </Dropdown>
      <PagedList {...list} testId="income" renderItem={(item) => <IncomeLine key={item.id} item={item} />} />
    </div>
  );
}
