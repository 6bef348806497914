// Pushes as a person writes them in the Push tab, and the demo service's clock they are judged by:
// the flows the UI tests repeat, written once.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { sandboxJson } from '../app-session';

export const HOUR = 3600_000;

const pad = (n: number) => String(n).padStart(2, '0');

/** The schedule picker's text (a UTC wall time) for `ms`, to the minute. */
export function wallUtc(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** The time on the demo service's clock (its clock_offset_ms variant included). */
export async function serviceNow(sandboxUrl: string): Promise<number> {
  return (await sandboxJson<{ service_now: number }>(sandboxUrl, '/_sandbox/clock')).service_now;
}

/** Moves the demo service's clock `ms` ahead of the computer's (0 puts it back). */
export async function setServiceClockOffset(sandboxUrl: string, ms: number): Promise<void> {
  await sandboxJson(sandboxUrl, '/_sandbox/variants', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clock_offset_ms: ms }),
  });
}

export interface PushText {
  title: string;
  url: string;
  performer?: string;
  /** The application to tick, if any. */
  app?: string;
  /** Starts from a new push (the composer's New) instead of what the composer holds. */
  fresh?: boolean;
}

/** Writes a push in the open account's Push tab: title, address, performer, and the app ticked when given. */
export async function writePush(page: Page, { title, url, performer = 'desk@example.com', app, fresh = false }: PushText): Promise<void> {
  await page.getByTestId('tab-push').click();
  if (fresh) await page.getByRole('button', { name: 'New', exact: true }).click();
  await page.getByTestId('push-title').fill(title);
  await page.getByTestId('push-url').fill(url);
  await page.getByTestId('push-performer').fill(performer);
  if (app) await page.getByTestId(`app-${app}`).check();
}

/** Queues the push the composer holds, as its Queue button does, and waits for the composer to say it was queued. */
export async function queuePush(page: Page): Promise<void> {
  await page.getByTestId('push-queue').click();
  await expect.poll(() => page.getByTestId('push-notice').textContent()).toContain('Queued');
}

/**
 * Makes a blocked push of the open account, as it happens to a person: working offline, a push to
 * app 1001 scheduled a few minutes ahead of the service is queued; the service's clock then moves
 * `clockOffsetMs` on, past its time, and the app goes online again. Returns the push's due time.
 */
export async function blockPush(
  page: Page,
  sandboxUrl: string,
  title: string,
  { clockOffsetMs = 2 * HOUR, url = 'https://news.example.com/blocked' } = {},
): Promise<number> {
  await page.getByTestId('work-offline-sandbox-demo').check();
  await writePush(page, { title, url, app: '1001' });
  await page.getByTestId('push-scheduled').check();
  // A few minutes ahead of the service: fine when queued.
  const due = Math.ceil(((await serviceNow(sandboxUrl)) + 5 * 60_000) / 60_000) * 60_000;
  await page.getByTestId('push-executionTime').fill(wallUtc(due));
  await expect.poll(() => page.getByTestId('push-problem-count').textContent()).toBe('Ready to queue');
  await queuePush(page);
  // While the app works offline the service's clock moves on: the push's time passes.
  await setServiceClockOffset(sandboxUrl, clockOffsetMs);
  expect(await serviceNow(sandboxUrl)).toBeGreaterThan(due);
  await page.getByTestId('work-offline-sandbox-demo').uncheck();
  return due;
}
