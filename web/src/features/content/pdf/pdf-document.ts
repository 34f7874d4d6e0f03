/// <reference types="vite/client" />
import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy } from 'pdfjs-dist';
// The worker is bundled as a file of the app and loaded from this origin: the CSP's
// `script-src 'self'` (which `worker-src` falls back to) allows it, and nothing comes from elsewhere.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;

export interface RenderJob {
  done: Promise<void>;
  cancel: () => void;
}

export interface OpenedPdf {
  pageCount: number;
  render: (pageNumber: number, zoom: number, canvas: HTMLCanvasElement) => RenderJob;
  close: () => Promise<void>;
}

/**
 * Opens a platform document with pdf.js (decision 028). `isEvalSupported: false`: the CSP (decision
 * 014) allows no eval, so pdf.js never compiles PDF functions into JavaScript; fonts embedded in the
 * PDF load through the FontFace API from bytes, which the CSP does not restrict.
 */
export async function openPdf(url: string): Promise<OpenedPdf> {
  const document: PDFDocumentProxy = await getDocument({ url, isEvalSupported: false, useWasm: false, withCredentials: false })
    .promise;
  return {
    pageCount: document.numPages,
    render: (pageNumber, zoom, canvas) => {
      let cancelled = false;
      let cancelTask: (() => void) | null = null;
      const done = document.getPage(pageNumber).then(async (page) => {
        if (cancelled) return;
        // Drawn at the screen's pixel density, shown at the zoom's CSS size.
        const ratio = window.devicePixelRatio || 1;
        const viewport = page.getViewport({ scale: zoom * ratio });
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
        canvas.style.height = `${Math.floor(viewport.height / ratio)}px`;
        const context = canvas.getContext('2d');
        if (!context) throw new Error('No 2D canvas');
        const task = page.render({ canvas, canvasContext: context, viewport });
        cancelTask = () => task.cancel();
        await task.promise;
      });
      return {
        done,
        cancel: () => {
          cancelled = true;
          cancelTask?.();
        },
      };
    },
    close: () => document.destroy(),
  };
}
