import { useEffect, useRef, useState } from 'react';
import { Button, ErrorBlock } from 'antd-mobile';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { useSearchParams } from '../../../lib/router/router';
import { DOCUMENT_KINDS, documentPath, platformDocumentId, type DocumentItem, type DocumentKind } from '@custos/contract';
import { getDocument, listDocuments } from '../../../api/content';
import { contentKeys } from '../../../api/content-keys';
import { currentLocale } from '../../../lib/i18n/i18n';
import { openPdf, type OpenedPdf } from '../pdf/pdf-document';

const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3] as const;
const DEFAULT_ZOOM_INDEX = 2;

function isKind(value: string | null): value is DocumentKind {
  return (DOCUMENT_KINDS as readonly string[]).includes(value ?? '');
}

/** Pages, zoom and page count over one PDF, drawn by pdf.js into a canvas (its worker is the app's own file). */
function PdfViewer({ item }: { item: DocumentItem }) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [pdf, setPdf] = useState<OpenedPdf | null>(null);
  const [failed, setFailed] = useState(false);
  const [page, setPage] = useState(1);
  const [zoomIndex, setZoomIndex] = useState(DEFAULT_ZOOM_INDEX);
  const [rendered, setRendered] = useState(0);

  useEffect(() => {
    let live = true;
    let opened: OpenedPdf | null = null;
    setPdf(null);
    setFailed(false);
    setPage(1);
    // Same origin, relative to the app (as every API call), so the Android package reads it too.
    openPdf(item.fileUrl.replace(/^\//, '')).then(
      (document) => {
        opened = document;
        if (live) setPdf(document);
        else void document.close();
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
      if (opened) void opened.close();
    };
  }, [item.fileUrl]);

  useEffect(() => {
    if (!pdf || !canvas.current) return;
    let live = true;
    const task = pdf.render(page, ZOOM_STEPS[zoomIndex]!, canvas.current);
    task.done.then(
      () => live && setRendered(page),
      () => undefined,
    );
    return () => {
      live = false;
      task.cancel();
    };
  }, [pdf, page, zoomIndex]);

  if (failed) return <ErrorBlock status="default" title={t('pdf.loadFailed')} description="" />;
  const pageCount = pdf?.pageCount ?? 0;
  return (
    <div className="pdf-viewer" data-testid="pdf-viewer" data-locale={item.locale}>
      <div className="pdf-toolbar">
        <Button size="mini" disabled={!pdf || page <= 1} onClick={() => setPage(page - 1)} data-testid="pdf-prev">
          {t('pdf.previous')}
        </Button>
        <span data-testid="pdf-page" data-page={page} data-rendered={rendered} data-page-count={pageCount}>
          {pdf ? t('pdf.pageOf', { page, count: pageCount }) : t('common.loading')}
        </span>
        <Button size="mini" disabled={!pdf || page >= pageCount} onClick={() => setPage(page + 1)} data-testid="pdf-next">
          {t('pdf.next')}
        </Button>
        <Button size="mini" disabled={zoomIndex === 0} onClick={() => setZoomIndex(zoomIndex - 1)} data-testid="pdf-zoom-out">
          −
        </Button>
        <span data-testid="pdf-zoom">{`${Math.round(ZOOM_STEPS[zoomIndex]! * 100)}%`}</span>
        <Button
          size="mini"
          disabled={zoomIndex === ZOOM_STEPS.length - 1}
          onClick={() => setZoomIndex(zoomIndex + 1)}
          data-testid="pdf-zoom-in"
        >
          +
        </Button>
      </div>
      <div className="pdf-canvas-box">
        <canvas ref={canvas} data-testid="pdf-canvas" aria-label={item.title} />
      </div>
    </div>
  );
}

function Refused() {
  const { t } = useTranslation();
  return (
    <div data-testid="pdf-refused">
      <ErrorBlock status="default" title={t('pdf.refused')} description={t('pdf.refusedDetail')} />
    </div>
  );
}

function DocumentByPath({ path }: { path: string }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const { data, isError } = useQuery({ queryKey: contentKeys.document(locale, path), queryFn: () => getDocument(path) });
  if (isError) return <ErrorBlock status="empty" title={t('pdf.notFound')} description="" />;
  if (!data) return <div className="pdf-viewer">{t('common.loading')}</div>;
  return (
    <div className="pdf-screen">
      <h2 className="pdf-title" data-testid="pdf-title">
        {data.title}
      </h2>
      <div className="pdf-meta">{t('pdf.version', { version: data.version })}</div>
      <PdfViewer item={data} />
    </div>
  );
}

/** `?kind=terms` (the sign-up screen's link): the newest published document of that kind. */
function DocumentByKind({ kind }: { kind: DocumentKind }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const { data, isPending } = useQuery({ queryKey: contentKeys.documents(locale), queryFn: listDocuments });
  if (isPending) return <div className="pdf-viewer">{t('common.loading')}</div>;
  const item = data?.find((entry) => entry.kind === kind);
  if (!item) return <ErrorBlock status="empty" title={t('pdf.notFound')} description="" />;
  return <DocumentByPath path={documentPath(item.id)} />;
}

/**
 * pdf?url=: the app's PDF viewer, for the platform's own documents only. A url that is not a
 * platform document's path is refused here and never fetched (the server refuses it too).
 */
export default function PdfScreen() {
  const [params] = useSearchParams();
  const url = params.get('url');
  const kind = params.get('kind');
  if (url !== null) return platformDocumentId(url) ? <DocumentByPath path={url} /> : <Refused />;
  if (isKind(kind)) return <DocumentByKind kind={kind} />;
  return <Refused />;
}
