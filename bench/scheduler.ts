// Scheduler benchmark: the same workload (campaign creates and list pages for three limited
// accounts, queued at once) sent by (a) Campaign Desk's scheduler, (b) a naive client that fires
// everything and retries after Retry-After, (c) bottleneck configured with the documented tiers.
// The sandbox runs in a child process with tiers and windows that differ from the documentation
// (static configuration is wrong by design) and short windows so that a run takes about a minute.
// Run: npx tsx bench/scheduler.ts
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Bottleneck from 'bottleneck';
import { systemClock } from '../src/main/ratelimit/clock';
import { HttpTransport, type HttpResponse } from '../src/main/service/http-transport';
import { requestClientCredentialsToken } from '../src/main/service/oauth';
import { ServiceClient } from '../src/main/service/service-client';

const WINDOWS_S = { second: 1, minute: 10, hour: 60 } as const;
const WINDOW_NAMES = ['second', 'minute', 'hour'] as const;
/** The fixture's tiers 2 (create) and 4 (list); the documented ones are 10/60/600 and 2/15/150. */
const CREATE_QUOTAS = [4, 16, 48] as const;
const LIST_QUOTAS = [3, 15, 45] as const;
const CREATES_PER_ACCOUNT = 64;
const PAGES_PER_ACCOUNT = 40;
const CLIENT_ID = 'bench-client';
const SECRET = 'bench-secret-5d1e';
const RUNS = [
  { name: '(a) Campaign Desk scheduler', accounts: ['benchaa', 'benchab', 'benchac'], run: runOurs },
  { name: '(b) naive, retry after Retry-After', accounts: ['benchba', 'benchbb', 'benchbc'], run: runNaive },
  { name: '(c) bottleneck, documented tiers', accounts: ['benchca', 'benchcb', 'benchcc'], run: runBottleneck },
] as const;

export interface SchedulerBenchRow {
  client: string;
  requests: number;
  wallMs: number;
  minimumMs: number;
  /** wall time / theoretical minimum */
  ratio: number;
  rateLimited: number;
  /** Most admitted requests seen in any window, per budget: "second 4/4, minute 16/16, hour 48/48". */
  maxInWindow: { create: string; list: string };
}

interface Job {
  account: string;
  kind: 'create' | 'list';
  index: number;
}

interface LogEntry {
  seq: number;
  time: number;
  account: string | null;
  group: string | null;
  status: number | null;
}

const repoRoot = typeof __dirname === 'string' ? resolve(__dirname, '..') : process.cwd();

function fixtures(): unknown {
  const accounts = RUNS.flatMap((r) => r.accounts);
  return {
    rate_limits: {
      windows: WINDOWS_S,
      tiers: { '2': { read: [20, 120, 1500], write: [...CREATE_QUOTAS] }, '4': { read: [...LIST_QUOTAS], write: [1, 8, 80] } },
    },
    accounts: accounts.map((id) => ({ account_id: id, name: `Bench ${id}`, type: 'ADVERTISER', created_at: '2026-11-01T00:00:00Z', features: [] })),
    clients: [{ client_id: CLIENT_ID, client_secret: SECRET, accounts, apps: [] }],
  };
}

function jobsFor(accounts: readonly string[]): Job[] {
  return accounts.flatMap((account) => [
    ...Array.from({ length: CREATES_PER_ACCOUNT }, (_, index): Job => ({ account, kind: 'create', index })),
    ...Array.from({ length: PAGES_PER_ACCOUNT }, (_, index): Job => ({ account, kind: 'list', index })),
  ]);
}

const draft = (job: Job) => ({
  name: `Bench ${job.account} ${job.index}`,
  branding_text: 'Bench',
  cpc: 0.25,
  spending_limit: 1000,
  spending_limit_model: 'MONTHLY',
  bid_strategy: 'FIXED',
  marketing_objective: 'LEADS_GENERATION',
});

