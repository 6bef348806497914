// The campaign grid of a 100,000-campaign account scrolled with the mouse wheel the way a person
// does, in Debian's Chromium against the real app in browser mode: the app's own core caches the
// account from the sandbox (a child process) with its own refresh, then the page is scrolled with
// page.mouse.wheel: slowly and steadily, in fast flings, to the end and back, and the same again
// sorted by another column. The page records its long tasks (PerformanceObserver 'longtask') and,
// every frame while scrolling and once it stops, which rows in view have no content: either no
// row at all (empty space) or a row still waiting for its page of data.
// Run: npx tsx bench/grid-scroll.ts [--renderer DIR=LABEL ...] [--trace DIR] [--cpu-slowdown N]
//      (or: npm run bench -- grid)
// Without --renderer it measures out/renderer (build it first: npx vite build --config
// vite.renderer.config.mts); each --renderer adds a built renderer measured in the same run
// against the same app core and data, e.g. one built from an earlier commit.
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { benchCampaign } from './bench-campaigns';
import { spawnSandbox } from './sandbox-child';
import { createDeskCore, type DeskCore } from '../src/main/app/create-core';
import { startBrowserServer, type BrowserServer } from '../src/main/browser-mode/server';
import { createSecretStore } from '../src/main/secrets';
import { CONTROL_SECRET_ENV, type Fixtures } from '../src/sandbox/index';
import type { SyncProgress } from '../src/shared/ipc/contract';

const ROOT = join(__dirname, '..');
const CLIENT = { id: 'bench-client', secret: 'bench-secret' };
const ACCOUNT = 'bigshop';
const N = 100_000;
const CHROMIUM = '/usr/bin/chromium';

/** One advertiser created before rate limits began (spec 8.1.1), so the refresh is never held back. */
function fixtures(): Fixtures {
  const campaigns: NonNullable<Fixtures['campaigns']> = [];
  for (let i = 0; i < N; i++) {
    campaigns.push(benchCampaign(ACCOUNT, i));
  }
  return {
    now: '2026-11-21T09:00:00Z',
    accounts: [{ account_id: ACCOUNT, name: 'Big Shop', type: 'ADVERTISER', created_at: '2026-09-01T00:00:00Z', features: [] }],
    clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, accounts: [ACCOUNT] }],
    campaigns,
  } as Fixtures;
}

interface App {
  core: DeskCore;
  servers: { label: string; server: BrowserServer }[];
  close(): Promise<void>;
}

/** The sandbox child, an app core that has cached the account with its own refresh, and one page server per renderer. */
async function startApp(renderers: { label: string; dir: string }[]): Promise<App> {
  const work = mkdtempSync(join(tmpdir(), 'desk-bench-grid-'));
  const fxFile = join(work, 'fixtures.json');
  writeFileSync(fxFile, JSON.stringify(fixtures()));
  const { url, child } = await spawnSandbox(['--fixtures', fxFile], {
    env: { [CONTROL_SECRET_ENV]: randomBytes(32).toString('base64url') },
    startWithinMs: 120_000,
  });
  const dataDir = join(work, 'data');
  mkdirSync(dataDir);
  const secrets = await createSecretStore({ service: 'Campaign Desk (bench)', keytar: () => Promise.reject(new Error('no keychain')) });
  const core = await createDeskCore({ dataDir, transport: 'browser', version: 'bench', secrets, tuning: { refreshOnStart: false } });
  const h = core.handlers;
  const p = await h['profiles.create']({
    name: 'Bench',
    baseUrl: url,
    authUrl: url,
    pushUrl: url,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    flow: 'client_credentials',
    redirectUri: null,
  });
  const done = new Promise<SyncProgress>((resolve) =>
    core.events.on('sync.progress', (x: SyncProgress) => {
      if (x.accountId === ACCOUNT && x.state !== 'running') resolve(x);
    }),
  );
  await h['accounts.add']({ profileId: p.id, accountId: ACCOUNT });
  const last = await done;
  if (last.state !== 'done') throw new Error(`the refresh ended ${last.state}: ${last.message}`);
  const cached = (await h['campaigns.query']({ profileId: p.id, accountId: ACCOUNT, offset: 0, limit: 1 })).total;
  if (cached !== N) throw new Error(`the app cached ${cached} campaigns, not ${N}`);
  const servers: App['servers'] = [];
  for (const r of renderers)
    servers.push({
      label: r.label,
      server: await startBrowserServer({ handlers: core.handlers, events: core.events, staticDir: r.dir, log: () => undefined }),
    });
  return {
    core,
    servers,
    close: async () => {
      for (const s of servers) await s.server.close();
      await core.close();
      await stopChild(child);
      rmSync(work, { recursive: true, force: true });
    },
  };
}

