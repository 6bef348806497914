import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserServer, type BrowserServer } from '../../src/main/browser-mode/server';
import type { Account, CampaignRecord } from '../../src/shared/ipc/contract';
import { createManualEvents, createTransportTable, sampleProfile, sampleRow } from '../helpers/transport-handlers';
import { RENDERER_DIR, ensureRendererBuilt, launchChromium, screenshotPath } from './support';

// The campaign grid at 1,000,000 rows (issue 29), with the transport-test handler table answering
// campaigns.records from rows made on demand (the real core's query speed is the store's tests'
// and bench's business; this file is about what the page does with a list this long): the last
// row is reached by End and by dragging the scrollbar to the bottom, fast wheel flings make no
// long task, and switching to another account and back shows its rows within a bound.
const N = 1_000_000;
const SMALL = 500;
const name = (account: string, i: number) =>
  `${account === 'acme' ? 'Generated' : account === 'small' ? 'Small' : account} campaign ${String(i).padStart(7, '0')}`;
const record = (account: string, i: number): CampaignRecord => ({ ...sampleRow(i), id: String(i), name: name(account, i), fields: {} });
const account = (accountId: string): Account => ({
  profileId: 'p1',
  accountId,
  name: accountId === 'acme' ? 'Acme' : accountId === 'small' ? 'Small shop' : accountId,
  type: 'ADVERTISER',
  networkId: null,
  lastSyncedAt: null,
  campaignCount: accountId === 'acme' ? N : SMALL,
  queued: 0,
});

/** Defined in the page by beforeAll's init script. */
declare function rowsChanged(list: MutationRecord[]): Set<Element>;

let server: BrowserServer;
let browser: Browser;
let page: Page;
/** How long campaigns.records and campaigns.count take to answer (a busy cache). */
let answerDelayMs = 0;
/** How much longer campaigns.count takes (a long list's count comes after its first rows). */
let countDelayMs = 0;

