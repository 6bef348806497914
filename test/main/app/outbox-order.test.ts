// outbox.move through the real core on a real SQLite file against the sandbox over HTTP: the
// person's order is the order the service receives the changes in, it survives a restart, what
// the Outbox says of each change's turn follows it, and only queued changes move.
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboxItem } from '../../../src/shared/ipc/contract';
import { campaignPayload, sandboxCampaigns } from '../../helpers/sandbox';
import { type Env, P, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

const ACCOUNT = 'suntrailtravel';
let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function queue(e: Env, name: string, accountId = ACCOUNT): Promise<OutboxItem> {
  const d = await e.core.handlers['drafts.save']({ kind: 'campaign', profileId: P, accountId, payload: campaignPayload(name) });
  return e.core.handlers['drafts.submit']({ id: d.id });
}

/** The account's changes on their way, in the order the Outbox lists them. */
const listed = async (e: Env, accountId = ACCOUNT) =>
  (await e.core.handlers['outbox.list']({ profileId: P, accountId }))
    .filter((o) => o.state === 'queued')
    .map((o) => o.summary.replace(/^Create campaign "(.*)"$/, '$1'));

const aheadOf = async (e: Env) => Object.fromEntries((await e.core.handlers['outbox.waits']({ profileId: P })).map((w) => [w.id, w.ahead]));

describe('outbox.move', () => {
  it('the service receives the changes in the order the person set, kept across a restart', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    await h['profiles.setWorkOffline']({ profileId: P, offline: true });
    const [one, two, three, four] = [await queue(env, 'One'), await queue(env, 'Two'), await queue(env, 'Three'), await queue(env, 'Four')];
    const other = await queue(env, 'Elsewhere', 'oldtimerltd');

    expect(await h['outbox.move']({ id: four.id, to: 'first' })).toMatchObject({ id: four.id, state: 'queued' });
    await h['outbox.move']({ id: one.id, to: 'down' });
    await h['outbox.move']({ id: three.id, to: { before: two.id } });
    expect(await listed(env)).toEqual(['Four', 'Three', 'Two', 'One']);
    // Another account's lane is its own.
    expect(await listed(env, 'oldtimerltd')).toEqual(['Elsewhere']);
    let ahead = await aheadOf(env);
    expect([four, three, two, one, other].map((i) => ahead[i.id])).toEqual([0, 1, 2, 3, 0]);
    expect(env.events.some((e) => e.event === 'outbox.changed' && (e.payload as { accountId: string }).accountId === ACCOUNT)).toBe(true);

    await env.core.close();
    await env.restart();
    expect(await listed(env)).toEqual(['Four', 'Three', 'Two', 'One']);
    await env.core.handlers['outbox.move']({ id: one.id, to: 'up' });
    ahead = await aheadOf(env);
    expect([four, three, one, two].map((i) => ahead[i.id])).toEqual([0, 1, 2, 3]);

    await env.core.handlers['profiles.setWorkOffline']({ profileId: P, offline: false });
    await until(
      async () => (await env!.core.handlers['outbox.list']({ profileId: P })).every((o) => o.state === 'sent'),
      'every change to be sent',
    );
    // The sandbox numbers campaigns as they arrive: its order is the order they were sent in.
    const onService = (await sandboxCampaigns(env.sandbox, ACCOUNT)).filter((c) => ['One', 'Two', 'Three', 'Four'].includes(c.name));
    expect(onService.sort((a, b) => a.id - b.id).map((c) => c.name)).toEqual(['Four', 'Three', 'One', 'Two']);
  });

  it('refuses to move a change that is not queued, or before one of another account, saying why', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    const sent = await queue(env, 'Gone already');
    await until(
      async () => (await h['outbox.list']({ profileId: P })).find((o) => o.id === sent.id)?.state === 'sent',
      'the change to be sent',
    );
    await expect(h['outbox.move']({ id: sent.id, to: 'first' })).rejects.toMatchObject({
      code: 'conflict',
      message: 'Only a queued change can be moved: it has already been sent.',
    });
    await h['profiles.setWorkOffline']({ profileId: P, offline: true });
    const mine = await queue(env, 'Mine');
    const theirs = await queue(env, 'Theirs', 'oldtimerltd');
    await expect(h['outbox.move']({ id: mine.id, to: { before: theirs.id } })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/only be moved among the queued changes of its own account/),
    });
    await expect(h['outbox.move']({ id: '999999', to: 'up' })).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/Refresh the list/),
    });
    await expect(h['outbox.move']({ id: mine.id, to: { before: '999999' } })).rejects.toMatchObject({ code: 'not_found' });
  });
});
