// The campaign grid of a 100,000-campaign account (or --rows N) scrolled with the mouse wheel the
// way a person does, in Debian's Chromium against the real app in browser mode: the app's own core
// caches the account from the sandbox (a child process) with its own refresh, then the page is
// scrolled with page.mouse.wheel: slowly and steadily, in fast flings, to the end and back, End and
// Home, and the same again sorted by another column; the switch to a small account and back is
// timed. The page records its long tasks (PerformanceObserver 'longtask') and, every frame while
// scrolling and once it stops, which rows in view have no content: either no row at all (empty
// space) or a row still waiting for its page of data.
// Run: npx tsx bench/grid-scroll.ts [--rows N] [--unsorted-only] [--renderer DIR=LABEL ...] [--trace DIR] [--cpu-slowdown N]
//      (or: npm run bench -- grid)
// Without --renderer it measures out/renderer (build it first: npx vite build --config
// vite.renderer.config.mts); each --renderer adds a built renderer measured in the same run
// against the same app core and data, e.g. one built from an earlier commit.
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { writeBenchFixtures, type BenchAccount } from './bench-campaigns';
import { benchProfile, CLIENT } from './refresh';
import { spawnSandbox } from './sandbox-child';
import { createDeskCore, type DeskCore } from '../src/main/app/create-core';
import { startBrowserServer, type BrowserServer } from '../src/main/browser-mode/server';
import { createSecretStore } from '../src/main/secrets';
import { CONTROL_SECRET_ENV } from '../src/sandbox/index';
import type { SyncProgress } from '../src/shared/ipc/contract';

const ROOT = join(__dirname, '..');
const ACCOUNT = 'bigshop';
const CHROMIUM = '/usr/bin/chromium';

/** A second, small account: switching to it and back is measured. */
const SMALL = { id: 'smallshop', name: 'Small Shop', campaigns: 2_000 };

/** Advertisers created before rate limits began (spec 8.1.1), so the refresh is never held back. */
const benchAccounts = (rows: number): BenchAccount[] => [
  { id: ACCOUNT, name: 'Big Shop', campaigns: rows, createdAt: '2026-09-01T00:00:00Z' },
  { ...SMALL, createdAt: '2026-09-01T00:00:00Z' },
];

interface App {
  core: DeskCore;
  servers: { label: string; server: BrowserServer }[];
  close(): Promise<void>;
}

