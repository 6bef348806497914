// Every operation of the spec through the client against a real sandbox over HTTP.
import { describe, expect, it } from 'vitest';
import {
  campaignIdGroups,
  EMPTY_RUN,
  IncompleteListingError,
  MAX_LIST_QUERY_LENGTH,
  walkListing,
  type StreamedListing,
} from '../../../src/main/service/campaigns-api';
import { campaignListSearchParams, MAX_PAGE_SIZE } from '../../../src/shared/domain/campaign';
import { isServiceValue } from '../../../src/shared/domain/service-values';
import type { ServiceClient } from '../../../src/main/service/service-client';
import { type RunningSandbox } from '../../../src/sandbox/index';
import { call, campaignPayload, pushEvent, requestLog } from '../../helpers/sandbox';
import { clientFor, clientPerFile, clockOf, createAndRead, rejection as failure } from '../../helpers/service-client';
import { SECRET } from '../../helpers/fixtures';

let sb: RunningSandbox;
let client: ServiceClient;

clientPerFile(
  (s, c) => {
    sb = s;
    client = c;
  },
  {
    // A frozen clock never refills a window, so this file (about operations, not limits) uses the
    // most permissive tier for every group; rate limiting has its own tests.
    rateLimits: { endpoint_tiers: { campaigns: 1, 'campaigns.list': 1 } },
    // A value of an enum the client has never seen, which it keeps.
    adjust: (f) => Object.assign(f.campaigns!.find((c) => c.id === 4100004)!, { pricing_model: 'CPM_FUTURE' }),
    clientOptions: (s) => ({ clock: clockOf(s) }),
  },
);

const draft = campaignPayload('Spring sale');

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
    const c = await createAndRead(client, sb, 'acmeshoes', draft);
    expect(typeof c.id).toBe('string');
    expect(c).toMatchObject({ name: 'Spring sale', advertiser_id: 'acmeshoes', status: 'PENDING_APPROVAL', cpc: 0.35 });
    const listed = await client.listCampaigns('acmeshoes', { fetchLevel: 'RAP', campaignIds: [c.id] });
    expect(listed.campaigns.map((x) => x.id)).toEqual([c.id]);
  });

  it('refuses a draft that breaks the shared rules without sending anything', async () => {
    const before = (await requestLog(sb)).length;
    const e = await failure(client.createCampaign('acmeshoes', { ...draft, cpc: undefined }));
    expect(e).toMatchObject({ kind: 'validation', requestWritten: false });
    expect(e.problems).toEqual([{ field: 'cpc', message: 'cpc is required when bid_strategy is FIXED' }]);
    const bad = await failure(client.createCampaign('acme-shoes', draft));
    expect(bad.problems?.[0].field).toBe('account');
    expect((await requestLog(sb)).length).toBe(before);
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
    // Whole listings through the walk: a service may cap even an unpaged answer (page_size_cap).
    const recent = await client.listAllCampaigns('acmeshoes', { fetchLevel: 'R', sort: { field: 'name', direction: 'asc' } });
    const all = await client.listAllCampaigns('acmeshoes', { fetchLevel: 'RAP', sort: { field: 'name', direction: 'asc' } });
    // R leaves out the recent paused campaign, RAP includes it.
    expect(recent.campaigns.map((c) => c.name)).not.toContain('Beta recent paused');
    expect(all.campaigns.map((c) => c.name)).toContain('Beta recent paused');
    const names = all.campaigns.map((c) => c.name);
    expect(names).toEqual([...names].sort());
    const desc = await client.listCampaigns('acmeshoes', {
      fetchLevel: 'RAP',
      sort: { field: 'spent', direction: 'desc' },
      page: 1,
      pageSize: 1,
    });
    expect(desc.campaigns[0].name).toBe('Winter boots - search retargeting');
    const ids = await client.listCampaigns('acmeshoes', { fetchLevel: 'RAP', campaignIds: ['4100001', '4100006'] });
    expect(ids.campaigns.map((c) => c.id).sort()).toEqual(['4100001', '4100006']);
    const page2 = await client.listCampaigns('acmeshoes', {
      fetchLevel: 'RAP',
      sort: { field: 'name', direction: 'asc' },
      page: 2,
      pageSize: 2,
    });
    expect(page2.campaigns.map((c) => c.name)).toEqual(names.slice(2, 4));
    expect(page2).toMatchObject({ total: all.total, count: 2 });
    expect(page2.metadata).toMatchObject({ page: 2, page_size: 2 });
  });

  it('keeps unknown enum values and lists a network with advertiser names', async () => {
    const all = await client.listCampaigns('acmeshoes', { fetchLevel: 'RAP', campaignIds: ['4100004'] });
    expect(all.campaigns[0].pricing_model).toBe('CPM_FUTURE');
    const network = await client.listCampaigns('northnet', { fetchLevel: 'RAP' });
    expect(network.campaigns.map((c) => c.advertiser_name).sort()).toEqual(['North Bikes', 'North Boats', 'North Network']);
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
      client.listAllCampaigns(
        'acmeshoes',
        { fetchLevel: 'RAP', pageSize: 1 },
        {
          signal: ctrl.signal,
          onProgress: (p) => {
            pages.push(p.page);
            if (p.page === 2) ctrl.abort();
          },
        },
      ),
    );
    expect(e.kind).toBe('cancelled');
    expect(pages).toEqual([1, 2]);
  });
});

