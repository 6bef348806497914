// Ids are opaque strings end to end (DECISIONS client 14): against a service whose ids are beyond
// 2^53 (sandbox variant id_range "big": campaign ids from 2^60 + 1, task ids from 2^61 + 1, where
// JSON.parse rounds consecutive ids to one number), every id the client keeps, shows and sends
// back is the service's own. The service's state is read here without JSON.parse, which would
// round these ids (lossless-json.ts, itself tested on its own).
import { afterEach, describe, expect, it } from 'vitest';
import { parseJsonLossless } from '../../../src/main/service/lossless-json';
import { demoFixtures } from '../../../src/sandbox/index';
import { controlHeaders } from '../../helpers/control';
import { campaignPayload, fault, requestLog } from '../../helpers/sandbox';
import { type Env, P, settled, startEnv, submitCampaign } from '../../helpers/world';
import { until } from '../../helpers/wait';

const HOUR = 3_600_000;
/** An app whose id is beyond 2^53 (the fixtures' own digits; tagId writes it as a number). */
const BIG_APP = '9007199254740993';
let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** The demo world with one more app, beyond 2^53, granted to the demo client. */
function withBigApp() {
  const f = demoFixtures();
  f.apps = [...(f.apps ?? []), { app_id: BIG_APP, publisher: 'Big Numbers Weekly', domain: 'https://big.example.com', sw_path: '/sw.js' }];
  f.clients = f.clients.map((c) => (c.client_id === 'demo-client' ? { ...c, apps: [...(c.apps ?? []), BIG_APP] } : c));
  return f;
}

const start = () => startEnv({ fixtures: withBigApp(), variants: { id_range: 'big', late_apply_ms: undefined } });

/** The sandbox's control API, read losslessly. */
async function state<T>(e: Env, path: string): Promise<T> {
  const res = await fetch(`${e.sandbox.url}${path}`, { headers: controlHeaders(e.sandbox, path) });
  return parseJsonLossless(await res.text()) as T;
}
interface ServiceTask {
  taskId: string;
  tagId: string;
  title: string;
  taskStatus: string;
}
const tasksOnService = async (e: Env, app: string) => (await state<{ tasks: ServiceTask[] }>(e, `/_sandbox/state/tasks?app=${app}`)).tasks;
const campaignsOnService = async (e: Env, account: string) =>
  (await state<{ campaigns: { id: string; name: string }[] }>(e, `/_sandbox/state/campaigns?account=${account}`)).campaigns;

async function submitPush(e: Env, app: string, title: string, executionTime?: number) {
  const event = {
    title,
    url: 'https://news.example.com/big',
    performer: 'me@example.com',
    target: { include: { apps: [app] } },
    ...(executionTime ? { executionTime } : {}),
  };
  const d = await e.core.handlers['drafts.save']({
    kind: 'push',
    profileId: P,
    accountId: 'acmeshoes',
    payload: { mode: executionTime ? 'scheduled' : 'immediate', event },
  });
  return e.core.handlers['drafts.submit']({ id: d.id });
}

describe('ids beyond 2^53', () => {
  it('two scheduled tasks whose ids differ only beyond 2^53 are two rows, and cancelling one leaves the other to go out', async () => {
    env = await start();
    const h = env.core.handlers;
    const when = Date.now() + 2 * HOUR;
    for (const title of ['Twin A', 'Twin B'])
      expect((await settled(env, (await submitPush(env, '1001', title, when)).id)).state).toBe('sent');
    const onService = (await tasksOnService(env, '1001')).filter((t) => t.title.startsWith('Twin'));
    const idOf = (title: string) => onService.find((t) => t.title === title)!.taskId;
    // JSON.parse would make these one number.
    expect(idOf('Twin A')).not.toBe(idOf('Twin B'));
    expect(Number(idOf('Twin A'))).toBe(Number(idOf('Twin B')));

    await h['tasks.refresh']({ profileId: P, appId: '1001' });
    const cached = (await h['tasks.list']({ profileId: P, appId: '1001', taskType: 'scheduled' })).filter((t) =>
      t.title?.startsWith('Twin'),
    );
    expect(cached.map((t) => [t.title, t.taskId]).sort()).toEqual([
      ['Twin A', idOf('Twin A')],
      ['Twin B', idOf('Twin B')],
    ]);

    const cancel = await h['tasks.cancel']({ profileId: P, accountId: 'acmeshoes', taskId: idOf('Twin B') });
    expect((await settled(env, cancel.id)).state).toBe('sent');
    const update = await h['tasks.update']({
      profileId: P,
      accountId: 'acmeshoes',
      taskId: idOf('Twin A'),
      patch: { title: 'Twin A, renamed', performer: 'me@example.com' },
    });
    expect((await settled(env, update.id)).state).toBe('sent');
    const after = (await tasksOnService(env, '1001')).filter((t) => t.taskId === idOf('Twin A') || t.taskId === idOf('Twin B'));
    expect(after.map((t) => [t.taskId, t.title, t.taskStatus]).sort()).toEqual([
      [idOf('Twin A'), 'Twin A, renamed', 'pending'],
      [idOf('Twin B'), 'Twin B', 'cancelled'],
    ]);
  });

  it('a created campaign is recorded under the id the service gave it, and a refresh finds it without a second row', async () => {
    env = await start();
    const h = env.core.handlers;
    const item = await submitCampaign(env, 'oldtimerltd', campaignPayload('Big id boots'));
    const sent = await settled(env, item.id);
    const [created] = (await campaignsOnService(env, 'oldtimerltd')).filter((c) => c.name === 'Big id boots');
    expect(BigInt(created.id) > 2n ** 53n).toBe(true);
    expect(sent).toMatchObject({ state: 'sent', posted: { kind: 'campaign', ids: [created.id] } });
    const cachedNamed = async () =>
      (await h['campaigns.query']({ profileId: P, accountId: 'oldtimerltd', text: 'Big id boots', limit: 10, offset: 0 })).rows.map(
        (r) => r.id,
      );
    expect(await cachedNamed()).toEqual([created.id]);
    await h['sync.refresh']({ profileId: P, accountId: 'oldtimerltd' });
    await until(
      async () => (await h['accounts.list']({ profileId: P })).find((a) => a.accountId === 'oldtimerltd')?.lastSyncedAt,
      'the refresh to complete',
    );
    expect(await cachedNamed()).toEqual([created.id]);
  });

  it('a push to an app whose id is beyond 2^53, its answer lost, is found by its tasks and sent once', async () => {
    env = await start();
    await fault(env.sandbox, { method: 'POST', path_prefix: '/epsilon/push', mode: 'close_after', count: 1 });
    const item = await submitPush(env, BIG_APP, 'Big app breaking news');
    const done = await settled(env, item.id);
    const tasks = (await tasksOnService(env, BIG_APP)).filter((t) => t.title === 'Big app breaking news');
    expect(tasks.map((t) => t.tagId)).toEqual([BIG_APP]);
    expect(done).toMatchObject({ state: 'sent', posted: { kind: 'task', ids: [tasks[0].taskId] } });
    const posts = (await requestLog(env.sandbox)).filter((r) => r.method === 'POST' && r.path === '/epsilon/push');
    expect(posts.map((r) => r.outcome)).toEqual(['fault_close_after']);
  });
});
