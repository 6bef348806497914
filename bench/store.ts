// Store benchmark: 100,000 campaigns in one account. Full refresh (first load, unchanged, partly
// changed), screen queries (every sort both ways, status and text filters, first and deep pages)
// and the longest single synchronous call, which is what freezes the main process.
// Run: npx tsx bench/store.ts [rows]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { SORTABLE_CAMPAIGN_FIELDS, type Campaign } from '../src/shared/domain/campaign';
import { openStore, type CampaignQuery, type Store } from '../src/main/store';
import { mulberry32 } from '../src/sandbox/random';
import { syntheticCampaigns } from '../test/fixtures/campaigns';

export interface QueryGroupStats {
  group: string;
  runs: number;
  p50: number;
  p95: number;
  max: number;
}

export interface StoreBenchResult {
  rows: number;
  pageSize: number;
  /** First load until finish() resolves: every row stored, every sorted page served (from memory). */
  firstRefreshMs: number;
  /** First load until the background index builds are done as well. */
  firstIndexesMs: number;
  /** JSON.parse of the first load's pages: the service client's work, left out of the refresh times. */
  firstParseMs: number;
  /** Longest of the queries made right after the first load, before the indexes exist. */
  firstLoadQueryMaxMs: number;
  firstRefreshAllFullMs: number | null;
  unchangedRefreshMs: number;
  spentRefreshMs: number;
  changedRefreshMs: number;
  /** Longest synchronous part of an applyPage of each refresh (the event loop is held for that long). */
  longestPageMs: { first: number; firstAllFull: number | null; unchanged: number; spent: number; changed: number };
  queryGroups: QueryGroupStats[];
  queryAll: QueryGroupStats;
  longestSyncCall: { label: string; ms: number };
}

