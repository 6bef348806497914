// Issue 17: a scheduled push queued while working offline whose time passes on the service's clock
// before it can go out (the clock_offset_ms variant moves it on) is blocked, not failed: the service's
// refusal teaches the client its clock. The composer lists it and one click ("In 1 hour", on the
// service's clock) queues the same push again, and it reaches the service at that time.
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxJson, unlimitedAdvertiser } from './app-session';
import { withApp } from './flows/app';
import { blockPush, HOUR, serviceNow, setServiceClockOffset } from './flows/push';

const account = unlimitedAdvertiser();
const app = withApp({ account: account.account_id });

interface ServiceTask {
  title: string;
  taskStatus: string;
  executionTime: number;
}
const serviceTasks = async () => (await sandboxJson<{ tasks: ServiceTask[] }>(app.sandboxUrl, '/_sandbox/state/tasks?app=1001')).tasks;
const now = () => serviceNow(app.sandboxUrl);

afterAll(async () => {
  // The demo sandbox is this session's own; put its clock back all the same (before withApp closes it).
  await setServiceClockOffset(app.sandboxUrl, 0).catch(() => undefined);
});

describe('A blocked scheduled push', () => {
  it('is blocked when its time passed while it waited, and one click sends it with a new time', async () => {
    const { page } = app;
    const title = `Blocked then fixed ${Date.now()}`;
    // Queued while offline a few minutes ahead; the service's clock then moves two hours on: its time passes.
    await blockPush(page, app.sandboxUrl, title, { clockOffsetMs: 2 * HOUR });

    const blocked = page.getByTestId('blocked-push').filter({ hasText: title });
    await expect.poll(() => blocked.count(), { timeout: 30_000 }).toBe(1);
    expect(await blocked.textContent()).toContain('was due');
    // Not sent: the service has no such task.
    expect((await serviceTasks()).some((t) => t.title === title)).toBe(false);

    const before = await now();
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
