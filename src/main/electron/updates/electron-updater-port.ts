// electron-updater behind the UpdaterPort. Loaded only in an installed build that may update
// (availability.ts) and only once the person asked for a look, so development runs, the tests and
// builds without a feed never load it. It never downloads on its own here: the controller decides.
import type { AppUpdater } from 'electron-updater';
import { z } from 'zod';
import type { UpdaterPort } from './updater-port';

// What is read from the feed's answer: only the version, checked.
const checkResultSchema = z.object({ isUpdateAvailable: z.boolean(), updateInfo: z.object({ version: z.string().min(1).max(100) }) });
const progressSchema = z.object({ percent: z.number() });

export async function loadElectronUpdater(log: (message: string) => void): Promise<UpdaterPort> {
  const mod = (await import('electron-updater')) as unknown as { autoUpdater?: AppUpdater; default?: { autoUpdater?: AppUpdater } };
  const updater = mod.autoUpdater ?? mod.default?.autoUpdater;
  if (!updater) throw new Error('electron-updater did not provide an updater');
  updater.autoDownload = false;
  updater.autoInstallOnAppQuit = false;
  updater.allowPrerelease = false;
  updater.allowDowngrade = false;
  // Its own log lines (feed addresses, file names) go to ours, warnings and errors only.
  updater.logger = {
    info: () => undefined,
    warn: (m: unknown) => log(`[desk] updater: ${String(m).split('\n', 1)[0]}`),
    error: (m: unknown) => log(`[desk] updater: ${String(m).split('\n', 1)[0]}`),
  };
  // electron-updater also reports failures as 'error' events; without a listener they would be
  // thrown as unhandled. The promises below carry the same failures to the controller.
  updater.on('error', () => undefined);

  return {
    async check() {
      const result = await updater.checkForUpdates();
      if (result === null) return null; // the updater judged itself inactive (e.g. not installed)
      const parsed = checkResultSchema.parse(result);
      return parsed.isUpdateAvailable ? { version: parsed.updateInfo.version } : null;
    },
    async download(onProgress) {
      const listener = (p: unknown) => {
        const parsed = progressSchema.safeParse(p);
        if (parsed.success) onProgress(parsed.data.percent);
      };
      updater.on('download-progress', listener);
      try {
        await updater.downloadUpdate();
      } finally {
        updater.removeListener('download-progress', listener);
      }
    },
    setInstallOnQuit(on) {
      updater.autoInstallOnAppQuit = on;
    },
    quitAndInstall() {
      updater.quitAndInstall();
    },
  };
}
