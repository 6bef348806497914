// Electron lifecycle and the app window. Everything that decides a security setting lives in the
// small modules beside this one (security, app-protocol, ipc/*) so each can be checked on its own;
// this file only puts them in order. The core and the demo sandbox are passed in by index.ts.
import { app, BrowserWindow, dialog, ipcMain, protocol, screen, session, shell } from 'electron';
import { join } from 'node:path';
import type { DeskEventSource, DeskHandlers } from '../../shared/ipc/contract';
import { DeskError } from '../../shared/errors';
import { APP_START_URL, createAppUrlCheck } from '../web/app-origin';
import { registerAppScheme, serveAppProtocol } from './app-protocol';
import { buildCsp } from '../web/csp';
import { forwardEvents } from './ipc-events';
import { registerIpc } from './ipc-register';
import { createSenderCheck } from './ipc-sender';
import { hardenSession, hardenWebContents } from './security';
import { notAWebAddress, openExternalSafely } from '../web/external-urls';
import { makePrivateDataDir } from '../app/private-data';
import { startUpdates } from './updates';
import { DEFAULT_WINDOW_STATE, fitToDisplays, readWindowState, writeWindowState, type WindowState } from './window-state';

/** What the shell needs of the core; createDeskCore (core.ts) satisfies it. */
export interface ShellCore {
  handlers: DeskHandlers;
  events: DeskEventSource;
  close(): Promise<void>;
}
export interface ShellCoreOptions {
  dataDir: string;
  transport: 'electron';
  version: string;
  demo?: { url: string };
  openExternal: (url: string) => Promise<void>;
  /** The person chose to move a damaged or foreign data file aside and start with an empty one. */
  startFresh?: boolean;
}
export interface ShellDeps {
  createCore(opts: ShellCoreOptions): Promise<ShellCore>;
  /** The built-in demo service; it keeps its world in the data folder across restarts. */
  startDemo(opts: { dataDir: string }): Promise<{ url: string; close(): Promise<void> }>;
  /** The built renderer (out/renderer), served on app://desk/. */
  rendererDir: string;
  preloadPath: string;
  /** electron-vite's dev server, in development only. */
  devServerUrl?: string;
  log?: (message: string) => void;
}
export interface Shell {
  /** Settles once the window is created (or start-up failed and the app is quitting). */
  ready: Promise<void>;
  getWindow(): BrowserWindow | null;
}

const WINDOW_STATE_FILE = 'window-state.json';
/** Said when the data could not be opened for a reason the core did not put in words. */
const DATA_NOT_OPENED = 'The local data could not be opened. Restart Campaign Desk; if it keeps failing, report it.';

