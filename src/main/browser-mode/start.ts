// Browser mode end to end: the built-in sandbox, the same core as the desktop app (transport
// 'browser'), and the HTTP/WebSocket server in front of it. Used by the CLI and the UI tests.
import { createDeskCore } from '../app/create-core';
import type { ManualClock } from '../clock/clock';
import { startDemoSandbox, type DemoSandbox } from '../app/demo-sandbox';
import { openExternalFromNode } from './open-external';
import { DeskError } from '../../shared/errors';
import { startProblemPage, type ProblemPage } from './problem-page';
import { startBrowserServer, type BrowserServer } from './server';

export interface BrowserModeOptions {
  dataDir: string;
  /** The built renderer (out/renderer). */
  staticDir: string;
  version: string;
  port?: number;
  /** false: no built-in sandbox and no demo connection. */
  demo?: boolean;
  log?: (message: string) => void;
  /** How a sign-in page is opened outside the app (default: the platform's opener). */
  openExternal?: (url: string) => Promise<void>;
  /** Move a damaged or foreign data file aside (kept) and start with an empty one. */
  startFresh?: boolean;
  /**
   * UI tests only: one manual clock for the core and the demo sandbox, so a test moves time with
   * the sandbox's control API (POST /_sandbox/clock) instead of waiting minutes for a grace period.
   */
  clock?: ManualClock;
}

export interface BrowserMode {
  server: BrowserServer;
  demoUrl: string | null;
  /** The demo sandbox's control secret, for the tests that drive it (never sent to the window). */
  demoControlSecret: string | null;
  close(): Promise<void>;
}

export async function startBrowserMode(opts: BrowserModeOptions): Promise<BrowserMode> {
  const log = opts.log ?? ((m: string) => console.error(m));
  let demo: DemoSandbox | null = null;
  if (opts.demo !== false) {
    try {
      demo = await startDemoSandbox({ dataDir: opts.dataDir, log, ...(opts.clock ? { clock: opts.clock } : {}) });
    } catch {
      log('Campaign Desk: the built-in sandbox did not start; continuing without the demo connection.');
    }
  }
  let core: Awaited<ReturnType<typeof createDeskCore>>;
  try {
    core = await createDeskCore({
      dataDir: opts.dataDir,
      transport: 'browser',
      version: opts.version,
      ...(demo ? { demo: { url: demo.url } } : {}),
      openExternal: opts.openExternal ?? ((url: string) => openExternalFromNode(url)),
      ...(opts.startFresh ? { startFresh: true } : {}),
      ...(opts.clock ? { clock: opts.clock } : {}),
    });
  } catch (err) {
    await demo?.close();
    throw err;
  }
  let server: BrowserServer;
  try {
    server = await startBrowserServer({ handlers: core.handlers, events: core.events, staticDir: opts.staticDir, port: opts.port, log });
  } catch (err) {
    await core.close();
    await demo?.close();
    throw err;
  }
  return {
    server,
    demoUrl: demo?.url ?? null,
    demoControlSecret: demo?.controlSecret ?? null,
    close: async () => {
      await server.close();
      await core.close();
      await demo?.close();
    },
  };
}

/** Either the app is running, or a page tells the person why the data file could not be opened. */
export type BrowserStart =
  | { kind: 'running'; mode: BrowserMode }
  | {
      kind: 'data_problem';
      message: string;
      page: ProblemPage;
      /** Settles with the running app once the person chose "Start fresh" on the page. */
      started: Promise<BrowserMode>;
      close(): Promise<void>;
    };

export async function startBrowserModeOrExplain(opts: BrowserModeOptions): Promise<BrowserStart> {
  try {
    return { kind: 'running', mode: await startBrowserMode(opts) };
  } catch (err) {
    if (!(err instanceof DeskError) || err.details?.dataFile === undefined) throw err;
    let resolveStarted: (mode: BrowserMode) => void = () => undefined;
    const started = new Promise<BrowserMode>((resolve) => (resolveStarted = resolve));
    let mode: BrowserMode | null = null;
    const page = await startProblemPage({
      message: err.message,
      canStartFresh: err.details.canStartFresh === true,
      ...(opts.port !== undefined ? { port: opts.port } : {}),
      startFresh: async () => {
        // The app gets its own port: this page's may still be answering the click.
        mode = await startBrowserMode({ ...opts, port: 0, startFresh: true });
        resolveStarted(mode);
        return mode.server.openUrl;
      },
    });
    return {
      kind: 'data_problem',
      message: err.message,
      page,
      started,
      close: async () => {
        await page.close();
        await (mode as BrowserMode | null)?.close();
      },
    };
  }
}