const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

// ---- in the page -------------------------------------------------------------------------------
// These functions run inside Chromium (page.evaluate / addInitScript): they use only the DOM.

interface Blank {
  /** Rows in view with no row element at all: empty space. */
  gap: number;
  /** Rows in view still waiting for their data (a placeholder row or an empty name). */
  loading: number;
}

interface Probe {
  longTasks: { start: number; duration: number }[];
  sampling: boolean;
  samples: number;
  gapSamples: number;
  loadingSamples: number;
  maxGapRows: number;
  maxLoadingRows: number;
  /** The longest time between two frames while sampling, and how many frames took over 50 ms. */
  longestFrameMs: number;
  slowFrames: number;
  /** When the grid's scroll position last moved (page clock), and where to. */
  lastMoveAt: number;
  lastTop: number;
  /** The frame since which every row in view has had its content (Infinity while some have not). */
  filledAt: number;
  blankNow(): Blank;
  /** Samples every frame until `sampling` is set false. */
  sample(): void;
  /** Resolves once the grid's scroll position has not moved for `frames` frames. */
  whenStill(frames: number): Promise<void>;
  /** The name in the first row in the DOM. */
  firstName(): string | null;
}

// The page's DOM as this file uses it: the Node program that type-checks bench/ has no DOM types,
// and the functions below run in Chromium, where these are the real objects.
interface PageElement {
  offsetHeight: number;
  scrollTop: number;
  clientHeight: number;
  scrollHeight: number;
  textContent: string | null;
  classList: { contains(name: string): boolean };
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
}
interface PageWindow {
  document: { querySelector(selector: string): PageElement | null };
  requestAnimationFrame(fn: (at: number) => void): number;
  performance: { now(): number };
  PerformanceObserver: new (fn: (list: { getEntries(): { startTime: number; duration: number }[] }) => void) => {
    observe(o: { type: string; buffered: boolean }): void;
  };
  __gridProbe?: Probe;
}

