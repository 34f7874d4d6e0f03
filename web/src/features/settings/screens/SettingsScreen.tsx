import { List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LogoutButton } from '../components/LogoutButton';

/** setting: the settings menu, with log-out. */
export default function SettingsScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const items: [string, string][] = [
    ['settings.profile', '/pages/setting/setting1'],
    ['settings.security', '/pages/setting/setting2'],
    ['settings.realName', '/pages/setting/setting3'],
    ['settings.authenticator', '/pages/setting/setting4'],
    ['settings.language', '/pages/login/login2'],
    ['settings.about', '/pages/setting/setting5'],
  ];
  return (
    <div className="settings-screen">
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
