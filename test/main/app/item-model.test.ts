// One change is one item, from draft to posted (issue 14, items 1 and 2), through the real core
// on a real SQLite file against the sandbox: a refused change is fixed in its draft and replaces
// its old item; a queued, failed or blocked item goes back to its draft; Retry cannot send a
// version the person has edited since; Drafts lists every unsent change with its item's state;
// a posted change names the id the service gave it.
import { afterEach, describe, expect, it } from 'vitest';
import type { Draft, OutboxItem } from '../../../src/shared/ipc/contract';
import { campaignPayload, sandboxCampaigns } from '../../helpers/sandbox';
import { type Env, P, settled, startEnv } from '../../helpers/world';

/** Not enabled for display campaigns: the sandbox refuses one with its own words. */
const BAKERY = 'freshcrumbbakery';
const REFUSAL = 'The service refused to create a campaign in freshcrumbbakery: This account is not enabled for display campaigns';
let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const listed = async (e: Env, accountId: string): Promise<Draft[]> => e.core.handlers['drafts.list']({ profileId: P, accountId });
const activity = async (e: Env) => (await e.core.handlers['activity.list']({ profileId: P, limit: 50 })).map((a) => a.message);

async function refusedDisplayDraft(e: Env, name: string): Promise<{ draft: Draft; item: OutboxItem }> {
  const h = e.core.handlers;
  const draft = await h['drafts.save']({
    kind: 'campaign',
    profileId: P,
    accountId: BAKERY,
    payload: campaignPayload(name, { campaign_item_type: 'HAS_NO_ITEMS_DISPLAY' }),
  });
  const item = await settled(e, (await h['drafts.submit']({ id: draft.id })).id);
  expect(item).toMatchObject({ state: 'failed', draftId: draft.id, lastError: { message: REFUSAL } });
  return { draft, item };
}

