import { App } from '@capacitor/app';
import { Capacitor } from '@capacitor/core';
import { FileTransfer } from '@capacitor/file-transfer';
import { Directory, Filesystem } from '@capacitor/filesystem';
import { FileOpener } from '@capacitor-community/file-opener';
import { CapacitorUpdater } from '@capgo/capacitor-updater';
import type { UpdaterPort } from './updater-port';

function hex(buffer: ArrayBuffer): string {
  return [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

async function bytesOf(data: string | Blob): Promise<ArrayBuffer> {
  if (typeof data !== 'string') return data.arrayBuffer();
  // Native answers are base64.
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes.buffer;
}

/**
 * The update port on a device: @capgo/capacitor-updater for hot bundles (it unzips, verifies the
 * SHA-256 and rolls back a bundle that does not call notifyAppReady in time), @capacitor/file-transfer
 * and @capacitor/filesystem for the APK, @capacitor-community/file-opener to hand it to the
 * package installer.
 */
export function capacitorPort(): UpdaterPort {
  return {
    platform: Capacitor.getPlatform(),
    async nativeVersionCode() {
      return Number.parseInt((await App.getInfo()).build, 10);
    },
    liveUpdate: CapacitorUpdater,
    fileTransfer: FileTransfer,
    files: {
      async pathFor(fileName) {
        return (await Filesystem.getUri({ path: fileName, directory: Directory.Cache })).uri;
      },
      async sha256(path) {
        const { data } = await Filesystem.readFile({ path });
        return hex(await crypto.subtle.digest('SHA-256', await bytesOf(data)));
      },
    },
    fileOpener: FileOpener,
    openExternal(url) {
      window.open(url, '_system');
    },
  };
}
