// Growth of a refresh with the account's size (issue 29): for each size, in one run against one
// sandbox child, a plain client's fetch of the unpaged listing, the app's first refresh of the
// account (an empty cache), then the plain fetch again and the app's second refresh of the same,
// unchanged account. Each figure has the machine's load average beside it: on a shared 2-core
// machine the plain client's time is the yardstick, not the seconds themselves. One such run moved
// the first refresh's ratio by 20-40% from one run to the next at 100,000, more than the changes it
// measured: more rounds of the plain fetch and the first refresh follow, alternating, each ratio shown.
// Run: npm run bench -- scale   (100,000, 300,000 and 1,000,000, three rounds each;
//      or: npx tsx bench/scale.ts [sizes...] [--rounds N])
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeBenchFixtures } from './bench-campaigns';
import { plainFetchInChild } from './plain-child';
import { benchProfile, CLIENT } from './refresh';
import { spawnSandbox } from './sandbox-child';
import { createDeskCore, DATABASE_FILE, type DeskCore } from '../src/main/app/create-core';
import { createSecretStore, type SecretStore } from '../src/main/secrets';
import { cacheFileOf } from '../src/main/store';
import { CAMPAIGN_INDEXES, hasTextIndex } from '../src/main/store/cache-file';
import { CONTROL_SECRET_ENV } from '../src/sandbox/index';
import type { SyncProgress } from '../src/shared/ipc/contract';

const ACCOUNT = 'bigshop';
export const SCALE_SIZES = [100_000, 300_000, 1_000_000];
/** Rounds of the plain fetch and the app's first refresh per size (the first with everything else). */
export const SCALE_ROUNDS = 3;

const load1 = () => loadavg()[0];

/** Waits until the cache file has every index the window uses (the sort indexes and the text index). */
async function indexesBuilt(cacheFile: string): Promise<void> {
  const db = new Database(cacheFile, { readonly: true });
  try {
    const count = db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name GLOB 'campaigns_by_*'").pluck();
    while ((count.get() as number) < CAMPAIGN_INDEXES.length || !hasTextIndex(db)) await new Promise((r) => setTimeout(r, 50));
  } finally {
    db.close();
  }
}
const fileSize = (f: string) => {
  try {
    return statSync(f).size;
  } catch {
    return 0;
  }
};

export interface ScaleRun {
  campaigns: number;
  plainMs: number;
  plainFirstByteMs: number;
  plainLoad: number;
  appMs: number;
  appFirstRowsMs: number | null;
  /** From the end of the first refresh until the writer had built every index of the cache. */
  indexesMs: number;
  appLoad: number;
  cached: number;
  plain2Ms: number;
  plain2Load: number;
  secondMs: number;
  secondLoad: number;
  secondWritten: string;
  /** Sampled every 100 ms: during the first refresh, then from its end to the end of the second. */
  firstPeakRssMb: number;
  peakRssMb: number;
  /** RSS when the second refresh began (what the first left, and the index builds), and its peak while it ran. */
  /** CPU time of the bench process (the app core's threads) during the second refresh: less at the mercy of the load than its wall time. */
  secondCpuMs: number;
  secondStartRssMb: number;
  secondPeakRssMb: number;
  plainPeakRssMb: number;
  cacheMb: number;
  /** Each round's plain fetch and first refresh, alternating, the run's own first. */
  rounds: { plainMs: number; appMs: number; appLoad: number }[];
}

/** Waits for the account's next refresh to end; resolves with its wall time and when its first rows were announced. */
function nextRefresh(core: DeskCore): { done: Promise<{ ms: number; firstRowsMs: number | null; last: SyncProgress }> } {
  let started = 0;
  let firstRows: number | null = null;
  const done = new Promise<{ ms: number; firstRowsMs: number | null; last: SyncProgress }>((resolve) => {
    // (Declared before use: the listeners below are registered right after.)
    // eslint-disable-next-line prefer-const
    let offProgress: () => void, offData: () => void;
    const onProgress = (x: SyncProgress) => {
      if (x.accountId !== ACCOUNT) return;
      if (x.state === 'running' && started === 0) started = performance.now();
      if (x.state !== 'running' && started > 0) {
        offProgress();
        offData();
        resolve({ ms: performance.now() - started, firstRowsMs: firstRows, last: x });
      }
    };
    const onData = (x: { accountId: string | null; what: string }) => {
      if (x.what === 'campaigns' && started > 0 && firstRows === null) firstRows = performance.now() - started;
    };
    offProgress = core.events.on('sync.progress', onProgress);
    offData = core.events.on('data.changed', onData);
  });
  return { done };
}

