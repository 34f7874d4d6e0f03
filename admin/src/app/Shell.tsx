import { useEffect, useState } from 'react';
import { LogoutOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Layout, Menu, Space, Spin, Typography } from 'antd';
import { HashRouter, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { operatorMay, type Operator } from '@custos/contract';
import { onUnauthorized, operatorToken } from '../lib/api';
import { MENU_GROUPS, menuFor } from './menu';
import { getMe } from '../features/auth/api/get-me';
import { logout } from '../features/auth/api/logout';
import { consoleStep } from '../features/auth/login-flow';
import { BindAuthenticatorScreen } from '../features/auth/screens/BindAuthenticatorScreen';
import { ChangePasswordScreen } from '../features/auth/screens/ChangePasswordScreen';
import { LoginScreen } from '../features/auth/screens/LoginScreen';
import { AirdropsScreen } from '../features/airdrops/screens/AirdropsScreen';
import { AuditLogScreen } from '../features/audit/screens/AuditLogScreen';
import { ReleasesScreen } from '../features/releases/screens/ReleasesScreen';
import { DepositsScreen } from '../features/chain/screens/DepositsScreen';
import { DividendPoolsScreen } from '../features/earnings/screens/DividendPoolsScreen';
import { WatchersScreen } from '../features/chain/screens/WatchersScreen';
import { ExchangeSettingsScreen } from '../features/exchange/screens/ExchangeSettingsScreen';
import { HostingOrdersScreen } from '../features/hosting/screens/HostingOrdersScreen';
import { HostingPlansScreen } from '../features/hosting/screens/HostingPlansScreen';
import { SettlementRunsScreen } from '../features/hosting/screens/SettlementRunsScreen';
import { IdentityReviewScreen } from '../features/identity/screens/IdentityReviewScreen';
import { FeedbackQueueScreen } from '../features/feedback/screens/FeedbackQueueScreen';
import { SupportInboxScreen } from '../features/support-chat/screens/SupportInboxScreen';
import { ContentScreen } from '../features/content/screens/ContentScreen';
import { QuotesScreen } from '../features/quotes/screens/QuotesScreen';
import { AdjustmentsScreen } from '../features/ledger/screens/AdjustmentsScreen';
import { LedgerCheckScreen } from '../features/ledger/screens/LedgerCheckScreen';
import { MachinesScreen } from '../features/machines/screens/MachinesScreen';
import { PlatformAccountsScreen } from '../features/ledger/screens/PlatformAccountsScreen';
import { MailOutboxScreen } from '../features/mail/screens/MailOutboxScreen';
import { MembersScreen } from '../features/members/screens/MembersScreen';
import { TeamCheckScreen } from '../features/team/screens/TeamCheckScreen';
import { TeamLevelsScreen } from '../features/team/screens/TeamLevelsScreen';
import { TeamEarningsScreen } from '../features/team-earnings/screens/TeamEarningsScreen';
import { OperatorsScreen } from '../features/operators/screens/OperatorsScreen';
import { OverviewScreen } from '../features/overview/screens/OverviewScreen';
import { WithdrawalsScreen } from '../features/withdrawals/screens/WithdrawalsScreen';
import { WithdrawSettingsScreen } from '../features/withdrawals/screens/WithdrawSettingsScreen';
import { ContractBookScreen } from '../features/contracts/screens/ContractBookScreen';
import { ContractOrdersScreen } from '../features/contracts/screens/ContractOrdersScreen';
import { ContractProductsScreen } from '../features/contracts/screens/ContractProductsScreen';
import { ContractSettingsScreen } from '../features/contracts/screens/ContractSettingsScreen';
import { OtcAppealsScreen } from '../features/otc/screens/OtcAppealsScreen';
import { OtcListingsScreen } from '../features/otc/screens/OtcListingsScreen';
import { OtcOrderScreen } from '../features/otc/screens/OtcOrderScreen';
import { OtcOrdersScreen } from '../features/otc/screens/OtcOrdersScreen';
import { OtcSettingsScreen } from '../features/otc/screens/OtcSettingsScreen';
import { OtcSuspensionsScreen } from '../features/otc/screens/OtcSuspensionsScreen';

function ConsoleLayout({ operator, onSignedOut }: { operator: Operator; onSignedOut: () => void }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider theme="dark" width={220}>
        <div className="console-brand">Custos console</div>
        <Menu
          theme="dark"
          mode="inline"
          selectedKeys={[pathname]}
          defaultOpenKeys={MENU_GROUPS.filter((group) => pathname.startsWith(`/${group}/`))}
          items={menuFor(operator)}
          onClick={({ key }) => void navigate(key)}
        />
      </Layout.Sider>
      <Layout>
        <Layout.Header className="console-header">
          <Space>
            <Typography.Text data-testid="operator-name">
              {operator.username} · {operator.role.replace('_', ' ')}
            </Typography.Text>
            <Button
              icon={<LogoutOutlined />}
              onClick={() => {
                void logout().finally(() => {
                  operatorToken.clear();
                  onSignedOut();
                });
              }}
            >
              Log out
            </Button>
          </Space>
        </Layout.Header>
        <Layout.Content style={{ padding: 24 }}>
          <Routes>
            <Route path="/overview" element={<OverviewScreen />} />
            {operatorMay(operator.role, 'members.read') && (
              <>
                <Route path="/members" element={<MembersScreen operator={operator} />} />
                <Route path="/team/levels" element={<TeamLevelsScreen operator={operator} />} />
                <Route path="/team/earnings" element={<TeamEarningsScreen operator={operator} />} />
                <Route path="/team/airdrops" element={<AirdropsScreen operator={operator} />} />
              </>
            )}
            {operatorMay(operator.role, 'team.manage') && (
              <Route path="/team/check" element={<TeamCheckScreen operator={operator} />} />
            )}
            {operatorMay(operator.role, 'mail.read') && <Route path="/mail" element={<MailOutboxScreen />} />}
            {operatorMay(operator.role, 'identity.review') && <Route path="/identity" element={<IdentityReviewScreen />} />}
            {operatorMay(operator.role, 'feedback.reply') && <Route path="/feedback" element={<FeedbackQueueScreen />} />}
            {operatorMay(operator.role, 'support.chat') && <Route path="/support" element={<SupportInboxScreen />} />}
            {operatorMay(operator.role, 'content.manage') && <Route path="/content" element={<ContentScreen />} />}
            {operatorMay(operator.role, 'quotes.manage') && <Route path="/quotes" element={<QuotesScreen />} />}
            {operatorMay(operator.role, 'audit.read') && <Route path="/audit" element={<AuditLogScreen />} />}
            {operatorMay(operator.role, 'releases.manage') && <Route path="/releases" element={<ReleasesScreen />} />}
            {operatorMay(operator.role, 'ledger.read') && (
              <>
                <Route path="/ledger/adjustments" element={<AdjustmentsScreen operator={operator} />} />
                <Route path="/ledger/platform" element={<PlatformAccountsScreen />} />
                <Route path="/ledger/exchange" element={<ExchangeSettingsScreen operator={operator} />} />
                <Route path="/ledger/check" element={<LedgerCheckScreen />} />
                <Route path="/earn/plans" element={<HostingPlansScreen operator={operator} />} />
                <Route path="/earn/orders" element={<HostingOrdersScreen />} />
                <Route path="/earn/settlement" element={<SettlementRunsScreen operator={operator} />} />
                <Route path="/earn/machines" element={<MachinesScreen operator={operator} />} />
                <Route path="/earn/dividend" element={<DividendPoolsScreen operator={operator} />} />
              </>
            )}
            {operatorMay(operator.role, 'chain.read') && (
              <>
                <Route path="/chain/deposits" element={<DepositsScreen />} />
                <Route path="/chain/watchers" element={<WatchersScreen />} />
                <Route path="/chain/withdrawals" element={<WithdrawalsScreen operator={operator} />} />
                <Route path="/chain/withdraw-settings" element={<WithdrawSettingsScreen operator={operator} />} />
              </>
            )}
            {operatorMay(operator.role, 'otc.read') && (
              <>
                <Route path="/otc/appeals" element={<OtcAppealsScreen />} />
                <Route path="/otc/orders" element={<OtcOrdersScreen />} />
                <Route path="/otc/orders/:orderId" element={<OtcOrderScreen operator={operator} />} />
                <Route path="/otc/listings" element={<OtcListingsScreen operator={operator} />} />
                <Route path="/otc/suspensions" element={<OtcSuspensionsScreen operator={operator} />} />
                <Route path="/otc/settings" element={<OtcSettingsScreen operator={operator} />} />
              </>
            )}
            {operatorMay(operator.role, 'contracts.read') && (
              <>
                <Route path="/contracts/book" element={<ContractBookScreen />} />
                <Route path="/contracts/orders" element={<ContractOrdersScreen operator={operator} />} />
                <Route path="/contracts/products" element={<ContractProductsScreen operator={operator} />} />
                <Route path="/contracts/settings" element={<ContractSettingsScreen operator={operator} />} />
              </>
            )}
            {operatorMay(operator.role, 'operators.manage') && (
              <Route path="/operators" element={<OperatorsScreen operator={operator} />} />
            )}
            <Route path="*" element={<Navigate to="/overview" replace />} />
          </Routes>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

type SessionState = { status: 'checking' } | { status: 'signed-out' } | { status: 'signed-in'; operator: Operator };

export function Shell() {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<SessionState>(() =>
    operatorToken.get() ? { status: 'checking' } : { status: 'signed-out' },
  );
  // One operator's answers are never shown to the next one signing in at this tab.
  useEffect(() => {
    if (session.status === 'signed-out') queryClient.clear();
  }, [session.status, queryClient]);

  useEffect(() => onUnauthorized(() => setSession({ status: 'signed-out' })), []);

  useEffect(() => {
    if (session.status !== 'checking') return;
    getMe().then(
      (operator) => setSession({ status: 'signed-in', operator }),
      () => setSession({ status: 'signed-out' }),
    );
  }, [session.status]);

  switch (session.status) {
    case 'checking':
      return (
        <div className="center-screen">
          <Spin size="large" />
        </div>
      );
    case 'signed-out':
      return <LoginScreen onSignedIn={(operator) => setSession({ status: 'signed-in', operator })} />;
    case 'signed-in':
      switch (consoleStep(session.operator)) {
        case 'change-password':
          return (
            <ChangePasswordScreen
              operator={session.operator}
              onChanged={(operator) => setSession({ status: 'signed-in', operator })}
            />
          );
        case 'bind-authenticator':
          return (
            <BindAuthenticatorScreen
              operator={session.operator}
              onBound={(operator) => setSession({ status: 'signed-in', operator })}
              onSignOut={() => {
                void logout().finally(() => {
                  operatorToken.clear();
                  setSession({ status: 'signed-out' });
                });
              }}
            />
          );
        case 'console':
          break;
      }
      return (
        <HashRouter>
          <ConsoleLayout operator={session.operator} onSignedOut={() => setSession({ status: 'signed-out' })} />
        </HashRouter>
      );
  }
}
