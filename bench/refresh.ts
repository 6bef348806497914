// First full cache of a 100,000-campaign, Tier-4-limited account through the app's own refresh,
// side by side with a plain HTTP client fetching the same unpaged listing in the same run; the
// same against a service capping pages at 100; and (in a process of its own, for its peak memory)
// a first refresh of a 5,000-member network with 100,000 campaigns. The sandbox runs as a child
// process, so its own work does not count against the app's event loop or memory.
// Run: npm run bench -- refresh   (or: npx tsx bench/refresh.ts [single|capped|network])
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { request } from 'undici';
import { benchCampaign } from './bench-campaigns';
import { spawnSandbox } from './sandbox-child';
import { createDeskCore, type DeskCore } from '../src/main/app/create-core';
import { createSecretStore } from '../src/main/secrets';
import { CONTROL_SECRET_ENV, CONTROL_SECRET_HEADER, type Fixtures } from '../src/sandbox/index';
import type { SyncProgress } from '../src/shared/ipc/contract';

const ROOT = join(__dirname, '..');
export const CLIENT = { id: 'bench-client', secret: 'bench-secret' };

/** The connection every bench makes to its sandbox at `url` (profiles.create's input). */
export const benchProfile = (url: string) => ({
  name: 'Bench',
  baseUrl: url,
  authUrl: url,
  pushUrl: url,
  clientId: CLIENT.id,
  clientSecret: CLIENT.secret,
  flow: 'client_credentials' as const,
  redirectUri: null,
});

/** Letters-only account ids: a, b, ..., z, ba, bb, ... */
const letters = (n: number) => {
  let s = '';
  do {
    s = String.fromCharCode(97 + (n % 26)) + s;
    n = Math.floor(n / 26);
  } while (n > 0);
  return s;
};

function fixtures(kind: 'single' | 'network', campaigns: number, members = 0): Fixtures {
  const accounts: Fixtures['accounts'] = [];
  const list: NonNullable<Fixtures['campaigns']> = [];
  // Created days before "now": a new account, Tier 4 for listing (2/s, 15/min, 150/h).
  const created = '2026-11-19T00:00:00Z';
  const owners: string[] = [];
  if (kind === 'single') {
    accounts.push({ account_id: 'bigshop', name: 'Big Shop', type: 'ADVERTISER', created_at: created, features: [] });
    owners.push('bigshop');
  } else {
    accounts.push({ account_id: 'bignet', name: 'Big Network', type: 'NETWORK', created_at: created, features: [] });
    for (let m = 0; m < members; m++) {
      const id = `member${letters(m)}`;
      accounts.push({ account_id: id, name: `Member ${m}`, type: 'ADVERTISER', network_id: 'bignet', created_at: created, features: [] });
      owners.push(id);
    }
  }
  for (let i = 0; i < campaigns; i++) {
    list.push(benchCampaign(owners[i % owners.length], i));
  }
  return {
    now: '2026-11-21T09:00:00Z',
    accounts,
    clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, accounts: [kind === 'single' ? 'bigshop' : 'bignet'] }],
    campaigns: list,
  } as Fixtures;
}

/** The control API secret the sandbox child is started with, so the bench can read its request log. */
const CONTROL_SECRET = randomBytes(32).toString('base64url');

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

interface Logged {
  seq: number;
  method: string;
  path: string;
}

async function requestLog(url: string, since = 0): Promise<Logged[]> {
  const res = await request(`${url}/_sandbox/requests?since=${since}`, { headers: { [CONTROL_SECRET_HEADER]: CONTROL_SECRET } });
  return ((await res.body.json()) as { requests: Logged[] }).requests;
}

/** The sandbox's newest log entry: requests after it are the ones a step made. */
const lastSeq = async (url: string) => (await requestLog(url)).at(-1)?.seq ?? 0;

/** List requests (GET of the account's campaigns) the sandbox logged after `since`. */
async function listGets(url: string, account: string, since: number): Promise<number> {
  const path = `/core/api/1.0/${account}/campaigns`;
  return (await requestLog(url, since)).filter((r) => r.method === 'GET' && r.path === path).length;
}

/**
 * The plain alternative: one unpaged request, the body read whole and JSON.parse'd. Also when its
 * answer's headers came (the service builds the whole answer first): no rows can be shown sooner.
 */
