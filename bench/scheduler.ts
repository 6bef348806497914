// Scheduler benchmark, in two parts.
// 1. Every legal rate-limit choice of a service, on a virtual clock: N campaign creates (Tier 2
//    writes) and M list pages (Tier 4 reads) queued at once, sent by the app's service client
//    (its scheduler inside) over real HTTP to an in-process sandbox on a manual clock that moves
//    with the client's (test/main/ratelimit/virtual-time.ts), once per service variant: sliding
//    logs, token buckets, each header spelling, Retry-After as a date from a service whose clock
//    is minutes ahead (there another program spends the first second's quota, so that Retry-After
//    is used at all). Minutes of quota take a second or two, and every time is exact.
// 2. The same kind of workload on the real clock (three limited accounts, short windows), sent by
//    (a) Campaign Desk's scheduler against sliding logs and against token buckets, (b) a naive
//    client that fires everything and retries after Retry-After, (c) bottleneck configured with
//    the documented tiers. The sandbox runs in a child process with tiers that differ from the
//    documentation (static configuration is wrong by design); this part takes about 8 minutes.
// Run: npx tsx bench/scheduler.ts (both parts) or npx tsx bench/scheduler.ts virtual (part 1).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Bottleneck from 'bottleneck';
import { systemClock } from '../src/main/clock/clock';
import { HttpTransport, type HttpResponse } from '../src/main/service/http-transport';
import { requestClientCredentialsToken } from '../src/main/service/oauth';
import { ServiceClient } from '../src/main/service/service-client';
import { CONTROL_SECRET_ENV, CONTROL_SECRET_HEADER, startSandbox, type Variants } from '../src/sandbox/index';
import { SPEC_TIERS } from '../src/shared/domain/rate-tiers';
import { greedyAdmissions, greedyBucketAdmissions } from '../test/main/ratelimit/sim';
import { VirtualTime } from '../test/main/ratelimit/virtual-time';

// ---- part 1: every service variant on a virtual clock ----

/** Campaign creates (Tier 2 writes: 10/60/600 per 1 s/60 s/1 h) and list pages (Tier 4 reads: 2/15/150). */
const VIRTUAL_CREATES = 200;
const VIRTUAL_PAGES = 60;
const DOCUMENTED_WINDOWS_S = [1, 60, 3600] as const;
const VIRTUAL_ACCOUNT = 'benchvirtual';

interface VariantService {
  service: string;
  variants: Variants;
  /** Another program spends the first second's quota of both budgets just before we start. */
  interloper?: boolean;
}

const VARIANT_SERVICES: VariantService[] = [
  { service: 'sliding logs (default)', variants: {} },
  { service: 'token buckets', variants: { windows: 'token_bucket' } },
  { service: 'header_spelling quoted', variants: { header_spelling: 'quoted' } },
  { service: 'header_spelling reordered', variants: { header_spelling: 'reordered' } },
  { service: 'header_spelling multiple_fields', variants: { header_spelling: 'multiple_fields' } },
  { service: 'token buckets, multiple_fields', variants: { windows: 'token_bucket', header_spelling: 'multiple_fields' } },
  { service: 'sliding logs, another program first', variants: {}, interloper: true },
  {
    service: 'retry_after_date, service clock +2 min, another program first',
    variants: { retry_after_date: true, clock_offset_ms: 120_000 },
    interloper: true,
  },
  {
    service: 'retry_after_date, service clock +10 min, another program first',
    variants: { retry_after_date: true, clock_offset_ms: 600_000 },
    interloper: true,
  },
  {
    service: 'token buckets, retry_after_date, clock +10 min, another program first',
    variants: { windows: 'token_bucket', retry_after_date: true, clock_offset_ms: 600_000 },
    interloper: true,
  },
];

export interface VariantBenchRow {
  service: string;
  requests: number;
  /** The least time the quotas allow for the whole drain under the service's refill rule. */
  minimumMs: number;
  tookMs: number;
  ratio: number;
  createsRatio: number;
  pagesRatio: number;
  rateLimited: number;
  /** 429s no client could have avoided: the first request of a budget another program had just spent. */
  unavoidable: number;
}

/** The least time for `before` requests of someone else and then `n` of ours, all queued at 0. */
function leastMs(
  before: number,
  n: number,
  quotas: readonly [number, number, number],
  windowsS: readonly [number, number, number],
  refill: Variants['windows'],
): number {
  const arrivals = Array.from({ length: before + n }, () => 0);
  const times =
    refill === 'token_bucket'
      ? greedyBucketAdmissions(arrivals, { seconds: windowsS, quotas })
      : greedyAdmissions(
          arrivals,
          windowsS.map((w, i) => ({ name: String(w), quota: quotas[i], windowMs: w * 1000 })),
        );
  return times.at(-1) ?? 0;
}

