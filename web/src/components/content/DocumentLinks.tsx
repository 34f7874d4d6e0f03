import { List } from 'antd-mobile';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n/translator';
import { useNavigate } from '../../lib/router/router';
import { documentViewerRoute } from '@custos/contract';
import { listDocuments } from '../../api/content';
import { contentKeys } from '../../api/content-keys';
import { currentLocale } from '../../lib/i18n/i18n';

/** The platform's documents (white paper, terms, privacy, …), each opening in the app's PDF viewer. */
export function DocumentLinks() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const locale = currentLocale();
  const { data } = useQuery({ queryKey: contentKeys.documents(locale), queryFn: listDocuments });
  if (!data || data.length === 0) return null;
  return (
    <List header={t('pdf.documents')} data-testid="document-links">
      {data.map((item) => (
        <List.Item
          key={item.id}
          data-testid="document-link"
          data-kind={item.kind}
          data-locale={item.locale}
          description={t(`pdf.kinds.${item.kind}`)}
          onClick={() => void navigate(documentViewerRoute(item.id))}
        >
          {item.title}
        </List.Item>
      ))}
    </List>
  );
}
