// Every operation of the spec through the client against a real sandbox over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../../src/main/service/errors';
import type { ServiceClient } from '../../../src/main/service/service-client';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index';
import { testVariants } from '../../helpers/variants';
import { clientFor, clockOf, raw, sandboxRequests, SECRET, worldFixtures } from './helpers';

let sb: RunningSandbox;
let client: ServiceClient;

beforeAll(async () => {
  // A frozen clock never refills a window, so this file (about operations, not limits) uses the
  // most permissive tier for every group; rate limiting has its own tests.
  sb = await startSandbox({
    variants: testVariants(),
    clock: 'manual',
    fixtures: worldFixtures({ now: '2026-11-21T09:00:00Z', rateLimits: { endpoint_tiers: { campaigns: 1, 'campaigns.list': 1 } } }),
  });
  client = clientFor(sb, { clock: clockOf(sb) });
});

afterAll(async () => {
  await client.close();
  await sb.close();
});

async function failure(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ServiceError) return e;
    throw e;
  }
  throw new Error('expected a ServiceError');
}

const draft = {
  name: 'Spring sale',
  branding_text: 'Acme Shoes',
  cpc: 0.35,
  spending_limit: 1500,
  spending_limit_model: 'MONTHLY',
  bid_strategy: 'FIXED',
  marketing_objective: 'DRIVE_WEBSITE_TRAFFIC',
};

const event = (over: Record<string, unknown> = {}) => ({
  title: 'Evening digest',
  url: 'https://news.example.com/digest',
  performer: 'editor@example.com',
  target: { include: { apps: ['1001'] } },
  ...over,
});

describe('tokens', () => {
  it('gets a client-credentials token, and names refused credentials without repeating the secret', async () => {
    await client.authenticate();
    const wrong = clientFor(sb, {
      credentials: { flow: 'client_credentials', clientId: 'demo-client', getSecret: () => Promise.resolve('not-the-secret-123') },
    });
    const e = await failure(wrong.authenticate());
    expect(e.kind).toBe('unauthorized');
    expect(e.reason).toBe('credentials_rejected');
    expect(e.status).toBe(401);
    expect(e.message).toContain('invalid_client');
    expect(JSON.stringify(e) + e.message + String(e.stack)).not.toContain('not-the-secret-123');
    await wrong.close();
  });
});

describe('campaigns', () => {
  it('creates a campaign and returns it with a string id', async () => {
    const c = await client.createCampaign('acmeshoes', draft);
    expect(typeof c.id).toBe('string');
    expect(c).toMatchObject({ name: 'Spring sale', advertiser_id: 'acmeshoes', status: 'PENDING_APPROVAL', cpc: 0.35 });
    const listed = await client.listCampaigns('acmeshoes', { fetchLevel: 'RAP', campaignIds: [c.id] });
    expect(listed.campaigns.map((x) => x.id)).toEqual([c.id]);
  });

  it('refuses a draft that breaks the shared rules without sending anything', async () => {
    const before = (await sandboxRequests(sb)).length;
    const e = await failure(client.createCampaign('acmeshoes', { ...draft, cpc: undefined }));
    expect(e).toMatchObject({ kind: 'validation', requestWritten: false });
    expect(e.problems).toEqual([{ field: 'cpc', message: 'cpc is required when bid_strategy is FIXED' }]);
    const bad = await failure(client.createCampaign('acme-shoes', draft));
    expect(bad.problems?.[0].field).toBe('account');
    expect((await sandboxRequests(sb)).length).toBe(before);
  });

  it("passes the server's validation message on (a rule only the server can check)", async () => {
    const e = await failure(client.createCampaign('oldtimerltd', { ...draft, campaign_item_type: 'HAS_NO_ITEMS_DISPLAY' }));
    expect(e).toMatchObject({ kind: 'validation', status: 400, requestWritten: true });
    expect(e.message).toContain('This account is not enabled for display campaigns');
  });

  it('reports an account the credentials do not reach as forbidden', async () => {
    const e = await failure(client.createCampaign('strangers', draft));
    expect(e).toMatchObject({ kind: 'forbidden', status: 403 });
    expect(e.message).toContain('Not authorized for account strangers');
  });

  it('lists with every query parameter: fetch_level, campaign_ids, page, page_size and sort', async () => {
    const recent = await client.listCampaigns('acmeshoes', { fetchLevel: 'R', sort: { field: 'name', direction: 'asc' } });
    const all = await client.listCampaigns('acmeshoes', { fetchLevel: 'RAP', sort: { field: 'name', direction: 'asc' } });
    // R leaves out the paused campaign, RAP includes it.
    expect(recent.campaigns.map((c) => c.name)).not.toContain('Autumn paused');
    expect(all.campaigns.map((c) => c.name)).toContain('Autumn paused');
    const names = all.campaigns.map((c) => c.name);
    expect(names).toEqual([...names].sort());
    const desc = await client.listCampaigns('acmeshoes', { fetchLevel: 'RAP', sort: { field: 'spent', direction: 'desc' } });
    expect(desc.campaigns[0].name).toBe('Winter boots');
    const ids = await client.listCampaigns('acmeshoes', { fetchLevel: 'RAP', campaignIds: ['4100001', 4100005] });
    expect(ids.campaigns.map((c) => c.id).sort()).toEqual(['4100001', '4100005']);
    const page2 = await client.listCampaigns('acmeshoes', { fetchLevel: 'RAP', sort: { field: 'name', direction: 'asc' }, page: 2, pageSize: 2 });
    expect(page2.campaigns.map((c) => c.name)).toEqual(names.slice(2, 4));
    expect(page2).toMatchObject({ total: all.total, count: 2 });
    expect(page2.metadata).toMatchObject({ page: 2, page_size: 2 });
  });

  it('keeps unknown enum values and lists a network with advertiser names', async () => {
    const all = await client.listCampaigns('acmeshoes', { fetchLevel: 'RAP', campaignIds: [4100004] });
    expect(all.campaigns[0].pricing_model).toBe('CPM_FUTURE');
    const network = await client.listCampaigns('northnet', { fetchLevel: 'RAP' });
    expect(network.campaigns.map((c) => c.advertiser_name).sort()).toEqual(['North Bikes', 'North Boats']);
  });

  it('pages to the end with progress reports, and stops when cancelled', async () => {
    const progress: unknown[] = [];
    const { campaigns, total } = await client.listAllCampaigns(
      'acmeshoes',
      { fetchLevel: 'RAP', pageSize: 2, sort: { field: 'name', direction: 'asc' } },
      { onProgress: (p) => progress.push(p) },
    );
    expect(campaigns).toHaveLength(total);
    expect(new Set(campaigns.map((c) => c.id)).size).toBe(total);
    expect(progress).toHaveLength(Math.ceil(total / 2));
    expect(progress[0]).toEqual({ page: 1, fetched: 2, total });

    const ctrl = new AbortController();
    const pages: number[] = [];
    const e = await failure(
      client.listAllCampaigns('acmeshoes', { fetchLevel: 'RAP', pageSize: 1 }, {
        signal: ctrl.signal,
        onProgress: (p) => {
          pages.push(p.page);
          if (p.page === 2) ctrl.abort();
        },
      }),
    );
    expect(e.kind).toBe('cancelled');
    expect(pages).toEqual([1, 2]);
  });
});

