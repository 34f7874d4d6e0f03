import { CheckList, List } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { LOCALES, LOCALE_NATIVE_NAMES, isLocale } from '@custos/contract';
import { changeLocale, currentLocale } from '../../../lib/i18n/i18n';
import { showToast } from '../../../lib/toast';

/** login2: the language picker, reachable before log-in; the choice persists on the device. */
export default function LanguageScreen() {
  const { t } = useTranslation();
  const selected = currentLocale();
  return (
    <div className="language-screen">
      <List header={t('language.hint')}>
        <CheckList
          value={[selected]}
          onChange={(values) => {
            const next = values[0];
            if (isLocale(next) && next !== selected) {
              void changeLocale(next).then(() => showToast(t('language.changed')));
            }
          }}
        >
          {LOCALES.map((locale) => (
            <CheckList.Item key={locale} value={locale} data-testid={`locale-${locale}`}>
              {LOCALE_NATIVE_NAMES[locale]}
            </CheckList.Item>
          ))}
        </CheckList>
      </List>
    </div>
  );
}