/** Installed before the app loads (addInitScript): every long task of the page, and the blank-row sampler. */
function installProbe(): void {
  const win = globalThis as unknown as PageWindow;
  const blankNow = (): Blank => {
    const grid = win.document.querySelector('[data-testid="campaign-grid"]');
    if (!grid) return { gap: 0, loading: 0 };
    const header = grid.querySelector('.vg-header')?.offsetHeight ?? 0;
    const rowCount = Number(grid.getAttribute('aria-rowcount')) - 1;
    const rows = new Map<number, PageElement>();
    for (const el of grid.querySelectorAll('.vg-body > [role="row"]')) rows.set(Number(el.getAttribute('aria-rowindex')) - 2, el);
    const rowHeight = rows.values().next().value?.offsetHeight ?? 28;
    const top = grid.scrollTop;
    const bottom = top + grid.clientHeight - header;
    let gap = 0;
    let loading = 0;
    for (let i = Math.floor(top / rowHeight); i < Math.min(rowCount, Math.ceil(bottom / rowHeight)); i++) {
      const el = rows.get(i);
      if (!el) gap += 1;
      else if (el.classList.contains('is-loading') || !el.querySelector('[data-testid="cell-name"]')?.textContent) loading += 1;
    }
    return { gap, loading };
  };
  const probe: Probe = {
    longTasks: [],
    sampling: false,
    samples: 0,
    gapSamples: 0,
    loadingSamples: 0,
    maxGapRows: 0,
    maxLoadingRows: 0,
    longestFrameMs: 0,
    slowFrames: 0,
    lastMoveAt: 0,
    lastTop: -1,
    filledAt: 0,
    blankNow,
    sample() {
      Object.assign(probe, {
        sampling: true,
        filledAt: 0,
        samples: 0,
        gapSamples: 0,
        loadingSamples: 0,
        maxGapRows: 0,
        maxLoadingRows: 0,
        longestFrameMs: 0,
        slowFrames: 0,
      });
      let last = 0;
      const frame = (at: number) => {
        if (!probe.sampling) return;
        if (last > 0) {
          probe.longestFrameMs = Math.max(probe.longestFrameMs, at - last);
          if (at - last > 50) probe.slowFrames += 1;
        }
        last = at;
        const top = win.document.querySelector('[data-testid="campaign-grid"]')?.scrollTop ?? 0;
        if (top !== probe.lastTop) {
          probe.lastTop = top;
          probe.lastMoveAt = at;
        }
        const b = blankNow();
        if (b.gap + b.loading > 0) probe.filledAt = Infinity;
        else if (probe.filledAt === Infinity) probe.filledAt = at;
        probe.samples += 1;
        if (b.gap > 0) probe.gapSamples += 1;
        if (b.loading > 0) probe.loadingSamples += 1;
        probe.maxGapRows = Math.max(probe.maxGapRows, b.gap);
        probe.maxLoadingRows = Math.max(probe.maxLoadingRows, b.loading);
        win.requestAnimationFrame(frame);
      };
      win.requestAnimationFrame(frame);
    },
    whenStill: (frames) =>
      new Promise<void>((resolve) => {
        const grid = win.document.querySelector('[data-testid="campaign-grid"]')!;
        let last = grid.scrollTop;
        let still = 0;
        const tick = () => {
          if (grid.scrollTop !== last) {
            last = grid.scrollTop;
            still = 0;
          } else if (++still >= frames) return resolve();
          win.requestAnimationFrame(tick);
        };
        win.requestAnimationFrame(tick);
      }),
    firstName: () => win.document.querySelector('[data-testid="cell-name"]')?.textContent ?? null,
  };
  win.__gridProbe = probe;
  new win.PerformanceObserver((list) => {
    for (const e of list.getEntries()) probe.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
}

// ---- scenarios ---------------------------------------------------------------------------------

interface ScenarioResult {
  renderer: string;
  scenario: string;
  ms: number;
  longTasks: number;
  longestMs: number;
  samples: number;
  gapSamples: number;
  maxGapRows: number;
  loadingSamples: number;
  maxLoadingRows: number;
  longestFrameMs: number;
  slowFrames: number;
  /** How long after the scroll position last moved every row in view had its content (0: it never lacked any). */
  filledMs: number;
}

const pause = (page: Page, ms: number) => page.waitForTimeout(ms);

/** Samples every frame while `scroll` runs, then waits for the grid to stop and for every row in view to be filled. */
async function measure(page: Page, renderer: string, scenario: string, scroll: () => Promise<void>): Promise<ScenarioResult> {
  const t0 = await page.evaluate(() => {
    (globalThis as unknown as PageWindow).__gridProbe!.sample();
    return performance.now();
  });
  const started = Date.now();
  await scroll();
  // Stopped: the scroll position has not moved for 10 frames.
  await page.evaluate(() => (globalThis as unknown as PageWindow).__gridProbe!.whenStill(10));
  const ms = Date.now() - started;
  // Every row in view filled: how long after the scroll position last moved.
  await page.waitForFunction(
    () => {
      const b = (globalThis as unknown as PageWindow).__gridProbe!.blankNow();
      return b.gap === 0 && b.loading === 0;
    },
    undefined,
    { timeout: 30_000, polling: 'raf' },
  );
  const filledMs = await page.evaluate(() => {
    const p = (globalThis as unknown as PageWindow).__gridProbe!;
    p.sampling = false;
    return Math.max(0, p.filledAt - p.lastMoveAt);
  });
  const probe = await page.evaluate((since) => {
    const { longTasks, samples, gapSamples, loadingSamples, maxGapRows, maxLoadingRows, longestFrameMs, slowFrames } = (
      globalThis as unknown as PageWindow
    ).__gridProbe!;
    return {
      longTasks: longTasks.filter((t) => t.start >= since),
      samples,
      gapSamples,
      loadingSamples,
      maxGapRows,
      maxLoadingRows,
      longestFrameMs,
      slowFrames,
    };
  }, t0);
  return {
    renderer,
    scenario,
    ms,
    longTasks: probe.longTasks.filter((t) => t.duration > 50).length,
    longestMs: Math.max(0, ...probe.longTasks.map((t) => t.duration)),
    samples: probe.samples,
    gapSamples: probe.gapSamples,
    maxGapRows: probe.maxGapRows,
    loadingSamples: probe.loadingSamples,
    maxLoadingRows: probe.maxLoadingRows,
    longestFrameMs: probe.longestFrameMs,
    slowFrames: probe.slowFrames,
    filledMs,
  };
}

/** Wheel notches of `delta` pixels, one every `everyMs`. */
async function wheel(page: Page, notches: number, delta: number, everyMs: number): Promise<void> {
  for (let i = 0; i < notches; i++) {
    await page.mouse.wheel(0, delta);
    await pause(page, everyMs);
  }
}

const scrollTop = (page: Page) => page.getByTestId('campaign-grid').evaluate((el) => el.scrollTop);
const atBottom = (page: Page) => page.getByTestId('campaign-grid').evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 1);

async function toTop(page: Page): Promise<void> {
  await page.getByTestId('campaign-grid').evaluate((el) => (el.scrollTop = 0));
  await page.getByTestId('cell-name').first().waitFor();
}

/** One pass of every way of scrolling, from the top. */
async function scenarios(page: Page, renderer: string, suffix: string): Promise<ScenarioResult[]> {
  const out: ScenarioResult[] = [];
  await toTop(page);
  // Slow, steady reading: a notch (100 px) about every 60 ms for 9 seconds.
  out.push(await measure(page, renderer, `steady wheel${suffix}`, () => wheel(page, 150, 100, 60)));
  // Fast flings: bursts of 25 big steps 8 ms apart (15,000 px each), a short rest between.
  out.push(
    await measure(page, renderer, `flings${suffix}`, async () => {
      for (let b = 0; b < 10; b++) {
        await wheel(page, 25, 600, 8);
        await pause(page, 250);
      }
    }),
  );
  // To the end of all 100,000 rows and back to the top with long, fast flings.
  await toTop(page);
  out.push(
    await measure(page, renderer, `to the end and back${suffix}`, async () => {
      for (let guard = 0; guard < 2000 && !(await atBottom(page)); guard++) await page.mouse.wheel(0, 20_000);
      for (let guard = 0; guard < 2000 && (await scrollTop(page)) > 0; guard++) await page.mouse.wheel(0, -20_000);
    }),
  );
  // A long fast fling that comes to rest in the middle, where no rows were loaded yet.
  out.push(
    await measure(page, renderer, `long fling stopping mid-list${suffix}`, async () => {
      const middle = await page.getByTestId('campaign-grid').evaluate((el) => (el.scrollHeight - el.clientHeight) * 0.45);
      for (let guard = 0; guard < 2000 && (await scrollTop(page)) < middle; guard++) await page.mouse.wheel(0, 20_000);
    }),
  );
  return out;
}

interface Options {
  /** Write a Chromium performance trace per renderer here (open it in DevTools' Performance panel). */
  traceDir: string | null;
  /** Chromium's CPU throttling (DevTools' "4x slowdown"): a slower machine than this one. */
  cpuSlowdown: number;
}

async function measureRenderer(browser: Browser, label: string, server: BrowserServer, opts: Options): Promise<ScenarioResult[]> {
  const { traceDir } = opts;
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  if (opts.cpuSlowdown > 1)
    await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: opts.cpuSlowdown });
  if (traceDir) await browser.startTracing(page, { path: join(traceDir, `${label.replace(/\W+/g, '-')}.json`), screenshots: false });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // tsx (esbuild, keepNames) wraps named functions in __name(...): the page needs it to run ours.
  await page.addInitScript(() => ((globalThis as unknown as { __name: unknown }).__name = (fn: unknown) => fn));
  await page.addInitScript(installProbe);
  await page.goto(server.openUrl);
  await page.getByTestId(`account-${ACCOUNT}`).click({ timeout: 60_000 });
  await page.getByTestId('cell-name').first().waitFor({ timeout: 60_000 });
  const grid = page.getByTestId('campaign-grid');
  const box = (await grid.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const out = await scenarios(page, label, '');
  // Sorted by name, Z to A (a second click): the cache answers from another index, deep pages cost more.
  const firstName = await page.getByTestId('cell-name').first().textContent();
  await page.getByTestId('sort-name').click();
  await page.getByTestId('head-name').and(page.locator('[aria-sort="ascending"]')).waitFor();
  await page.getByTestId('sort-name').click();
  await page.waitForFunction((before) => (globalThis as unknown as PageWindow).__gridProbe!.firstName() !== before, firstName);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  out.push(...(await scenarios(page, label, ', sorted by name Z-A')));
  // Leave the view as it was found for the next renderer (the sort is saved with the account's view).
  await page.getByTestId('sort-name').click();
  await page.getByTestId('head-name').and(page.locator('[aria-sort="none"]')).waitFor();
  if (traceDir) await browser.stopTracing();
  await page.close();
  if (errors.length > 0) throw new Error(`${label}: the page reported errors: ${errors.join('; ')}`);
  return out;
}

