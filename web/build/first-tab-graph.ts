import type { Plugin } from 'vite';

/*
 * Which modules Home's first load needs beyond the app's shell (decision 044), read from the build's
 * own module graph: the static imports of Home's page and the tab layout, followed through the
 * contract's and the icon set's index files by the names imported (an index reaches every schema
 * and every icon, of which Home uses a few), less what the shell (the entry), the early file or the
 * log-in page import. `web/build/chunks.ts` puts these modules in one file, `home`.
 */

/** The index files that re-export a package's modules, and the name a module import resolves to. */
const CONTRACT_INDEX = /[\\/]packages[\\/]contract[\\/]src[\\/]index\.ts$/;
const ICONS_INDEX = /[\\/]antd-mobile-icons[\\/]es[\\/]index\.js$/;
const ICON_MODULE = /[\\/]antd-mobile-icons[\\/]es[\\/]([A-Za-z0-9]+)\.js$/;

const HOME_ROOTS = [
  /[\\/]web[\\/]src[\\/]features[\\/]home[\\/]screens[\\/]HomeScreen\.tsx$/,
  /[\\/]web[\\/]src[\\/]app[\\/]layout[\\/]TabBarLayout\.tsx$/,
];
const SHELL_ROOTS = [
  /[\\/]web[\\/]src[\\/]app[\\/]main\.tsx$/,
  /[\\/]web[\\/]src[\\/]app[\\/]early-start\.ts$/,
  /[\\/]web[\\/]src[\\/]features[\\/]auth[\\/]screens[\\/]LoginScreen\.tsx$/,
];

const IMPORT_NAMES = /import\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g;

interface Graph {
  imports: Map<string, string[]>;
  exports: Map<string, string[]>;
  /** Per module, the names it imports from '@custos/contract' and from 'antd-mobile-icons'. */
  barrelNames: Map<string, { contract: string[]; icons: string[] }>;
}

const graph: Graph = { imports: new Map(), exports: new Map(), barrelNames: new Map() };
let homeModules: Set<string> | null = null;

function staticClosure(roots: readonly RegExp[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...graph.imports.keys()].filter((id) => roots.some((root) => root.test(id)));
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    const names = graph.barrelNames.get(id);
    for (const dependency of graph.imports.get(id) ?? []) {
      if (CONTRACT_INDEX.test(dependency)) {
        // The contract's modules that export the names this module imports.
        for (const module of graph.imports.get(dependency) ?? []) {
          if ((graph.exports.get(module) ?? []).some((name) => names?.contract.includes(name))) stack.push(module);
        }
      } else if (ICONS_INDEX.test(dependency)) {
        for (const module of graph.imports.get(dependency) ?? []) {
          const icon = ICON_MODULE.exec(module)?.[1];
          if (icon && names?.icons.includes(icon)) stack.push(module);
        }
      } else {
        stack.push(dependency);
      }
    }
  }
  return seen;
}

/** Whether a module is one Home's first load needs and the shell and the log-in page do not. */
export function isHomeModule(id: string): boolean {
  if (!homeModules) {
    const shell = staticClosure(SHELL_ROOTS);
    homeModules = new Set([...staticClosure(HOME_ROOTS)].filter((id) => !shell.has(id)));
  }
  return homeModules.has(id);
}

/** Records the module graph (and the names imported from the two index files) for `isHomeModule`. */
export function firstTabGraph(): Plugin {
  return {
    name: 'custos-first-tab-graph',
    enforce: 'pre',
    buildStart() {
      graph.imports.clear();
      graph.exports.clear();
      graph.barrelNames.clear();
      homeModules = null;
    },
    transform(code, id) {
      // The app's modules, and antd-mobile's, which import icons by name from the set's index.
      if (!/[\\/]web[\\/]src[\\/].*\.tsx?$|[\\/]antd-mobile[\\/]es[\\/].*\.js$/.test(id)) return null;
      const names = { contract: [] as string[], icons: [] as string[] };
      for (const [, list, source] of code.matchAll(IMPORT_NAMES)) {
        const target = source === '@custos/contract' ? names.contract : source === 'antd-mobile-icons' ? names.icons : null;
        if (!target || !list) continue;
        for (const entry of list.split(',')) {
          const name = entry
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0];
          if (name) target.push(name);
        }
      }
      graph.barrelNames.set(id, names);
      return null;
    },
    buildEnd() {
      for (const id of this.getModuleIds()) {
        const info = this.getModuleInfo(id);
        if (!info) continue;
        graph.imports.set(id, [...info.importedIds]);
        graph.exports.set(id, [...info.exports]);
      }
    },
  };
}
