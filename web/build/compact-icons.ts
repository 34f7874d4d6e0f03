import type { Plugin } from 'vite';

/*
 * antd-mobile-icons as drawn by its designers' tool (decision 044): every path's coordinates carry
 * seven or eight decimals in a 48-unit box, and every element an `id` no style or reference uses
 * (the set has no `url(#…)` or `xlink:href`; an icon shown twice on a page repeated them). At build
 * time the coordinates are rounded to two decimals, a two-hundredth of a unit, under a hundredth of
 * a pixel at the sizes the app draws them (the paths use absolute commands only, so nothing adds
 * up), and the ids are dropped: the icons look the same and weigh about half as much.
 */
const ICON_MODULE = /[\\/]antd-mobile-icons[\\/]es[\\/][A-Za-z0-9]+\.js$/;

function roundCoordinates(path: string): string {
  return path.replace(/-?\d*\.\d+/g, (number) => String(Number(Number(number).toFixed(2))));
}

/** An icon module's source with its paths' coordinates rounded and its ids removed. */
export function compactIconSource(code: string): string {
  // Only the icon set's own form is rewritten: a module that references an id is left as it is.
  if (/url\(#|xlinkHref|href:/.test(code)) return code;
  return code
    .replace(/(\bd: ")([^"]*)(")/g, (_whole, open: string, path: string, close: string) => open + roundCoordinates(path) + close)
    .replace(/\bid: "[^"]*",?\s*/g, '');
}

export function compactIcons(): Plugin {
  return {
    name: 'custos-compact-icons',
    transform(code, id) {
      return ICON_MODULE.test(id) ? { code: compactIconSource(code), map: null } : null;
    },
  };
}
