type NativeShellWindow = {
  CapacitorCustomPlatform?: { name: string } | null;
  androidBridge?: unknown;
  webkit?: { messageHandlers?: { bridge?: unknown } };
};

/**
 * Whether the app runs inside a native Capacitor shell (the Android package): what @capacitor/core's
 * `Capacitor.isNativePlatform()` answers, by the same test (the bridge the shell injects before the
 * page runs), so a browser never loads @capacitor/core to ask (decision 041).
 */
export function isNativePlatform(win: NativeShellWindow = globalThis as NativeShellWindow): boolean {
  if (win.CapacitorCustomPlatform) return win.CapacitorCustomPlatform.name !== 'web';
  return Boolean(win.androidBridge ?? win.webkit?.messageHandlers?.bridge);
}
