// Shared set-up of the service client tests: a small known world for the sandbox and a client wired
// to it. Raw HTTP to the sandbox, its faults, its request log and its login page are
// test/helpers/sandbox.ts's.
import { systemClock, type Clock } from '../../../src/main/clock/clock';
import { ServiceError } from '../../../src/main/service/errors';
import { ServiceClient, type ServiceClientOptions } from '../../../src/main/service/service-client';
import { parseJsonLossless } from '../../../src/main/service/lossless-json';
import type { Campaign, CampaignCreate } from '../../../src/shared/domain/campaign';
import type { Fixtures, RunningSandbox } from '../../../src/sandbox/index';
import { call } from '../../helpers/sandbox';

export const SECRET = 'demo-secret-7f3a9c';
export const OTHER_SECRET = 'other-secret-51d0e2';

export function worldFixtures(
  opts: { redirectUri?: string; rateLimits?: Fixtures['rate_limits']; tokenTtlS?: number; now?: string } = {},
): Fixtures {
  return {
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.tokenTtlS ? { token_ttl_s: opts.tokenTtlS } : {}),
    ...(opts.rateLimits ? { rate_limits: opts.rateLimits } : {}),
    accounts: [
      {
        account_id: 'acmeshoes',
        name: 'Acme Shoes',
        type: 'ADVERTISER',
        created_at: '2026-11-02T10:00:00Z',
        features: ['DISPLAY', 'SPENDING_LIMIT_NONE'],
      },
      { account_id: 'oldtimerltd', name: 'Old Timer Ltd', type: 'ADVERTISER', created_at: '2025-03-01T00:00:00Z', features: [] },
      { account_id: 'northnet', name: 'North Network', type: 'NETWORK', created_at: '2026-10-10T00:00:00Z', features: [] },
      {
        account_id: 'northbikes',
        name: 'North Bikes',
        type: 'ADVERTISER',
        network_id: 'northnet',
        created_at: '2026-10-12T00:00:00Z',
        features: ['PERFORMANCE_VIDEO'],
      },
      {
        account_id: 'northboats',
        name: 'North Boats',
        type: 'ADVERTISER',
        network_id: 'northnet',
        created_at: '2026-10-20T00:00:00Z',
        features: [],
      },
      { account_id: 'strangers', name: 'Strangers Inc', type: 'ADVERTISER', created_at: '2026-11-01T00:00:00Z', features: [] },
      { account_id: 'limitedone', name: 'Limited One', type: 'ADVERTISER', created_at: '2026-11-01T00:00:00Z', features: [] },
      { account_id: 'limitedtwo', name: 'Limited Two', type: 'ADVERTISER', created_at: '2026-11-01T00:00:00Z', features: [] },
    ],
    clients: [
      {
        client_id: 'demo-client',
        client_secret: SECRET,
        accounts: ['acmeshoes', 'oldtimerltd', 'northnet', 'limitedone', 'limitedtwo'],
        apps: ['1001', '1002'],
        redirect_uris: [opts.redirectUri ?? 'http://127.0.0.1:53682/callback'],
        users: [{ username: 'manager@example.com', password: 'demo' }],
      },
      // Another program reaching the same accounts with a client id of its own: under a service
      // that keeps one token per client id (token_per_client), its tokens leave the tests' alone.
      {
        client_id: 'other-program',
        client_secret: OTHER_SECRET,
        accounts: ['acmeshoes', 'oldtimerltd', 'limitedone', 'limitedtwo'],
        apps: ['1001'],
        redirect_uris: [],
        users: [],
      },
    ],
    apps: [
      { app_id: '1001', publisher: 'Acme Daily News', domain: 'https://news.example.com', sw_path: '/sw.js' },
      { app_id: '1002', publisher: 'North Outdoors Blog', domain: 'https://blog.example.org', sw_path: '/sw.js' },
      { app_id: '1003', publisher: 'Someone Else Media', domain: 'https://else.example.net', sw_path: '/sw.js' },
    ],
    campaigns: [
      {
        account_id: 'acmeshoes',
        id: 4100001,
        name: 'Winter boots',
        branding_text: 'Acme Shoes',
        status: 'APPROVED',
        created_at: '2026-09-01T08:00:00Z',
        bid_strategy: 'FIXED',
        cpc: 0.42,
        spending_limit: 3000,
        spending_limit_model: 'MONTHLY',
        marketing_objective: 'DRIVE_WEBSITE_TRAFFIC',
        daily_cap: 150,
        spent: 1234.56,
      },
      {
        account_id: 'acmeshoes',
        id: 4100003,
        name: 'Autumn paused',
        branding_text: 'Acme Shoes',
        status: 'PAUSED',
        created_at: '2026-11-18T08:00:00Z',
        bid_strategy: 'FIXED',
        cpc: 0.1,
        spending_limit: 500,
        spending_limit_model: 'MONTHLY',
        marketing_objective: 'LEADS_GENERATION',
        spent: 10,
      },
      {
        account_id: 'acmeshoes',
        id: 4100004,
        name: 'Boots retargeting',
        branding_text: 'Acme Shoes',
        status: 'APPROVED',
        created_at: '2026-11-10T08:00:00Z',
        bid_strategy: 'MAX_CONVERSIONS',
        cpc: null,
        spending_limit: 800,
        spending_limit_model: 'MONTHLY',
        marketing_objective: 'LEADS_GENERATION',
        spent: 50,
        pricing_model: 'CPM_FUTURE',
      },
      {
        account_id: 'acmeshoes',
        id: 4100005,
        name: 'Clogs',
        branding_text: 'Acme Shoes',
        status: 'APPROVED',
        created_at: '2026-11-11T08:00:00Z',
        bid_strategy: 'FIXED',
        cpc: 0.3,
        spending_limit: 900,
        spending_limit_model: 'MONTHLY',
        marketing_objective: 'LEADS_GENERATION',
        spent: 5,
      },
      {
        account_id: 'acmeshoes',
        id: 4100006,
        name: 'Derby shoes',
        branding_text: 'Acme Shoes',
        status: 'APPROVED',
        created_at: '2026-11-12T08:00:00Z',
        bid_strategy: 'FIXED',
        cpc: 0.9,
        spending_limit: 700,
        spending_limit_model: 'MONTHLY',
        marketing_objective: 'LEADS_GENERATION',
        spent: 7,
      },
      {
        account_id: 'northbikes',
        id: 4100002,
        name: 'Gravel bikes leads',
        status: 'APPROVED',
        branding_text: 'North Bikes',
        created_at: '2026-11-10T08:00:00Z',
        bid_strategy: 'MAX_CONVERSIONS',
        cpc: null,
        spending_limit: 5000,
        spending_limit_model: 'MONTHLY',
        marketing_objective: 'LEADS_GENERATION',
        spent: 88.1,
      },
      {
        account_id: 'northboats',
        id: 4100010,
        name: 'Kayak season',
        status: 'APPROVED',
        branding_text: 'North Boats',
        created_at: '2026-10-21T08:00:00Z',
        bid_strategy: 'FIXED',
        cpc: 0.5,
        spending_limit: 1000,
        spending_limit_model: 'MONTHLY',
        marketing_objective: 'LEADS_GENERATION',
        spent: 300,
      },
    ],
    tasks: [
      {
        taskId: 900002,
        tagId: 1001,
        taskType: 'immediate',
        taskStatus: 'completed',
        executionTime: Date.parse('2026-11-20T09:00:00Z'),
        title: 'Yesterday',
        url: 'https://news.example.com/y',
        performer: 'editor@example.com',
      },
    ],
  };
}

