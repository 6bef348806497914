import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_CSP } from '../../../src/main/web/csp';
import { CHANNEL_NAMES } from '../../../src/shared/ipc/contract';
import { IPC_EVENT_CHANNEL, ipcChannelId } from '../../../src/shared/ipc/wire';
import { createManualEvents, createTransportTable } from '../../helpers/transport-handlers';
import { MockEvent, MockFrame, MockWebContents, resetElectronMock, app, state, type MockBrowserWindow } from './electron-mock';

vi.mock('electron', async () => (await import('./electron-mock')).electronModule());

const { startShell } = await import('../../../src/main/electron/shell');

let userData: string;
let rendererDir: string;
let demoClosed = 0;
let coreClosed = 0;
let coreOptions: Record<string, unknown> | null = null;
let events = createManualEvents();

beforeEach(() => {
  resetElectronMock();
  userData = mkdtempSync(join(tmpdir(), 'desk-shell-'));
  rendererDir = mkdtempSync(join(tmpdir(), 'desk-renderer-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Campaign Desk</title>');
  writeFileSync(join(tmpdir(), 'desk-shell-secret.txt'), 'outside the renderer');
  state.userData = userData;
  demoClosed = 0;
  coreClosed = 0;
  coreOptions = null;
  events = createManualEvents();
});
afterEach(() => {
  rmSync(userData, { recursive: true, force: true });
  rmSync(rendererDir, { recursive: true, force: true });
});

/** Starts the shell with a transport-test handler table standing in for the core, and a recorded demo starter. */
async function boot(opts: { devServerUrl?: string; coreFails?: boolean } = {}) {
  const table = createTransportTable();
  const shell = startShell({
    createCore: async (o) => {
      coreOptions = o as unknown as Record<string, unknown>;
      if (opts.coreFails) throw new Error('SQLITE_CANTOPEN /secret/path');
      return { handlers: table.handlers, events, close: async () => void (coreClosed += 1) };
    },
    startDemo: async () => ({ url: 'http://127.0.0.1:45678', close: async () => void (demoClosed += 1) }),
    rendererDir,
    preloadPath: '/app/out/preload/index.js',
    devServerUrl: opts.devServerUrl,
    log: () => undefined,
  });
  app.becomeReady();
  await shell.ready;
  return { shell, table, win: state.windows[0] as MockBrowserWindow };
}

function invoke(channel: string, event: unknown, input: unknown) {
  const handler = state.ipcHandlers.get(channel);
  if (!handler) throw new Error(`no handler for ${channel}`);
  return Promise.resolve(handler(event, input));
}

describe('shell (mocked electron module): start-up', () => {
  it('requests the single-instance lock and, when another instance holds it, quits without a window or handlers', async () => {
    state.lockGranted = false;
    const shell = startShell({
      createCore: () => Promise.reject(new Error('must not start')),
      startDemo: () => Promise.reject(new Error('must not start')),
      rendererDir,
      preloadPath: 'x',
    });
    app.becomeReady();
    await shell.ready;
    expect(state.quitCalls).toBe(1);
    expect(state.windows).toHaveLength(0);
    expect(state.ipcHandlers.size).toBe(0);
  });

  it('creates one window with every security setting of the checklist', async () => {
    const { win } = await boot();
    expect(state.windows).toHaveLength(1);
    expect(win.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      disableBlinkFeatures: 'Auxclick',
      preload: '/app/out/preload/index.js',
    });
    expect(state.enableSandboxCalls).toBe(1);
  });

  it('loads the app from the app:// protocol, registered privileged and secure without bypassing CSP', async () => {
    const { win } = await boot();
    expect(win.loadedUrl).toBe('app://desk/index.html');
    expect(state.privilegedSchemes).toEqual([
      {
        scheme: 'app',
        privileges: expect.objectContaining({ standard: true, secure: true, bypassCSP: false, allowServiceWorkers: false }),
      },
    ]);
    expect(state.protocolHandlers.has('app')).toBe(true);
  });

  it('serves every app:// response with the strict CSP and refuses paths outside the renderer', async () => {
    await boot();
    const handle = state.protocolHandlers.get('app')!;
    const page = await handle({ url: 'app://desk/index.html', method: 'GET' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Campaign Desk');
    const csp = page.headers.get('content-security-policy');
    expect(csp).toBe(APP_CSP);
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "object-src 'none'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "connect-src 'self'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    for (const url of [
      'app://desk/../desk-shell-secret.txt',
      'app://desk/%2e%2e/desk-shell-secret.txt',
      'app://desk/..%2Fdesk-shell-secret.txt',
      'app://other/index.html',
    ]) {
      const r = await handle({ url, method: 'GET' });
      expect(r.status, url).toBe(404);
      expect(r.headers.get('content-security-policy')).toBe(APP_CSP);
    }
    expect((await handle({ url: 'app://desk/index.html', method: 'POST' })).status).toBe(405);
  });

  it('passes userData, the electron transport and the demo sandbox URL to the core', async () => {
    await boot();
    expect(coreOptions).toMatchObject({
      dataDir: userData,
      transport: 'electron',
      version: '0.1.0-test',
      demo: { url: 'http://127.0.0.1:45678' },
    });
  });

  it('sets a native menu with the edit roles, and no reload or devtools in production', async () => {
    await boot();
    const template = state.applicationMenu?.template as { label?: string; role?: string; submenu?: { role?: string }[] }[];
    const roles = (label: string) => template.find((m) => m.label === label)?.submenu?.map((i) => i.role) ?? [];
    expect(roles('Edit')).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']));
    expect(roles('View')).not.toContain('reload');
    expect(roles('View')).not.toContain('toggleDevTools');
    expect(template.map((m) => m.label ?? m.role)).toEqual(expect.arrayContaining(['Edit', 'View', 'Window', 'help']));
  });

  it('in development loads the dev server, allows reload, and still sends a CSP header', async () => {
    state.isPackaged = false;
    const { win } = await boot({ devServerUrl: 'http://localhost:5173' });
    expect(win.loadedUrl).toBe('http://localhost:5173');
    const template = state.applicationMenu?.template as { label?: string; submenu?: { role?: string }[] }[];
    expect(template.find((m) => m.label === 'View')?.submenu?.map((i) => i.role)).toContain('reload');
    let headers: Record<string, string[]> = {};
    state.headersReceived!({ responseHeaders: {} }, (r) => (headers = r.responseHeaders));
    expect(headers['Content-Security-Policy']?.[0]).toContain("object-src 'none'");
  });

  it('ignores a dev server URL in a packaged app', async () => {
    state.isPackaged = true;
    const { win } = await boot({ devServerUrl: 'http://localhost:5173' });
    expect(win.loadedUrl).toBe('app://desk/index.html');
  });

  it('shows a plain error and quits when the core cannot start, without leaking the internal error', async () => {
    await boot({ coreFails: true });
    expect(state.windows).toHaveLength(0);
    expect(state.errorBoxes).toHaveLength(1);
    expect(state.errorBoxes[0].content).not.toContain('SQLITE');
    expect(state.quitCalls).toBeGreaterThan(0);
  });
});

describe('shell (mocked electron module): IPC', () => {
  it('registers every contract channel with ipcMain.handle, and nothing else', async () => {
    await boot();
    expect([...state.ipcHandlers.keys()].sort()).toEqual(CHANNEL_NAMES.map(ipcChannelId).sort());
  });

  it('answers the app window main frame on the app origin', async () => {
    const { win } = await boot();
    const r = await invoke(ipcChannelId('accounts.list'), { sender: win.webContents, senderFrame: win.webContents.mainFrame }, {});
    expect(r).toMatchObject({ ok: true });
  });

  it('refuses a subframe, another webContents, and the main frame once it shows a foreign page', async () => {
    const { win, table } = await boot();
    const sub = new MockFrame('app://desk/index.html', win.webContents.mainFrame.processId, 9);
    sub.parent = win.webContents.mainFrame;
    expect(await invoke(ipcChannelId('profiles.list'), { sender: win.webContents, senderFrame: sub }, {})).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    const other = new MockWebContents();
    other.mainFrame.url = 'app://desk/index.html';
    expect(await invoke(ipcChannelId('profiles.list'), { sender: other, senderFrame: other.mainFrame }, {})).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    win.webContents.mainFrame.url = 'https://evil.example/';
    expect(
      await invoke(ipcChannelId('profiles.list'), { sender: win.webContents, senderFrame: win.webContents.mainFrame }, {}),
    ).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(table.calls).toEqual([]);
  });

  it('forwards core events to the window on the one event channel', async () => {
    const { win } = await boot();
    events.emit('data.changed', { profileId: 'p1', accountId: 'acme', what: 'campaigns' });
    expect(win.webContents.sent).toEqual([
      { channel: IPC_EVENT_CHANNEL, args: [{ event: 'data.changed', payload: { profileId: 'p1', accountId: 'acme', what: 'campaigns' } }] },
    ]);
  });
});

describe('shell (mocked electron module): navigation, windows, permissions', () => {
  it('prevents every navigation, opening only http(s) and mailto links in the system browser', async () => {
    const { win } = await boot();
    const navigate = (url: string) => {
      const e = new MockEvent();
      win.webContents.emit('will-navigate', e, url);
      return e.defaultPrevented;
    };
    for (const url of [
      'https://example.com/help',
      'http://example.com/',
      'mailto:support@example.com',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'app://desk/other.html',
      'smb://host/share',
    ]) {
      expect(navigate(url), url).toBe(true);
    }
    await Promise.resolve();
    expect(state.openedExternally).toEqual(['https://example.com/help', 'http://example.com/', 'mailto:support@example.com']);
  });

  it('denies every window.open, handing only safe schemes to the system browser', async () => {
    const { win } = await boot();
    for (const url of ['https://example.com/a', 'file:///etc/passwd', 'vbscript:x', 'https://user:pw@example.com/']) {
      expect(win.webContents.windowOpenHandler!({ url })).toEqual({ action: 'deny' });
    }
    await Promise.resolve();
    expect(state.openedExternally).toEqual(['https://example.com/a']);
  });

  it('prevents redirects and webview attachment', async () => {
    const { win } = await boot();
    const redirect = new MockEvent();
    win.webContents.emit('will-redirect', redirect, 'https://example.com/');
    expect(redirect.defaultPrevented).toBe(true);
    const webview = new MockEvent();
    win.webContents.emit('will-attach-webview', webview, {}, {});
    expect(webview.defaultPrevented).toBe(true);
  });

  it('hardens every webContents created later, not only the main window', async () => {
    await boot();
    const late = new MockWebContents();
    app.emit('web-contents-created', new MockEvent(), late);
    expect(late.has('will-navigate')).toBe(true);
    expect(late.has('will-attach-webview')).toBe(true);
    expect(late.windowOpenHandler?.({ url: 'https://example.com' })).toEqual({ action: 'deny' });
  });

  it('denies every permission request and check', async () => {
    await boot();
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      let granted: boolean | undefined;
      state.permissionRequestHandler!({}, permission, (g) => (granted = g));
      expect(granted, permission).toBe(false);
      expect(state.permissionCheckHandler!({}, permission, 'app://desk', {})).toBe(false);
    }
    expect(state.devicePermissionHandler!({})).toBe(false);
  });
});

describe('shell (mocked electron module): window state and quitting', () => {
  it('remembers size and position in userData and restores them on the next start', async () => {
    const first = await boot();
    first.win.bounds = { x: 200, y: 150, width: 1100, height: 700 };
    first.win.emit('close');
    const saved = JSON.parse(readFileSync(join(userData, 'window-state.json'), 'utf8'));
    expect(saved).toEqual({ x: 200, y: 150, width: 1100, height: 700, maximized: false });

    resetElectronMock();
    state.userData = userData;
    const second = await boot();
    expect(second.win.options).toMatchObject({ x: 200, y: 150, width: 1100, height: 700 });
  });

  it('drops a remembered position that is off every display, and survives a damaged state file', async () => {
    writeFileSync(join(userData, 'window-state.json'), JSON.stringify({ x: 5000, y: 3000, width: 1000, height: 700 }));
    const { win } = await boot();
    expect(win.options.x).toBeUndefined();
    expect(win.options.width).toBe(1000);

    resetElectronMock();
    state.userData = userData;
    writeFileSync(join(userData, 'window-state.json'), '{not json');
    const again = await boot();
    expect(again.win.options).toMatchObject({ width: 1280, height: 800 });
  });

  it('closes the core and the demo sandbox before quitting', async () => {
    await boot();
    const e = new MockEvent();
    app.emit('before-quit', e);
    expect(e.defaultPrevented).toBe(true);
    await vi.waitFor(() => expect(state.quitCalls).toBe(1), { timeout: 30_000 });
    expect(coreClosed).toBe(1);
    expect(demoClosed).toBe(1);
    expect(state.ipcHandlers.size).toBe(0);
  });
});