describe('look-ups by many campaign ids', () => {
  // ~1,000 ids in one URL is about 21 KB: a real server answers 431 (and so does the sandbox's HTTP server).
  const wanted = ['4100001', ...Array.from({ length: 998 }, (_, i) => String(5_000_000 + i)), '4100006'];

  it('are split into requests whose query stays under 2 KB, and merged', async () => {
    const before = (await requestLog(sb)).length;
    const { campaigns, total } = await client.listAllCampaigns('acmeshoes', { fetchLevel: 'RAP', campaignIds: wanted });
    expect(campaigns.map((c) => c.id).sort()).toEqual(['4100001', '4100006']);
    expect(total).toBe(2);
    const groups = campaignIdGroups({ fetchLevel: 'RAP' }, wanted);
    expect(groups.flat()).toEqual(wanted);
    for (const ids of groups) {
      expect(
        campaignListSearchParams({ fetchLevel: 'RAP', campaignIds: ids, page: 1, pageSize: MAX_PAGE_SIZE }).toString().length,
      ).toBeLessThanOrEqual(MAX_LIST_QUERY_LENGTH);
    }
    const lists = (await requestLog(sb))
      .slice(before)
      .filter((r) => r.method === 'GET' && r.path.startsWith('/core/api/1.0/acmeshoes/campaigns'));
    expect(lists.length).toBe(groups.length);
    expect(lists.every((r) => r.status === 200)).toBe(true);
    // One unpaged look-up is split the same way.
    const once = await client.listCampaigns('acmeshoes', { fetchLevel: 'RAP', campaignIds: wanted });
    expect(once.campaigns.map((c) => c.id).sort()).toEqual(['4100001', '4100006']);
    expect(once).toMatchObject({ total: 2, count: 2 });
  });
});

