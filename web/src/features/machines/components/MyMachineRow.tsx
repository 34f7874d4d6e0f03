import { List, Tag } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import type { MemberMachine } from '@custos/contract';
import { QuoteRow } from '../../../components/QuoteRow';
import { displayMoney } from '../../../lib/format/money';
import { MACHINE_STATUS_COLOURS, machineStatusKey } from '../machines';

/**
 * One of my machines: hashrate, daily output, dates, days left and mined, output so far and status;
 * a tap opens its mining records.
 */
export function MyMachineRow({ machine, onOpen }: { machine: MemberMachine; onOpen: (machine: MemberMachine) => void }) {
  const { t } = useTranslation();
  return (
    <List.Item
      data-testid="my-machine"
      data-machine-id={machine.id}
      data-status={machine.status}
      onClick={() => onOpen(machine)}
      description={
        <div className="hosting-order-detail">
          <div data-testid="my-machine-dates">{t('machines.dates', { start: machine.startDate, end: machine.endDate })}</div>
          <QuoteRow
            label={t('machines.dailyOutput')}
            value={t('machines.perDay', { amount: displayMoney(machine.dailyOutput) })}
            testId="my-machine-daily"
          />
          <QuoteRow label={t('machines.daysLeft')} value={String(machine.daysLeft)} testId="my-machine-days-left" />
          <QuoteRow label={t('machines.daysMined')} value={String(machine.daysMined)} testId="my-machine-days-mined" />
          <QuoteRow
            label={t('machines.outputSoFar')}
            value={`${displayMoney(machine.outputSoFar)} RAB`}
            testId="my-machine-output"
          />
        </div>
      }
      extra={
        <Tag color={MACHINE_STATUS_COLOURS[machine.status]} data-testid="my-machine-status" data-status={machine.status}>
          {t(machineStatusKey(machine.status))}
        </Tag>
      }
    >
      <div className="record-title">
        <span data-testid="my-machine-name">{machine.name}</span>
      </div>
      <div className="record-amounts" data-testid="my-machine-hashrate">
        {t('machines.hashrateValue', { value: machine.hashrate })}
      </div>
    </List.Item>
  );
}
