import { useEffect, useState } from 'react';
import { Button, Form, Input, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { fieldLabel, translate, type UserInfo } from '@custos/contract';
import { getUserInfo } from '../../../api/get-user-info';
import { currentLocale } from '../../../lib/i18n/i18n';
import { showToast } from '../../../lib/toast';
import { getAvatarList } from '../api/get-avatar-list';
import { updateProfile } from '../api/update-profile';

/** setting1: avatar from the platform's list and nickname, for the account in use. */
export default function ProfileScreen() {
  const { t } = useTranslation();
  const [user, setUser] = useState<UserInfo | null>(null);
  const [avatars, setAvatars] = useState<string[]>([]);
  const [avatar, setAvatar] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    getUserInfo().then(
      (info) => {
        setUser(info);
        setAvatar(info.avatar);
      },
      () => undefined,
    );
    getAvatarList().then(setAvatars, () => undefined);
  }, []);

  if (!user) return null;
  const locale = currentLocale();
  return (
    <div className="profile-screen">
      <List header={t('profile.avatar')}>
        <div className="avatar-grid" role="radiogroup" aria-label={t('profile.avatar')}>
          {avatars.map((path) => (
            <button
              key={path}
              type="button"
              role="radio"
              aria-checked={avatar === path}
              className={avatar === path ? 'avatar-option selected' : 'avatar-option'}
              onClick={() => setAvatar(path)}
              data-testid={`avatar-${path}`}
            >
              <img src={`./${path}`} alt="" width={48} height={48} />
            </button>
          ))}
        </div>
      </List>
      <Form
        layout="vertical"
        initialValues={{ nickname: user.nickname }}
        onFinish={(values: { nickname: string }) => {
          setBusy(true);
          const done = () => setBusy(false);
          updateProfile({ nickname: values.nickname.trim(), ...(avatar && avatar !== user.avatar ? { avatar } : {}) })
            .then(() => showToast(t('profile.saved')))
            .then(done, done);
        }}
        footer={
          <Button block type="submit" color="primary" size="large" loading={busy}>
            {t('profile.save')}
          </Button>
        }
      >
        <Form.Item
          name="nickname"
          label={t('profile.nickname')}
          rules={[
            {
              required: true,
              whitespace: true,
              message: translate(locale, 'reason.required', { field: fieldLabel(locale, 'nickname') }),
            },
            { max: 20, message: translate(locale, 'reason.too_long') },
          ]}
        >
          <Input placeholder={t('profile.nicknamePlaceholder')} maxLength={20} />
        </Form.Item>
      </Form>
      <List>
        <List.Item extra={user.email}>{t('profile.email')}</List.Item>
        <List.Item extra={<span data-testid="my-invite-code">{user.inviteCode}</span>}>{t('profile.inviteCode')}</List.Item>
      </List>
    </div>
  );
}
