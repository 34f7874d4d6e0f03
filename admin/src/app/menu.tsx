import type { ReactNode } from 'react';
import {
  AccountBookOutlined,
  ApartmentOutlined,
  AuditOutlined,
  BlockOutlined,
  CheckCircleOutlined,
  CommentOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  FundOutlined,
  FileTextOutlined,
  GiftOutlined,
  IdcardOutlined,
  LineChartOutlined,
  MailOutlined,
  MobileOutlined,
  SafetyCertificateOutlined,
  StockOutlined,
  SwapOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { operatorMay, type Operator, type OperatorPermission } from '@custos/contract';

export interface MenuEntry {
  key: string;
  icon?: ReactNode;
  label: string;
  /** Shown only to roles with this permission; none = everyone. */
  permission?: OperatorPermission;
  children?: MenuEntry[];
}

/** The left menu; each domain adds its pages here. */
export const MENU: MenuEntry[] = [
  { key: '/overview', icon: <DashboardOutlined />, label: 'Overview' },
  { key: '/members', icon: <TeamOutlined />, label: 'Members', permission: 'members.read' },
  { key: '/identity', icon: <IdcardOutlined />, label: 'Real-name review', permission: 'identity.review' },
  {
    key: 'ledger',
    icon: <AccountBookOutlined />,
    label: 'Ledger',
    children: [
      { key: '/ledger/adjustments', label: 'Adjustments', permission: 'ledger.read' },
      { key: '/ledger/platform', label: 'Platform accounts', permission: 'ledger.read' },
      { key: '/ledger/exchange', label: 'Exchange settings', permission: 'ledger.read' },
      { key: '/ledger/check', label: 'Invariant report', permission: 'ledger.read' },
    ],
  },
  {
    key: 'chain',
    icon: <BlockOutlined />,
    label: 'Chain',
    children: [
      { key: '/chain/deposits', label: 'Deposits', permission: 'chain.read' },
      { key: '/chain/watchers', label: 'Chain watchers', permission: 'chain.read' },
      { key: '/chain/withdrawals', label: 'Withdrawals', permission: 'chain.read' },
      { key: '/chain/withdraw-settings', label: 'Withdrawal settings', permission: 'chain.read' },
    ],
  },
  {
    key: 'earn',
    icon: <FundOutlined />,
    label: 'Earn',
    children: [
      { key: '/earn/plans', label: 'Custody plans', permission: 'ledger.read' },
      { key: '/earn/orders', label: 'Custody orders', permission: 'ledger.read' },
      { key: '/earn/settlement', label: 'Settlement runs', permission: 'ledger.read' },
      { key: '/earn/machines', label: 'Mining machines', permission: 'ledger.read' },
      { key: '/earn/dividend', label: 'AI dividend', permission: 'ledger.read' },
    ],
  },
  {
    key: 'otc',
    icon: <SwapOutlined />,
    label: 'OTC',
    children: [
      { key: '/otc/appeals', label: 'OTC appeals', permission: 'otc.read' },
      { key: '/otc/orders', label: 'OTC orders', permission: 'otc.read' },
      { key: '/otc/listings', label: 'OTC listings', permission: 'otc.read' },
      { key: '/otc/suspensions', label: 'OTC suspensions', permission: 'otc.read' },
      { key: '/otc/settings', label: 'OTC settings', permission: 'otc.read' },
    ],
  },
  {
    key: 'contracts',
    icon: <StockOutlined />,
    label: 'Contracts',
    children: [
      { key: '/contracts/book', label: 'Contract book', permission: 'contracts.read' },
      { key: '/contracts/orders', label: 'Contract orders', permission: 'contracts.read' },
      { key: '/contracts/products', label: 'Contract products', permission: 'contracts.read' },
      { key: '/contracts/settings', label: 'Contract settings', permission: 'contracts.read' },
    ],
  },
  { key: '/team/levels', icon: <ApartmentOutlined />, label: 'Team levels', permission: 'members.read' },
  { key: '/team/earnings', icon: <ApartmentOutlined />, label: 'Team earnings', permission: 'ledger.read' },
  { key: '/content', icon: <FileTextOutlined />, label: 'Content', permission: 'content.manage' },
  { key: '/quotes', icon: <LineChartOutlined />, label: 'Quotes', permission: 'quotes.manage' },
  { key: '/team/airdrops', icon: <GiftOutlined />, label: 'Airdrops', permission: 'members.read' },
  { key: '/team/check', icon: <CheckCircleOutlined />, label: 'Team figures check', permission: 'team.manage' },
  { key: '/feedback', icon: <CommentOutlined />, label: 'Feedback', permission: 'feedback.reply' },
  { key: '/support', icon: <CustomerServiceOutlined />, label: 'Customer service', permission: 'support.chat' },
  { key: '/mail', icon: <MailOutlined />, label: 'Mail outbox', permission: 'mail.read' },
  { key: '/releases', icon: <MobileOutlined />, label: 'App releases', permission: 'releases.manage' },
  { key: '/audit', icon: <AuditOutlined />, label: 'Audit log', permission: 'audit.read' },
  { key: '/operators', icon: <SafetyCertificateOutlined />, label: 'Operators', permission: 'operators.manage' },
];

/** The keys of the groups, opened at start when the page shown is one of theirs (`/ledger/…` → ledger). */
export const MENU_GROUPS: string[] = MENU.filter((entry) => entry.children).map((entry) => entry.key);

export type MenuItem = { key: string; icon?: ReactNode; label: string; children?: MenuItem[] };

/** The menu showing only what the operator's role may open; a group with nothing allowed disappears. */
export function menuFor(operator: Operator, entries: MenuEntry[] = MENU): MenuItem[] {
  return entries.flatMap(({ key, icon, label, permission, children }): MenuItem[] => {
    if (permission && !operatorMay(operator.role, permission)) return [];
    if (!children) return [{ key, icon, label }];
    const allowed = menuFor(operator, children);
    return allowed.length > 0 ? [{ key, icon, label, children: allowed }] : [];
  });
}
