import { useCallback, useEffect, useState } from 'react';
import { Button, Dialog, DotLoading, ErrorBlock, List } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { useNavigate } from '../../../lib/router/router';
import type { WithdrawMethod, WithdrawSettings } from '@custos/contract';
import { showToast } from '../../../lib/toast';
import { deleteMethod } from '../api/delete-method';
import { getWithdrawIndex } from '../api/get-withdraw-index';
import { listMethods } from '../api/list-methods';
import { methodDisplay, methodTypeEnabled, walletTypesOffered } from '../methods';
import { ADD_BANK_PATH, ADD_CRYPTO_PATH } from '../paths';
import type { Translate } from '../window';

type MethodsState = WithdrawMethod[] | 'loading' | 'failed';

/** withdraw2: the member's saved withdrawal methods, deleted after a confirmation, and the ways to add one. */
export default function MethodsScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [methods, setMethods] = useState<MethodsState>('loading');
  const [settings, setSettings] = useState<WithdrawSettings | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const translate: Translate = useCallback((key, values) => t(key, values), [t]);

  const load = useCallback(() => {
    listMethods().then(setMethods, () => setMethods((previous) => (Array.isArray(previous) ? previous : 'failed')));
  }, []);
  useEffect(() => {
    load();
    // Only for which kinds are open; without it every add button is offered and the server decides.
    getWithdrawIndex().then(
      (index) => setSettings(index.settings),
      () => undefined,
    );
  }, [load]);

  const remove = (method: WithdrawMethod) => {
    const shown = methodDisplay(method, translate);
    void Dialog.confirm({
      title: t('withdraw.methods.deleteConfirm'),
      content: (
        <div className="withdraw-method-confirm">
          <div>{shown.title}</div>
          <div className="withdraw-address">{shown.detail}</div>
        </div>
      ),
      confirmText: t('withdraw.methods.delete'),
      cancelText: t('common.cancel'),
    }).then((confirmed) => {
      if (!confirmed) return;
      setDeleting(method.id);
      deleteMethod(method.id)
        .then(
          () => showToast(t('withdraw.methods.deleted')),
          // The server's message (a method with a withdrawal in progress) has been shown.
          () => undefined,
        )
        .finally(() => {
          setDeleting(null);
          load();
        });
    });
  };

  const cryptoOpen = settings === null || settings.methods.crypto;
  const bankOpen = settings === null || settings.methods.bank || walletTypesOffered(settings).length > 0;

  return (
    <div className="withdraw-methods-screen">
      {methods === 'loading' ? (
        <div className="page-loading">
          <DotLoading color="primary" />
        </div>
      ) : methods === 'failed' ? (
        <div className="recharge-failed" data-testid="withdraw-methods-failed">
          <span>{t('records.loadFailed')}</span>{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setMethods('loading');
              load();
            }}
          >
            {t('records.retry')}
          </button>
        </div>
      ) : methods.length === 0 ? (
        <ErrorBlock
          status="empty"
          className="record-empty"
          title={t('withdraw.methods.empty')}
          description={t('withdraw.methods.emptyHint')}
          data-testid="withdraw-methods-empty"
        />
      ) : (
        <List header={t('withdraw.methods.saved')} data-testid="withdraw-methods">
          {methods.map((method) => {
            const shown = methodDisplay(method, translate);
            const open = settings === null || methodTypeEnabled(method.type, settings);
            // WeChat Pay and Alipay are OTC payment details, never a withdrawal target (product.md §5).
            const paymentOnly = method.type === 'wechat' || method.type === 'alipay';
            return (
              <List.Item
                key={method.id}
                data-testid="withdraw-method-item"
                data-method-id={method.id}
                data-method-type={method.type}
                description={
                  <>
                    <div className="withdraw-address" data-testid="withdraw-method-detail">
                      {shown.detail}
                    </div>
                    {paymentOnly ? (
                      <div className="withdraw-unavailable" data-testid="withdraw-method-otc-only">
                        {t('withdraw.methods.otcOnly')}
                      </div>
                    ) : (
                      !open && <div className="withdraw-unavailable">{t('withdraw.methodUnavailable')}</div>
                    )}
                  </>
                }
                extra={
                  <Button
                    size="mini"
                    color="danger"
                    fill="outline"
                    loading={deleting === method.id}
                    onClick={() => remove(method)}
                    data-testid="withdraw-method-delete"
                  >
                    {t('withdraw.methods.delete')}
                  </Button>
                }
              >
                <span data-testid="withdraw-method-title">{shown.title}</span>
              </List.Item>
            );
          })}
        </List>
      )}
      <div className="withdraw-add-buttons">
        {cryptoOpen && (
          <Button block color="primary" onClick={() => void navigate(ADD_CRYPTO_PATH)} data-testid="withdraw-add-crypto">
            {t('withdraw.methods.addCrypto')}
          </Button>
        )}
        {bankOpen && (
          <Button
            block
            color="primary"
            fill="outline"
            onClick={() => void navigate(ADD_BANK_PATH)}
            data-testid="withdraw-add-bank"
          >
            {settings && !settings.methods.bank ? t('withdraw.methods.addWallet') : t('withdraw.methods.addBank')}
          </Button>
        )}
      </div>
    </div>
  );
}