async function runVariant(v: VariantService): Promise<VariantBenchRow> {
  const sb = await startSandbox({
    clock: 'manual',
    variants: v.variants,
    fixtures: {
      now: '2026-11-21T09:00:00Z',
      accounts: [
        { account_id: VIRTUAL_ACCOUNT, name: 'Bench virtual', type: 'ADVERTISER', created_at: '2026-11-01T00:00:00Z', features: [] },
      ],
      clients: [{ client_id: CLIENT_ID, client_secret: SECRET, accounts: [VIRTUAL_ACCOUNT], apps: [] }],
    },
  });
  const time = new VirtualTime(sb);
  const client = new ServiceClient({
    baseUrl: sb.url,
    authUrl: sb.url,
    pushUrl: sb.url,
    credentials: { flow: 'client_credentials', clientId: CLIENT_ID, getSecret: () => Promise.resolve(SECRET) },
    clock: time,
    transport: time.transport,
  });
  const createQuotas = SPEC_TIERS['2'].write;
  const listQuotas = SPEC_TIERS['4'].read;
  try {
    await time.run(client.authenticate());
    const { send, close } = await rawSender(sb.url);
    const spent = { create: v.interloper ? createQuotas[0] : 0, list: v.interloper ? listQuotas[0] : 0 };
    for (let index = 0; index < spent.create; index++) await send({ account: VIRTUAL_ACCOUNT, kind: 'create', index });
    for (let index = 0; index < spent.list; index++) await send({ account: VIRTUAL_ACCOUNT, kind: 'list', index });
    await close();
    const before = (await requestLog(sb.url, 0)).length;
    await time.run(
      Promise.all([
        ...Array.from({ length: VIRTUAL_CREATES }, (_, index) =>
          client.createCampaign(VIRTUAL_ACCOUNT, draft({ account: VIRTUAL_ACCOUNT, kind: 'create', index }), { priority: 'outbox' }),
        ),
        ...Array.from({ length: VIRTUAL_PAGES }, (_, index) =>
          client.listCampaigns(VIRTUAL_ACCOUNT, { fetchLevel: 'RAP', page: index + 1, pageSize: 10 }, { priority: 'background' }),
        ),
      ]),
    );
    const log = await requestLog(sb.url, 0);
    const ours = log.slice(before);
    const took = (group: string) => {
      const all = log.filter((e) => e.group === group);
      return Math.max(...all.filter((e) => e.status === 200 || e.status === 201).map((e) => e.time)) - Math.min(...all.map((e) => e.time));
    };
    const refill = v.variants.windows;
    const creates = { took: took('campaigns'), least: leastMs(spent.create, VIRTUAL_CREATES, createQuotas, DOCUMENTED_WINDOWS_S, refill) };
    const pages = { took: took('campaigns.list'), least: leastMs(spent.list, VIRTUAL_PAGES, listQuotas, DOCUMENTED_WINDOWS_S, refill) };
    const minimumMs = Math.max(creates.least, pages.least);
    const tookMs = Math.max(creates.took, pages.took);
    return {
      service: v.service,
      requests: VIRTUAL_CREATES + VIRTUAL_PAGES,
      minimumMs,
      tookMs,
      ratio: tookMs / minimumMs,
      createsRatio: creates.took / creates.least,
      pagesRatio: pages.took / pages.least,
      rateLimited: ours.filter((e) => e.status === 429).length,
      unavoidable: v.interloper ? 2 : 0,
    };
  } finally {
    await client.close();
    await time.transport.close();
    await sb.close();
  }
}

export async function runVariantBench(): Promise<VariantBenchRow[]> {
  const rows: VariantBenchRow[] = [];
  for (const v of VARIANT_SERVICES) {
    const started = performance.now();
    rows.push(await runVariant(v));
    console.error(`scheduler bench: ${v.service} done (${((performance.now() - started) / 1000).toFixed(1)} s of real time)`);
  }
  return rows;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function variantTable(rows: VariantBenchRow[]): string {
  return [
    '| service | requests | minimum | took | took / minimum | creates | list pages | 429s (unavoidable) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.service} | ${r.requests} | ${seconds(r.minimumMs)} | ${seconds(r.tookMs)} | ${r.ratio.toFixed(3)} | ${r.createsRatio.toFixed(3)} | ${r.pagesRatio.toFixed(3)} | ${r.rateLimited} (${r.unavoidable}) |`,
    ),
  ].join('\n');
}

// ---- part 2: the real clock, against a naive client and bottleneck ----

