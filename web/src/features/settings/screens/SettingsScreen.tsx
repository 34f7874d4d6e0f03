import { useEffect, useState } from 'react';
import { List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { UserInfo } from '@custos/contract';
import { getUserInfo } from '../../../api/get-user-info';
import { LogoutButton } from '../components/LogoutButton';

/** setting: the settings menu, with log-out. */
export default function SettingsScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [user, setUser] = useState<UserInfo | null>(null);
  useEffect(() => {
    getUserInfo().then(setUser, () => undefined);
  }, []);
  const items: [string, string][] = [
    ['settings.profile', '/pages/setting/setting1'],
    ['settings.security', '/pages/setting/setting2'],
    ['settings.realName', '/pages/setting/setting3'],
    ['settings.authenticator', '/pages/setting/setting4'],
    ['settings.language', '/pages/login/login2'],
    ['settings.feedback', '/pages/blance_record/blance_record11'],
    ['settings.help', '/pages/second/second1'],
    ['settings.about', '/pages/setting/setting5'],
  ];
  return (
    <div className="settings-screen">
      <List>
        <List.Item
          onClick={() => void navigate('/pages/second/second')}
          extra={
            user ? (
              <span data-testid="current-account">{`${user.nickname} · ${t(user.accountKind === 'main' ? 'accounts.main' : 'accounts.sub')}`}</span>
            ) : null
          }
        >
          {t('accounts.accounts')}
        </List.Item>
      </List>
      <List>
        {items.map(([key, path]) => (
          <List.Item key={path} onClick={() => void navigate(path)}>
            {t(key)}
          </List.Item>
        ))}
      </List>
      <LogoutButton />
    </div>
  );
}
