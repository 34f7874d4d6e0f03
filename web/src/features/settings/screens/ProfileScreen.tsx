import { useEffect, useRef, useState } from 'react';
import { Button, Form, Input, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { UPLOAD_CONTENT_TYPES, fieldLabel, translate, uploadedAvatar, uploadedAvatarId, type UserInfo } from '@custos/contract';
import { getUserInfo } from '../../../api/get-user-info';
import { AvatarImage } from '../../../components/AvatarImage';
import { currentLocale } from '../../../lib/i18n/i18n';
import { showToast } from '../../../lib/toast';
import { getAvatarList } from '../api/get-avatar-list';
import { updateProfile } from '../api/update-profile';
import { uploadAvatar } from '../api/upload-avatar';
import { avatarFileProblem } from '../avatar-file';

/** setting1: avatar (from the platform's list or uploaded from the device) and nickname, for the account in use. */
export default function ProfileScreen() {
  const { t } = useTranslation();
  const [user, setUser] = useState<UserInfo | null>(null);
  const [avatars, setAvatars] = useState<string[]>([]);
  const [avatar, setAvatar] = useState<string | null>(null);
  /** The member's own picture ("upload:<id>"): the one in use, or one just uploaded. */
  const [uploaded, setUploaded] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    getUserInfo().then(
      (info) => {
        setUser(info);
        setAvatar(info.avatar);
        if (uploadedAvatarId(info.avatar)) setUploaded(info.avatar);
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
          {uploaded && (
            <button
              type="button"
              role="radio"
              aria-checked={avatar === uploaded}
              aria-label={t('profile.uploaded')}
              className={avatar === uploaded ? 'avatar-option selected' : 'avatar-option'}
              onClick={() => setAvatar(uploaded)}
              data-testid="avatar-uploaded"
            >
              <AvatarImage avatar={uploaded} size={48} alt={t('profile.uploaded')} />
            </button>
          )}
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
        <div className="avatar-upload">
          <input
            ref={fileInput}
            type="file"
            accept={UPLOAD_CONTENT_TYPES.join(',')}
            hidden
            data-testid="avatar-file"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (!file) return;
              const problem = avatarFileProblem(file);
              if (problem) {
                showToast(translate(currentLocale(), problem));
                return;
              }
              setUploading(true);
              uploadAvatar(file)
                .then(
                  ({ id }) => {
                    const reference = uploadedAvatar(id);
                    setUploaded(reference);
                    setAvatar(reference);
                  },
                  () => undefined,
                )
                .finally(() => setUploading(false));
            }}
          />
          <Button size="small" fill="outline" loading={uploading} onClick={() => fileInput.current?.click()}>
            {t('profile.upload')}
          </Button>
          <span className="avatar-upload-hint">{t('profile.uploadHint')}</span>
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