const WINDOWS_S = { second: 1, minute: 10, hour: 60 } as const;
const WINDOW_NAMES = ['second', 'minute', 'hour'] as const;
/** The fixture's tiers 2 (create) and 4 (list); the documented ones are 10/60/600 and 2/15/150. */
const CREATE_QUOTAS = [4, 16, 48] as const;
const LIST_QUOTAS = [3, 15, 45] as const;
const CREATES_PER_ACCOUNT = 64;
const PAGES_PER_ACCOUNT = 40;
const CLIENT_ID = 'bench-client';
const SECRET = 'bench-secret-5d1e';
type Refill = 'sliding_log' | 'token_bucket';
interface Run {
  name: string;
  refill: Refill;
  accounts: readonly string[];
  run: (url: string, jobs: Job[]) => Promise<void>;
}
const RUNS: readonly Run[] = [
  { name: '(a) Campaign Desk scheduler', refill: 'sliding_log', accounts: ['benchaa', 'benchab', 'benchac'], run: runOurs },
  {
    name: '(a) Campaign Desk scheduler, token-bucket service',
    refill: 'token_bucket',
    accounts: ['benchda', 'benchdb', 'benchdc'],
    run: runOurs,
  },
  { name: '(b) naive, retry after Retry-After', refill: 'sliding_log', accounts: ['benchba', 'benchbb', 'benchbc'], run: runNaive },
  { name: '(c) bottleneck, documented tiers', refill: 'sliding_log', accounts: ['benchca', 'benchcb', 'benchcc'], run: runBottleneck },
];

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
    accounts: accounts.map((id) => ({
      account_id: id,
      name: `Bench ${id}`,
      type: 'ADVERTISER',
      created_at: '2026-11-01T00:00:00Z',
      features: [],
    })),
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

/** The earliest time the last of `n` requests queued at 0 can be admitted. */
function minimumMs(n: number, quotas: readonly [number, number, number], refill: Refill): number {
  return leastMs(0, n, quotas, [WINDOWS_S.second, WINDOWS_S.minute, WINDOWS_S.hour], refill);
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

/** The control API secret the sandbox child is started with, so the bench can read its request log. */
const CONTROL_SECRET = randomBytes(32).toString('base64url');

async function startSandboxProcess(fixturesFile: string, refill: Refill): Promise<{ url: string; child: ChildProcess }> {
  const args = [join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'src/sandbox/cli.ts', '--port', '0', '--fixtures', fixturesFile];
  if (refill === 'token_bucket') args.push('--variant', 'windows=token_bucket');
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, [CONTROL_SECRET_ENV]: CONTROL_SECRET },
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
    const res = await transport.send({
      method: 'GET',
      url: `${url}/_sandbox/requests?since=${since}`,
      headers: { [CONTROL_SECRET_HEADER]: CONTROL_SECRET },
    });
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

export async function runRealClockBench(): Promise<SchedulerBenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'scheduler-bench-'));
  const file = join(dir, 'fixtures.json');
  writeFileSync(file, JSON.stringify(fixtures(), null, 2));
  const sandboxes = new Map<Refill, { url: string; child: ChildProcess }>();
  const rows: SchedulerBenchRow[] = [];
  try {
    for (const r of RUNS) {
      let sandbox = sandboxes.get(r.refill);
      if (!sandbox) {
        sandbox = await startSandboxProcess(file, r.refill);
        sandboxes.set(r.refill, sandbox);
      }
      const { url } = sandbox;
      const minimum = Math.max(
        minimumMs(CREATES_PER_ACCOUNT, CREATE_QUOTAS, r.refill),
        minimumMs(PAGES_PER_ACCOUNT, LIST_QUOTAS, r.refill),
      );
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
    for (const { child } of sandboxes.values()) child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** Both parts as the benchmarks document shows them; `virtualOnly` skips the real-clock part. */
export async function schedulerBenchMarkdown(virtualOnly = false): Promise<string> {
  const variants = variantTable(await runVariantBench());
  const parts = [
    `**Every service variant, virtual clock.** ${VIRTUAL_CREATES} campaign creates (Tier 2 writes) and ${VIRTUAL_PAGES} list pages ` +
      '(Tier 4 reads) of one account, queued at once; the documented tiers and window lengths. "minimum" is the least time the ' +
      "quotas allow under the service's refill rule (and after the other program's requests, where there is one); creates and " +
      'list pages are separate budgets, each with its own took / minimum. 429s counts refusals of our requests; in brackets those ' +
      'no client could avoid (its first request of a budget another program had just spent).',
    '',
    variants,
  ];
  if (!virtualOnly) {
    parts.push(
      '',
      '**Real clock, against other clients.** 3 limited accounts x (64 campaign creates + 40 list pages), all queued at once, ' +
        'against a sandbox process whose fixture tiers differ from the documented ones (create 4/16/48, list 3/15/45 per ' +
        '1 s/10 s/60 s windows). "max in any window" comes from the sandbox request log (a token bucket may rightly admit ' +
        'more than q within one window length).',
      '',
      markdownTable(await runRealClockBench()),
    );
  }
  return parts.join('\n');
}

const isMain = typeof require !== 'undefined' && typeof module !== 'undefined' && require.main === module;
if (isMain) {
  schedulerBenchMarkdown(process.argv.includes('virtual'))
    .then((text) => console.log(text))
    .catch((e: unknown) => {
      console.error(e);
      process.exit(1);
    });
}