describe('the paging walk', () => {
  /**
   * A service that serves at most `cap` rows a page and numbers its pages by the size asked
   * (the other legal reading of a cap than the sandbox's): page 2 of 1000 starts at row 1000.
   */
  const cappedByAskedSize = (rows: number, cap: number) => {
    const reads: { page: number; pageSize: number }[] = [];
    const all = Array.from({ length: rows }, (_, i) => ({ id: String(i + 1), name: `c${i + 1}` }));
    const read = (page: number, pageSize: number) => {
      reads.push({ page, pageSize });
      const start = (page - 1) * pageSize;
      const campaigns = all.slice(start, start + Math.min(pageSize, cap));
      return Promise.resolve({ campaigns, total: rows, count: campaigns.length, metadata: { total: rows, count: campaigns.length } });
    };
    return { read, reads };
  };

  it('goes on in pages of the size the service used, so no rows are skipped whichever way it numbers pages', async () => {
    const service = cappedByAskedSize(2500, 100);
    const ids = new Set<string>();
    const steps = [];
    for await (const step of walkListing(service.read, { pageSize: 1000, what: 'bigshop' })) {
      for (const c of step.campaigns) ids.add(c.id);
      steps.push(step);
    }
    expect(ids.size).toBe(2500);
    expect(service.reads).toHaveLength(25);
    expect(service.reads.slice(0, 3)).toEqual([
      { page: 1, pageSize: 1000 },
      { page: 2, pageSize: 100 },
      { page: 3, pageSize: 100 },
    ]);
    expect(steps.map((s) => s.pagesTotal)).toEqual(Array(25).fill(25));
  });

  it('reads a listing that does not add up once more, then refuses to pass it off as whole', async () => {
    const service = cappedByAskedSize(30, 7);
    const lying = (page: number, size: number) => service.read(page, size).then((p) => ({ ...p, total: 31 }));
    const passes: number[] = [];
    const walk = async () => {
      for await (const step of walkListing(lying, { pageSize: 1000, what: 'oddshop' })) passes.push(step.pass);
    };
    const e = await failure(walk());
    expect(e).toBeInstanceOf(IncompleteListingError);
    expect(e.message).toMatch(/counts 31 campaigns in oddshop but listed 30/);
    expect(new Set(passes)).toEqual(new Set([1, 2]));
    // Each reading in pages of 7 (the size of the first answer), past the pages the total allows
    // to EMPTY_RUN empty pages, the second to twice as many (a page may be empty before the last,
    // and more of them than the first reading crossed): the short last page of a miscounted
    // listing is not taken for a smaller page size.
    expect(service.reads).toHaveLength(Math.ceil(31 / 7) + EMPTY_RUN + Math.ceil(31 / 7) + 2 * EMPTY_RUN);
    expect(service.reads.slice(1).every((r) => r.pageSize === 7)).toBe(true);
  });
});

