// A recording stand-in for the `electron` module, for the shell tests only: the Electron binary
// cannot run on this machine, so vi.mock('electron') swaps this in. It records what the shell asks
// of Electron (window options, handlers, menus) so each security setting can be asserted.
type Fn = (...args: never[]) => unknown;

export class Emitter {
  readonly listeners = new Map<string, Fn[]>();
  on(event: string, fn: Fn): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), fn]);
    return this;
  }
  once(event: string, fn: Fn): this {
    return this.on(event, fn);
  }
  removeListener(event: string, fn: Fn): this {
    this.listeners.set(
      event,
      (this.listeners.get(event) ?? []).filter((f) => f !== fn),
    );
    return this;
  }
  emit(event: string, ...args: unknown[]): void {
    for (const fn of this.listeners.get(event) ?? []) (fn as (...a: unknown[]) => unknown)(...args);
  }
  has(event: string): boolean {
    return (this.listeners.get(event) ?? []).length > 0;
  }
}

let nextId = 1;

export class MockFrame {
  parent: MockFrame | null = null;
  constructor(
    public url: string,
    public processId: number,
    public routingId: number,
  ) {}
}

export class MockWebContents extends Emitter {
  readonly id = nextId++;
  readonly mainFrame = new MockFrame('about:blank', 100 + this.id, 1);
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  readonly sent: { channel: string; args: unknown[] }[] = [];
  destroyed = false;
  setWindowOpenHandler(fn: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = fn;
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

export class MockEvent {
  defaultPrevented = false;
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

export interface ElectronMockState {
  lockGranted: boolean;
  isPackaged: boolean;
  userData: string;
  quitCalls: number;
  enableSandboxCalls: number;
  windows: MockBrowserWindow[];
  privilegedSchemes: unknown[];
  protocolHandlers: Map<string, (req: { url: string; method: string }) => Promise<Response>>;
  ipcHandlers: Map<string, (event: unknown, ...args: unknown[]) => unknown>;
  applicationMenu: { template: unknown[] } | null;
  permissionRequestHandler: ((wc: unknown, permission: string, cb: (granted: boolean) => void) => void) | null;
  permissionCheckHandler: ((...args: unknown[]) => boolean) | null;
  devicePermissionHandler: ((...args: unknown[]) => boolean) | null;
  headersReceived:
    | ((details: { responseHeaders?: Record<string, string[]> }, cb: (r: { responseHeaders: Record<string, string[]> }) => void) => void)
    | null;
  openedExternally: string[];
  errorBoxes: { title: string; content: string }[];
  displays: { workArea: { x: number; y: number; width: number; height: number } }[];
}

export const state: ElectronMockState = freshState();

function freshState(): ElectronMockState {
  return {
    lockGranted: true,
    isPackaged: true,
    userData: '/nonexistent',
    quitCalls: 0,
    enableSandboxCalls: 0,
    windows: [],
    privilegedSchemes: [],
    protocolHandlers: new Map(),
    ipcHandlers: new Map(),
    applicationMenu: null,
    permissionRequestHandler: null,
    permissionCheckHandler: null,
    devicePermissionHandler: null,
    headersReceived: null,
    openedExternally: [],
    errorBoxes: [],
    displays: [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
  };
}

class MockApp extends Emitter {
  private readyResolve: (() => void) | null = null;
  private readyPromise = new Promise<void>((r) => (this.readyResolve = r));
  reset() {
    this.listeners.clear();
    this.readyPromise = new Promise<void>((r) => (this.readyResolve = r));
  }
  get isPackaged() {
    return state.isPackaged;
  }
  requestSingleInstanceLock() {
    return state.lockGranted;
  }
  quit() {
    state.quitCalls += 1;
    const event = new MockEvent();
    this.emit('before-quit', event);
  }
  enableSandbox() {
    state.enableSandboxCalls += 1;
  }
  whenReady() {
    return this.readyPromise;
  }
  /** The test decides when the app becomes ready. */
  becomeReady() {
    this.readyResolve?.();
  }
  getPath(name: string) {
    if (name !== 'userData') throw new Error(`unexpected getPath(${name})`);
    return state.userData;
  }
  getName() {
    return 'Campaign Desk';
  }
  getVersion() {
    return '0.1.0-test';
  }
}

export const app = new MockApp();

export class MockBrowserWindow extends Emitter {
  readonly webContents = new MockWebContents();
  loadedUrl: string | null = null;
  destroyed = false;
  maximized = false;
  shown = false;
  bounds: { x: number; y: number; width: number; height: number };
  constructor(readonly options: Record<string, unknown> & { webPreferences: Record<string, unknown> }) {
    super();
    this.bounds = {
      x: (options.x as number | undefined) ?? 100,
      y: (options.y as number | undefined) ?? 80,
      width: options.width as number,
      height: options.height as number,
    };
    state.windows.push(this);
    app.emit('web-contents-created', new MockEvent(), this.webContents);
  }
  loadURL(url: string) {
    this.loadedUrl = url;
    this.webContents.mainFrame.url = url;
    return Promise.resolve();
  }
  maximize() {
    this.maximized = true;
  }
  isMaximized() {
    return this.maximized;
  }
  isMinimized() {
    return false;
  }
  restore() {}
  focus() {}
  show() {
    this.shown = true;
  }
  isDestroyed() {
    return this.destroyed;
  }
  getNormalBounds() {
    return this.bounds;
  }
}

/** Resets everything between tests; the shell module itself is re-imported by each test. */
export function resetElectronMock(): void {
  Object.assign(state, freshState());
  app.reset();
}

export function electronModule() {
  return {
    app,
    BrowserWindow: MockBrowserWindow,
    dialog: {
      showErrorBox: (title: string, content: string) => state.errorBoxes.push({ title, content }),
    },
    ipcMain: {
      handle: (channel: string, fn: (event: unknown, ...args: unknown[]) => unknown) => {
        if (state.ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
        state.ipcHandlers.set(channel, fn);
      },
      removeHandler: (channel: string) => state.ipcHandlers.delete(channel),
    },
    Menu: {
      buildFromTemplate: (template: unknown[]) => ({ template }),
      setApplicationMenu: (menu: { template: unknown[] } | null) => {
        state.applicationMenu = menu;
      },
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => state.privilegedSchemes.push(...schemes),
      handle: (scheme: string, fn: (req: { url: string; method: string }) => Promise<Response>) => state.protocolHandlers.set(scheme, fn),
    },
    screen: { getAllDisplays: () => state.displays },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (fn: ElectronMockState['permissionRequestHandler']) => {
          state.permissionRequestHandler = fn;
        },
        setPermissionCheckHandler: (fn: ElectronMockState['permissionCheckHandler']) => {
          state.permissionCheckHandler = fn;
        },
        setDevicePermissionHandler: (fn: ElectronMockState['devicePermissionHandler']) => {
          state.devicePermissionHandler = fn;
        },
        webRequest: {
          onHeadersReceived: (fn: ElectronMockState['headersReceived']) => {
            state.headersReceived = fn;
          },
        },
      },
    },
    shell: {
      openExternal: (url: string) => {
        state.openedExternally.push(url);
        return Promise.resolve();
      },
    },
  };
}