/** The sandbox child, an app core that has cached the account with its own refresh, and one page server per renderer. */
async function startApp(renderers: { label: string; dir: string }[], rows: number): Promise<App> {
  const work = mkdtempSync(join(tmpdir(), 'desk-bench-grid-'));
  const fxFile = join(work, 'fixtures.json');
  const accounts = benchAccounts(rows);
  writeBenchFixtures(fxFile, CLIENT, accounts);
  const { url, child } = await spawnSandbox(['--fixtures', fxFile], {
    env: { [CONTROL_SECRET_ENV]: randomBytes(32).toString('base64url') },
    startWithinMs: 600_000,
  });
  const dataDir = join(work, 'data');
  mkdirSync(dataDir);
  const secrets = await createSecretStore({ service: 'Campaign Desk (bench)', keytar: () => Promise.reject(new Error('no keychain')) });
  const core = await createDeskCore({ dataDir, transport: 'browser', version: 'bench', secrets, tuning: { refreshOnStart: false } });
  const h = core.handlers;
  const p = await h['profiles.create'](benchProfile(url));
  for (const a of accounts) {
    const done = new Promise<SyncProgress>((resolve) =>
      core.events.on('sync.progress', (x: SyncProgress) => {
        if (x.accountId === a.id && x.state !== 'running') resolve(x);
      }),
    );
    await h['accounts.add']({ profileId: p.id, accountId: a.id });
    const last = await done;
    if (last.state !== 'done') throw new Error(`the refresh of ${a.id} ended ${last.state}: ${last.message}`);
    const cached = (await h['campaigns.query']({ profileId: p.id, accountId: a.id, offset: 0, limit: 1 })).total;
    if (cached !== a.campaigns) throw new Error(`the app cached ${cached} campaigns of ${a.id}, not ${a.campaigns}`);
  }
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
  /** The list's last row is wholly in view, with its content. */
  lastShown: boolean;
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
  getBoundingClientRect(): { top: number; bottom: number };
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
  // From where the rows are drawn, not from row index times row height: a grid may scale its
  // scroll space (a list taller than the browser allows an element to be).
  const blankNow = (): Blank => {
    const grid = win.document.querySelector('[data-testid="campaign-grid"]');
    if (!grid) return { gap: 0, loading: 0, lastShown: false };
    const header = grid.querySelector('.vg-header')?.offsetHeight ?? 0;
    const rowCount = Number(grid.getAttribute('aria-rowcount')) - 1;
    const box = grid.getBoundingClientRect();
    const viewTop = box.top + header;
    const viewBottom = Math.min(box.top + grid.clientHeight, grid.querySelector('.vg-body')?.getBoundingClientRect().bottom ?? Infinity);
    const rows: { top: number; bottom: number; index: number; el: PageElement }[] = [];
    for (const el of grid.querySelectorAll('.vg-body > [role="row"]')) {
      const r = el.getBoundingClientRect();
      if (r.bottom > viewTop && r.top < viewBottom)
        rows.push({ top: r.top, bottom: r.bottom, index: Number(el.getAttribute('aria-rowindex')) - 2, el });
    }
    rows.sort((x, y) => x.top - y.top);
    const rowHeight = rows[0] ? rows[0].bottom - rows[0].top : 28;
    let gap = 0;
    let loading = 0;
    let covered = viewTop;
    let lastShown = false;
    for (const r of rows) {
      if (r.top > covered + 0.5) gap += Math.ceil((r.top - covered) / rowHeight);
      covered = Math.max(covered, r.bottom);
      if (r.el.classList.contains('is-loading') || !r.el.querySelector('[data-testid="cell-name"]')?.textContent) loading += 1;
      else if (r.index === rowCount - 1 && r.top >= viewTop - 0.5 && r.bottom <= box.top + grid.clientHeight + 0.5) lastShown = true;
    }
    if (rowCount > 0 && covered < viewBottom - 0.5) gap += Math.ceil((viewBottom - covered) / rowHeight);
    return { gap, loading, lastShown };
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
  /** The machine's 1-minute load average when the scenario ended. */
  load: number;
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
    load: loadavg()[0],
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
  // To the end of the list and back to the top with long, fast flings: steps of 20,000 px, or
  // more on a list so long that would take over 100 steps.
  await toTop(page);
  const step = await page.getByTestId('campaign-grid').evaluate((el) => Math.max(20_000, Math.ceil(el.scrollHeight / 100)));
  out.push(
    await measure(page, renderer, `to the end and back${suffix}`, async () => {
      for (let guard = 0; guard < 2000 && !(await atBottom(page)); guard++) await page.mouse.wheel(0, step);
      for (let guard = 0; guard < 2000 && (await scrollTop(page)) > 0; guard++) await page.mouse.wheel(0, -step);
    }),
  );
  // The End key from the top: one jump to the last row, then Home back (a grid that never shows
  // the last row wholly is said so in the scenario's name).
  let endNote = '';
  out.push(
    await measure(page, renderer, `End, then Home${suffix}`, async () => {
      await page.getByTestId('campaign-grid').focus();
      await page.keyboard.press('End');
      await page
        .waitForFunction(() => (globalThis as unknown as PageWindow).__gridProbe!.blankNow().lastShown, undefined, { timeout: 10_000 })
        .catch(() => (endNote = ' (the last row was never wholly in view)'));
      await page.keyboard.press('Home');
    }),
  );
  out[out.length - 1].scenario += endNote;
  // A long fast fling that comes to rest in the middle, where no rows were loaded yet.
  out.push(
    await measure(page, renderer, `long fling stopping mid-list${suffix}`, async () => {
      const middle = await page.getByTestId('campaign-grid').evaluate((el) => (el.scrollHeight - el.clientHeight) * 0.45);
      for (let guard = 0; guard < 2000 && (await scrollTop(page)) < middle; guard++) await page.mouse.wheel(0, step);
    }),
  );
  return out;
}

interface SwitchResult {
  renderer: string;
  to: string;
  rows: number;
  /** From the click on the account in the sidebar to the frame that paints its first rows, per try. */
  ms: number[];
  longTasks: number;
  longestMs: number;
  load: number;
}

/**
 * Clicks the account in the sidebar and times, in the page, from the click event to the first
 * animation frame whose DOM has the account's row count and every row in view filled (that frame
 * paints them).
 */
async function switchTo(
  page: Page,
  accountId: string,
  rows: number,
): Promise<{ ms: number; longTasks: { start: number; duration: number }[] }> {
  const armed = page.evaluate(
    ({ id, rows }) =>
      new Promise<{ ms: number; since: number }>((resolve) => {
        const win = globalThis as unknown as PageWindow & {
          document: { addEventListener(t: string, fn: (e: { timeStamp: number; target: unknown }) => void, capture: boolean): void };
        };
        let clicked = 0;
        win.document.addEventListener(
          'click',
          (e) => {
            if (clicked === 0 && (e.target as { closest(s: string): unknown }).closest(`[data-testid="account-${id}"]`))
              clicked = e.timeStamp;
          },
          true,
        );
        const frame = () => {
          const grid = win.document.querySelector('[data-testid="campaign-grid"]');
          const b = win.__gridProbe!.blankNow();
          const ready =
            clicked > 0 &&
            grid?.getAttribute('aria-rowcount') === String(rows + 1) &&
            grid.querySelector('[data-testid="cell-name"]')?.textContent &&
            b.gap + b.loading === 0;
          if (ready) resolve({ ms: win.performance.now() - clicked, since: clicked });
          else win.requestAnimationFrame(frame);
        };
        win.requestAnimationFrame(frame);
      }),
    { id: accountId, rows },
  );
  await page.getByTestId(`account-${accountId}`).click();
  const { ms, since } = await armed;
  await pause(page, 300);
  const longTasks = await page.evaluate(
    (t0) => (globalThis as unknown as PageWindow).__gridProbe!.longTasks.filter((t) => t.start + t.duration >= t0),
    since,
  );
  return { ms, longTasks };
}

/** Back and forth between the small account and the big one, five times each. */
async function switches(page: Page, renderer: string, bigRows: number): Promise<SwitchResult[]> {
  const out: SwitchResult[] = [];
  const targets = [
    { id: SMALL.id, label: `${SMALL.name} (${SMALL.campaigns.toLocaleString('en')} rows)`, rows: SMALL.campaigns },
    { id: ACCOUNT, label: `Big Shop (${bigRows.toLocaleString('en')} rows)`, rows: bigRows },
  ];
  const runs = targets.map((t) => ({ renderer, to: t.label, rows: t.rows, ms: [] as number[], longTasks: 0, longestMs: 0, load: 0 }));
  for (let i = 0; i < 5; i++) {
    for (const [k, t] of targets.entries()) {
      const r = await switchTo(page, t.id, t.rows);
      runs[k].ms.push(r.ms);
      runs[k].longTasks += r.longTasks.filter((x) => x.duration > 50).length;
      runs[k].longestMs = Math.max(runs[k].longestMs, ...r.longTasks.map((x) => x.duration));
      runs[k].load = loadavg()[0];
    }
  }
  out.push(...runs);
  return out;
}

interface Options {
  /** Write a Chromium performance trace per renderer here (open it in DevTools' Performance panel). */
  traceDir: string | null;
  /** Chromium's CPU throttling (DevTools' "4x slowdown"): a slower machine than this one. */
  cpuSlowdown: number;
  /** Campaigns in the big account. */
  rows: number;
  /** Also every scenario again sorted by name, Z to A. */
  sorted: boolean;
}

export interface GridBench {
  scroll: ScenarioResult[];
  switches: SwitchResult[];
}

async function measureRenderer(browser: Browser, label: string, server: BrowserServer, opts: Options): Promise<GridBench> {
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
  const switched = await switches(page, label, opts.rows);
  if (!opts.sorted) {
    if (traceDir) await browser.stopTracing();
    await page.close();
    if (errors.length > 0) throw new Error(`${label}: the page reported errors: ${errors.join('; ')}`);
    return { scroll: out, switches: switched };
  }
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
  return { scroll: out, switches: switched };
}

const DEFAULT_OPTIONS: Options = { traceDir: null, cpuSlowdown: 1, rows: 100_000, sorted: true };

export async function runGridScrollBench(
  renderers = [{ label: 'this grid', dir: join(ROOT, 'out', 'renderer') }],
  opts: Options = DEFAULT_OPTIONS,
): Promise<GridBench> {
  for (const r of renderers) {
    if (!existsSync(join(r.dir, 'index.html')))
      throw new Error(`No built renderer in ${r.dir}: run npx vite build --config vite.renderer.config.mts first.`);
  }
  const app = await startApp(renderers, opts.rows);
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
    const out: GridBench = { scroll: [], switches: [] };
    for (const s of app.servers) {
      const r = await measureRenderer(browser, s.label, s.server, opts);
      out.scroll.push(...r.scroll);
      out.switches.push(...r.switches);
    }
    return out;
  } finally {
    await browser.close();
    await app.close();
  }
}

