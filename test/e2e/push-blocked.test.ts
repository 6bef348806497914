// Issue 17: a scheduled push queued while working offline whose time passes on the service's clock
// before it can go out (the clock_offset_ms variant moves it on) is blocked, not failed: the service's
// refusal teaches the client its clock. The composer lists it and one click ("In 1 hour", on the
// service's clock) queues the same push again, and it reaches the service at that time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAccount, openApp, sandboxJson, unlimitedAdvertiser, type AppSession } from './app-session';

const account = unlimitedAdvertiser();
let app: AppSession;

const pad = (n: number) => String(n).padStart(2, '0');
/** The picker's text (a UTC wall time) for `ms`, to the minute. */
const wallUtc = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
};
const HOUR = 3600_000;

interface ServiceTask {
  title: string;
  taskStatus: string;
  executionTime: number;
}
const serviceTasks = async () => (await sandboxJson<{ tasks: ServiceTask[] }>(app.sandboxUrl, '/_sandbox/state/tasks?app=1001')).tasks;
const serviceNow = async () => (await sandboxJson<{ service_now: number }>(app.sandboxUrl, '/_sandbox/clock')).service_now;

beforeAll(async () => {
  app = await openApp();
  await openAccount(app.page, account.account_id);
});
afterAll(async () => {
  // The demo sandbox is this session's own; put its clock back all the same.
  await sandboxJson(app.sandboxUrl, '/_sandbox/variants', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' }).catch(() => undefined);
  await app?.close();
});

describe('A blocked scheduled push', () => {
  it('is blocked when its time passed while it waited, and one click sends it with a new time', async () => {
    const { page } = app;
    const title = `Blocked then fixed ${Date.now()}`;
    await page.getByTestId('work-offline-sandbox-demo').check();
    await page.getByTestId('tab-push').click();
    await page.getByTestId('push-title').fill(title);
    await page.getByTestId('push-url').fill('https://news.example.com/blocked');
    await page.getByTestId('push-performer').fill('desk@example.com');
    await page.getByTestId('push-scheduled').check();
    // A few minutes ahead of the service: fine when queued.
    const due = Math.ceil(((await serviceNow()) + 5 * 60_000) / 60_000) * 60_000;
    await page.getByTestId('push-executionTime').fill(wallUtc(due));
    await page.getByTestId('app-1001').check();
    await expect.poll(() => page.getByTestId('push-problem-count').textContent()).toBe('Ready to queue');
    await page.getByTestId('push-queue').click();
    await expect.poll(() => page.getByTestId('push-notice').textContent()).toContain('Queued');

    // While the app works offline the service's clock moves two hours on: the push's time passes.
    await sandboxJson(app.sandboxUrl, '/_sandbox/variants', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clock_offset_ms: 2 * HOUR }) });
    expect(await serviceNow()).toBeGreaterThan(due);
    await page.getByTestId('work-offline-sandbox-demo').uncheck();

    const blocked = page.getByTestId('blocked-push').filter({ hasText: title });
    await expect.poll(() => blocked.count(), { timeout: 30_000 }).toBe(1);
    expect(await blocked.textContent()).toContain('was due');
    // Not sent: the service has no such task.
    expect((await serviceTasks()).some((t) => t.title === title)).toBe(false);

    const before = await serviceNow();
    await blocked.getByTestId('blocked-fix-hour').click();
    await expect.poll(() => blocked.count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(async () => (await serviceTasks()).find((t) => t.title === title)?.taskStatus, { timeout: 30_000 }).toBe('pending');
    const task = (await serviceTasks()).find((t) => t.title === title)!;
    // "In 1 hour" on the service's clock, to the minute.
    expect(task.executionTime).toBeGreaterThanOrEqual(before + HOUR);
    expect(task.executionTime).toBeLessThanOrEqual(before + HOUR + 2 * 60_000);
    expect(app.pageErrors).toEqual([]);
  });
});