export async function plainFetch(url: string, account: string): Promise<{ ms: number; firstByteMs: number; rows: number; bytes: number }> {
  const tokenRes = await request(`${url}/core/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: CLIENT.secret }).toString(),
  });
  const { access_token } = (await tokenRes.body.json()) as { access_token: string };
  const started = performance.now();
  const res = await request(`${url}/core/api/1.0/${account}/campaigns?fetch_level=RAP`, {
    headers: { authorization: `Bearer ${access_token}` },
  });
  const firstByteMs = performance.now() - started;
  const text = await res.body.text();
  const parsed = JSON.parse(text) as { results: unknown[] };
  return { ms: performance.now() - started, firstByteMs, rows: parsed.results.length, bytes: Buffer.byteLength(text) };
}

/**
 * A full garbage collection: the plain client's 52 MB body and 100,000 objects are garbage once it
 * is done, and the app's run that follows must not pay for collecting them.
 */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** Bytes this process has had written to disk (the database file and its log): load-independent. */
const writtenBytes = () => Number(/^write_bytes:\s+(\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? NaN);

const threads = () => Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN);

export interface RefreshRun {
  label: string;
  campaigns: number;
  cached: number;
  reads: number;
  wallMs: number;
  firstRowsMs: number | null;
  maxLoopHoldMs: number;
  draftP99Ms: number;
  draftMaxMs: number;
  peakRssMb: number;
  maxThreads: number;
  /** Bytes written to disk during the refresh (SQLite's log, checkpoints and file). */
  writtenMb: number;
  plainMs?: number;
  plainFirstByteMs?: number;
  plainBytes?: number;
  /** List reads of the look-up after a create whose answer was lost, once the account was cached. */
  lookupReads?: number;
}

/**
 * A create whose answer is lost (the sandbox closes the connection once it has created the
 * campaign): the outbox looks for it before sending again. Returns the list reads that look-up spent.
 */
async function lostCreateLookup(url: string, core: DeskCore, profileId: string, account: string): Promise<number> {
  const faults = await request(`${url}/_sandbox/faults`, {
    method: 'POST',
    headers: { [CONTROL_SECRET_HEADER]: CONTROL_SECRET, 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'POST', path_prefix: `/core/api/1.0/${account}/campaigns`, mode: 'close_after', count: 1 }),
  });
  if (faults.statusCode >= 300) throw new Error(`the sandbox refused the fault: ${await faults.body.text()}`);
  await faults.body.dump();
  const since = await lastSeq(url);
  const h = core.handlers;
  const payload = {
    name: 'Lost answer',
    branding_text: 'Big Shop',
    bid_strategy: 'FIXED',
    cpc: 0.35,
    spending_limit: 1500,
    spending_limit_model: 'MONTHLY',
    marketing_objective: 'DRIVE_WEBSITE_TRAFFIC',
  };
  const draft = await h['drafts.save']({ kind: 'campaign', profileId, accountId: account, payload });
  const item = await h['drafts.submit']({ id: draft.id });
  for (const until = Date.now() + 120_000; ; await new Promise((r) => setTimeout(r, 50))) {
    const now = (await h['outbox.list']({ profileId })).find((i) => i.id === item.id);
    if (now?.state === 'sent') break;
    if (now && ['failed', 'blocked'].includes(now.state)) throw new Error(`the lost create ended ${now.state}`);
    if (Date.now() > until) throw new Error('the lost create was not settled within 2 minutes');
  }
  const creates = (await requestLog(url, since)).filter(
    (r) => r.method === 'POST' && r.path.startsWith(`/core/api/1.0/${account}/campaigns`),
  ).length;
  if (creates !== 1) throw new Error(`the lost create was posted ${creates} times`);
  return listGets(url, account, since);
}

/**
 * Adds the account to a fresh app core and measures its first refresh through the app itself
 * (and, with `lookup`, then a lost create's look-up on it).
 */
async function appRefresh(
  url: string,
  account: string,
  label: string,
  expected: number,
  opts: { lookup?: boolean } = {},
): Promise<RefreshRun> {
  const dataDir = mkdtempSync(join(tmpdir(), 'desk-bench-'));
  const secrets = await createSecretStore({ service: 'Campaign Desk (bench)', keytar: () => Promise.reject(new Error('no keychain')) });
  // The sandbox applies a create at once: the look-up need not wait the usual grace period for it.
  const core: DeskCore = await createDeskCore({
    dataDir,
    transport: 'browser',
    version: 'bench',
    secrets,
    tuning: { refreshOnStart: false, uncertainGraceMs: 500 },
  });
  const h = core.handlers;
  const p = await h['profiles.create'](benchProfile(url));
  let started = 0;
  let firstRows: number | null = null;
  let finished: SyncProgress | null = null;
  core.events.on('sync.progress', (x: SyncProgress) => {
    if (x.accountId !== account) return;
    if (x.state === 'running' && started === 0) started = performance.now();
    if (x.state !== 'running') finished = x;
  });
  core.events.on('data.changed', (x: { accountId: string | null; what: string }) => {
    if (x.what === 'campaigns' && started > 0 && firstRows === null && (x.accountId === account || x.accountId === null))
      firstRows = performance.now() - started;
  });
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  // A person typing a draft meanwhile: a save every 50 ms, timed from the call to its answer.
  const saves: number[] = [];
  let draftId: string | undefined;
  let saving = true;
  // The account exists once added; the refresh starts right after its check (one list read of
  // page_size=1, not counted below: the sandbox logs no query strings, so the first is dropped).
  const before = await lastSeq(url);
  console.error(
    'RSS before add',
    (process.memoryUsage().rss / 2 ** 20).toFixed(0),
    'maxRSS so far',
    (process.resourceUsage().maxRSS / 1024).toFixed(0),
    'heap',
    (process.memoryUsage().heapUsed / 2 ** 20).toFixed(0),
    JSON.stringify(process.memoryUsage()),
  );
  const written0 = writtenBytes();
  await h['accounts.add']({ profileId: p.id, accountId: account });
  const typing = (async () => {
    let n = 0;
    while (saving) {
      const t0 = performance.now();
      const d = await h['drafts.save']({
        kind: 'campaign',
        ...(draftId ? { id: draftId } : {}),
        profileId: p.id,
        accountId: account,
        payload: { name: `Draft ${n++}` },
      });
      draftId = d.id;
      saves.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  let maxThreads = threads();
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    maxThreads = Math.max(maxThreads, threads());
    const m = process.memoryUsage();
    if (m.rss > peakRss)
      console.error('peak', JSON.stringify(Object.fromEntries(Object.entries(m).map(([k, v]) => [k, Math.round(v / 2 ** 20)]))));
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 100);
  while (finished === null) await new Promise((r) => setTimeout(r, 20));
  const wallMs = performance.now() - started;
  const writtenMb = (writtenBytes() - written0) / 2 ** 20;
  saving = false;
  await typing;
  clearInterval(sampler);
  loop.disable();
  const last: SyncProgress = finished;
  if (last.state !== 'done') throw new Error(`${label}: refresh ended ${last.state}: ${last.message}`);
  const q = await h['campaigns.query']({ profileId: p.id, accountId: account, offset: 0, limit: 1 });
  saves.sort((a, b) => a - b);
  const run: RefreshRun = {
    label,
    campaigns: expected,
    cached: q.total,
    reads: (await listGets(url, account, before)) - 1,
    wallMs,
    firstRowsMs: firstRows,
    maxLoopHoldMs: loop.max / 1e6,
    draftP99Ms: saves[Math.min(saves.length - 1, Math.floor(saves.length * 0.99))],
    draftMaxMs: saves[saves.length - 1],
    peakRssMb: Math.max(peakRss, process.resourceUsage().maxRSS * 1024) / 2 ** 20,
    maxThreads,
    writtenMb,
  };
  if (opts.lookup) run.lookupReads = await lostCreateLookup(url, core, p.id, account);
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
  return run;
}

/** What a bench's sandbox holds: `fixtures(kind, campaigns, members)`. */
type FixtureSpec = [kind: 'single' | 'network', campaigns: number, members?: number];

/**
 * Writes the fixtures file in a process of its own: the objects and the one JSON text of 100,000
 * campaigns took this process to ~250 MB before the app started, and its peak RSS (maxRSS) is
 * the app's figure.
 */
function writeFixturesInChild(spec: FixtureSpec, file: string): Promise<void> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'bench/refresh.ts', 'fixtures', file, ...spec.map(String)],
    {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writing the fixtures exited with ${code}`))));
  });
}

