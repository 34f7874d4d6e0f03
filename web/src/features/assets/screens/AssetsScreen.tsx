import { Button, List, PullToRefresh, Tag } from 'antd-mobile';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { useNavigate } from '../../../lib/router/router';
import type { Asset } from '@custos/contract';
import { getUserAssets } from '../../../api/get-user-assets';
import { getUserInfo } from '../../../api/get-user-info';
import { assetKeys, userKeys } from '../../../api/keys';
import { AssetsSummary } from '../../../components/assets/AssetsSummary';
import { MoneyShortcuts } from '../../../components/assets/MoneyShortcuts';
import { credential } from '../../../lib/auth/credential';
import { displayMoney, displayRate } from '../../../lib/format/money';

/** withdraw_record7: where a tap on the fuel or ticket balance leads. */
const FUEL_TICKET_RECORDS = '/pages/withdraw_record/withdraw_record7';

function Balance({ asset, main, detail, onClick }: { asset: Asset; main: string; detail: string; onClick?: () => void }) {
  const { t } = useTranslation();
  return (
    <List.Item
      data-testid={`balance-${asset}`}
      {...(onClick ? { onClick } : {})}
      description={t('assets.available')}
      prefix={<span className={`asset-badge asset-${asset}`}>{asset.slice(0, 1)}</span>}
      extra={
        <div className="balance-amounts">
          <div className="balance-main">{main}</div>
          <div className="balance-detail">{detail}</div>
        </div>
      }
    >
      {t(`assetNames.${asset}`)}
    </List.Item>
  );
}

/** my (tab 3): total assets, cash and custody, balances of every asset, the account in use, shortcuts. */
export default function AssetsScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signedIn = credential.get() !== null;
  // Live balance events invalidate the assets domain (app/live-invalidation.ts).
  const assetsQuery = useQuery({ queryKey: assetKeys.summary(), queryFn: getUserAssets, enabled: signedIn });
  const userQuery = useQuery({ queryKey: userKeys.info(), queryFn: getUserInfo, enabled: signedIn });
  const assets = assetsQuery.data ?? null;
  const user = userQuery.data ?? null;
  const load = async () => {
    await Promise.all([assetsQuery.refetch(), userQuery.refetch()]);
  };

  // The start-up rule lets visitors open this tab: they are asked to log in rather than sent away.
  if (!signedIn) {
    return (
      <div className="assets-visitor">
        <p>{t('assets.visitorHint')}</p>
        <Button color="primary" block onClick={() => void navigate('/pages/login/login')}>
          {t('auth.login')}
        </Button>
      </div>
    );
  }

  const held = (amount: string) => t('assets.held', { amount: displayMoney(amount) });
  return (
    <PullToRefresh
      onRefresh={load}
      pullingText={t('assets.pullToRefresh')}
      canReleaseText={t('assets.releaseToRefresh')}
      refreshingText={t('common.loading')}
      completeText={t('assets.refreshed')}
    >
      <div className="assets-screen">
        <AssetsSummary assets={assets} />
        <List className="assets-account">
          <List.Item
            onClick={() => void navigate('/pages/second/second')}
            extra={<span className="link-text">{t('assets.switchAccount')}</span>}
            description={t('assets.accountInUse')}
          >
            <span data-testid="account-in-use">
              {user ? user.nickname : '—'}{' '}
              {user && (
                <Tag color="primary" fill="outline">
                  {t(user.accountKind === 'main' ? 'accounts.main' : 'accounts.sub')}
                </Tag>
              )}
            </span>
          </List.Item>
        </List>
        <MoneyShortcuts />
        <List header={t('assets.balances')} data-testid="balances">
          {assets && (
            <>
              <Balance asset="USDT" main={displayMoney(assets.USDT.available)} detail={held(assets.USDT.held)} />
              <Balance
                asset="RAB"
                main={displayMoney(assets.RAB.available)}
                detail={`${held(assets.RAB.held)} · ${t('assets.rabPrice', { price: displayRate(assets.rabPriceUsdt) })}`}
              />
              <Balance
                asset="FUEL"
                main={displayMoney(assets.FUEL.available)}
                detail={held(assets.FUEL.held)}
                onClick={() => void navigate(`${FUEL_TICKET_RECORDS}?asset=FUEL`)}
              />
              <Balance
                asset="TICKET"
                main={displayMoney(assets.TICKET.available)}
                onClick={() => void navigate(`${FUEL_TICKET_RECORDS}?asset=TICKET`)}
                detail={t('assets.ticketsUsed', { used: displayMoney(assets.TICKET.used) })}
              />
            </>
          )}
        </List>
      </div>
    </PullToRefresh>
  );
}
