import { SoundOutline } from 'antd-mobile-icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n/translator';
import { currentLocale } from '../../lib/i18n/i18n';
import { getNotices } from '../../api/content';
import { contentKeys } from '../../api/content-keys';
import { Marquee } from '../marquee/Marquee';

/** The notice marquee: the notices showing now, one after another. */
export function NoticeMarquee() {
  const { t } = useTranslation();
  const locale = currentLocale();
  const { data: notices = [] } = useQuery({ queryKey: contentKeys.notices(locale), queryFn: getNotices });
  if (notices.length === 0) return null;
  return (
    <div className="home-notices" data-testid="home-notices" aria-label={t('content.notices')}>
      <Marquee icon={<SoundOutline />} text={notices.map((notice) => notice.text).join('　·　')} />
    </div>
  );
}
