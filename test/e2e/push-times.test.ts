// Issue 27 item 1 in a Berlin browser: one "service now" for every rule that judges a scheduled
// time. The demo service's clock is held 10 minutes behind, then 10 minutes ahead of the
// computer's, and the composer, Queue and the outbox must agree about each time: a time that is
// future on the service's clock is ready, queued and sent; one that has passed there is refused by
// all three. A push in each subscriber's own time zone is shown as that wall time everywhere, and
// the zones that have already passed it are named before it is queued.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openAccount, openApp, sandboxJson, unlimitedAdvertiser, type AppSession } from './app-session';
import { queuePush, writePush } from './flows/push';

const account = unlimitedAdvertiser();
const MIN = 60_000;
let app: AppSession;
let page: Page;

const pad = (n: number) => String(n).padStart(2, '0');
/** The picker's text for a time: its wall time in UTC (the composer reads it in UTC or each subscriber's zone). */
const wall = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
};
const hhmm = (ms: number) => `${pad(new Date(ms).getUTCHours())}:${pad(new Date(ms).getUTCMinutes())}`;

/** Moves the demo service's clock `offsetMs` from the computer's, and waits until the window has learned it. */
async function holdServiceClock(offsetMs: number): Promise<void> {
  await sandboxJson(app.sandboxUrl, '/_sandbox/variants', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clock_offset_ms: offsetMs }),
  });
  const note = page.getByTestId('push-clock-note');
  const want = offsetMs === 0 ? null : `${Math.abs(offsetMs) / MIN} min ${offsetMs < 0 ? 'behind' : 'ahead of'} this computer's`;
  // Any answer carries the service's Date header: a refresh of the tasks asks for one.
  await expect
    .poll(
      async () => {
        await page.getByTestId('tab-tasks').click();
        await page.getByTestId('task-app').selectOption('1001');
        await page.getByTestId('tasks-refresh').click();
        await page.getByTestId('tab-push').click();
        await page.getByTestId('push-scheduled').check();
        return (await note.count()) === 0
          ? null
          : ((await note.textContent()) ?? '').replace(/^The service's clock is (.*); times.*$/, '$1');
      },
      { timeout: 30_000, interval: 1_000 },
    )
    .toBe(want);
}

async function newScheduledPush(title: string, at: number, userTimeZone: 0 | 1): Promise<void> {
  await writePush(page, { title, url: 'https://news.example.com/times', app: '1001', fresh: true });
  await page.getByTestId('push-scheduled').check();
  await page.getByTestId('push-userTimeZone').selectOption(String(userTimeZone));
  await page.getByTestId('push-executionTime').fill(wall(at));
}

async function serviceTask(title: string): Promise<{ executionTime: number; userTimeZone?: number } | undefined> {
  const { tasks } = await sandboxJson<{ tasks: { title: string; executionTime: number; userTimeZone?: number }[] }>(
    app.sandboxUrl,
    '/_sandbox/state/tasks?app=1001',
  );
  return tasks.find((t) => t.title === title);
}

beforeAll(async () => {
  app = await openApp();
  const ctx = await app.browser.newContext({ viewport: { width: 1400, height: 900 }, timezoneId: 'Europe/Berlin' });
  page = await ctx.newPage();
  page.on('pageerror', (e) => app.pageErrors.push(String(e)));
  await page.goto(`${app.mode.server.openUrl}`);
  await openAccount(page, account.account_id);
  await page.getByTestId('tab-push').click();
});
afterAll(async () => app?.close());