export function startShell(deps: ShellDeps): Shell {
  const log = deps.log ?? ((m: string) => console.error(m));
  let window: BrowserWindow | null = null;
  const getWindow = () => (window && !window.isDestroyed() ? window : null);

  // A second copy would open the same SQLite files and keychain entries: hand over to the first.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return { ready: Promise.resolve(), getWindow };
  }
  const devServerUrl = app.isPackaged ? undefined : deps.devServerUrl;
  const isAppUrl = createAppUrlCheck(devServerUrl);
  const openExternal = (url: string) => shell.openExternal(url);

  app.enableSandbox();
  registerAppScheme(protocol);

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, { openExternal, log }));
  app.on('second-instance', () => {
    const w = getWindow();
    if (!w) return;
    if (w.isMinimized()) w.restore();
    w.focus();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  let core: ShellCore | null = null;
  let demo: { close(): Promise<void> } | null = null;
  const cleanups: (() => void)[] = [];
  let closed = false;
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    void closeAll().finally(() => {
      closed = true;
      app.quit();
    });
  });
  async function closeAll(): Promise<void> {
    for (const off of cleanups.splice(0)) off();
    await core?.close().catch(() => log('[desk] the core did not close cleanly'));
    await demo?.close().catch(() => log('[desk] the demo sandbox did not close cleanly'));
    core = null;
    demo = null;
  }

  function createWindow(): BrowserWindow {
    const stateFile = join(app.getPath('userData'), WINDOW_STATE_FILE);
    const workAreas = screen.getAllDisplays().map((d) => d.workArea);
    const state = fitToDisplays(readWindowState(stateFile), workAreas);
    const w = new BrowserWindow({
      ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
      width: state.width,
      height: state.height,
      minWidth: 800,
      minHeight: 500,
      show: false,
      title: 'Campaign Desk',
      // Written out here, not built elsewhere, so Electronegativity can check it statically too.
      webPreferences: {
        preload: deps.preloadPath,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
        experimentalFeatures: false,
        navigateOnDragDrop: false,
        spellcheck: false,
        // Middle-click would otherwise try to open links in a new window (which is denied anyway).
        disableBlinkFeatures: 'Auxclick',
      },
    });
    if (state.maximized) w.maximize();
    w.once('ready-to-show', () => w.show());
    w.on('close', () => {
      const bounds = w.getNormalBounds();
      const next: WindowState = { ...DEFAULT_WINDOW_STATE, ...bounds, maximized: w.isMaximized() };
      try {
        writeWindowState(stateFile, next);
      } catch {
        log('[desk] could not remember the window position');
      }
    });
    w.on('closed', () => {
      if (window === w) window = null;
    });
    void w.loadURL(devServerUrl ?? APP_START_URL);
    return w;
  }

  app.on('activate', () => {
    if (!getWindow() && core) window = createWindow();
  });

  const ready = app.whenReady().then(async () => {
    // Before the window writes its storage (the draft journal) there: owner-only, like the database.
    // A folder that cannot be made or closed is said in words by createCore below, which tries again.
    try {
      makePrivateDataDir(app.getPath('userData'));
    } catch {
      // (see above)
    }
    hardenSession(session.defaultSession);
    if (devServerUrl) {
      const devCsp = buildCsp({ devServer: true, connectSrc: [new URL(devServerUrl).origin.replace(/^http/, 'ws')] });
      session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
        callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [devCsp] } });
      });
    } else {
      serveAppProtocol(protocol, deps.rendererDir);
    }
    // The menu, with the update entries (src/main/electron/updates: off until the person turns them on).
    const updates = startUpdates({
      menu: { appName: app.getName(), isMac: process.platform === 'darwin', isDev: Boolean(devServerUrl) },
      getWindow,
      beforeRestart: () => closeAll().finally(() => void (closed = true)),
      log,
    });
    cleanups.push(() => updates.stop());

    let demoUrl: string | undefined;
    try {
      const started = await deps.startDemo({ dataDir: app.getPath('userData') });
      demo = started;
      demoUrl = started.url;
    } catch {
      log('[desk] the built-in sandbox did not start; continuing without the demo connection');
    }
    const coreOptions: ShellCoreOptions = {
      dataDir: app.getPath('userData'),
      transport: 'electron',
      version: app.getVersion(),
      ...(demoUrl ? { demo: { url: demoUrl } } : {}),
      openExternal: async (url) => {
        if (!(await openExternalSafely(openExternal, url))) {
          throw notAWebAddress();
        }
      },
    };
    try {
      core = await deps.createCore(coreOptions);
    } catch (err) {
      // A damaged or foreign data file: the person decides whether it is moved aside (kept) for a fresh start.
      const canStartFresh = err instanceof DeskError && err.details?.canStartFresh === true;
      const choice = canStartFresh
        ? await dialog.showMessageBox({
            type: 'error',
            title: 'Campaign Desk could not start',
            message: 'Campaign Desk could not open its data',
            detail: err.message,
            buttons: ['Start fresh', 'Quit'],
            defaultId: 1,
            cancelId: 1,
          })
        : null;
      if (choice?.response === 0) {
        core = await deps.createCore({ ...coreOptions, startFresh: true }).catch((again: unknown) => {
          dialog.showErrorBox('Campaign Desk could not start', again instanceof DeskError ? again.message : DATA_NOT_OPENED);
          return null;
        });
      } else if (!canStartFresh) {
        const message = err instanceof DeskError ? err.message : DATA_NOT_OPENED;
        dialog.showErrorBox('Campaign Desk could not start', message);
      }
      if (!core) {
        app.quit();
        return;
      }
    }
    const getAppContents = () => getWindow()?.webContents ?? null;
    cleanups.push(registerIpc({ ipcMain, handlers: core.handlers, isTrustedSender: createSenderCheck({ getAppContents, isAppUrl }), log }));
    cleanups.push(forwardEvents(core.events, getAppContents));
    window = createWindow();
  });
  return { ready, getWindow };
}
