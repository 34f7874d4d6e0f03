import { useEffect, type ReactNode } from 'react';
import { FloatingBubble, TabBar } from 'antd-mobile';
import {
  AppOutline,
  MessageOutline,
  PayCircleOutline,
  SetOutline,
  TeamOutline,
  TransportQRcodeOutline,
  UserOutline,
} from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { getUserInfo } from '../../api/get-user-info';
import { credential } from '../../lib/auth/credential';
import { UnreadBadge } from '../../components/content/UnreadBadge';
import { useChatUnread } from '../../features/kefu/use-chat-unread';
import { TABS } from '../routes';
import { NavHeader } from './NavHeader';

const TAB_ICONS = [
  <AppOutline key="0" />,
  <PayCircleOutline key="1" />,
  <TeamOutline key="2" />,
  <UserOutline key="3" />,
  <TransportQRcodeOutline key="4" />,
];

/** The five tabs (grey text, orange selected, black background) and the customer-service bubble. */
export function TabBarLayout({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const chatUnread = useChatUnread();

  // Opening a tab checks the session: an ended session (401) or a password an operator reset (300)
  // is acted on here by the API client's rules, even before the tab's own feature makes a call.
  useEffect(() => {
    if (credential.get()) getUserInfo().catch(() => undefined);
  }, []);

  return (
    <div className="layout layout-tabs">
      <NavHeader
        title={title}
        showBack={false}
        right={
          <Link to="/pages/setting/setting" className="nav-settings" aria-label={t('routes.setting')} data-testid="open-settings">
            <SetOutline fontSize={20} />
          </Link>
        }
      />
      <main className="layout-content">{children}</main>
      <FloatingBubble
        className="kefu-bubble"
        axis="xy"
        magnetic="x"
        style={{ '--initial-position-bottom': '80px', '--initial-position-right': '16px', '--edge-distance': '16px' }}
        onClick={() => void navigate('/pages/kefu/kefu')}
      >
        <span data-testid="kefu-unread" data-count={chatUnread}>
          <UnreadBadge count={chatUnread}>
            <MessageOutline fontSize={24} aria-label={t('common.customerService')} />
          </UnreadBadge>
        </span>
      </FloatingBubble>
      <TabBar className="tab-bar" data-testid="tab-bar" activeKey={pathname} safeArea onChange={(key) => void navigate(key)}>
        {TABS.map((tab) => (
          <TabBar.Item key={tab.path} icon={TAB_ICONS[tab.index]} title={t(tab.labelKey)} data-testid={`tab-${tab.index}`} />
        ))}
      </TabBar>
    </div>
  );
}
