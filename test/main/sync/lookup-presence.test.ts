// A create whose answer was lost, and which the service holds, is found by the look-up in a bounded
// number of reads, whatever the service's page size, order, failures and the churn of other users
// (DECISIONS client 15, 16; chaos seed 101). Presence needs one sighting: a look-up's walk that
// fails or gives up (a page failing past its retries, a listing that never adds up while other
// users create and delete) after it was shown the create has found it, and one that was not shown
// it proves nothing (never "absent"). Services played: pages of one or two rows, rows filtered after
// paging, new ids anywhere (so the newest-first read cannot find it), 5xx on any request, a
// campaign created or deleted by someone else before most listings, and a rate-limited account.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/main/clock/clock';
import { listForMatch } from '../../../src/main/sync/lookup';
import { startSandbox } from '../../../src/sandbox/index';
import { clientFor } from '../../helpers/service-client';
import { creates, listReads } from './support';
import { type Env, outboxItem, startEnv, submitCampaign } from '../../helpers/world';
import { until } from '../../helpers/wait';
import type { Fixtures, Variants } from '../../../src/sandbox/index';
import { PARKED_CODE } from '../../../src/shared/domain/outbox';
import type { OutboxItem } from '../../../src/shared/ipc/contract';
import { campaignPayload, fault, onService, playVariants, testFixtures } from '../../helpers/sandbox';
import { graceFor, testVariants } from '../../helpers/variants';

/** Campaigns of the account besides the fixtures': more than a few pages of one or two rows. */
const ROWS = 30;
/**
 * The sandbox's per-request choices: with it the new campaign's id lands among the last rows of the
 * id order, and no other user deletes it before a look-up could read it (which would make it
 * absent from the service, not missed).
 */
const SEED = 4;
/** The engine's default: an undecided change holds its lane this long, then waits for the person. */
const LANE_HOLD_MS = 5 * 60_000;

function accountWith(account: string, count: number): Fixtures {
  const f = testFixtures();
  for (let i = 0; i < count; i++) {
    f.campaigns!.push({
      account_id: account,
      // Spread over the ids below the next one, among which id_order random places a new one.
      id: 17 + i * 190_000,
      name: `Listed ${i + 1}`,
      branding_text: 'Presence',
      status: 'APPROVED',
      created_at: '2026-11-10T00:00:00Z',
      bid_strategy: 'FIXED',
      cpc: 0.3,
      spending_limit: 900,
      spending_limit_model: 'MONTHLY',
      marketing_objective: 'LEADS_GENERATION',
    });
  }
  return f;
}

/**
 * Lets the engine run on virtual time until the item is final: real I/O settles (no new request, no
 * timer moved, for a few polls), then the clock moves to the next timer (at most a second). Returns
 * the item and whether it was ever parked for the person on the way.
 */
