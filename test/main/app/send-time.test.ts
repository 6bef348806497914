// A create's look-up counts its grace period and the listing's lag from when the create left, not
// from when its send began: a request may wait a minute in the rate-limit queue first. Counted from
// the start, a create the service took without naming it (write_answer) was looked for before the
// listing could show it, and recorded as posted with no id, though the service held it. Found by
// the chaos suite (seed 58: a create resent after a 408 waited for the minute's write slot).
import { afterEach, expect, it } from 'vitest';
import { demoFixtures, type Fixtures } from '../../../src/sandbox/index';
import { campaignPayload, sandboxCampaigns } from '../../helpers/sandbox';
import { advanceUntil, type Env, outboxItem, P, startEnv } from '../../helpers/world';

const ACCOUNT = 'acmeshoes';
const T = Date.parse('2026-11-21T09:00:00Z');

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** The demo world with one create a minute for a limited account (tier 2 is the create's). */
function oneCreateAMinute(): Fixtures {
  return {
    ...demoFixtures(T),
    now: new Date(T).toISOString(),
    rate_limits: { tiers: { '2': { read: [20, 120, 1500], write: [1, 1, 10] } } },
  };
}

it('a create that waited for its rate-limit slot, answered without its id, is recorded with the id the service gave it', async () => {
  env = await startEnv({
    clock: 'manual',
    fixtures: oneCreateAMinute(),
    // The service answers a create 204 and lists it 20 s later; the client looks 30 s after a send.
    variants: { write_answer: 'no_content', listing_lag_ms: 20_000 },
    tuning: { uncertainGraceMs: 30_000 },
  });
  const h = env.core.handlers;
  const names = ['Waited first', 'Waited second'];
  const ids: string[] = [];
  for (const name of names) {
    const d = await h['drafts.save']({ kind: 'campaign', profileId: P, accountId: ACCOUNT, payload: campaignPayload(name) });
    ids.push((await h['drafts.submit']({ id: d.id })).id);
  }
  const sent = async () => (await Promise.all(ids.map((id) => outboxItem(env!, id)))).every((i) => i?.state === 'sent');
  await advanceUntil(env, sent, 'both creates to be sent', 10 * 60_000, 5_000);
  const onService = await sandboxCampaigns(env.sandbox, ACCOUNT);
  for (const [k, name] of names.entries()) {
    const held = onService.filter((c) => c.name === name);
    expect(held).toHaveLength(1);
    expect((await outboxItem(env, ids[k]))?.posted?.ids).toEqual([String(held[0].id)]);
  }
});