export async function runGridScrollBench(
  renderers = [{ label: 'this grid', dir: join(ROOT, 'out', 'renderer') }],
  opts: Options = { traceDir: null, cpuSlowdown: 1 },
): Promise<ScenarioResult[]> {
  for (const r of renderers) {
    if (!existsSync(join(r.dir, 'index.html')))
      throw new Error(`No built renderer in ${r.dir}: run npx vite build --config vite.renderer.config.mts first.`);
  }
  const app = await startApp(renderers);
  process.env.XDG_CONFIG_HOME = mkdtempSync(join(tmpdir(), 'desk-chromium-'));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
  try {
    const out: ScenarioResult[] = [];
    for (const s of app.servers) out.push(...(await measureRenderer(browser, s.label, s.server, opts)));
    return out;
  } finally {
    await browser.close();
    await app.close();
  }
}

const f = (n: number, d = 0) => n.toFixed(d);

export function gridScrollMarkdown(rows: ScenarioResult[]): string {
  const multi = new Set(rows.map((r) => r.renderer)).size > 1;
  return [
    `| ${multi ? 'grid | ' : ''}scrolling | time | long tasks > 50 ms | longest task | frames | longest frame | frames > 50 ms | frames with empty space (most rows) | frames with rows waiting for data (most rows) | rows in view filled after the last move |`,
    `|${multi ? '---|' : ''}---|---:|---:|---:|---:|---:|---:|---:|---:|---:|`,
    ...rows.map(
      (r) =>
        `| ${multi ? `${r.renderer} | ` : ''}${r.scenario} | ${f(r.ms / 1000, 1)} s | ${r.longTasks} | ${r.longestMs ? `${f(r.longestMs)} ms` : 'none'} | ${r.samples} | ${f(r.longestFrameMs)} ms | ${r.slowFrames} | ${r.gapSamples} (${r.maxGapRows}) | ${r.loadingSamples} (${r.maxLoadingRows}) | ${f(r.filledMs)} ms |`,
    ),
  ].join('\n');
}

