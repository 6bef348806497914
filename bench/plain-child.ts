// The plain client's fetch (bench/refresh.ts, plainFetch) in a process of its own, so that the
// bench process's peak memory is the app's alone: at 1,000,000 campaigns the plain client's one
// string and one JSON.parse of the whole listing take the process to ~2 GB.
// Run by bench/scale.ts: tsx bench/plain-child.ts <url> <account>; prints one JSON line.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { plainFetch } from './refresh';

export interface PlainRun {
  ms: number;
  firstByteMs: number;
  rows: number;
  bytes: number;
  peakRssMb: number;
}

/** Runs the plain client's fetch in a child process and resolves with what it measured. */
export function plainFetchInChild(url: string, account: string): Promise<PlainRun> {
  const root = join(__dirname, '..');
  const child = spawn(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), join(__dirname, 'plain-child.ts'), url, account], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) return reject(new Error(`the plain client exited with ${code}: ${out}`));
      resolve(JSON.parse(line) as PlainRun);
    });
  });
}

if (require.main === module) {
  const [url, account] = process.argv.slice(2);
  plainFetch(url, account).then(
    (r) => console.log(JSON.stringify({ ...r, peakRssMb: (process.resourceUsage().maxRSS * 1024) / 2 ** 20 } satisfies PlainRun)),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
