// The sandbox as a child process for the benchmarks: the bench and the service it measures must
// not share one event loop, or the service's work would count against the app's.
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');

/** Starts `npm run sandbox` with these arguments on a free port; resolves with its address once it listens. */
export async function spawnSandbox(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; startWithinMs?: number } = {},
): Promise<{ url: string; child: ChildProcess }> {
  const within = opts.startWithinMs ?? 30_000;
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'src/sandbox/cli.ts', '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...opts.env },
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`sandbox did not start within ${within / 1000} s`)), within);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^Sandbox listening on (\S+)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  return { url, child };
}