function parseArgs(argv: string[]): { renderers: { label: string; dir: string }[]; opts: Options } {
  const out: { label: string; dir: string }[] = [];
  let traceDir: string | null = null;
  let cpuSlowdown = 1;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--cpu-slowdown') {
      cpuSlowdown = Number(argv[++i]);
      if (!(cpuSlowdown >= 1)) throw new Error('--cpu-slowdown needs a factor of 1 or more, e.g. 4.');
      continue;
    }
    if (argv[i] === '--trace') {
      traceDir = argv[++i] ?? null;
      if (!traceDir) throw new Error('--trace needs a directory to write the traces in.');
      continue;
    }
    if (argv[i] !== '--renderer') throw new Error(`Unknown option ${argv[i]}. Use --renderer DIR=LABEL, --trace DIR and --cpu-slowdown N.`);
    const [dir, label] = (argv[++i] ?? '').split('=');
    if (!dir || !label) throw new Error('--renderer needs DIR=LABEL, e.g. --renderer /tmp/old/out/renderer=previous');
    out.push({ dir, label });
  }
  return { renderers: out, opts: { traceDir, cpuSlowdown } };
}

if (require.main === module) {
  const { renderers, opts } = parseArgs(process.argv.slice(2));
  runGridScrollBench(renderers.length > 0 ? renderers : undefined, opts).then(
    (rows) => console.log(gridScrollMarkdown(rows)),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
