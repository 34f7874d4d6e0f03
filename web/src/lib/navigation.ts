/**
 * Navigation for code outside React (the API client): the router registers itself here at start.
 */
type Navigate = (path: string, options?: { replace?: boolean }) => void | Promise<void>;

let navigateImpl: Navigate | null = null;

export function setNavigator(navigate: Navigate): void {
  navigateImpl = navigate;
}

export function navigateTo(path: string): void {
  void navigateImpl?.(path);
}

/** Like uni-app's reLaunch: replace the current page so back does not return to it. */
export function relaunch(path: string): void {
  void navigateImpl?.(path, { replace: true });
}