/** The sandbox's clock for the client; timers still run on real time. */
export function clockOf(sb: RunningSandbox): Clock {
  return { now: () => sb.now(), setTimer: systemClock.setTimer };
}

/**
 * A create through the client, and the campaign it made as the client reads it. A service may
 * answer a create without a body (write_answer), naming no campaign: the campaign is then read from
 * a listing, by the id the service holds for the newest campaign of that name (the control API),
 * as the outbox's look-up would find it. Tests about the create's answer itself do not use this.
 */
export async function createAndRead(
  client: ServiceClient,
  sb: { url: string },
  accountId: string,
  body: CampaignCreate,
): Promise<Campaign> {
  const created = await client.createCampaign(accountId, body);
  if (created) return created;
  const state = await call(sb, 'GET', `/_sandbox/state/campaigns?account=${accountId}`);
  const stored = (parseJsonLossless(state.text) as { campaigns: { id: number | string; name: string }[] }).campaigns;
  const made = stored.filter((c) => c.name === body.name?.trim()).at(-1);
  if (!made) throw new Error(`the service holds no campaign named ${String(body.name)}`);
  const page = await client.listCampaigns(accountId, { fetchLevel: 'RAP', campaignIds: [String(made.id)] });
  if (page.campaigns.length !== 1) throw new Error(`campaign ${String(made.id)} is not listed`);
  return page.campaigns[0];
}

export function clientFor(sb: { url: string }, opts: Partial<ServiceClientOptions> = {}): ServiceClient {
  return new ServiceClient({
    baseUrl: sb.url,
    authUrl: sb.url,
    pushUrl: sb.url,
    credentials: { flow: 'client_credentials', clientId: 'demo-client', getSecret: () => Promise.resolve(SECRET) },
    ...opts,
  });
}

/** The ServiceError the call failed with; anything else (or success) fails the test. */
export async function rejection(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ServiceError) return e;
    throw e;
  }
  throw new Error('expected a ServiceError');
}
