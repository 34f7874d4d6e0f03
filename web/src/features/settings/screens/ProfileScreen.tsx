import { useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, List } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { UPLOAD_CONTENT_TYPES, uploadedAvatar, uploadedAvatarId } from '@custos/contract';
import { fieldLabel, translate } from '../../../lib/i18n/server-messages';
import { accountKeys, userKeys } from '../../../api/keys';
import { useUserInfo } from '../../../api/use-user-info';
import { AvatarImage } from '../../../components/AvatarImage';
import { currentLocale } from '../../../lib/i18n/i18n';
import { showToast } from '../../../lib/toast';
import { getAvatarList } from '../api/get-avatar-list';
import { settingsKeys } from '../api/keys';
import { updateProfile } from '../api/update-profile';
import { uploadAvatar } from '../api/upload-avatar';
import { avatarFileProblem } from '../avatar-file';

/** setting1: avatar (from the platform's list or uploaded from the device) and nickname, for the account in use. */
export default function ProfileScreen() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useUserInfo().data ?? null;
  const avatars = useQuery({ queryKey: settingsKeys.avatars(), queryFn: getAvatarList }).data ?? [];
  /** The picture the member picked here; until then, the one in use. */
  const [avatarChoice, setAvatar] = useState<string | null>(null);
  /** A picture the member uploaded here ("upload:<id>"); until then, their own one in use, if any. */
  const [uploadedChoice, setUploaded] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  if (!user) return null;
  const avatar = avatarChoice ?? user.avatar;
  const uploaded = uploadedChoice ?? (uploadedAvatarId(user.avatar) ? user.avatar : null);
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
            .then(() => {
              showToast(t('profile.saved'));
              // The nickname and picture show on Mine and in the account list too.
              return Promise.all([
                queryClient.invalidateQueries({ queryKey: userKeys.all }),
                queryClient.invalidateQueries({ queryKey: accountKeys.all }),
              ]);
            })
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
