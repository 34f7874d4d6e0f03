import type { Plugin } from 'vite';

/*
 * The page's head, arranged for the first paint (decision 048). A phone on a slow network opens at
 * most six connections to the server (HTTP/1.1), each starting slowly, and the page's first paint
 * waits for its largest file, the start file; the smaller requests the head asks for meanwhile
 * (icons, the manifest, the entry, the language) take the connections first:
 *
 * - The app's style sheet comes inside the page instead of as a file of its own: one request
 *   fewer, and it needs none before the page can paint. (The server's CSP allows it by its hash.)
 * - The start file is asked for first of the files, right after the launch script, so it gets a
 *   connection before the smaller files do.
 */

interface BundleItem {
  type: 'chunk' | 'asset';
  fileName: string;
  name?: string;
  names?: string[];
  source?: string | Uint8Array;
}

const STYLESHEET_LINK = /[ \t]*<link rel="stylesheet" crossorigin href="\.\/([^"]+\.css)">\n?/g;
const START_PRELOAD = /[ \t]*<link rel="modulepreload" crossorigin href="\.\/(assets\/start-[^"]+\.js)">\n?/;
const LAUNCH_SCRIPT_END = /<script>[\s\S]*?<\/script>\n?/;

/** The page with its style sheets inline and the start file asked for first. */
export function arrangeHead(html: string, bundle: Record<string, BundleItem>): string {
  let page = html.replace(STYLESHEET_LINK, (_link, fileName: string) => {
    const item = bundle[fileName];
    if (!item || item.type !== 'asset' || item.source === undefined) throw new Error(`${fileName} is not in the bundle`);
    const css = typeof item.source === 'string' ? item.source : new TextDecoder().decode(item.source);
    // A style sheet ending its own element early would let the page's text run as markup.
    if (/<\/style/i.test(css)) throw new Error(`${fileName} holds "</style"`);
    return `    <style>${css}</style>\n`;
  });
  const start = START_PRELOAD.exec(page);
  if (!start) throw new Error('the page asks for no start file');
  page = page.replace(start[0], '');
  const launch = LAUNCH_SCRIPT_END.exec(page);
  if (!launch) throw new Error('the page has no launch script');
  const at = launch.index + launch[0].length;
  return `${page.slice(0, at)}    <link rel="modulepreload" crossorigin href="./${start[1]}">\n${page.slice(at)}`;
}

export function firstPaintHead(): Plugin {
  return {
    name: 'custos-first-paint-head',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        if (!context.bundle) return html;
        return arrangeHead(html, context.bundle);
      },
    },
  };
}