describe("Scheduled times judged on the service's clock, and shown on the clock they follow", () => {
  it('with the service 10 minutes behind: a time 5 minutes ago here is still future there, and the composer, Queue and the outbox all treat it so', async () => {
    await holdServiceClock(-10 * MIN);
    // Future on the service's clock (about 5 min ahead of it), already past on the computer's.
    const at = Math.floor((Date.now() - 5 * MIN) / MIN) * MIN;
    const title = `Behind ${Date.now()}`;
    await newScheduledPush(title, at, 0);
    await expect.poll(() => page.getByTestId('push-problem-count').textContent()).toBe('Ready to queue');
    expect(await page.getByTestId('push-schedule-summary').textContent()).toMatch(/^Goes out/);
    await queuePush(page);
    // The outbox did not block it as passed: it went out, at that time.
    await expect.poll(() => serviceTask(title).then((t) => t?.executionTime), { timeout: 30_000 }).toBe(at);
  });

  it('with the service 10 minutes ahead: a time 5 minutes from now here has passed there; one 15 minutes from now is queued and shown in the outbox as chosen', async () => {
    await holdServiceClock(10 * MIN);
    const passed = Math.ceil((Date.now() + 5 * MIN) / MIN) * MIN;
    await newScheduledPush(`Ahead passed ${Date.now()}`, passed, 0);
    await expect.poll(() => page.getByTestId('push-schedule-summary').textContent()).toContain('This time has passed');
    expect(await page.getByTestId('push-queue').isDisabled()).toBe(true);

    // Held in the outbox (working offline) so the row can be read before it is sent.
    await page.getByTestId('work-offline-sandbox-demo').check();
    const at = Math.ceil((Date.now() + 15 * MIN) / MIN) * MIN;
    const title = `Ahead ${Date.now()}`;
    await newScheduledPush(title, at, 0);
    await expect.poll(() => page.getByTestId('push-problem-count').textContent()).toBe('Ready to queue');
    await queuePush(page);
    await page.getByTestId('tab-outbox').click();
    const row = page.getByTestId('outbox-item').filter({ hasText: title });
    expect(await row.getByTestId('outbox-state').textContent()).toBe('Queued');
    expect(await row.getByTestId('outbox-schedule').textContent()).toContain(`${hhmm(at)} UTC`);
    await page.getByTestId('work-offline-sandbox-demo').uncheck();
    await expect.poll(() => serviceTask(title).then((t) => t?.executionTime), { timeout: 30_000 }).toBe(at);
    await page.getByTestId('tab-push').click();
  });

  it("warns, naming the zones, when a subscriber's-time push has already passed in the zones furthest ahead, and shows its wall time in every place", async () => {
    await holdServiceClock(0);
    const serviceNow = (await sandboxJson<{ service_now: number }>(app.sandboxUrl, '/_sandbox/clock')).service_now;
    // 3.5 hours ahead in UTC: UTC+14 down to UTC+4 are already past that wall time; UTC+3:30 is not.
    const at = Math.ceil((serviceNow + 210 * MIN) / MIN) * MIN;
    const title = `Subscriber time ${Date.now()}`;
    await newScheduledPush(title, at, 1);
    await expect
      .poll(() => page.getByTestId('push-zone-warning').textContent())
      .toContain(`Subscribers in UTC+14 to UTC+4 will miss it: ${hhmm(at)} has already passed there.`);
    expect(await page.getByTestId('push-problem-count').textContent()).toBe('Ready to queue, but some time zones will miss it (see When)');
    expect(await page.getByTestId('push-schedule-summary').textContent()).toContain(`${hhmm(at)} in each subscriber's time zone`);
    await page.screenshot({ path: '/tmp/push-times-zone-warning.png' });

    // Every zone still ahead of the wall time: no warning.
    await page.getByTestId('push-executionTime').fill(wall(at + 12 * 60 * MIN));
    await expect.poll(() => page.getByTestId('push-zone-warning').count()).toBe(0);
    await page.getByTestId('push-executionTime').fill(wall(at));
    await queuePush(page);
    await expect.poll(() => serviceTask(title).then((t) => t?.userTimeZone), { timeout: 30_000 }).toBe(1);

    // Tasks: the list and the details say the wall time in each subscriber's zone, with its date, never one converted moment.
    const day = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(at);
    const expected = `${day}, ${hhmm(at)} in each subscriber's time zone`;
    await page.getByTestId('tab-tasks').click();
    await page.getByTestId('task-app').selectOption('1001');
    await page.getByTestId('tasks-refresh').click();
    const taskRow = page.getByTestId('task-grid').getByTestId('grid-row').filter({ hasText: title });
    await expect.poll(() => taskRow.count(), { timeout: 30_000 }).toBe(1);
    expect(await taskRow.getByTestId('cell-task-when').textContent()).toBe(expected);
    await taskRow.click();
    expect(await page.getByTestId('task-field-executionTime').textContent()).toBe(expected);
    expect(await page.getByTestId('task-field-executionTime').textContent()).not.toContain('your time');
    await page.screenshot({ path: '/tmp/push-times-tasks.png' });
    expect(app.pageErrors).toEqual([]);
  });
});
