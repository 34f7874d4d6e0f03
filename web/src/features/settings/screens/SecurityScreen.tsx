import { useCallback, useEffect, useState } from 'react';
import { Button, List, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { SessionList, UserInfo } from '@custos/contract';
import { getUserInfo } from '../../../api/get-user-info';
import { showToast } from '../../../lib/toast';
import { listSessions } from '../api/list-sessions';
import { signOutOthers } from '../api/sign-out-others';

/** A short device name from a user agent, for the sessions list. */
function deviceName(userAgent: string | null, fallback: string): string {
  if (!userAgent) return fallback;
  const known = /(Android|iPhone|iPad|Windows|Macintosh|Linux)/.exec(userAgent)?.[1];
  const browser = /(Chrome|Firefox|Safari|Edg)\//.exec(userAgent)?.[1];
  return [known, browser].filter(Boolean).join(' · ') || fallback;
}

/** setting2: login and trading passwords, authenticator, and the devices that are logged in. */
export default function SecurityScreen() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [user, setUser] = useState<UserInfo | null>(null);
  const [sessions, setSessions] = useState<SessionList>([]);

  const load = useCallback(() => {
    getUserInfo().then(setUser, () => undefined);
    listSessions().then(setSessions, () => undefined);
  }, []);
  useEffect(load, [load]);

  const others = sessions.filter((session) => !session.current).length;
  return (
    <div className="security-screen">
      <List>
        <List.Item onClick={() => void navigate('/pages/update_pwd/update_pwd')} extra={t('security.change')}>
          {t('security.loginPassword')}
        </List.Item>
        <List.Item
          data-testid="trade-password-item"
          onClick={() =>
            void navigate(user?.hasTradePassword ? '/pages/update_pwd/update_pwd1' : '/pages/update_pwd/update_pwd3')
          }
          extra={user ? user.hasTradePassword ? t('security.change') : <Tag color="warning">{t('security.notSet')}</Tag> : null}
        >
          {t('security.tradePassword')}
        </List.Item>
        <List.Item onClick={() => void navigate('/pages/setting/setting4')}>{t('security.authenticator')}</List.Item>
      </List>
      <List header={t('security.sessions')} data-testid="sessions">
        {sessions.map((session) => (
          <List.Item
            key={session.id}
            description={t('security.lastSeen', { time: new Date(session.lastSeenAt).toLocaleString(i18n.language) })}
            extra={session.current ? <Tag color="success">{t('security.thisDevice')}</Tag> : session.ip}
          >
            {deviceName(session.userAgent, t('security.unknownDevice'))}
          </List.Item>
        ))}
      </List>
      {others > 0 && (
        <div className="settings-logout">
          <Button
            block
            fill="outline"
            onClick={() => {
              signOutOthers().then(
                ({ ended }) => {
                  showToast(t('security.signOutOthersDone', { count: ended }));
                  load();
                },
                () => undefined,
              );
            }}
          >
            {t('security.signOutOthers')}
          </Button>
        </div>
      )}
    </div>
  );
}
