import { BACK_EXIT_WINDOW_MS } from '@custos/contract';

export interface BackButtonDeps {
  now(): number;
  isRootPage(): boolean;
  goBack(): void;
  exitApp(): void;
  /** Shows "press again to exit the app". */
  promptExit(): void;
}

/**
 * Android back: on a root page (a tab or log-in) the first press prompts and a second press within
 * the window quits; elsewhere it goes back.
 */
export function createBackHandler(deps: BackButtonDeps): () => void {
  let lastPressAt = Number.NEGATIVE_INFINITY;
  return () => {
    if (!deps.isRootPage()) {
      deps.goBack();
      return;
    }
    const now = deps.now();
    if (now - lastPressAt <= BACK_EXIT_WINDOW_MS) {
      deps.exitApp();
      return;
    }
    lastPressAt = now;
    deps.promptExit();
  };
}
