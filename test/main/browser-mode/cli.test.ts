import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rawRequest } from './http-client';

const ROOT = resolve(__dirname, '../../..');
const LINE = /^Campaign Desk \(browser mode\) at (http:\/\/127\.0\.0\.1:(\d+)\/#token=([A-Za-z0-9_-]{43}))$/;
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.pid) {
      // The child leads its own process group (detached): end it and whatever it started.
      try {
        process.kill(-c.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await new Promise((r) => c.once('exit', r));
    }
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Starts a command and collects stdout until `lines` lines arrived (or it exits). */
function start(args: string[], lines: number): Promise<{ child: ChildProcess; out: string[]; err: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'desk-cli-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, CAMPAIGN_DESK_DATA_DIR: dataDir, XDG_CONFIG_HOME: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const out: string[] = [];
  let err = '';
  let buf = '';
  return new Promise((resolvePromise) => {
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const parts = buf.split('\n');
      buf = parts.pop() ?? '';
      out.push(...parts);
      if (out.length >= lines) resolvePromise({ child, out, err });
    });
    child.once('exit', () => resolvePromise({ child, out, err }));
  });
}

/** SIGTERM to the child's process group, then its exit and the end of its output. */
async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  const drained = new Promise((r) => child.stdout!.once('close', r));
  process.kill(-child.pid!, 'SIGTERM');
  await Promise.all([exited, drained]);
}

const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
// The CLI builds out/renderer itself when it is missing (a few seconds), so these need no build step.
const electronInstalled = (() => {
  try {
    const p = createRequire(join(ROOT, 'package.json'))('electron') as unknown;
    return typeof p === 'string' && existsSync(p);
  } catch {
    return false;
  }
})();

describe('npm run start:browser (the CLI, as a real process)', () => {
  it('prints exactly one line with the address, which serves the page and refuses the API without the token', async () => {
    const { child, out, err } = await start([tsx, 'src/main/browser-mode/cli.ts'], 1);
    expect(err).not.toMatch(/secret|token=/i);
    expect(out[0]).toMatch(LINE);
    const [, , port] = LINE.exec(out[0])!;
    expect((await rawRequest(Number(port), { path: '/' })).status).toBe(200);
    const api = await rawRequest(Number(port), {
      method: 'POST',
      path: '/api/app.info',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(api.status).toBe(401);
    // Everything it ever printed, up to its exit: still the one line.
    await stop(child);
    expect(out).toHaveLength(1);
  });

  it('refuses an unknown option with a message and a non-zero exit', async () => {
    const { child, err } = await start([tsx, 'src/main/browser-mode/cli.ts', '--bogus'], 99);
    expect(child.exitCode ?? (await new Promise((r) => child.once('exit', r)))).not.toBe(0);
    expect(err).toContain('Unknown option --bogus');
  });
});

describe('npm start where the Electron binary is missing', () => {
  it.skipIf(electronInstalled)('says so in one line, then starts browser mode (skipped where Electron is installed)', async () => {
    const { out } = await start(['scripts/start.mjs'], 2);
    expect(out[0]).toMatch(/Electron's binary is missing.*browser mode/);
    expect(out[1]).toMatch(LINE);
  });
});
