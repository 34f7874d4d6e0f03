import path from 'node:path';
import type { Plugin } from 'vite';

const EARLY_SOURCE = 'src/app/early-start.ts';

/**
 * Builds `src/app/early-start.ts` as an entry of its own and puts it first in the page (decision
 * 041). A module script's code runs only once every file it imports has arrived; the main entry
 * imports the start file, so a fetch it starts waits for all of it. This entry imports none of it:
 * it runs as soon as its few bytes are here and starts fetching the member's language meanwhile.
 */
export function earlyStart(): Plugin {
  let root = '';
  return {
    name: 'custos-early-start',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    buildStart() {
      this.emitFile({
        type: 'chunk',
        id: path.resolve(root, EARLY_SOURCE),
        name: 'early',
        // One file: the entry may hold (and export) what the start file takes from it.
        preserveSignature: 'allow-extension',
      });
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const source = path.resolve(root, EARLY_SOURCE);
        // The `early` group's file (web/build/chunks.ts), which holds the entry itself.
        const early = Object.values(context.bundle ?? {}).find(
          (item) => item.type === 'chunk' && item.moduleIds.includes(source),
        );
        if (!early) throw new Error(`${EARLY_SOURCE} was not built`);
        return [
          { tag: 'script', attrs: { type: 'module', crossorigin: true, src: `./${early.fileName}` }, injectTo: 'head-prepend' },
        ];
      },
    },
  };
}
