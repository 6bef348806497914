// outbox.counts: what the status bar and the Outbox tab count, without the items or the sent
// history. Against the sandbox on real SQLite.
import { afterEach, describe, expect, it } from 'vitest';
import { campaignPayload } from '../../helpers/sandbox';
import { type Env, P, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('outbox.counts', () => {
  it('counts each account’s unsent changes by state, and a sent one no more', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    await h['profiles.setWorkOffline']({ profileId: P, offline: true });
    const ids: string[] = [];
    for (const [account, name] of [
      ['suntrailtravel', 'One'],
      ['suntrailtravel', 'Two'],
      ['oldtimerltd', 'Three'],
    ] as const) {
      const d = await h['drafts.save']({ kind: 'campaign', profileId: P, accountId: account, payload: campaignPayload(`${name} counted`) });
      ids.push((await h['drafts.submit']({ id: d.id })).id);
    }
    const counts = await h['outbox.counts']({ profileId: P });
    expect(counts).toEqual(
      expect.arrayContaining([
        { profileId: P, accountId: 'suntrailtravel', state: 'queued', count: 2 },
        { profileId: P, accountId: 'oldtimerltd', state: 'queued', count: 1 },
      ]),
    );
    expect(counts).toHaveLength(2);

    await h['profiles.setWorkOffline']({ profileId: P, offline: false });
    await until(async () => ((await h['outbox.counts']({ profileId: P })).length === 0 ? true : undefined), 'every change to be sent');
    // Sent history is kept (the Outbox lists it), but nothing of it is counted.
    expect((await h['outbox.list']({ profileId: P })).filter((i) => ids.includes(i.id)).map((i) => i.state)).toEqual([
      'sent',
      'sent',
      'sent',
    ]);
  });
});
