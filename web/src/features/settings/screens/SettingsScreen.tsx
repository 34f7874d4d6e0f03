import { List } from 'antd-mobile';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { useNavigate } from '../../../lib/router/router';
import { getUserInfo } from '../../../api/get-user-info';
import { userKeys } from '../../../api/keys';
import { LogoutButton } from '../components/LogoutButton';

/** setting: the settings menu, with log-out. */
export default function SettingsScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useQuery({ queryKey: userKeys.info(), queryFn: getUserInfo }).data;
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