export interface StoreBenchOptions {
  rows?: number;
  pageSize?: number;
  /** Also time the first refresh with every page committed FULL, to show what cacheTx's NORMAL saves. */
  compareSynchronous?: boolean;
  log?: (line: string) => void;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function stats(group: string, times: number[]): QueryGroupStats {
  const s = [...times].sort((a, b) => a - b);
  return { group, runs: s.length, p50: percentile(s, 50), p95: percentile(s, 95), max: s[s.length - 1] ?? 0 };
}

const REF = { profileId: 'bench', accountId: 'acmeads' };

function setup(file: string, cacheCommitSync?: 'FULL' | 'NORMAL'): Store {
  const store = openStore({ file, cacheCommitSync });
  store.profiles.create({
    id: 'bench',
    name: 'Bench',
    baseUrl: 'https://api.example.test',
    authUrl: 'https://auth.example.test',
    pushUrl: 'https://push.example.test',
    clientId: 'bench-client',
    flow: 'client_credentials',
  });
  store.accounts.add({ ...REF, type: 'ADVERTISER', name: 'Acme Ads' });
  return store;
}

export async function runStoreBench(opts: StoreBenchOptions = {}): Promise<StoreBenchResult> {
  const rows = opts.rows ?? 100_000;
  const pageSize = opts.pageSize ?? 1000;
  const log = opts.log ?? (() => {});
  const dir = mkdtempSync(join(tmpdir(), 'desk-store-bench-'));
  let longest = { label: '', ms: 0 };
  const timed = <T>(label: string, fn: () => T): { value: T; ms: number } => {
    const t = performance.now();
    const value = fn();
    const ms = performance.now() - t;
    if (ms > longest.ms) longest = { label, ms };
    return { value, ms };
  };

  const pageMs = new Map<string, number>();
  /**
   * One full refresh; `pages` are JSON text, as they come off the wire, parsed one by one. A first
   * load writes each page before applyPage returns: its time is the wall time from beginRefresh()
   * until finish() resolves less the JSON.parse of each page (the service client's work, reported
   * apart). A refresh of a cached account writes on the store worker while the next page is
   * parsed and compared, as the app fetches the next page meanwhile: its time is the wall time,
   * parse included.
   */
  async function refresh(store: Store, pages: readonly string[], label: string): Promise<number> {
    const t = performance.now();
    let parseMs = 0;
    const firstLoad = store.campaigns.count(REF) === 0;
    const r = store.campaigns.beginRefresh(REF);
    for (const text of pages) {
      const p = performance.now();
      const page = JSON.parse(text) as Campaign[];
      parseMs += performance.now() - p;
      // A page's write is one transaction on the event loop (the app writes batches sized to ~12 ms).
      const { ms } = timed(`${label}: applyPage`, () => r.applyPage(page));
      pageMs.set(label, Math.max(pageMs.get(label) ?? 0, ms));
      // Pages arrive from the network in the app: let the event loop turn between them.
      await nextTurn();
    }
    // finish() yields between its steps; the longest time the event loop was held is its cost.
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    await r.finish();
    loop.disable();
    const finishStepMs = loop.max / 1e6;
    if (finishStepMs > longest.ms) longest = { label: `${label}: finish (longest step)`, ms: finishStepMs };
    parseTotals.set(label, parseMs);
    return performance.now() - t - (firstLoad ? parseMs : 0);
  }
  const parseTotals = new Map<string, number>();
  // Pages are kept as text, not as 100,000 live objects: those would make every major garbage
  // collection during the refresh mark a heap the app never has (a page is parsed, cached, dropped).
  const asPages = (data: readonly Campaign[]): string[] => {
    const out: string[] = [];
    for (let i = 0; i < data.length; i += pageSize) out.push(JSON.stringify(data.slice(i, i + pageSize)));
    return out;
  };

  try {
    // The four listings the refreshes below receive, made up front.
    const data = syntheticCampaigns(rows);
    const firstPages = asPages(data);
    // The everyday refresh: campaigns that ran since the last one show a new spent, nothing else.
    const rndSpent = mulberry32(11);
    const spentPages = asPages(data.map((c) => (rndSpent() < 0.5 ? { ...c, spent: (c.spent ?? 0) + 1 } : c)));
    // 10% of campaigns changed, 1% gone, 1% new.
    const rnd = mulberry32(7);
    const changedPages = asPages(
      data
        .filter(() => rnd() >= 0.01)
        .map((c) => (rnd() < 0.1 ? { ...c, status: 'PAUSED', spent: (c.spent ?? 0) + 1 } : c))
        .concat(syntheticCampaigns(Math.round(rows / 100), { seed: 9, firstId: 9_000_000 })),
    );
    data.length = 0;
    let firstRefreshAllFullMs: number | null = null;
    if (opts.compareSynchronous) {
      const full = setup(join(dir, 'full.db'), 'FULL');
      firstRefreshAllFullMs = await refresh(full, firstPages, 'first refresh (pages FULL)');
      full.close();
      longest = { label: '', ms: 0 };
      log(`first refresh, pages committed FULL: ${firstRefreshAllFullMs.toFixed(0)} ms`);
    }

    const store = setup(join(dir, 'store.db'));
    const firstStarted = performance.now();
    const firstRefreshMs = await refresh(store, firstPages, 'first refresh');
    log(`first refresh: ${firstRefreshMs.toFixed(0)} ms`);
    // What a person does at that moment: sort by each column, jump deep, filter. These run while
    // the indexes are still being built.
    let firstLoadQueryMaxMs = 0;
    for (const field of SORTABLE_CAMPAIGN_FIELDS) {
      for (const q of [{ offset: 0 }, { offset: Math.floor(rows / 2) }, { offset: 0, statuses: ['PAUSED'] }, { offset: 0, text: 'spring' }]) {
        const { ms } = timed('query right after a first load', () =>
          store.campaigns.query({ ...REF, limit: 50, sort: { field, direction: 'desc' }, ...q }),
        );
        firstLoadQueryMaxMs = Math.max(firstLoadQueryMaxMs, ms);
      }
      await nextTurn();
    }
    const firstParseMs = parseTotals.get('first refresh') ?? 0;
    const firstIndexesMs = performance.now() - firstStarted - firstParseMs;
    log(`first refresh, indexes built: ${firstIndexesMs.toFixed(0)} ms; queries meanwhile at most ${firstLoadQueryMaxMs.toFixed(0)} ms`);
    const unchangedRefreshMs = await refresh(store, firstPages, 'unchanged refresh');
    log(`unchanged refresh: ${unchangedRefreshMs.toFixed(0)} ms`);
    const spentRefreshMs = await refresh(store, spentPages, 'spent refresh');
    log(`spent refresh: ${spentRefreshMs.toFixed(0)} ms`);
    const changedRefreshMs = await refresh(store, changedPages, 'changed refresh');
    log(`changed refresh: ${changedRefreshMs.toFixed(0)} ms`);

    const total = store.campaigns.count(REF);
    const deep = Math.max(0, total - 50);
    const groups = new Map<string, number[]>();
    const run = (group: string, q: Omit<CampaignQuery, 'profileId' | 'accountId'>) => {
      for (let k = 0; k < 3; k++) {
        const { ms } = timed(`query ${group}`, () => store.campaigns.query({ ...REF, limit: 50, ...q }));
        const list = groups.get(group) ?? [];
        list.push(ms);
        groups.set(group, list);
      }
    };
    for (const field of SORTABLE_CAMPAIGN_FIELDS) {
      for (const direction of ['asc', 'desc'] as const) {
        run('sort, first page', { sort: { field, direction }, offset: 0 });
        run('sort, middle page', { sort: { field, direction }, offset: Math.floor(total / 2) });
        run('sort, last page', { sort: { field, direction }, offset: deep });
      }
    }
    for (const statuses of [['PAUSED'], ['APPROVED', 'REJECTED']]) {
      for (const field of ['name', 'spent', 'start_date'] as const) {
        run('status filter, first page', { statuses, sort: { field, direction: 'asc' }, offset: 0 });
        run('status filter, deep page', { statuses, sort: { field, direction: 'desc' }, offset: 20_000 });
      }
    }
    for (const text of ['spring', 'acme promo', '4012345', 'überraschung', 'no such campaign', 'ca']) {
      run('text filter', { text, sort: { field: 'name', direction: 'asc' }, offset: 0 });
      run('text filter', { text, sort: { field: 'spent', direction: 'desc' }, offset: 0 });
      run('text + status filter', { text, statuses: ['APPROVED'], sort: { field: 'name', direction: 'asc' } });
    }
    const queryGroups = [...groups].map(([g, t]) => stats(g, t));
    const queryAll = stats('all queries', [...groups.values()].flat());
    store.close();
    return {
      rows,
      pageSize,
      firstRefreshMs,
      firstIndexesMs,
      firstParseMs,
      firstLoadQueryMaxMs,
      firstRefreshAllFullMs,
      unchangedRefreshMs,
      spentRefreshMs,
      changedRefreshMs,
      longestPageMs: {
        first: pageMs.get('first refresh') ?? 0,
        firstAllFull: pageMs.get('first refresh (pages FULL)') ?? null,
        unchanged: pageMs.get('unchanged refresh') ?? 0,
        spent: pageMs.get('spent refresh') ?? 0,
        changed: pageMs.get('changed refresh') ?? 0,
      },
      queryGroups,
      queryAll,
      longestSyncCall: longest,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function storeBenchMarkdown(r: StoreBenchResult): string {
  const f = (n: number) => n.toFixed(n < 10 ? 2 : 0);
  const lines = [
    `### Store: ${r.rows.toLocaleString('en')} campaigns in one account (pages of ${r.pageSize})`,
    '',
    '| Refresh | ms | longest event-loop hold of a page write, ms |',
    '|---|---:|---:|',
    `| first load (empty cache: bulk load), until every sorted page is served (from in-memory orders), pages committed NORMAL (the app's setting) | ${f(r.firstRefreshMs)} | ${f(r.longestPageMs.first)} |`,
    `| first load, until its 17 indexes are built in the background as well | ${f(r.firstIndexesMs)} | |`,
    ...(r.firstRefreshAllFullMs === null
      ? []
      : [`| first load, pages committed FULL (comparison) | ${f(r.firstRefreshAllFullMs)} | ${f(r.longestPageMs.firstAllFull ?? 0)} |`]),
    `| unchanged | ${f(r.unchangedRefreshMs)} | ${f(r.longestPageMs.unchanged)} |`,
    `| spent changed on half of the campaigns (a daily refresh) | ${f(r.spentRefreshMs)} | ${f(r.longestPageMs.spent)} |`,
    `| 10% changed (status and spent), 1% removed, 1% new | ${f(r.changedRefreshMs)} | ${f(r.longestPageMs.changed)} |`,
    '',
    `Refresh times run from beginRefresh() until finish() resolves, pages arriving one by one with the event loop turning between them. The first load's leave out the JSON.parse of each page, the service client's work (${f(r.firstParseMs)} ms for its pages); the later refreshes write each page on the store worker while the next is parsed, and their times include the parse.`,
    '',
    `Right after the first load, before its indexes exist: ${SORTABLE_CAMPAIGN_FIELDS.length * 4} queries (every sort, first and middle page, status and text filters), the longest ${f(r.firstLoadQueryMaxMs)} ms.`,
    '',
    '| Query (limit 50), indexes built | runs | p50 ms | p95 ms | max ms |',
    '|---|---:|---:|---:|---:|',
    ...[...r.queryGroups, r.queryAll].map((g) => `| ${g.group} | ${g.runs} | ${f(g.p50)} | ${f(g.p95)} | ${f(g.max)} |`),
    '',
    `Longest single synchronous call: ${f(r.longestSyncCall.ms)} ms (${r.longestSyncCall.label}).`,
  ];
  return lines.join('\n');
}

if (process.argv[1] && /bench[\\/]store\.ts$/.test(process.argv[1])) {
  const rows = process.argv[2] ? Number(process.argv[2]) : undefined;
  runStoreBench({ rows, compareSynchronous: true, log: (l) => console.error(l) })
    .then((r) => console.log(storeBenchMarkdown(r)))
    .catch((e) => {
      console.error(e);
      process.exitCode = 1;
    });
}