/** An app core on its own data directory, with the bench's connection to the sandbox at `url`. */
async function openCore(url: string, dataDir: string, secrets: SecretStore): Promise<{ core: DeskCore; profileId: string }> {
  const core = await createDeskCore({ dataDir, transport: 'browser', version: 'bench', secrets, tuning: { refreshOnStart: false } });
  const p = await core.handlers['profiles.create'](benchProfile(url));
  return { core, profileId: p.id };
}

/** The account added to an empty cache: its first refresh, timed to its end (done, or thrown). */
async function firstRefresh(core: DeskCore, profileId: string): Promise<{ ms: number; firstRowsMs: number | null; load: number }> {
  const load = load1();
  const first = nextRefresh(core);
  await core.handlers['accounts.add']({ profileId, accountId: ACCOUNT });
  const a = await first.done;
  if (a.last.state !== 'done') throw new Error(`first refresh ended ${a.last.state}: ${a.last.message}`);
  return { ms: a.ms, firstRowsMs: a.firstRowsMs, load };
}

export async function runScale(n: number, rounds = SCALE_ROUNDS): Promise<ScaleRun> {
  const dir = mkdtempSync(join(tmpdir(), 'desk-scale-'));
  const fixtures = join(dir, 'fixtures.json');
  writeBenchFixtures(fixtures, CLIENT, [{ id: ACCOUNT, name: 'Big Shop', campaigns: n, createdAt: '2026-11-19T00:00:00Z' }]);
  const secret = randomBytes(32).toString('base64url');
  const { url, child } = await spawnSandbox(['--fixtures', fixtures], { env: { [CONTROL_SECRET_ENV]: secret }, startWithinMs: 600_000 });
  try {
    const secrets = await createSecretStore({ service: 'Campaign Desk (bench)', keytar: () => Promise.reject(new Error('no keychain')) });
    const run = await runOnce(n, url, join(dir, 'data'), secrets);
    // The other rounds: a plain fetch, then a first refresh into a cache of its own.
    for (let round = 1; round < rounds; round++) {
      const plain = await plainFetchInChild(url, ACCOUNT);
      const dataDir = join(dir, `data-${round}`);
      const { core, profileId } = await openCore(url, dataDir, secrets);
      try {
        const app = await firstRefresh(core, profileId);
        run.rounds.push({ plainMs: plain.ms, appMs: app.ms, appLoad: app.load });
      } finally {
        await core.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
    return run;
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The first round: plain fetch, first refresh, plain fetch again and second refresh, with memory and cache size. */
async function runOnce(n: number, url: string, dataDir: string, secrets: SecretStore): Promise<ScaleRun> {
  const plainLoad = load1();
  const plain = await plainFetchInChild(url, ACCOUNT);
  if (plain.rows !== n) throw new Error(`the plain client read ${plain.rows} of ${n} campaigns`);

  const { core, profileId } = await openCore(url, dataDir, secrets);
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  try {
    const h = core.handlers;
    const a = await firstRefresh(core, profileId);
    const doneAt = performance.now();
    const firstPeakRss = peakRss;
    peakRss = process.memoryUsage().rss;
    const cached = (await h['campaigns.query']({ profileId, accountId: ACCOUNT, offset: 0, limit: 1 })).total;
    const cacheFile = cacheFileOf(join(dataDir, DATABASE_FILE));
    // The writer builds the indexes a first load went without after it is done (cache-writer/worker.ts):
    // the second refresh is measured once they are, as a refresh minutes later would find them.
    await indexesBuilt(cacheFile);
    const indexesMs = performance.now() - doneAt;
    const cacheMb = (fileSize(cacheFile) + fileSize(`${cacheFile}-wal`)) / 2 ** 20;

    const plain2Load = load1();
    const plain2 = await plainFetchInChild(url, ACCOUNT);
    const secondLoad = load1();
    const secondStartRss = process.memoryUsage().rss;
    const peakBefore = peakRss;
    peakRss = secondStartRss;
    const second = nextRefresh(core);
    const cpuBefore = process.cpuUsage();
    await h['sync.refresh']({ profileId, accountId: ACCOUNT });
    const b = await second.done;
    if (b.last.state !== 'done') throw new Error(`second refresh ended ${b.last.state}: ${b.last.message}`);
    const cpu = process.cpuUsage(cpuBefore);
    const secondPeakRss = Math.max(peakRss, process.memoryUsage().rss);
    return {
      campaigns: n,
      plainMs: plain.ms,
      plainFirstByteMs: plain.firstByteMs,
      plainLoad,
      appMs: a.ms,
      appFirstRowsMs: a.firstRowsMs,
      indexesMs,
      appLoad: a.load,
      cached,
      plain2Ms: plain2.ms,
      plain2Load,
      secondMs: b.ms,
      secondLoad,
      secondWritten: b.last.message ?? '',
      firstPeakRssMb: firstPeakRss / 2 ** 20,
      peakRssMb: Math.max(peakBefore, secondPeakRss) / 2 ** 20,
      secondCpuMs: (cpu.user + cpu.system) / 1000,
      secondStartRssMb: secondStartRss / 2 ** 20,
      secondPeakRssMb: secondPeakRss / 2 ** 20,
      plainPeakRssMb: plain.peakRssMb,
      cacheMb,
      rounds: [{ plainMs: plain.ms, appMs: a.ms, appLoad: a.load }],
    };
  } finally {
    clearInterval(sampler);
    await core.close();
  }
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const l = (x: number) => x.toFixed(1);

export function scaleMarkdown(runs: ScaleRun[]): string {
  return [
    '| campaigns | plain fetch (load) | app first refresh (load) | app / plain | app / plain, each round (load) | first rows (plain first byte) | cached | indexes built after | plain fetch again (load) | second refresh (load) | second / plain | second refresh CPU (app process) | peak RSS: app, first refresh and second (plain client) | RSS as the second began, its peak while it ran | cache size |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...runs.map(
      (r) =>
        `| ${r.campaigns.toLocaleString('en')} | ${s(r.plainMs)} (${l(r.plainLoad)}) | ${s(r.appMs)} (${l(r.appLoad)}) | ${(r.appMs / r.plainMs).toFixed(2)}x | ${r.rounds.map((x) => `${(x.appMs / x.plainMs).toFixed(2)}x (${l(x.appLoad)})`).join(', ')} | ${r.appFirstRowsMs === null ? '-' : `${r.appFirstRowsMs.toFixed(0)} ms`} (${r.plainFirstByteMs.toFixed(0)} ms) | ${r.cached.toLocaleString('en')} | ${s(r.indexesMs)} | ${s(r.plain2Ms)} (${l(r.plain2Load)}) | ${s(r.secondMs)} (${l(r.secondLoad)}) | ${(r.secondMs / r.plain2Ms).toFixed(2)}x | ${s(r.secondCpuMs)} | ${r.firstPeakRssMb.toFixed(0)} MB, ${r.peakRssMb.toFixed(0)} MB (${r.plainPeakRssMb.toFixed(0)} MB) | ${r.secondStartRssMb.toFixed(0)} MB, ${r.secondPeakRssMb.toFixed(0)} MB | ${r.cacheMb.toFixed(0)} MB |`,
    ),
  ].join('\n');
}

export async function runScaleBench(sizes = SCALE_SIZES, rounds = SCALE_ROUNDS): Promise<ScaleRun[]> {
  const runs: ScaleRun[] = [];
  // One size after the other, each with its own sandbox and app: their memory does not add up.
  for (const n of sizes) runs.push(await runScale(n, rounds));
  return runs;
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--rounds');
  const rounds = at === -1 ? SCALE_ROUNDS : Number(args.splice(at, 2)[1]);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a whole number of rounds, 1 or more');
  const sizes = args.map(Number).filter((x) => x > 0);
  runScaleBench(sizes.length > 0 ? sizes : SCALE_SIZES, rounds).then(
    (runs) => console.log(scaleMarkdown(runs)),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
