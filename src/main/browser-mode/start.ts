// Browser mode end to end: the built-in sandbox, the same core as the desktop app (transport
// 'browser'), and the HTTP/WebSocket server in front of it. Used by the CLI and the UI tests.
import { createDeskCore } from '../core';
import { startDemoSandbox, type DemoSandbox } from '../demo-sandbox';
import { openExternalFromNode } from './open-external';
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
}

export interface BrowserMode {
  server: BrowserServer;
  demoUrl: string | null;
  close(): Promise<void>;
}

export async function startBrowserMode(opts: BrowserModeOptions): Promise<BrowserMode> {
  const log = opts.log ?? ((m: string) => console.error(m));
  let demo: DemoSandbox | null = null;
  if (opts.demo !== false) {
    try {
      demo = await startDemoSandbox();
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
    close: async () => {
      await server.close();
      await core.close();
      await demo?.close();
    },
  };
}
