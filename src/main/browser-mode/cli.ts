// `npm run start:browser [-- --port N] [-- --data-dir DIR]`: the app in a browser, for machines
// where Electron cannot start. Builds the renderer if it is missing, then prints one line: the
// address to open (with the per-run token in its fragment).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DeskError } from '../../shared/errors';
import { defaultBrowserDataDir } from './data-dir';
import { startBrowserModeOrExplain } from './start';

const ROOT = resolve(__dirname, '../../..');
const STATIC_DIR = join(ROOT, 'out', 'renderer');

function parseArgs(argv: string[]): { port?: number; dataDir?: string; help: boolean } {
  const out: { port?: number; dataDir?: string; help: boolean } = { help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') out.help = true;
    else if (a === '--port') out.port = Number(argv[++i]);
    else if (a.startsWith('--port=')) out.port = Number(a.slice(7));
    else if (a === '--data-dir') out.dataDir = argv[++i];
    else if (a.startsWith('--data-dir=')) out.dataDir = a.slice(11);
    else throw new Error(`Unknown option ${a}. Use --port N and --data-dir DIR.`);
  }
  if (out.port !== undefined && (!Number.isInteger(out.port) || out.port < 0 || out.port > 65535)) {
    throw new Error('--port must be a number between 0 and 65535.');
  }
  return out;
}

function ensureRendererBuilt(): void {
  if (existsSync(join(STATIC_DIR, 'index.html'))) return;
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', '--config', 'vite.renderer.config.mts', '--logLevel', 'error'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
  if (r.status !== 0 || !existsSync(join(STATIC_DIR, 'index.html'))) {
    throw new Error('Building the page failed (npx vite build --config vite.renderer.config.mts).');
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.help) {
    console.log('Usage: npm run start:browser -- [--port N] [--data-dir DIR]');
    return;
  }
  ensureRendererBuilt();
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const start = await startBrowserModeOrExplain({
    dataDir: args.dataDir ?? defaultBrowserDataDir(),
    staticDir: STATIC_DIR,
    version,
    port: args.port,
  });
  if (start.kind === 'running') {
    console.log(`Campaign Desk (browser mode) at ${start.mode.server.openUrl}`);
  } else {
    console.log(`Campaign Desk could not open its data: ${start.message}`);
    console.log(`Open ${start.page.openUrl} to read this and choose what to do.`);
    void start.started.then((mode) => console.log(`Campaign Desk (browser mode) started fresh at ${mode.server.openUrl}`));
  }
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    // A signal handler has no caller to await it: the process exits once the close settles, either way.
    void (start.kind === 'running' ? start.mode.close() : start.close()).finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** A line a person can act on; system errors show their code, never a stack or an internal path. */
function describe(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE') return 'that port is already in use; pick another with --port.';
  if (err instanceof DeskError) return err.message;
  if (err instanceof Error && code === undefined) return err.message;
  return typeof code === 'string' ? `system error ${code}.` : 'an unexpected error.';
}

main().catch((err: unknown) => {
  console.error(`Campaign Desk could not start: ${describe(err)}`);
  process.exit(1);
});
