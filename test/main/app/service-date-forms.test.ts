// The service's clock read from a Date header in either obsolete form (RFC 9110 5.6.7: every
// recipient must accept rfc850 and asctime dates), on a computer whose time zone is not UTC.
// asctime's form names no zone and means UTC; read as local time, the service's clock came out
// hours off, and a push 5 minutes ahead on the service's clock was refused as "in the past".
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Env, P, startEnv } from '../../helpers/world';

const MIN = 60_000;
let env: Env | undefined;
let zone: string | undefined;

// Each test file runs in a process of its own (vitest.config.mts: pool forks), so this zone is
// this file's alone. New York is behind UTC: a UTC date read as local comes out hours later.
beforeAll(() => {
  zone = process.env.TZ;
  process.env.TZ = 'America/New_York';
});
afterAll(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe("Queue on the service's clock, its Date header in an obsolete form", () => {
  it('runs in a time zone that is not UTC', () => {
    expect(new Date(Date.UTC(2026, 10, 21, 12)).getHours()).not.toBe(12);
  });

  for (const form of ['rfc850', 'asctime'] as const) {
    it(`${form}: with the service 10 min behind, a push 5 min ahead of the service (5 min past here) is queued`, async () => {
      env = await startEnv({ clock: 'manual', variants: { date_header: form, clock_offset_ms: -10 * MIN } });
      // Any answer teaches the core the service's clock.
      await env.core.handlers['apps.list']({ profileId: P });
      const at = env.sandbox.now() - 5 * MIN;
      const h = env.core.handlers;
      const event = {
        title: `Five minutes ahead (${form})`,
        url: 'https://news.example.com/soon',
        performer: 'me@example.com',
        target: { include: { apps: ['1001'] } },
        executionTime: at,
      };
      const d = await h['drafts.save']({ kind: 'push', profileId: P, accountId: 'acmeshoes', payload: { mode: 'scheduled', event } });
      expect((await h['drafts.submit']({ id: d.id })).state).toBe('queued');
    });
  }
});
