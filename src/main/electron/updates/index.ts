// Auto-update in the Electron app: the application menu with its update entries, native dialogs
// for the person's answers, and electron-updater behind them. The decisions are in controller.ts;
// this file only connects them to Electron. Called once by the shell when the app is ready.
import { app, dialog, Menu, type BrowserWindow, type MessageBoxOptions } from 'electron';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildMenuTemplate, type MenuOptions } from '../menu';
import { systemClock } from '../../clock/clock';
import { detectAvailability } from './availability';
import { fileConsentStore, UPDATE_CONSENT_FILE } from './consent';
import { createUpdateController, type UpdatePrompts } from './controller';
import { loadElectronUpdater } from './electron-updater-port';
import { updateMenuItems, withUpdateItems, type UpdateMenuActions } from './menu-items';

export interface UpdatesOptions {
  menu: MenuOptions;
  getWindow(): BrowserWindow | null;
  /** Closes the core and lets the app quit; runs before the installer takes over. */
  beforeRestart(): Promise<void>;
  log(message: string): void;
}

export interface Updates {
  stop(): void;
}

export function startUpdates(opts: UpdatesOptions): Updates {
  const availability = detectAvailability({
    isPackaged: app.isPackaged,
    platform: process.platform,
    resourcesPath: process.resourcesPath,
    appImage: process.env.APPIMAGE,
    exists: existsSync,
    readText: (path) => {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return null;
      }
    },
  });
  const controller = createUpdateController({
    availability,
    currentVersion: app.getVersion(),
    loadUpdater: () => loadElectronUpdater(opts.log),
    consent: fileConsentStore(join(app.getPath('userData'), UPDATE_CONSENT_FILE)),
    clock: systemClock,
    prompts: dialogPrompts(opts.getWindow),
    beforeRestart: opts.beforeRestart,
    onChange: () => setMenu(),
    log: opts.log,
  });
  const actions: UpdateMenuActions = {
    checkNow: () => void controller.checkNow(),
    setAutomatic: (on) => controller.setAutomatic(on),
    download: () => void controller.download(),
    restartToUpdate: () => void controller.restartToUpdate(),
  };
  function setMenu(): void {
    const template = withUpdateItems(buildMenuTemplate(opts.menu), updateMenuItems(controller.snapshot(), actions), opts.menu.isMac);
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  }
  setMenu();
  controller.start();
  return { stop: () => controller.stop() };
}

function dialogPrompts(getWindow: () => BrowserWindow | null): UpdatePrompts {
  const ask = async (options: MessageBoxOptions): Promise<boolean> => {
    const w = getWindow();
    const { response } = w ? await dialog.showMessageBox(w, options) : await dialog.showMessageBox(options);
    return response === 0;
  };
  return {
    offerDownload: (version) =>
      ask({
        type: 'info',
        title: 'Update available',
        message: `Campaign Desk ${version} is available.`,
        detail: 'Download it now? You keep working while it downloads, and you choose when to restart.',
        buttons: ['Download', 'Not Now'],
        defaultId: 0,
        cancelId: 1,
      }),
    offerRestart: (version) =>
      ask({
        type: 'info',
        title: 'Restart to update',
        message: `Campaign Desk ${version} is ready to install.`,
        detail:
          'Restart now to update? Your drafts, outbox and cached accounts are kept. If you choose Later, the update is installed the next time you quit Campaign Desk.',
        buttons: ['Restart to Update', 'Later'],
        defaultId: 0,
        cancelId: 1,
      }),
    inform: (message) => void ask({ type: 'info', title: 'Updates', message, buttons: ['OK'] }),
  };
}