const f = (n: number, d = 0) => n.toFixed(d);

export function gridScrollMarkdown({ scroll, switches: switched }: GridBench): string {
  const multi = new Set(scroll.map((r) => r.renderer)).size > 1;
  const g = (r: { renderer: string }) => (multi ? `${r.renderer} | ` : '');
  return [
    `| ${multi ? 'grid | ' : ''}scrolling | time | long tasks > 50 ms | longest task | frames | longest frame | frames > 50 ms | frames with empty space (most rows) | frames with rows waiting for data (most rows) | rows in view filled after the last move | load |`,
    `|${multi ? '---|' : ''}---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|`,
    ...scroll.map(
      (r) =>
        `| ${g(r)}${r.scenario} | ${f(r.ms / 1000, 1)} s | ${r.longTasks} | ${r.longestMs ? `${f(r.longestMs)} ms` : 'none'} | ${r.samples} | ${f(r.longestFrameMs)} ms | ${r.slowFrames} | ${r.gapSamples} (${r.maxGapRows}) | ${r.loadingSamples} (${r.maxLoadingRows}) | ${f(r.filledMs)} ms | ${f(r.load, 1)} |`,
    ),
    '',
    `| ${multi ? 'grid | ' : ''}account switch (click to its rows painted) | each try | longest | long tasks > 50 ms | longest task | load |`,
    `|${multi ? '---|' : ''}---|---|---:|---:|---:|---:|`,
    ...switched.map(
      (r) =>
        `| ${g(r)}to ${r.to} | ${r.ms.map((x) => f(x)).join(', ')} ms | ${f(Math.max(...r.ms))} ms | ${r.longTasks} | ${r.longestMs ? `${f(r.longestMs)} ms` : 'none'} | ${f(r.load, 1)} |`,
    ),
  ].join('\n');
}

function parseArgs(argv: string[]): { renderers: { label: string; dir: string }[]; opts: Options } {
  const out: { label: string; dir: string }[] = [];
  let traceDir: string | null = null;
  let cpuSlowdown = 1;
  let rows = DEFAULT_OPTIONS.rows;
  let sorted = true;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--rows') {
      rows = Number(argv[++i]);
      if (!Number.isInteger(rows) || rows < 1000) throw new Error('--rows needs a whole number of campaigns, at least 1000, e.g. 1000000.');
      continue;
    }
    if (argv[i] === '--unsorted-only') {
      sorted = false;
      continue;
    }
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
    if (argv[i] !== '--renderer')
      throw new Error(`Unknown option ${argv[i]}. Use --renderer DIR=LABEL, --trace DIR, --cpu-slowdown N, --rows N and --unsorted-only.`);
    const [dir, label] = (argv[++i] ?? '').split('=');
    if (!dir || !label) throw new Error('--renderer needs DIR=LABEL, e.g. --renderer /tmp/old/out/renderer=previous');
    out.push({ dir, label });
  }
  return { renderers: out, opts: { traceDir, cpuSlowdown, rows, sorted } };
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
