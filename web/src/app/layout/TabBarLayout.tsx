import { useEffect, type ReactNode } from 'react';
import {
  AppOutline,
  MessageOutline,
  PayCircleOutline,
  SetOutline,
  TeamOutline,
  TransportQRcodeOutline,
  UserOutline,
} from 'antd-mobile-icons';
import { useTranslation } from '../../lib/i18n/translator';
import { Link, useLocation, useNavigate } from '../../lib/router/router';
import { getUserInfo } from '../../api/get-user-info';
import { credential } from '../../lib/auth/credential';
import { FloatingBubble } from '../../components/floating-bubble/FloatingBubble';
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

/**
 * The five tabs (grey text, orange selected, black background) and the customer-service bubble.
 * Plain links and CSS, no gesture or animation library on the first screen (decision 042).
 */
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
        label={t('common.customerService')}
        onClick={() => void navigate('/pages/kefu/kefu')}
      >
        <span data-testid="kefu-unread" data-count={chatUnread}>
          <UnreadBadge count={chatUnread}>
            <MessageOutline fontSize={24} />
          </UnreadBadge>
        </span>
      </FloatingBubble>
      <nav className="tab-bar" data-testid="tab-bar">
        {TABS.map((tab) => {
          const active = tab.path === pathname;
          return (
            <Link
              key={tab.path}
              to={tab.path}
              className={active ? 'tab-bar-item tab-bar-item-active' : 'tab-bar-item'}
              aria-current={active ? 'page' : undefined}
              data-testid={`tab-${tab.index}`}
            >
              <span className="tab-bar-item-icon" aria-hidden="true">
                {TAB_ICONS[tab.index]}
              </span>
              <span className="tab-bar-item-title">{t(tab.labelKey)}</span>
            </Link>
          );
        })}
      </nav>
    </div>
  );
}
