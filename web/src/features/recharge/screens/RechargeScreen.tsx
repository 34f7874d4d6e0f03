import { useEffect, useState } from 'react';
import { Button, DotLoading, NoticeBar, Segmented } from 'antd-mobile';
import QRCode from 'qrcode';
import { useTranslation } from '../../../lib/i18n/translator';
import { Link } from '../../../lib/router/router';
import type { Network, RechargeAddress, RechargeIndex } from '@custos/contract';
import { copyText } from '../../../lib/clipboard';
import { trimMoney } from '../../../lib/format/money';
import { showToast } from '../../../lib/toast';
import { getRechargeAddress } from '../api/get-recharge-address';
import { getRechargeIndex } from '../api/get-recharge-index';
import { defaultNetwork, networkOpen } from '../deposits';

type AddressState = RechargeAddress | 'failed';

/** withdraw1: the member's USDT deposit address on BEP20 or TRC20, as text and QR, with the deposit rules. */
export default function RechargeScreen() {
  const { t } = useTranslation();
  const [index, setIndex] = useState<RechargeIndex | null>(null);
  const [network, setNetwork] = useState<Network | null>(null);
  const [addresses, setAddresses] = useState<Partial<Record<Network, AddressState>>>({});
  const [attempt, setAttempt] = useState(0);
  const [qr, setQr] = useState<{ text: string; dataUrl: string } | null>(null);
  const [indexLoad, setIndexLoad] = useState<{ attempt: number; failed: boolean }>({ attempt: 0, failed: false });

  useEffect(() => {
    getRechargeIndex().then(
      (value) => {
        setIndex(value);
        setNetwork((current) => current ?? defaultNetwork(value));
      },
      // The client has shown why; the member may try again.
      () => setIndexLoad((previous) => ({ ...previous, failed: true })),
    );
  }, [indexLoad.attempt]);

  const open = index !== null && network !== null && networkOpen(index, network);

  // The address is made on the first request and never changes; a closed network is not asked for.
  useEffect(() => {
    if (!open || network === null) return;
    getRechargeAddress(network).then(
      (value) => setAddresses((previous) => ({ ...previous, [network]: value })),
      () => setAddresses((previous) => (previous[network] ? previous : { ...previous, [network]: 'failed' })),
    );
  }, [open, network, attempt]);

  const entry = network === null ? undefined : addresses[network];
  const address = entry && entry !== 'failed' ? entry.address : null;

  useEffect(() => {
    if (!address) return;
    let active = true;
    // Drawn here from the address alone: nothing is fetched to make the QR code.
    void QRCode.toDataURL(address, { margin: 1, width: 200 }).then((dataUrl) => {
      if (active) setQr({ text: address, dataUrl });
    });
    return () => {
      active = false;
    };
  }, [address]);

  if (!index && indexLoad.failed) {
    return (
      <div className="recharge-failed" data-testid="recharge-index-failed">
        <span>{t('records.loadFailed')}</span>{' '}
        <button
          type="button"
          className="link-button"
          onClick={() => setIndexLoad((previous) => ({ attempt: previous.attempt + 1, failed: false }))}
        >
          {t('records.retry')}
        </button>
      </div>
    );
  }
  if (!index) {
    return (
      <div className="page-loading">
        <DotLoading color="primary" />
      </div>
    );
  }

  const minimum = trimMoney(entry && entry !== 'failed' ? entry.minimumAmount : index.minimumAmount);
  const confirmations = entry && entry !== 'failed' ? entry.confirmations : index.confirmations;
  const closedNetworks = index.networks.filter((item) => !item.enabled).map((item) => item.network);

  const copy = () => {
    if (!address) return;
    copyText(address).then(
      () => showToast(t('recharge.copied')),
      () => showToast(t('recharge.copyFailed')),
    );
  };

  const retry = () => {
    setAddresses((previous) => Object.fromEntries(Object.entries(previous).filter(([key]) => key !== network)));
    setAttempt((value) => value + 1);
  };

  return (
    <div className="recharge-screen">
      <section className="recharge-section">
        <div className="recharge-label">{t('recharge.network')}</div>
        <Segmented
          block
          value={network ?? undefined}
          options={index.networks.map((item) => ({
            value: item.network,
            disabled: !item.enabled,
            label: (
              <span data-testid={`recharge-network-${item.network}`} aria-disabled={!item.enabled}>
                {item.network}
              </span>
            ),
          }))}
          onChange={(value) => setNetwork(value as Network)}
          data-testid="recharge-network"
        />
        {closedNetworks.map((closed) => (
          <p key={closed} className="recharge-closed" data-testid={`recharge-network-closed-${closed}`}>
            {t('recharge.networkClosed', { network: closed })}
          </p>
        ))}
      </section>

      <section className="recharge-section recharge-card" data-testid="recharge-card">
        {!open || network === null ? (
          <NoticeBar color="alert" wrap content={t('recharge.noNetwork')} data-testid="recharge-unavailable" />
        ) : entry === 'failed' ? (
          <div className="recharge-failed" data-testid="recharge-address-failed">
            <span>{t('recharge.addressFailed')}</span>{' '}
            <button type="button" className="link-button" onClick={retry}>
              {t('records.retry')}
            </button>
          </div>
        ) : !address ? (
          <div className="recharge-qr-placeholder">
            <DotLoading color="primary" />
          </div>
        ) : (
          <>
            {qr?.text === address ? (
              <img
                className="recharge-qr"
                src={qr.dataUrl}
                alt={t('recharge.qrAlt', { network })}
                width={200}
                height={200}
                data-testid="recharge-qr"
              />
            ) : (
              <div className="recharge-qr-placeholder" />
            )}
            <div className="recharge-label">{t('recharge.address', { network })}</div>
            <div className="recharge-address" data-testid="recharge-address">
              {address}
            </div>
            <Button color="primary" fill="outline" onClick={copy} data-testid="recharge-copy">
              {t('recharge.copy')}
            </Button>
          </>
        )}
      </section>

      <section className="recharge-section recharge-notice" data-testid="recharge-notice">
        <div className="recharge-label">{t('recharge.noticeTitle')}</div>
        <ul>
          {open && <li>{t('recharge.onlyNetwork', { network })}</li>}
          <li data-testid="recharge-minimum">{t('recharge.minimumNotice', { amount: minimum })}</li>
          <li data-testid="recharge-confirmations">{t('recharge.confirmationsNotice', { confirmations })}</li>
          <li>{t('recharge.mainAccountNotice')}</li>
        </ul>
      </section>

      <div className="money-links">
        <Link to="/pages/withdraw_record/withdraw_record1" data-testid="recharge-records-link">
          {t('routes.withdrawRecord1')}
        </Link>
      </div>
    </div>
  );
}