describe('push', () => {
  it('lists the authorized applications', async () => {
    expect(await client.authApps()).toEqual({ '1001': 'Acme Daily News', '1002': 'North Outdoors Blog' });
  });

  it('sends an immediate push and finds its task in the list', async () => {
    const ack = await client.sendPush('immediate', [pushEvent({ title: 'Immediate one' })]);
    expect(typeof ack.text).toBe('string');
    const tasks = await client.listTasks('1001', 'immediate');
    const t = tasks.find((x) => x.title === 'Immediate one');
    expect(t).toMatchObject({ tagId: '1001', taskType: 'immediate', taskStatus: 'completed' });
    expect(typeof t?.taskId).toBe('string');
  });

  it('schedules a push, updates it, and cancels it', async () => {
    const at = sb.now() + 3_600_000;
    await client.sendPush('scheduled', [pushEvent({ title: 'Later one', executionTime: at })]);
    const find = async () =>
      (await client.listTasks('1001', 'scheduled')).find((x) => x.url === 'https://news.example.com/digest' && x.executionTime === at);
    const t = await find();
    expect(t).toMatchObject({ taskStatus: 'pending', title: 'Later one' });
    // The whole editable record (DECISIONS client 11): a service may require performer on update.
    await client.updateTask(t!.taskId, { title: 'Later one, renamed', executionTime: at + 60_000, performer: 'editor@example.com' });
    // The task moved: find it by its new time.
    const moved = (await client.listTasks('1001')).find((x) => x.taskId === t!.taskId);
    expect(moved).toMatchObject({ title: 'Later one, renamed', executionTime: at + 60_000 });
    await client.deleteTask(t!.taskId);
    // In whichever spelling the service writes it (task_status_spelling: "canceled").
    expect(isServiceValue((await client.listTasks('1001')).find((x) => x.taskId === t!.taskId)?.taskStatus, 'cancelled')).toBe(true);
    const again = await failure(client.deleteTask(t!.taskId));
    expect(again).toMatchObject({ kind: 'validation', status: 400 });
    expect(again.message).toContain('Only future scheduled tasks can be updated or deleted');
  });

  it('checks a push against the shared rules before sending, and names server refusals', async () => {
    const local = await failure(client.sendPush('scheduled', [pushEvent({ executionTime: sb.now() - 1000 })]));
    expect(local).toMatchObject({ kind: 'validation', requestWritten: false });
    expect(local.problems?.[0]).toEqual({ field: 'executionTime', message: 'executionTime must be in the future for scheduled push' });
    const forbidden = await failure(client.sendPush('immediate', [pushEvent({ target: { include: { apps: ['1003'] } } })]));
    expect(forbidden).toMatchObject({ kind: 'forbidden', status: 403 });
    expect(forbidden.message).toContain('Not authorized to send notifications for specified application');
    const missing = await failure(client.updateTask('987654321', { title: 'x' }));
    expect(missing).toMatchObject({ kind: 'not_found', status: 404 });
  });

  it('sets the service worker path (204)', async () => {
    await client.setSwPath({ containerId: '1002', serviceWorkerPath: '/blog/sw.js', performer: 'manager@example.com' });
    const apps = (await call(sb, 'GET', '/_sandbox/apps')).body as { apps: { app_id: string; sw_path: string }[] };
    expect(apps.apps.find((a) => a.app_id === '1002')?.sw_path).toBe('/blog/sw.js');
    const bad = await failure(client.setSwPath({ containerId: '1002', serviceWorkerPath: 'sw.js', performer: 'x' }));
    expect(bad).toMatchObject({ kind: 'validation', requestWritten: false });
  });
});

describe('secrets', () => {
  it('never puts the client secret or a token in the request log paths, errors or snapshots', async () => {
    const token = (
      await call(sb, 'POST', '/authentication/oauth/token', {
        form: { grant_type: 'client_credentials', client_id: 'demo-client', client_secret: SECRET },
      })
    ).body as { access_token: string };
    const text = JSON.stringify(client.snapshot()) + JSON.stringify(await requestLog(sb));
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(token.access_token);
  });
});

describe('an unpaged answer that never ends', () => {
  it('is read no further than twice what it counts (and a thousand more), then the listing is read in pages', async () => {
    const five = Array.from({ length: 5 }, (_, i) => ({ id: String(100 + i), name: `Real ${i}` }));
    let streamed = 0;
    async function* endless(): AsyncGenerator<StreamedListing, void, void> {
      for (let i = 0; ; i++) {
        streamed += 10;
        yield {
          campaigns: Array.from({ length: 10 }, (_, j) => ({ id: String(1_000_000 + i * 10 + j), name: 'junk' })),
          metadata: { total: 5, count: 5 },
        };
      }
    }
    const read = async (page: number, size: number) => {
      const rows = five.slice((page - 1) * size, page * size);
      return { campaigns: rows, total: 5, count: rows.length, metadata: { total: 5, count: rows.length } };
    };
    const ids = new Set<string>();
    let pass = 0;
    for await (const step of walkListing(read, { pageSize: 1000, what: 'endless', whole: endless })) {
      if (step.pass !== pass) {
        pass = step.pass;
        ids.clear();
      }
      for (const c of step.campaigns) ids.add(c.id);
    }
    expect(streamed).toBeLessThanOrEqual(2 * 5 + 1000 + 10);
    expect([...ids].sort()).toEqual(five.map((c) => c.id));
  });
});