describe('push', () => {
  it('lists the authorized applications', async () => {
    expect(await client.authApps()).toEqual({ '1001': 'Acme Daily News', '1002': 'North Outdoors Blog' });
  });

  it('sends an immediate push and finds its task in the list', async () => {
    const ack = await client.sendPush('immediate', [event({ title: 'Immediate one' })]);
    expect(typeof ack).toBe('string');
    const tasks = await client.listTasks('1001', 'immediate');
    const t = tasks.find((x) => x.title === 'Immediate one');
    expect(t).toMatchObject({ tagId: '1001', taskType: 'immediate', taskStatus: 'completed' });
    expect(typeof t?.taskId).toBe('string');
  });

  it('schedules a push, updates it, and cancels it', async () => {
    const at = sb.now() + 3_600_000;
    await client.sendPush('scheduled', [event({ title: 'Later one', executionTime: at })]);
    const find = async () => (await client.listTasks('1001', 'scheduled')).find((x) => x.url === 'https://news.example.com/digest' && x.executionTime === at);
    const t = await find();
    expect(t).toMatchObject({ taskStatus: 'pending', title: 'Later one' });
    await client.updateTask(t!.taskId, { title: 'Later one, renamed', executionTime: at + 60_000 });
    // The task moved: find it by its new time.
    const moved = (await client.listTasks('1001')).find((x) => x.taskId === t!.taskId);
    expect(moved).toMatchObject({ title: 'Later one, renamed', executionTime: at + 60_000 });
    await client.deleteTask(t!.taskId);
    expect((await client.listTasks('1001')).find((x) => x.taskId === t!.taskId)?.taskStatus).toBe('cancelled');
    const again = await failure(client.deleteTask(t!.taskId));
    expect(again).toMatchObject({ kind: 'validation', status: 400 });
    expect(again.message).toContain('Only future scheduled tasks can be updated or deleted');
  });

  it('checks a push against the shared rules before sending, and names server refusals', async () => {
    const local = await failure(client.sendPush('scheduled', [event({ executionTime: sb.now() - 1000 })]));
    expect(local).toMatchObject({ kind: 'validation', requestWritten: false });
    expect(local.problems?.[0]).toEqual({ field: 'executionTime', message: 'executionTime must be in the future for scheduled push' });
    const forbidden = await failure(client.sendPush('immediate', [event({ target: { include: { apps: ['1003'] } } })]));
    expect(forbidden).toMatchObject({ kind: 'forbidden', status: 403 });
    expect(forbidden.message).toContain('Not authorized to send notifications for specified application');
    const missing = await failure(client.updateTask('987654321', { title: 'x' }));
    expect(missing).toMatchObject({ kind: 'not_found', status: 404 });
  });

  it('sets the service worker path (204)', async () => {
    await client.setSwPath({ containerId: '1002', serviceWorkerPath: '/blog/sw.js', performer: 'manager@example.com' });
    const apps = (await raw(sb, 'GET', '/_sandbox/apps')).body as { apps: { app_id: string; sw_path: string }[] };
    expect(apps.apps.find((a) => a.app_id === '1002')?.sw_path).toBe('/blog/sw.js');
    const bad = await failure(client.setSwPath({ containerId: '1002', serviceWorkerPath: 'sw.js', performer: 'x' }));
    expect(bad).toMatchObject({ kind: 'validation', requestWritten: false });
  });
});

describe('secrets', () => {
  it('never puts the client secret or a token in the request log paths, errors or snapshots', async () => {
    const token = (await raw(sb, 'POST', '/authentication/oauth/token', {
      form: { grant_type: 'client_credentials', client_id: 'demo-client', client_secret: SECRET },
    })).body as { access_token: string };
    const text = JSON.stringify(client.snapshot()) + JSON.stringify(await sandboxRequests(sb));
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(token.access_token);
  });
});
