// Fast wheel flings over the campaign grid at 1,000,000 rows (issue 29), the flings of
// test/e2e/grid-million.test.ts: rows made on demand by the transport-test handler table (no core, no
// sandbox: set up in seconds), so built renderers can be measured one after the other, alternating,
// several times on a shared machine whose load moves between runs. Each run is a fresh Chromium
// (/usr/bin/chromium, headless, 1280x800): four flings of 25 wheel steps of 600 px, then 40 steps of
// 280,000 px. It reports the page's long tasks (PerformanceObserver 'longtask'), the main thread's
// time from Chromium's own counters (Performance.getMetrics: all tasks, script, layout, style), the
// pages asked for, and the 1-minute load average.
// Run: npx tsx bench/grid-flick.ts --renderer DIR=LABEL [--renderer DIR=LABEL ...] [--runs N] [--trace DIR] [--cpu-slowdown N]
//      (without --renderer: out/renderer; build it first with npx vite build --config vite.renderer.config.mts)
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { startBrowserServer } from '../src/main/browser-mode/server';
import type { Account, CampaignRecord } from '../src/shared/ipc/contract';
import { createManualEvents, createTransportTable, sampleProfile, sampleRow } from '../test/helpers/transport-handlers';
import { launchChromium } from '../test/e2e/support';

const N = 1_000_000;

/** The page's globals this bench uses (the bench is typed for Node, without the DOM's types). */
interface PageWindow {
  longTasks: { start: number; duration: number }[];
  PerformanceObserver: new (cb: (list: { getEntries(): { startTime: number; duration: number }[] }) => void) => {
    observe(o: { type: string; buffered: boolean }): void;
  };
}

interface Run {
  label: string;
  run: number;
  load: number;
  longTasks: number[];
  taskMs: number;
  scriptMs: number;
  layoutMs: number;
  styleMs: number;
  pages: number;
}

const record = (i: number): CampaignRecord => ({
  ...sampleRow(i),
  id: String(i),
  name: `Generated campaign ${String(i).padStart(7, '0')}`,
  fields: {},
});
const account: Account = {
  profileId: 'p1',
  accountId: 'acme',
  name: 'Acme',
  type: 'ADVERTISER',
  networkId: null,
  lastSyncedAt: null,
  campaignCount: N,
  queued: 0,
};

async function flingOnce(dir: string, label: string, run: number, opts: { trace: string | null; slowdown: number }): Promise<Run> {
  let pages = 0;
  const table = createTransportTable();
  table.profiles.push(sampleProfile('p1'));
  table.handlers['accounts.list'] = async () => [account];
  table.handlers['campaigns.records'] = async (a) => {
    pages++;
    const rows: CampaignRecord[] = [];
    for (let i = a.offset; i < Math.min(N, a.offset + a.limit); i++) rows.push(record(i));
    return { rows, total: a.withTotal === false ? null : N, syncedAt: Date.now() };
  };
  // The grid asks the total apart (campaigns.count); without it the list held no more than its
  // first page, and the flings scrolled nothing (0 pages asked).
  table.handlers['campaigns.count'] = async () => ({ total: N });
  table.handlers['activity.list'] = async () => [];
  const server = await startBrowserServer({ handlers: table.handlers, events: createManualEvents(), staticDir: dir, log: () => undefined });
  const browser = await launchChromium({ scrollbars: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(() => {
      const win = globalThis as unknown as PageWindow;
      win.longTasks = [];
      new win.PerformanceObserver((list) => {
        for (const e of list.getEntries()) win.longTasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(server.openUrl);
    await page.getByTestId('cell-name').first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(1000);
    const box = (await page.getByTestId('campaign-grid').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const metrics = async () => new Map((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    if (opts.slowdown > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: opts.slowdown });
    if (opts.trace) await browser.startTracing(page, { path: join(opts.trace, `${label.replace(/\W+/g, '-')}-${run}.json`) });
    const m0 = await metrics();
    const p0 = pages;
    const t0 = await page.evaluate(() => performance.now());
    for (let fling = 0; fling < 4; fling++) {
      for (let i = 0; i < 25; i++) await page.mouse.wheel(0, 600);
      await page.waitForTimeout(100);
    }
    for (let i = 0; i < 40; i++) await page.mouse.wheel(0, 280_000);
    await page.waitForTimeout(1500);
    const m1 = await metrics();
    if (opts.trace) await browser.stopTracing();
    // A fling that asked no page scrolled nothing: the window asks a call this table lacks (as when
    // it began asking its total apart), and the figures would measure an idle grid.
    if (pages === p0)
      throw new Error(
        `${label} run ${run}: the flings asked no page of campaigns; the bench's handler table needs what the window now asks`,
      );
    const tasks = await page.evaluate((since) => (globalThis as unknown as PageWindow).longTasks.filter((t) => t.start >= since), t0);
    const ms = (k: string) => Math.round(((m1.get(k) ?? 0) - (m0.get(k) ?? 0)) * 1000);
    return {
      label,
      run,
      load: loadavg()[0],
      longTasks: tasks.map((t) => Math.round(t.duration)),
      taskMs: ms('TaskDuration'),
      scriptMs: ms('ScriptDuration'),
      layoutMs: ms('LayoutDuration'),
      styleMs: ms('RecalcStyleDuration'),
      pages: pages - p0,
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

function parseArgs(argv: string[]) {
  const renderers: { dir: string; label: string }[] = [];
  let runs = 3;
  let trace: string | null = null;
  let slowdown = 1;
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    if (argv[i] === '--renderer' && value?.includes('=')) {
      const at = value.lastIndexOf('=');
      renderers.push({ dir: value.slice(0, at), label: value.slice(at + 1) });
    } else if (argv[i] === '--runs' && Number(value) >= 1) runs = Number(value);
    else if (argv[i] === '--trace' && value) trace = value;
    else if (argv[i] === '--cpu-slowdown' && Number(value) >= 1) slowdown = Number(value);
    else throw new Error(`Unknown or incomplete option ${argv[i]}: use --renderer DIR=LABEL, --runs N, --trace DIR, --cpu-slowdown N.`);
    i++;
  }
  if (renderers.length === 0) renderers.push({ dir: join(__dirname, '..', 'out', 'renderer'), label: 'out/renderer' });
  return { renderers, runs, trace, slowdown };
}

async function main(): Promise<void> {
  const { renderers, runs, trace, slowdown } = parseArgs(process.argv.slice(2));
  if (trace) mkdirSync(trace, { recursive: true });
  console.log(
    '| grid | run | long tasks (50 ms and over) | longest | each (ms) | main thread busy | script | layout | style | pages asked | load |\n' +
      '|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|',
  );
  // Alternating: each round measures every renderer once, so a change in the machine's load falls on all of them.
  for (let run = 1; run <= runs; run++) {
    for (const r of renderers) {
      const x = await flingOnce(r.dir, r.label, run, { trace, slowdown });
      const longest = x.longTasks.length ? `${Math.max(...x.longTasks)} ms` : 'none';
      console.log(
        `| ${x.label} | ${x.run} | ${x.longTasks.length} | ${longest} | ${x.longTasks.join(', ') || '-'} | ${x.taskMs} ms | ` +
          `${x.scriptMs} ms | ${x.layoutMs} ms | ${x.styleMs} ms | ${x.pages} | ${x.load.toFixed(1)} |`,
      );
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