/** Starts the sandbox on the fixtures `spec` describes (written by a child process: see writeFixturesInChild). */
async function withSandbox<T>(spec: FixtureSpec, variants: string[], fn: (url: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'desk-bench-fx-'));
  const file = join(dir, 'fixtures.json');
  await writeFixturesInChild(spec, file);
  const { url, child } = await spawnSandbox(['--fixtures', file, ...variants.flatMap((v) => ['--variant', v])], {
    env: { [CONTROL_SECRET_ENV]: CONTROL_SECRET },
    startWithinMs: 120_000,
  });
  try {
    return await fn(url);
  } finally {
    await stop(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runRefreshBench(): Promise<RefreshRun[]> {
  const N = 100_000;
  const runs: RefreshRun[] = [];
  await withSandbox(['single', N], [], async (url) => {
    const plain = await plainFetch(url, 'bigshop');
    collectGarbage();
    const run = await appRefresh(url, 'bigshop', 'one account, whole listing', N, { lookup: true });
    runs.push({ ...run, plainMs: plain.ms, plainFirstByteMs: plain.firstByteMs, plainBytes: plain.bytes });
  });
  await withSandbox(['single', 10_000], ['page_size_cap=100'], async (url) => {
    runs.push(await appRefresh(url, 'bigshop', 'one account, pages capped at 100', 10_000));
  });
  // The network in a process of its own: its peak memory is then its own.
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'bench/refresh.ts', 'network'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise((r) => child.once('exit', r));
  const line = out.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`network run printed no result:\n${out}`);
  runs.push(JSON.parse(line.slice('RESULT '.length)) as RefreshRun);
  return runs;
}

async function networkRun(): Promise<RefreshRun> {
  return withSandbox(['network', 100_000, 5_000], [], (url) => appRefresh(url, 'bignet', 'network of 5,000 members', 100_000));
}

const f = (n: number | null | undefined, d = 0) => (n === null || n === undefined ? '-' : n.toFixed(d));

export function refreshBenchMarkdown(runs: RefreshRun[]): string {
  const rows = runs.map(
    (r) =>
      `| ${r.label} | ${r.campaigns.toLocaleString('en')} | ${r.cached.toLocaleString('en')} | ${r.reads} | ${f(r.wallMs / 1000, 1)} s | ${r.plainMs ? `${f(r.plainMs / 1000, 1)} s (${f(r.wallMs / r.plainMs, 2)}x)` : '-'} | ${f(r.firstRowsMs)} ms${r.plainFirstByteMs ? ` (${f(r.plainFirstByteMs)} ms)` : ''} | ${f(r.maxLoopHoldMs, 1)} ms | ${f(r.draftP99Ms, 1)} / ${f(r.draftMaxMs, 1)} ms | ${f(r.peakRssMb)} MB | ${r.maxThreads} | ${f(r.writtenMb)} MB | ${r.lookupReads ?? '-'} |`,
  );
  return [
    "| run | campaigns | cached | list reads | app refresh | plain client (app / plain) | first rows visible (plain client's first byte) | longest event-loop hold | draft save p99 / max | peak RSS | threads | written to disk | lost-create look-up: list reads |",
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

if (require.main === module) {
  const which = process.argv[2];
  if (which === 'fixtures') {
    const [file, kind, campaigns, members] = process.argv.slice(3);
    writeFileSync(file, JSON.stringify(fixtures(kind as FixtureSpec[0], Number(campaigns), Number(members ?? 0))));
  } else if (which === 'network') {
    networkRun().then(
      (r) => console.log(`RESULT ${JSON.stringify(r)}`),
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  } else if (which === 'capped') {
    withSandbox(['single', 10_000], ['page_size_cap=100'], (url) =>
      appRefresh(url, 'bigshop', 'one account, pages capped at 100', 10_000),
    ).then((r) => console.log(refreshBenchMarkdown([r])));
  } else if (which === 'single') {
    // The whole-listing run alone, for profiling (e.g. node --cpu-prof).
    withSandbox(['single', 100_000], [], async (url) => {
      const plain = await plainFetch(url, 'bigshop');
      collectGarbage();
      const run = await appRefresh(url, 'bigshop', 'one account, whole listing', 100_000, { lookup: true });
      return { ...run, plainMs: plain.ms, plainFirstByteMs: plain.firstByteMs, plainBytes: plain.bytes };
    }).then((r) => console.log(refreshBenchMarkdown([r])));
  } else {
    runRefreshBench().then((runs) => console.log(refreshBenchMarkdown(runs)));
  }
}
