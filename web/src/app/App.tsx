import { useEffect } from 'react';
import { ConfigProvider } from 'antd-mobile';
import enUS from 'antd-mobile/es/locales/en-US';
import jaJP from 'antd-mobile/es/locales/ja-JP';
import koKR from 'antd-mobile/es/locales/ko-KR';
import thTH from 'antd-mobile/es/locales/th-TH';
import viVN from 'antd-mobile/es/locales/vi-VN';
import zhCN from 'antd-mobile/es/locales/zh-CN';
import zhTW from 'antd-mobile/es/locales/zh-TW';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { isLocale, type Locale } from '@custos/contract';
import { getConfig } from '../api/get-config';
import { onLiveEvent, startLiveChannel } from '../lib/live/live-channel';
import { liveToastText } from '../lib/live/live-toasts';
import { showToast } from '../lib/toast';
import type { createAppRouter } from './router';

type AntdLocale = typeof enUS;

const ANTD_LOCALES: Record<Locale, AntdLocale> = {
  'zh-Hans': zhCN,
  en: enUS,
  ja: jaJP,
  ko: koKR,
  th: thTH,
  vi: viVN,
  'zh-Hant': zhTW,
};

export function App({ router }: { router: ReturnType<typeof createAppRouter> }) {
  const { i18n, t } = useTranslation();
  const locale: Locale = isLocale(i18n.language) ? i18n.language : 'zh-Hans';

  // The platform configuration is the first call of every launch; its failures follow the client's
  // rules (toast, 401 relaunch, 300/4900/4901 redirects) like any other call.
  useEffect(() => {
    getConfig().catch(() => undefined);
  }, []);

  // One live channel while a member is logged in; each event is a toast, and the screens that show
  // what it changed reload themselves (useLiveRefresh).
  useEffect(() => startLiveChannel(), []);
  useEffect(() => onLiveEvent((event) => showToast(liveToastText(t, event))), [t]);

  return (
    <ConfigProvider locale={ANTD_LOCALES[locale]}>
      <RouterProvider router={router} />
    </ConfigProvider>
  );
}