beforeAll(async () => {
  ensureRendererBuilt();
  const table = createTransportTable();
  table.profiles.push(sampleProfile('p1'));
  // Ten accounts: the first nine are a keystroke away (Ctrl/Cmd+1..9), 'tenth' is not.
  table.handlers['accounts.list'] = async () =>
    ['acme', 'small', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'].map(account);
  table.handlers['campaigns.records'] = async (a) => {
    if (answerDelayMs > 0) await new Promise((r) => setTimeout(r, answerDelayMs));
    const total = a.accountId === 'acme' ? N : SMALL;
    const rows: CampaignRecord[] = [];
    for (let i = a.offset; i < Math.min(total, a.offset + a.limit); i++) rows.push(record(a.accountId, i));
    return { rows, total: a.withTotal === false ? null : total, syncedAt: Date.now() };
  };
  // The grid asks the total apart (issue #29), delayed as the pages are.
  table.handlers['campaigns.count'] = async (a) => {
    if (answerDelayMs + countDelayMs > 0) await new Promise((r) => setTimeout(r, answerDelayMs + countDelayMs));
    return { total: a.accountId === 'acme' ? N : SMALL };
  };
  table.handlers['activity.list'] = async () => [];
  server = await startBrowserServer({
    handlers: table.handlers,
    events: createManualEvents(),
    staticDir: RENDERER_DIR,
    log: () => undefined,
  });
  browser = await launchChromium({ scrollbars: true });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // Every long task of the page from its first moment.
  await page.addInitScript(() => {
    // The rows a batch of DOM mutations touched (read by the tests of what a render changes).
    (window as unknown as { rowsChanged: typeof rowsChanged }).rowsChanged = (list) => {
      const rows = new Set<Element>();
      for (const m of list) {
        const node = m.target instanceof Element ? m.target : m.target.parentElement;
        const row = node?.closest('[role="row"]');
        if (row) rows.add(row);
      }
      return rows;
    };
    const tasks: { start: number; duration: number }[] = [];
    (window as unknown as { longTasks: typeof tasks }).longTasks = tasks;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) tasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(server.openUrl);
  await page.getByTestId('cell-name').first().waitFor({ timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const grid = () => page.getByTestId('campaign-grid');
const domRows = () => page.locator('[data-testid="campaign-grid"] .vg-body > [role="row"]').count();

/** The names of the rows wholly inside the grid's viewport, top to bottom, read from where they are drawn. */
const namesInView = () =>
  grid().evaluate((el) => {
    const box = el.getBoundingClientRect();
    const top = box.top + el.querySelector<HTMLElement>('.vg-header')!.offsetHeight;
    const bottom = box.top + el.clientHeight;
    return [...el.querySelectorAll<HTMLElement>('.vg-body > [role="row"]')]
      .map((r) => ({ r: r.getBoundingClientRect(), name: r.querySelector('[data-testid="cell-name"]')?.textContent ?? '' }))
      .filter(({ r }) => r.top >= top - 0.5 && r.bottom <= bottom + 0.5)
      .sort((a, b) => a.r.top - b.r.top)
      .map((x) => x.name);
  });

const longTasksSince = (t0: number) =>
  page.evaluate(
    (since) => (window as unknown as { longTasks: { start: number; duration: number }[] }).longTasks.filter((t) => t.start >= since),
    t0,
  );

/** Resolves once the grid's scroll position has not moved for 10 frames. */
const whenStill = () =>
  grid().evaluate(
    (el) =>
      new Promise<void>((resolve) => {
        let top = el.scrollTop;
        let still = 0;
        const tick = () => {
          if (el.scrollTop !== top) [top, still] = [el.scrollTop, 0];
          else if (++still >= 10) return resolve();
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );

/**
 * Resolves once the page has taken in the next answer to campaigns.records for the account: its
 * body received, and two frames drawn after it (the store keeps it in the task that reads it).
 */
const recordsAnswer = async (accountId: string) => {
  const answer = await page.waitForResponse(
    (r) => r.url().endsWith('/api/campaigns.records') && (r.request().postDataJSON() as { accountId?: string }).accountId === accountId,
  );
  await answer.finished();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
};

/** Clicks the account in the sidebar; resolves with the ms from the click to the frame that paints its first row (Infinity: not within 5 s). */
const switchTo = async (id: string, first: string) => {
  const timed = page.evaluate(
    ({ id, first }) =>
      new Promise<number>((resolve) => {
        let clicked = 0;
        document.addEventListener(
          'click',
          (e) => {
            if (clicked === 0 && (e.target as HTMLElement).closest(`[data-testid="account-${id}"]`)) clicked = e.timeStamp;
          },
          { capture: true },
        );
        // The first frame whose grid shows the account's first row: that frame paints it. (By its
        // index: row elements are reused out of order, so the first in the DOM may be another row.)
        const frame = () => {
          const cell = document.querySelector('[data-testid="campaign-grid"] [role="row"][aria-rowindex="2"] [data-testid="cell-name"]');
          if (clicked > 0 && cell?.textContent === first) resolve(performance.now() - clicked);
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
        // Never shown: failed as a time no bound allows, not as a test that hangs.
        setTimeout(() => resolve(Number.POSITIVE_INFINITY), 5000);
      }),
    { id, first },
  );
  await page.getByTestId(`account-${id}`).click();
  return timed;
};

describe('campaigns grid with 1,000,000 rows (transport-test handler table)', () => {
  it('shows the total, keeps only the visible rows in the DOM, and stays within the height Chromium can lay out', async () => {
    await expect.poll(() => page.getByTestId('campaign-count').textContent()).toContain('1,000,000');
    expect(await domRows()).toBeLessThan(60);
    // Chromium lays out at most 2^25 px (33,554,432) in one element; beyond it the last rows cannot be scrolled to.
    expect(await grid().evaluate((el) => el.scrollHeight)).toBeLessThan(2 ** 25);
  });

  it('reaches the last row with End, selected and on screen', async () => {
    await grid().focus();
    await page.keyboard.press('End');
    await expect.poll(() => page.getByTestId('details-name').textContent()).toBe(name('acme', N - 1));
    await expect.poll(async () => (await namesInView()).at(-1)).toBe(name('acme', N - 1));
    expect(await page.locator('[data-testid="campaign-grid"] [aria-selected="true"] [data-testid="cell-name"]').textContent()).toBe(
      name('acme', N - 1),
    );
    // PageUp from there moves a screen up, and PageDown back to the last row.
    await page.keyboard.press('PageUp');
    await expect.poll(() => page.getByTestId('details-name').textContent()).not.toBe(name('acme', N - 1));
    await page.keyboard.press('PageDown');
    await expect.poll(() => page.getByTestId('details-name').textContent()).toBe(name('acme', N - 1));
    await page.keyboard.press('Home');
    await expect.poll(async () => (await namesInView())[0]).toBe(name('acme', 0));
  });

  it('reaches the last row by dragging the scrollbar to the bottom', async () => {
    const box = (await grid().boundingBox())!;
    const bar = await grid().evaluate((el) => (el as HTMLElement).offsetWidth - el.clientWidth);
    expect(bar).toBeGreaterThan(0);
    // The thumb is at the top (Home above), under the scrollbar's arrow button; drag it past the bottom of the track.
    const x = box.x + box.width - bar / 2;
    await page.mouse.move(x, box.y + bar + 4);
    await page.mouse.down();
    for (let y = box.y + bar + 4; y < box.y + box.height + 40; y += 40) await page.mouse.move(x, y);
    await page.mouse.up();
    await whenStill();
    await expect.poll(async () => (await namesInView()).at(-1)).toBe(name('acme', N - 1));
    expect(await grid().locator('[data-testid="grid-row-loading"]').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('grid-million-bottom.png') });
  });

  it('makes no long task over the bound while flinging the wheel fast, and shows the rows where it stops', async () => {
    await grid().evaluate((el) => (el.scrollTop = 0));
    await expect.poll(async () => (await namesInView())[0]).toBe(name('acme', 0));
    const box = (await grid().boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const t0 = await page.evaluate(() => performance.now());
    // Flings of 25 quick steps of 600 px, as a fast hand or a touchpad sends them, then long ones
    // of 280,000 px (a hundredth of the list) to the end.
    for (let fling = 0; fling < 4; fling++) {
      for (let i = 0; i < 25; i++) await page.mouse.wheel(0, 600);
      await page.waitForTimeout(100);
    }
    for (let i = 0; i < 40; i++) await page.mouse.wheel(0, 280_000);
    await whenStill();
    const tasks = await longTasksSince(t0);
    const longest = Math.max(0, ...tasks.map((t) => t.duration));
    console.log(`1M-row flings: ${tasks.length} long tasks, longest ${Math.round(longest)} ms`);
    // 50 ms is the target (docs/benchmarks.md has the figures); on the shared 2-core machine, at a
    // load average of 4 to 5, a headless software-rendered Chromium still makes a few tasks of 50-74
    // ms here (the grid before the flick branch: 53-106 ms, more of them), and single ones up to
    // 166 ms: the two overlap, so this bound only catches a grid gone slow (issue 29 saw 319 ms).
    // The test below checks the cause the trace showed (row elements moved in the DOM).
    expect(longest).toBeLessThan(150);
    const names = await namesInView();
    expect(names.length).toBeGreaterThan(10);
    await expect.poll(async () => (await namesInView()).every((n) => /^Generated campaign \d{7}$/.test(n))).toBe(true);
  });

  it('scrolls mid-list by changing rows in place: no row element is added, removed or moved', async () => {
    // A Chromium trace of fast flings here showed the frame's time going to rows moved in the DOM
    // (each one styled and laid out anew) and to every row laid out again for the scaled space's
    // shift: a row scrolled in now takes over a row element where it is.
    await grid().evaluate((el) => (el.scrollTop = 3_000_000));
    await whenStill();
    const box = (await grid().boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await grid().evaluate((el) => {
      const w = window as unknown as { rowMoves: number; rowObserver: MutationObserver };
      w.rowMoves = 0;
      w.rowObserver = new MutationObserver((list) => {
        for (const m of list) w.rowMoves += m.addedNodes.length + m.removedNodes.length;
      });
      w.rowObserver.observe(el.querySelector('.vg-body')!, { childList: true });
    });
    const before = (await namesInView())[0];
    for (let i = 0; i < 10; i++) await page.mouse.wheel(0, 600);
    await whenStill();
    await expect.poll(async () => (await namesInView())[0]).not.toBe(before);
    const moves = await page.evaluate(() => {
      const w = window as unknown as { rowMoves: number; rowObserver: MutationObserver };
      w.rowObserver.disconnect();
      return w.rowMoves;
    });
    expect(moves).toBe(0);
  });

  it('on a jump, renders the rows on screen before the frame is painted and the rows around them in a task after it', async () => {
    // A fling's frame was the scroll event's render of every row of the window (the screen and
    // the rows kept ahead and behind it), then their style, layout and paint: the rows off screen
    // now follow in a render of their own.
    await grid().evaluate((el) => (el.scrollTop = 2_000_000));
    await whenStill();
    const batches = await grid().evaluate(
      (el) =>
        new Promise<{ first: number; all: number; onScreen: number; ring: number }>((resolve) => {
          const body = el.querySelector('.vg-body')!;
          const rowsOf = [...body.children];
          /** Rows whose content changed, per delivery of the observer: the first holds what the scroll event rendered. */
          const deliveries: Set<Element>[] = [];
          const observer = new MutationObserver((list) => deliveries.push(rowsChanged(list)));
          observer.observe(body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['style'] });
          // Far enough that every row of the window is a new one.
          el.scrollTop += 300_000;
          let frames = 0;
          const tick = () => {
            if (++frames < 20) return requestAnimationFrame(tick);
            observer.disconnect();
            const header = el.querySelector<HTMLElement>('.vg-header')!.offsetHeight;
            const rowHeight = (rowsOf[0] as HTMLElement).offsetHeight;
            resolve({
              first: deliveries[0]?.size ?? 0,
              all: new Set(deliveries.flatMap((d) => [...d])).size,
              onScreen: Math.ceil((el.clientHeight - header) / rowHeight) + 1,
              ring: rowsOf.length,
            });
          };
          requestAnimationFrame(tick);
        }),
    );
    expect(batches.first).toBeGreaterThan(0);
    expect(batches.first).toBeLessThanOrEqual(batches.onScreen);
    // The rest of the window came after: every row element shows a row of the new place.
    expect(batches.ring).toBeGreaterThan(batches.onScreen);
    expect(batches.all).toBe(batches.ring);
    const names = await namesInView();
    expect(names.length).toBeGreaterThan(10);
    expect(names.every((n) => n.startsWith('Generated campaign'))).toBe(true);
  });

  it('when the page of a place jumped to arrives, fills the rows on screen in its first render and the rows around them after', async () => {
    // A trace of the flings: the frames that took longest laid out every row of the window at once
    // (20-27 ms of layout), the page of a new place filling rows on screen and off it together.
    answerDelayMs = 400;
    try {
      const filled = await grid().evaluate(
        (el, { n, rowHeight }) =>
          new Promise<{ first: number; all: number; onScreen: number; ring: number; framesBetween: number }>((resolve, reject) => {
            const body = el.querySelector('.vg-body')!;
            const header = el.querySelector<HTMLElement>('.vg-header')!.offsetHeight;
            const view = el.clientHeight - header;
            // Row 600,060 at the top: the rows kept around the screen lie in one page of 200 rows,
            // which one answer brings.
            const ratio = (n * rowHeight - view) / (2 ** 24 - view);
            el.scrollTop = Math.floor((600_060 * rowHeight) / ratio);
            const loading = () => body.querySelectorAll('[data-testid="grid-row-loading"]').length;
            const deliveries: { rows: Set<Element>; frame: number }[] = [];
            let frame = 0;
            const observer = new MutationObserver((list) => deliveries.push({ rows: rowsChanged(list), frame }));
            let watching = false;
            const started = performance.now();
            const tick = () => {
              frame++;
              if (performance.now() - started > 10_000) return reject(new Error('the rows were not filled within 10 s'));
              // Every row waits for the page (the screen's and the margin's): from now on, what fills them.
              if (!watching && loading() > 0 && loading() === body.children.length) {
                observer.observe(body, { subtree: true, childList: true, characterData: true, attributes: true });
                watching = true;
              } else if (watching && loading() === 0) {
                observer.disconnect();
                const batches = deliveries.filter((d) => d.rows.size > 0);
                return resolve({
                  first: batches[0]?.rows.size ?? 0,
                  all: new Set(batches.flatMap((d) => [...d.rows])).size,
                  // Animation frames between the screen's rows and the next rows filled: the screen's were painted first.
                  framesBetween: (batches[1]?.frame ?? 0) - (batches[0]?.frame ?? 0),
                  onScreen: Math.ceil(view / rowHeight) + 1,
                  ring: body.children.length,
                });
              }
              requestAnimationFrame(tick);
            };
            requestAnimationFrame(tick);
          }),
        { n: N, rowHeight: 28 },
      );
      expect(filled.first).toBeGreaterThan(0);
      expect(filled.first).toBeLessThanOrEqual(filled.onScreen);
      expect(filled.ring).toBeGreaterThan(filled.onScreen);
      expect(filled.all).toBe(filled.ring);
      expect(filled.framesBetween).toBeGreaterThan(0);
      await expect.poll(async () => (await namesInView())[0]).toBe(name('acme', 600_060));
    } finally {
      answerDelayMs = 0;
    }
  });

  it('gives assistive technology the rows in list order while their elements are reused out of order', async () => {
    // Mid-list, the rows' elements sit in the DOM in the order of their slots (a scroll reuses them
    // in place); Chromium's accessibility tree (what a screen reader reads) must still list them
    // from the top of the list down.
    await grid().evaluate((el) => (el.scrollTop = 5_000_000 + 17 * 28));
    await whenStill();
    await expect.poll(() => grid().locator('[data-testid="grid-row-loading"]').count()).toBe(0);
    const domOrder = await grid().evaluate((el) =>
      [...el.querySelectorAll<HTMLElement>('.vg-body > [role="row"]')].map((r) => Number(r.getAttribute('aria-rowindex'))),
    );
    // The case that matters: the elements are not in list order here.
    expect(domOrder).not.toEqual([...domOrder].sort((a, b) => a - b));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Accessibility.enable');
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const rows: number[] = [];
    const visit = (id: string) => {
      const n = byId.get(id);
      if (!n) return;
      const m = n.role?.value === 'row' ? /Generated campaign (\d{7})/.exec(String(n.name?.value ?? '')) : null;
      if (m) rows.push(Number(m[1]));
      for (const c of n.childIds ?? []) visit(c);
    };
    visit(nodes[0].nodeId);
    await cdp.detach();
    expect(rows.length).toBe(domOrder.length);
    expect(rows).toEqual([...rows].sort((a, b) => a - b));
    expect(rows.at(-1)! - rows[0]).toBe(rows.length - 1);
  });

  it('switches to another account and back within 100 ms, showing an account opened before at once while its rows are read again', async () => {
    await grid().evaluate((el) => (el.scrollTop = 0));
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      times.push(await switchTo('small', name('small', 0)));
      times.push(await switchTo('acme', name('acme', 0)));
    }
    console.log(`account switches: ${times.map(Math.round).join(', ')} ms`);
    times.sort((a, b) => a - b);
    // The median, on this shared machine: a single switch can meet a busy moment.
    expect(times[Math.floor(times.length / 2)]).toBeLessThan(100);
    // Answers now take 500 ms: both accounts were opened before, so their rows show without waiting.
    answerDelayMs = 500;
    try {
      const slow = [await switchTo('small', name('small', 0)), await switchTo('acme', name('acme', 0))];
      console.log(`account switches with 500 ms answers: ${slow.map(Math.round).join(', ')} ms`);
      for (const ms of slow) expect(ms).toBeLessThan(250);
      // The rows read again meanwhile arrive and leave the grid as it was.
      await page.waitForTimeout(700);
      expect((await namesInView())[0]).toBe(name('acme', 0));
    } finally {
      answerDelayMs = 0;
    }
  });

  it('opens an account without waiting for the cache: its first page kept after a long scroll, or read ahead before its first opening', async () => {
    // Far down the list of 1,000,000: the pages kept of the open account are those near the rows in view, and the first.
    await grid().focus();
    await page.keyboard.press('End');
    await expect.poll(() => page.getByTestId('details-name').textContent()).toBe(name('acme', N - 1));
    // From now on the cache takes 500 ms to answer: only rows already in the window show sooner.
    answerDelayMs = 500;
    try {
      expect(await switchTo('small', name('small', 0))).toBeLessThan(250);
      expect(await switchTo('acme', name('acme', 0))).toBeLessThan(250);
      // Never opened, but a keystroke away (Ctrl/Cmd+3): read ahead since the window opened.
      expect(await switchTo('third', name('third', 0))).toBeLessThan(250);
      // Never opened and not a keystroke away: the pointer resting on it reads it ahead of the
      // click. (Waited for by its answer, which a loaded machine may take longer than 500 ms to give.)
      const readAhead = recordsAnswer('tenth');
      await page.getByTestId('account-tenth').hover();
      await readAhead;
      const reread = recordsAnswer('tenth');
      expect(await switchTo('tenth', name('tenth', 0))).toBeLessThan(250);
      // The rows read again meanwhile arrive and leave the grid as it was.
      await reread;
      expect((await namesInView())[0]).toBe(name('tenth', 0));
    } finally {
      answerDelayMs = 0;
    }
  });

  it("keeps the row at the top where it was when a long list's count comes while its first rows are scrolled", async () => {
    await switchTo('acme', name('acme', 0));
    countDelayMs = 1500;
    try {
      // A new search: its first rows come at once (this table lists the same rows for any text),
      // its count 1.5 s later; until then the grid holds the rows read and a page more.
      await page.getByTestId('campaign-search').fill('generated');
      await expect.poll(() => page.getByTestId('campaign-count').textContent()).toMatch(/Counting/);
      await expect.poll(async () => (await namesInView())[0]).toBe(name('acme', 0));
      await grid().evaluate((el) => (el.scrollTop = 300 * 28));
      await expect.poll(async () => (await namesInView())[0]).toBe(name('acme', 300));
      // The count: 1,000,000 rows, a scroll space scaled to 2^24 px, and the same row on top.
      await expect.poll(() => page.getByTestId('campaign-count').textContent(), { timeout: 5000 }).toContain('1,000,000');
      // The grid holds every row from the render that said so (the place is kept before that paint).
      await expect.poll(() => grid().getAttribute('aria-rowcount')).toBe(String(N + 1));
      expect((await namesInView())[0]).toBe(name('acme', 300));
    } finally {
      countDelayMs = 0;
      await page.getByTestId('campaign-search').fill('');
    }
  });
});
