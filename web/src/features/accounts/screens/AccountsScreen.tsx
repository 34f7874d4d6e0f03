import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, List, Tag } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { fieldLabel, translate } from '../../../lib/i18n/server-messages';
import { AvatarImage } from '../../../components/AvatarImage';
import { currentLocale } from '../../../lib/i18n/i18n';
import { showToast } from '../../../lib/toast';
import { createSubAccount } from '../api/create-sub-account';
import { accountKeys } from '../../../api/keys';
import { listAccounts } from '../../../api/list-accounts';
import { switchAccount } from '../api/switch-account';

/** second: the main account and its sub-accounts; switch which one the app acts for, create more. */
export default function AccountsScreen() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const accounts = useQuery({ queryKey: accountKeys.list(), queryFn: listAccounts }).data ?? [];
  const [form] = Form.useForm<{ nickname: string }>();
  const [busy, setBusy] = useState(false);

  const locale = currentLocale();
  return (
    <div className="accounts-screen">
      <p className="accounts-hint">{t('accounts.hint')}</p>
      <List data-testid="account-list">
        {accounts.map((account) => (
          <List.Item
            key={account.id}
            prefix={account.avatar ? <AvatarImage avatar={account.avatar} size={36} /> : undefined}
            description={`${account.kind === 'main' ? t('accounts.main') : t('accounts.sub')} · ${account.inviteCode}`}
            extra={
              account.current ? (
                <Tag color="success">{t('accounts.current')}</Tag>
              ) : (
                <Button
                  size="small"
                  color="primary"
                  fill="outline"
                  onClick={() => {
                    switchAccount({ accountId: account.id }).then(
                      () => {
                        showToast(t('accounts.switched', { name: account.nickname }));
                        // Every cached answer (balances, profile, team…) was the other account's: drop
                        // them all, and what is on screen is fetched again for this one.
                        void queryClient.resetQueries();
                      },
                      () => undefined,
                    );
                  }}
                >
                  {t('accounts.switchTo')}
                </Button>
              )
            }
          >
            {account.nickname}
          </List.Item>
        ))}
      </List>
      <Form
        form={form}
        layout="vertical"
        onFinish={(values: { nickname: string }) => {
          setBusy(true);
          const done = () => setBusy(false);
          createSubAccount({ nickname: values.nickname.trim() })
            .then(() => {
              showToast(t('accounts.created'));
              form.resetFields();
              void queryClient.invalidateQueries({ queryKey: accountKeys.all });
            })
            .then(done, done);
        }}
        footer={
          <Button block type="submit" color="primary" loading={busy}>
            {t('accounts.create')}
          </Button>
        }
      >
        <Form.Item
          name="nickname"
          label={t('accounts.nickname')}
          rules={[
            {
              required: true,
              whitespace: true,
              message: translate(locale, 'reason.required', { field: fieldLabel(locale, 'nickname') }),
            },
          ]}
        >
          <Input placeholder={t('accounts.nicknamePlaceholder')} maxLength={20} />
        </Form.Item>
      </Form>
    </div>
  );
}