async function runUntilFinal(e: Env, id: string, maxMs: number): Promise<{ item: OutboxItem; parked: boolean; tookMs: number }> {
  const start = e.clock!.now();
  let parked = false;
  for (;;) {
    let last = '';
    for (let same = 0; same < 5; ) {
      await new Promise((r) => setTimeout(r, 2));
      const sig = `${e.sandbox.lastRequestSeq()}/${e.clock!.nextTimerAt() ?? '-'}`;
      same = sig === last ? same + 1 : 0;
      last = sig;
    }
    const item = (await outboxItem(e, id))!;
    if (item.lastError?.code === PARKED_CODE) parked = true;
    if (['sent', 'failed', 'blocked'].includes(item.state)) return { item, parked, tookMs: e.clock!.now() - start };
    if (e.clock!.now() - start > maxMs) return { item, parked, tookMs: e.clock!.now() - start };
    const next = e.clock!.nextTimerAt();
    e.sandbox.advance(next === undefined ? 1000 : Math.min(Math.max(1, next - e.clock!.now()), 1000));
  }
}

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('a lost create the service holds is found, in a bounded number of reads', () => {
  // `service` is played from the start; `meanwhile` once the create's answer is lost (a 5xx in
  // place of the create would be another path: a refused create is known not to be applied).
  const cases: { name: string; account: string; service: Variants; meanwhile: Variants }[] = [
    // Three listings in ten are changed by someone else first: no reading of 30-odd one-row pages adds up.
    {
      name: 'pages of one row, churn before three listings in ten, new ids anywhere',
      account: 'oldtimerltd',
      service: { page_size_cap: 1, id_order: 'random' },
      meanwhile: { churn: 0.3 },
    },
    // One request in five fails: a look-up of ~20 pages would almost never get through whole.
    {
      name: 'pages of two rows filtered after paging, 5xx on a fifth of the requests',
      account: 'oldtimerltd',
      service: { page_size_cap: 2, short_pages: true, id_order: 'random' },
      meanwhile: { transient_5xx: 0.2 },
    },
    // Seed 101's service on a rate-limited account (15 list reads a minute).
    {
      name: 'all of these on a rate-limited account',
      account: 'acmeshoes',
      service: { page_size_cap: 2, short_pages: true, id_order: 'random' },
      meanwhile: { churn: 0.25, transient_5xx: 0.14 },
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      // A service that applies a write late (the mixed variants) is given that long before the first look.
      const grace = graceFor({ ...testVariants(), ...c.service });
      env = await startEnv({
        clock: 'manual',
        fixtures: accountWith(c.account, ROWS),
        variants: { ...c.service, seed: SEED },
        tuning: { uncertainGraceMs: grace },
      });
      const e = env;
      const path = `/core/api/1.0/${c.account}/campaigns`;
      await fault(e.sandbox, { method: 'POST', path_prefix: path, mode: 'close_after', count: 1 });
      const name = `Present after a lost answer ${c.account}`;
      const lost = await submitCampaign(e, c.account, campaignPayload(name));
      await until(async () => (await creates(e.sandbox, c.account)).length === 1, 'the create to be sent');
      await playVariants(e.sandbox, { ...c.service, ...c.meanwhile, seed: SEED });
      const { item, parked, tookMs } = await runUntilFinal(e, lost.id, 2 * LANE_HOLD_MS);

      // Found by the engine itself, before its lane bound: the person is never asked about it.
      expect(item.state, `${item.state}: ${item.lastError?.message ?? ''}`).toBe('sent');
      expect(parked).toBe(false);
      expect(tookMs).toBeLessThan(LANE_HOLD_MS);
      const held = await onService(e.sandbox, c.account, name);
      expect(held).toHaveLength(1);
      expect(item.posted?.ids).toEqual([String(held[0].id)]);
      expect((await creates(e.sandbox, c.account)).map((r) => r.outcome)).toEqual(['fault_close_after']);
      // Bounded: the look-ups read no more than three whole readings' pages of the account.
      const reads = await listReads(e.sandbox, c.account, 0);
      const cap = c.service.page_size_cap ?? 1;
      expect(reads.length).toBeLessThanOrEqual(3 * Math.ceil((ROWS + 3) / cap) + 10);
    });
  }
});

describe("a look-up's failed page", () => {
  it("is read again after its Retry-After on the app's clock, and the look-up goes on from what it read", async () => {
    const clock = new ManualClock(Date.parse('2026-11-21T09:00:00Z'));
    const f = accountWith('oldtimerltd', ROWS);
    const sb = await startSandbox({
      clock,
      fixtures: { ...f, clients: f.clients.map((c) => ({ ...c, client_secret: 'demo-secret-7f3a9c' })) },
      variants: { ...testVariants(), page_size_cap: 2 },
    });
    const client = clientFor(sb, { clock });
    try {
      await fault(sb, { method: 'GET', path_prefix: '/core/api/1.0/oldtimerltd/campaigns', mode: 'status_503', retry_after: 30, count: 1 });
      const none = () => false;
      const look = listForMatch(client, 'oldtimerltd', undefined, none);
      // The wait is a timer of the app's clock (the test's): nothing is read until it is moved.
      await until(() => clock.nextTimerAt() !== undefined, 'the look-up to wait for the Retry-After');
      expect(clock.nextTimerAt()! - clock.now()).toBe(30_000);
      sb.advance(30_000);
      const listed = await look;
      expect(listed.map((c) => c.name).filter((n) => n.startsWith('Listed'))).toHaveLength(ROWS);
    } finally {
      await client.close();
      await sb.close();
    }
  });
});