/** The earliest time the last of `n` requests queued at 0 can be admitted by a sliding log. */
function minimumMs(n: number, quotas: readonly number[]): number {
  const t: number[] = [];
  for (let k = 0; k < n; k++) {
    let at = k > 0 ? t[k - 1] : 0;
    WINDOW_NAMES.forEach((w, i) => {
      if (k - quotas[i] >= 0) at = Math.max(at, t[k - quotas[i]] + WINDOWS_S[w] * 1000);
    });
    t.push(at);
  }
  return t[n - 1] ?? 0;
}

// ---- the three clients ----

async function runOurs(url: string, jobs: Job[]): Promise<void> {
  const client = new ServiceClient({
    baseUrl: url,
    authUrl: url,
    pushUrl: url,
    credentials: { flow: 'client_credentials', clientId: CLIENT_ID, getSecret: () => Promise.resolve(SECRET) },
  });
  await client.authenticate();
  await Promise.all(
    jobs.map((j) =>
      j.kind === 'create'
        ? client.createCampaign(j.account, draft(j), { priority: 'outbox' })
        : client.listCampaigns(j.account, { fetchLevel: 'RAP', page: j.index + 1, pageSize: 10 }, { priority: 'background' }),
    ),
  );
  await client.close();
}

/** A raw sender for (b) and (c): one HTTP exchange per call, no scheduling of its own. */
async function rawSender(url: string) {
  const transport = new HttpTransport();
  const token = await requestClientCredentialsToken({ transport, clock: systemClock, authUrl: url, clientId: CLIENT_ID, secret: SECRET });
  const send = (j: Job): Promise<HttpResponse> =>
    transport.send(
      j.kind === 'create'
        ? {
            method: 'POST',
            url: `${url}/core/api/1.0/${j.account}/campaigns/`,
            headers: { authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' },
            body: JSON.stringify(draft(j)),
          }
        : {
            method: 'GET',
            url: `${url}/core/api/1.0/${j.account}/campaigns?fetch_level=RAP&page=${j.index + 1}&page_size=10`,
            headers: { authorization: `Bearer ${token.accessToken}` },
          },
    );
  return { send, close: () => transport.close() };
}

const retryAfterMs = (res: HttpResponse): number => 1000 * (Number(res.headers['retry-after']) || 1);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function runNaive(url: string, jobs: Job[]): Promise<void> {
  const { send, close } = await rawSender(url);
  const queue = [...jobs];
  const worker = async () => {
    for (let j = queue.shift(); j; j = queue.shift()) {
      for (;;) {
        const res = await send(j);
        if (res.status !== 429) break;
        await sleep(retryAfterMs(res));
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  await close();
}

class RateLimited extends Error {
  constructor(readonly waitMs: number) {
    super('429');
  }
}

async function runBottleneck(url: string, jobs: Job[]): Promise<void> {
  const { send, close } = await rawSender(url);
  // The documented tiers as a developer would configure them: spacing for the per-second quota,
  // a reservoir for the per-minute quota (the hourly quotas are not reached here).
  const limiters = new Map<string, Bottleneck>();
  const limiterFor = (j: Job): Bottleneck => {
    const key = `${j.account}:${j.kind}`;
    let l = limiters.get(key);
    if (!l) {
      l =
        j.kind === 'create'
          ? new Bottleneck({ minTime: 100, reservoir: 60, reservoirRefreshAmount: 60, reservoirRefreshInterval: 60_000 })
          : new Bottleneck({ minTime: 500, reservoir: 15, reservoirRefreshAmount: 15, reservoirRefreshInterval: 60_000 });
      l.on('failed', (error: unknown) => (error instanceof RateLimited ? error.waitMs : undefined));
      limiters.set(key, l);
    }
    return l;
  };
  await Promise.all(
    jobs.map((j) =>
      limiterFor(j).schedule(async () => {
        const res = await send(j);
        if (res.status === 429) throw new RateLimited(retryAfterMs(res));
        return res.status;
      }),
    ),
  );
  await Promise.all([...limiters.values()].map((l) => l.stop({ dropWaitingJobs: false })));
  await close();
}

// ---- sandbox and figures ----

async function startSandboxProcess(fixturesFile: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'src/sandbox/cli.ts', '--port', '0', '--fixtures', fixturesFile], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolveUrl(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  return { url, child };
}

async function requestLog(url: string, since: number): Promise<LogEntry[]> {
  const transport = new HttpTransport();
  try {
    const res = await transport.send({ method: 'GET', url: `${url}/_sandbox/requests?since=${since}` });
    return (JSON.parse(res.body.toString('utf8')) as { requests: LogEntry[] }).requests;
  } finally {
    await transport.close();
  }
}

function windowFigures(log: LogEntry[], accounts: readonly string[], group: string, quotas: readonly number[]): string {
  const max = WINDOW_NAMES.map(() => 0);
  for (const account of accounts) {
    const times = log.filter((r) => r.account === account && r.group === group && r.status !== null && r.status !== 429).map((r) => r.time);
    WINDOW_NAMES.forEach((w, i) => {
      const span = WINDOWS_S[w] * 1000;
      let lo = 0;
      for (let hi = 0; hi < times.length; hi++) {
        while (times[lo] <= times[hi] - span) lo++;
        max[i] = Math.max(max[i], hi - lo + 1);
      }
    });
  }
  return WINDOW_NAMES.map((w, i) => `${w} ${max[i]}/${quotas[i]}`).join(', ');
}

export function markdownTable(rows: SchedulerBenchRow[]): string {
  const lines = [
    '| client | requests | wall time | minimum | wall / minimum | 429s | max in any window: creates | max in any window: list pages |',
    '|---|---:|---:|---:|---:|---:|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.client} | ${r.requests} | ${(r.wallMs / 1000).toFixed(1)} s | ${(r.minimumMs / 1000).toFixed(1)} s | ${r.ratio.toFixed(3)} | ${r.rateLimited} | ${r.maxInWindow.create} | ${r.maxInWindow.list} |`,
    ),
  ];
  return lines.join('\n');
}

export async function runSchedulerBench(): Promise<SchedulerBenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'scheduler-bench-'));
  const file = join(dir, 'fixtures.json');
  writeFileSync(file, JSON.stringify(fixtures(), null, 2));
  const { url, child } = await startSandboxProcess(file);
  const minimum = Math.max(minimumMs(CREATES_PER_ACCOUNT, CREATE_QUOTAS), minimumMs(PAGES_PER_ACCOUNT, LIST_QUOTAS));
  const rows: SchedulerBenchRow[] = [];
  try {
    for (const r of RUNS) {
      // Fresh accounts per run: a real clock's windows would otherwise carry over.
      const before = await requestLog(url, 0);
      const since = before.length > 0 ? before[before.length - 1].seq : 0;
      const jobs = jobsFor(r.accounts);
      const started = performance.now();
      await r.run(url, jobs);
      const wallMs = performance.now() - started;
      const log = (await requestLog(url, since)).filter((e) => e.account !== null && (r.accounts as readonly string[]).includes(e.account));
      rows.push({
        client: r.name,
        requests: jobs.length,
        wallMs,
        minimumMs: minimum,
        ratio: wallMs / minimum,
        rateLimited: log.filter((e) => e.status === 429).length,
        maxInWindow: {
          create: windowFigures(log, r.accounts, 'campaigns', CREATE_QUOTAS),
          list: windowFigures(log, r.accounts, 'campaigns.list', LIST_QUOTAS),
        },
      });
      console.error(`scheduler bench: ${r.name} done in ${(wallMs / 1000).toFixed(1)} s`);
    }
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(markdownTable(rows));
  return rows;
}

const isMain = typeof require !== 'undefined' && typeof module !== 'undefined' && require.main === module;
if (isMain) {
  runSchedulerBench().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
