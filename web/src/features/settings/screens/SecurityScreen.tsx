import { Button, List, Tag } from 'antd-mobile';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { useNavigate } from '../../../lib/router/router';
import { getUserInfo } from '../../../api/get-user-info';
import { userKeys } from '../../../api/keys';
import { showToast } from '../../../lib/toast';
import { settingsKeys } from '../api/keys';
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
  const queryClient = useQueryClient();
  const user = useQuery({ queryKey: userKeys.info(), queryFn: getUserInfo }).data;
  const sessions = useQuery({ queryKey: settingsKeys.sessions(), queryFn: listSessions }).data ?? [];
  const endOthers = useMutation({
    mutationFn: signOutOthers,
    onSuccess: ({ ended }) => {
      showToast(t('security.signOutOthersDone', { count: ended }));
      return queryClient.invalidateQueries({ queryKey: settingsKeys.sessions() });
    },
  });

  const others = sessions.filter((session) => !session.current).length;
  return (
    <div className="security-screen">
      <List>
        <List.Item onClick={() => void navigate('/pages/update_pwd/update_pwd')} extra={t('security.change')}>
          {t('security.loginPassword')}
        </List.Item>
        {/* Until the profile is known the item cannot tell "set" from "change", so a quick tap waits for it. */}
        <List.Item
          data-testid="trade-password-item"
          disabled={!user}
          onClick={() => {
            if (user) void navigate(user.hasTradePassword ? '/pages/update_pwd/update_pwd1' : '/pages/update_pwd/update_pwd3');
          }}
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
          <Button block fill="outline" loading={endOthers.isPending} onClick={() => endOthers.mutate()}>
            {t('security.signOutOthers')}
          </Button>
        </div>
      )}
    </div>
  );
}
