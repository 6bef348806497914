// Loopback load on the sandbox: token-authenticated campaign lists of an unlimited account (so no
// 429s), over a keep-alive undici Pool. The sandbox runs as a child process (the CLI, as
// `npm run sandbox` runs it) so that the load generator does not share its event loop.
// Run: npx tsx bench/sandbox-load.ts [requests] [concurrency]
import type { ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { spawnSandbox } from './sandbox-child';

export interface SandboxLoadOptions {
  /** Measured requests (default 20,000). */
  requests?: number;
  /** Requests in flight at once, one keep-alive connection each (default 32). */
  concurrency?: number;
  /** Unmeasured requests first, so the JIT and the connections are warm (default 1,000). */
  warmup?: number;
  /** Account to list; it must be unlimited in the demo fixtures (default oldtimerltd). */
  account?: string;
  /** Use a sandbox that is already running instead of spawning one. */
  url?: string;
}

export interface SandboxLoadResult {
  name: string;
  requests: number;
  seconds: number;
  rps: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  errors: number;
}

async function stopSandbox(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function clientToken(pool: Pool): Promise<string> {
  const res = await pool.request({
    path: '/authentication/oauth/token',
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret',
  });
  const body = (await res.body.json()) as { access_token?: string };
  if (res.statusCode !== 200 || !body.access_token) throw new Error(`token request failed with ${res.statusCode}`);
  return body.access_token;
}

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const round2 = (x: number): number => Math.round(x * 100) / 100;

export async function runSandboxLoad(opts: SandboxLoadOptions = {}): Promise<SandboxLoadResult> {
  const requests = opts.requests ?? 20_000;
  const concurrency = opts.concurrency ?? 32;
  const warmup = opts.warmup ?? 1_000;
  const account = opts.account ?? 'oldtimerltd';
  const spawned = opts.url === undefined ? await spawnSandbox([]) : undefined;
  const url = opts.url ?? spawned!.url;
  const pool = new Pool(url, { connections: concurrency, pipelining: 1, keepAliveTimeout: 30_000 });
  try {
    const token = await clientToken(pool);
    const path = `/core/api/1.0/${account}/campaigns?fetch_level=RAP&page=1&page_size=50`;
    const headers = { authorization: `Bearer ${token}` };
    let errors = 0;
    let limitedHeaders = 0;

    const one = async (latencies?: number[]) => {
      const started = performance.now();
      try {
        const res = await pool.request({ path, method: 'GET', headers });
        await res.body.text();
        if (res.statusCode !== 200) errors++;
        if (res.headers.ratelimit !== undefined) limitedHeaders++;
      } catch {
        errors++;
      }
      latencies?.push(performance.now() - started);
    };
    const run = async (total: number, latencies?: number[]) => {
      let next = 0;
      const worker = async () => {
        while (next < total) {
          next++;
          await one(latencies);
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
    };

    await run(warmup);
    errors = 0;
    const latencies: number[] = [];
    const started = performance.now();
    await run(requests, latencies);
    const seconds = (performance.now() - started) / 1000;
    if (limitedHeaders > 0) throw new Error(`${account} is rate limited; the benchmark needs an unlimited account`);
    latencies.sort((a, b) => a - b);
    return {
      name: `sandbox list campaigns (c=${concurrency})`,
      requests,
      seconds: round2(seconds),
      rps: Math.round(requests / seconds),
      p50_ms: round2(percentile(latencies, 50)),
      p95_ms: round2(percentile(latencies, 95)),
      p99_ms: round2(percentile(latencies, 99)),
      errors,
    };
  } finally {
    await pool.close();
    if (spawned) await stopSandbox(spawned.child);
  }
}

export function markdownRow(r: SandboxLoadResult): string {
  return `| ${r.name} | ${r.requests} | ${r.seconds} | ${r.rps} | ${r.p50_ms} | ${r.p95_ms} | ${r.p99_ms} | ${r.errors} |`;
}

export const MARKDOWN_HEADER =
  '| benchmark | requests | seconds | req/s | p50 ms | p95 ms | p99 ms | errors |\n|---|---|---|---|---|---|---|---|';

if (process.argv[1] && /bench[\\/]sandbox-load\.ts$/.test(process.argv[1])) {
  const [requests, concurrency] = process.argv.slice(2).map(Number);
  runSandboxLoad({ requests: requests || undefined, concurrency: concurrency || undefined }).then(
    (r) => {
      console.log(MARKDOWN_HEADER);
      console.log(markdownRow(r));
      if (r.errors > 0) process.exitCode = 1;
    },
    (e: unknown) => {
      console.error('sandbox-load failed:', e);
      process.exitCode = 1;
    },
  );
}
