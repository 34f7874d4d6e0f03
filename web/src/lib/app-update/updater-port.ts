/*
 * The native calls of the in-app update (spec §4, decision 037), as the plugins document them. The
 * update flow talks only to this port: on Android it is the Capacitor plugins themselves
 * (capacitor-port.ts); in a browser that the e2e tests switch on, the documented test double
 * (browser-double.ts); in unit tests, doubles of the same shapes.
 */

/** @capgo/capacitor-updater's BundleInfo and BundleStatus. */
export type BundleStatus = 'success' | 'error' | 'pending' | 'downloading' | 'deleted' | 'deleting';
export interface BundleInfo {
  id: string;
  version: string;
  downloaded: string;
  checksum: string;
  status: BundleStatus;
}

/** The subset of @capgo/capacitor-updater's CapacitorUpdaterPlugin the flow uses (same signatures). */
export interface LiveUpdatePlugin {
  current(): Promise<{ bundle: BundleInfo; native: string }>;
  /** Downloads and unzips a bundle; rejects when the SHA-256 `checksum` does not match. */
  download(options: { url: string; version: string; checksum?: string }): Promise<BundleInfo>;
  /** The bundle to start from the next time the app starts (or reloads). */
  next(options: { id: string }): Promise<BundleInfo>;
  reload(): Promise<void>;
  /** Marks the running bundle healthy; without it within appReadyTimeout the plugin rolls back. */
  notifyAppReady(): Promise<{ bundle: BundleInfo }>;
  addListener(
    eventName: 'download',
    listener: (state: { percent: number; bundle: BundleInfo }) => void,
  ): Promise<{ remove: () => Promise<void> }>;
}

/** @capacitor/file-transfer's ProgressStatus. */
export interface ProgressStatus {
  type: 'download' | 'upload';
  url: string;
  bytes: number;
  contentLength: number;
  lengthComputable: boolean;
}

/** The subset of @capacitor/file-transfer's FileTransferPlugin the flow uses. */
export interface FileTransferPlugin {
  downloadFile(options: {
    url: string;
    path: string;
    progress?: boolean;
    connectTimeout?: number;
    readTimeout?: number;
  }): Promise<{ path?: string }>;
  addListener(eventName: 'progress', listener: (progress: ProgressStatus) => void): Promise<{ remove: () => Promise<void> }>;
}

/** What the flow needs of the device's files: where a download goes, and a file's SHA-256 (hex). */
export interface PackageFiles {
  /** A full path for a downloaded package (the app's cache directory). */
  pathFor(fileName: string): Promise<string>;
  sha256(path: string): Promise<string>;
}

/** @capacitor-community/file-opener's FileOpenerPlugin: opens an APK with the system's package installer. */
export interface FileOpenerPlugin {
  open(options: { filePath: string; contentType?: string; openWithDefault?: boolean }): Promise<void>;
}

export interface UpdaterPort {
  /** Capacitor.getPlatform(): 'android', 'ios' or 'web'. */
  platform: string;
  /** Set by the browser test double only: it stands in for the native layer and never runs a bundle's code. */
  testDouble?: boolean;
  /** The installed native package's version code (@capacitor/app's App.getInfo().build). */
  nativeVersionCode(): Promise<number>;
  liveUpdate: LiveUpdatePlugin;
  fileTransfer: FileTransferPlugin;
  files: PackageFiles;
  fileOpener: FileOpenerPlugin;
  /** Opens a link outside the app (the system browser). */
  openExternal(url: string): void;
}

/** The built-in bundle (@capgo/capacitor-updater's id for the web files shipped in the APK). */
export const BUILTIN_BUNDLE_ID = 'builtin';
