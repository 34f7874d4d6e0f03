import type { ReactNode } from 'react';
import {
  BillOutline,
  CollectMoneyOutline,
  DownCircleOutline,
  FileOutline,
  GiftOutline,
  HistogramOutline,
  LoopOutline,
  PayCircleOutline,
  ReceiptOutline,
  SendOutline,
  UnorderedListOutline,
  UpCircleOutline,
} from 'antd-mobile-icons';
import { useTranslation } from '../../lib/i18n/translator';
import { Link } from '../../lib/router/router';

/** The money and earnings screens, each under its route title. */
export const MONEY_SHORTCUTS: readonly { id: string; path: string; icon: ReactNode }[] = [
  { id: 'withdraw1', path: '/pages/withdraw/withdraw1', icon: <DownCircleOutline /> },
  { id: 'withdraw', path: '/pages/withdraw/withdraw', icon: <UpCircleOutline /> },
  { id: 'withdraw6', path: '/pages/withdraw/withdraw6', icon: <LoopOutline /> },
  { id: 'withdraw5', path: '/pages/withdraw/withdraw5', icon: <SendOutline /> },
  { id: 'blanceRecord', path: '/pages/blance_record/blance_record', icon: <BillOutline /> },
  { id: 'blanceRecord3', path: '/pages/blance_record/blance_record3', icon: <ReceiptOutline /> },
  { id: 'withdrawRecord6', path: '/pages/withdraw_record/withdraw_record6', icon: <UnorderedListOutline /> },
  { id: 'withdrawRecord1', path: '/pages/withdraw_record/withdraw_record1', icon: <CollectMoneyOutline /> },
  { id: 'withdrawRecord', path: '/pages/withdraw_record/withdraw_record', icon: <FileOutline /> },
  { id: 'index3', path: '/pages/index/index3', icon: <HistogramOutline /> },
  { id: 'index4', path: '/pages/index/index4', icon: <GiftOutline /> },
  { id: 'blanceRecord5', path: '/pages/blance_record/blance_record5', icon: <PayCircleOutline /> },
];

export function MoneyShortcuts() {
  const { t } = useTranslation();
  return (
    <div className="money-shortcuts" data-testid="money-shortcuts">
      {MONEY_SHORTCUTS.map((shortcut) => (
        <Link key={shortcut.id} to={shortcut.path} className="money-shortcut" data-testid={`shortcut-${shortcut.id}`}>
          <span className="money-shortcut-icon">{shortcut.icon}</span>
          <span className="money-shortcut-label">{t(`routes.${shortcut.id}`)}</span>
        </Link>
      ))}
    </div>
  );
}