describe('one change, one item', () => {
  it('a refused change is taken back to its draft with the service words, fixed, queued again as the only item, and posted with its id', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    const { draft, item } = await refusedDisplayDraft(env, 'Spring banners');
    // Drafts shows it failed, with the service's words and the fix; read-only until taken back.
    expect(await listed(env, BAKERY)).toEqual([
      expect.objectContaining({
        id: draft.id,
        status: 'failed',
        item: expect.objectContaining({ id: item.id, lastError: expect.objectContaining({ message: REFUSAL }) }),
      }),
    ]);

    const back = await h['outbox.takeBack']({ id: item.id });
    expect(back).toMatchObject({ id: draft.id, status: 'draft', serviceWords: REFUSAL });
    expect(back.item).toBeUndefined();
    expect(await h['outbox.list']({ profileId: P })).toEqual([]);
    // Retry of the gone item is refused: Fix and Retry are never both live.
    await expect(h['outbox.retry']({ id: item.id })).rejects.toMatchObject({ code: 'not_found' });

    // The service's words stay while the person edits, and go when the draft is queued again.
    const edited = await h['drafts.save']({
      kind: 'campaign',
      id: draft.id,
      profileId: P,
      accountId: BAKERY,
      payload: campaignPayload('Spring banners'),
    });
    expect(edited).toMatchObject({ status: 'draft', serviceWords: REFUSAL, problems: [] });
    const again = await h['drafts.submit']({ id: draft.id });
    expect((await listed(env, BAKERY))[0]).toMatchObject({ status: expect.stringMatching(/^(queued|sending|draft)$/) });
    const sent = await settled(env, again.id);
    const onService = (await sandboxCampaigns(env.sandbox, BAKERY)).filter((c) => c.name === 'Spring banners');
    expect(onService).toHaveLength(1);
    expect(sent).toMatchObject({ state: 'sent', posted: { kind: 'campaign', ids: [String(onService[0].id)] } });
    expect((await h['outbox.list']({ profileId: P })).map((i) => i.id)).toEqual([again.id]);
    expect(await listed(env, BAKERY)).toEqual([]);
    // A window still showing the posted draft cannot bring it back as a new one (a second post).
    await expect(
      h['drafts.save']({ kind: 'campaign', id: draft.id, profileId: P, accountId: BAKERY, payload: campaignPayload('Spring banners') }),
    ).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/no longer here: it was posted or deleted/),
    });
    expect(await listed(env, BAKERY)).toEqual([]);
    expect(await activity(env)).toEqual(
      expect.arrayContaining([
        'Create campaign "Spring banners" taken back to draft.',
        // Its id from the answer, or found by look-up when the answer had no body (write_answer).
        expect.stringMatching(new RegExp(`^Create campaign "Spring banners" was sent: campaign ${onService[0].id}\\b`)),
      ]),
    );
  });

  it('queueing an edited refused draft replaces the refused item, and Retry refuses to send the version it replaced', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    const { draft, item } = await refusedDisplayDraft(env, 'Summer banners');
    await h['drafts.save']({ kind: 'campaign', id: draft.id, profileId: P, accountId: BAKERY, payload: campaignPayload('Summer banners') });
    // Edited since it was queued: Retry would post the refused version, so the Outbox offers none.
    expect((await h['outbox.list']({ profileId: P })).find((i) => i.id === item.id)).toMatchObject({ state: 'failed', draftEdited: true });
    await expect(h['outbox.retry']({ id: item.id })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/edited in its draft.*queue the draft again/),
    });
    expect(await listed(env, BAKERY)).toEqual([expect.objectContaining({ status: 'draft' })]);
    const again = await h['drafts.submit']({ id: draft.id });
    // Never two items for one draft: the refused one is gone.
    expect((await h['outbox.list']({ profileId: P })).map((i) => i.id)).toEqual([again.id]);
    expect((await settled(env, again.id)).state).toBe('sent');
    expect(await activity(env)).toContain('Create campaign "Summer banners" queued again, replacing the refused version.');
  });

  it('Retry queues a refused change as it is: Drafts shows it queued, with no fix offered', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    const { draft, item } = await refusedDisplayDraft(env, 'Autumn banners');
    await h['profiles.setWorkOffline']({ profileId: P, offline: true });
    const retried = await h['outbox.retry']({ id: item.id });
    expect(retried).toMatchObject({ id: item.id, state: 'queued' });
    expect(await listed(env, BAKERY)).toEqual([expect.objectContaining({ id: draft.id, status: 'queued' })]);
    // Queued: the draft cannot be edited behind its item's back.
    await expect(
      h['drafts.save']({ kind: 'campaign', id: draft.id, profileId: P, accountId: BAKERY, payload: campaignPayload('Autumn banners') }),
    ).rejects.toMatchObject({ code: 'conflict' });
    expect((await h['outbox.list']({ profileId: P })).map((i) => i.id)).toEqual([item.id]);
  });

  it('a queued change stays in Drafts read-only and can be taken back; deleting it asks for that first', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    await h['profiles.setWorkOffline']({ profileId: P, offline: true });
    const d = await h['drafts.save']({ kind: 'campaign', profileId: P, accountId: 'oldtimerltd', payload: campaignPayload('Winter sale') });
    const item = await h['drafts.submit']({ id: d.id });
    expect(await listed(env, 'oldtimerltd')).toEqual([
      expect.objectContaining({ id: d.id, status: 'queued', item: expect.objectContaining({ id: item.id }) }),
    ]);
    await expect(h['drafts.delete']({ id: d.id })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/take it back to draft first/),
    });

    const back = await h['outbox.takeBack']({ id: item.id });
    expect(back).toMatchObject({ id: d.id, status: 'draft' });
    expect(back.serviceWords).toBeUndefined();
    expect(await h['outbox.list']({ profileId: P })).toEqual([]);
    // Survives a restart as a plain draft.
    await env.core.close();
    await env.restart();
    expect(await listed(env, 'oldtimerltd')).toEqual([expect.objectContaining({ id: d.id, status: 'draft' })]);
    await env.core.handlers['profiles.setWorkOffline']({ profileId: P, offline: false });
    expect(await sandboxCampaigns(env.sandbox, 'oldtimerltd').then((cs) => cs.filter((c) => c.name === 'Winter sale'))).toEqual([]);
  });

  it('deleting a refused draft takes its item out of the Outbox with it, and says so', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    const { draft, item } = await refusedDisplayDraft(env, 'Winter banners');
    const before = env.events.length;
    await h['drafts.delete']({ id: draft.id });
    expect(await h['outbox.list']({ profileId: P })).toEqual([]);
    expect(await listed(env, BAKERY)).toEqual([]);
    expect(env.events.slice(before).map((e) => e.event)).toContain('outbox.changed');
    expect(await activity(env)).toContain('Create campaign "Winter banners" discarded with its draft.');
    await expect(h['outbox.retry']({ id: item.id })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('an item that came from no draft is not taken back, with what to do instead; discarding a change discards its draft', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    await h['profiles.setWorkOffline']({ profileId: P, offline: true });
    const sw = await h['apps.setSwPath']({
      profileId: P,
      accountId: 'northbikes',
      appId: '1002',
      serviceWorkerPath: '/push/sw-3.js',
      performer: 'me@example.com',
    });
    await expect(h['outbox.takeBack']({ id: sw.id })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/not made from a draft.*discard it, or retry it/),
    });
    expect((await h['outbox.list']({ profileId: P })).map((i) => i.id)).toEqual([sw.id]);

    const d = await h['drafts.save']({
      kind: 'campaign',
      profileId: P,
      accountId: 'oldtimerltd',
      payload: campaignPayload('Gone for good'),
    });
    const item = await h['drafts.submit']({ id: d.id });
    await h['outbox.discard']({ id: item.id });
    expect(await listed(env, 'oldtimerltd')).toEqual([]);
    expect(await activity(env)).toContain('Create campaign "Gone for good" discarded.');
  });
});
