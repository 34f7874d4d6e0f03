import type { Plugin } from 'vite';

/*
 * antd-mobile renders its toasts and dialogs with a function the app replaces at start for React 19
 * (`unstableSetRender` in app/main.tsx). Its default, React 16–18's legacy `render` from rc-util, is
 * never called, yet it came with the entry: about 3 KB compressed with the async-function helpers
 * it was compiled with (decision 048). The build takes, in its place, a stand-in that says so if it
 * ever is called.
 */

const STAND_IN_ID = '\0custos:ui-kit-legacy-render';
const STAND_IN = `
const replaced = () => {
  throw new Error("antd-mobile's legacy render was called: unstableSetRender must run first (app/main.tsx)");
};
export const render = replaced;
export const unmount = replaced;
`;

export function uiKitRender(): Plugin {
  return {
    name: 'custos-ui-kit-render',
    apply: 'build',
    // Before Vite's own resolver, which would find the real file.
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === './render' && importer && /[\\/]antd-mobile[\\/]es[\\/]utils[\\/]unstable-render\.js$/.test(importer)) {
        return STAND_IN_ID;
      }
      return null;
    },
    load(id) {
      return id === STAND_IN_ID ? STAND_IN : null;
    },
  };
}
