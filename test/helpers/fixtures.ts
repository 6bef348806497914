// The one known world of fixtures every sandbox of the tests starts from (the test world's,
// world.ts, when a test names it; the sandbox's own tests; the service client's): the example
// fixtures plus a few accounts for the network and rate-limit rules. What a room needs beyond it
// (another secret, a redirect URI, token lifetimes, rate-limit tables, two spare limited
// accounts) is a parameter here, not a copy of the world.
import type { Fixtures } from '../../src/sandbox/index';

/** demo-client's secret in the service client's tests: unlike 'demo-secret', no other text contains it, so a leak check means something. */
export const SECRET = 'demo-secret-7f3a9c';
/** The secret of 'other-program' (with `limitedAccounts`). */
export const OTHER_SECRET = 'other-secret-51d0e2';

export interface WorldOptions {
  /** The service's time at start (the manual clock starts there; a real clock ignores it). Default T0. */
  now?: string;
  /** demo-client's secret. Default 'demo-secret'. */
  secret?: string;
  /** demo-client's one redirect URI. Default http://127.0.0.1:53682/callback. */
  redirectUri?: string;
  /** Access tokens' lifetime, s (default the sandbox's). */
  tokenTtlS?: number;
  rateLimits?: Fixtures['rate_limits'];
  /**
   * Two more new (so rate-limited) advertisers without campaigns, limitedone and limitedtwo, which
   * demo-client reaches and so does another program with a client id of its own ('other-program',
   * OTHER_SECRET): a rate-limit test spends their budgets alone, and the other program's requests
   * count against the same accounts (under token_per_client its tokens leave demo-client's alone).
   */
  limitedAccounts?: boolean;
}

export const T0 = Date.parse('2026-11-21T09:00:00Z');
export const DAY = 24 * 60 * 60 * 1000;
const isoAt = (ms: number) => new Date(ms).toISOString();

/**
 * The small, fully known world, with `opts` on top. A fresh object per call so that tests may tweak
 * it.
 */
export function testFixtures(opts: WorldOptions = {}): Fixtures {
  const fixtures: Fixtures = {
    now: opts.now ?? '2026-11-21T09:00:00Z',
    ...(opts.tokenTtlS === undefined ? {} : { token_ttl_s: opts.tokenTtlS }),
    ...(opts.rateLimits === undefined ? {} : { rate_limits: opts.rateLimits }),
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
      { account_id: 'southnet', name: 'South Network', type: 'NETWORK', created_at: '2026-10-15T00:00:00Z', features: [] },
      {
        account_id: 'southold',
        name: 'South Old',
        type: 'ADVERTISER',
        network_id: 'southnet',
        created_at: '2026-10-04T23:59:59Z',
        features: [],
      },
      {
        account_id: 'southnew',
        name: 'South New',
        type: 'ADVERTISER',
        network_id: 'southnet',
        created_at: '2026-11-01T00:00:00Z',
        features: [],
      },
      { account_id: 'edgecase', name: 'Edge Case', type: 'ADVERTISER', created_at: '2026-10-05T00:00:00Z', features: [] },
      { account_id: 'strangers', name: 'Strangers Inc', type: 'ADVERTISER', created_at: '2026-11-01T00:00:00Z', features: [] },
    ],
    clients: [
      {
        client_id: 'demo-client',
        client_secret: opts.secret ?? 'demo-secret',
        accounts: ['acmeshoes', 'oldtimerltd', 'northnet', 'southnet', 'edgecase'],
        apps: ['1001', '1002', '1999'],
        redirect_uris: [opts.redirectUri ?? 'http://127.0.0.1:53682/callback'],
        users: [{ username: 'manager@example.com', password: 'demo' }],
      },
      {
        client_id: 'other-client',
        client_secret: 'other-secret',
        accounts: ['strangers'],
        apps: ['1003'],
        redirect_uris: ['http://127.0.0.1:9999/other'],
        users: [{ username: 'other@example.com', password: 'other' }],
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
        name: 'Winter boots - search retargeting',
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
        name: 'Alpha old paused',
        branding_text: 'Acme Shoes',
        status: 'PAUSED',
        created_at: isoAt(T0 - 40 * DAY),
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
        name: 'Beta recent paused',
        branding_text: 'Acme Shoes',
        status: 'PAUSED',
        created_at: isoAt(T0 - 3 * DAY),
        bid_strategy: 'FIXED',
        cpc: 0.9,
        spending_limit: 800,
        spending_limit_model: 'MONTHLY',
        marketing_objective: 'LEADS_GENERATION',
        spent: 50,
      },
      {
        account_id: 'acmeshoes',
        id: 4100005,
        name: 'Gamma old rejected',
        branding_text: 'Acme Shoes',
        status: 'REJECTED',
        created_at: isoAt(T0 - 31 * DAY),
        bid_strategy: 'MAX_CONVERSIONS',
        cpc: null,
        spending_limit: 900,
        spending_limit_model: 'MONTHLY',
        marketing_objective: 'LEADS_GENERATION',
        spent: 0,
      },
      {
        account_id: 'acmeshoes',
        id: 4100006,
        name: 'Delta recent pending',
        branding_text: 'Acme Shoes',
        status: 'PENDING_APPROVAL',
        created_at: isoAt(T0 - 29 * DAY),
        bid_strategy: 'MAX_CONVERSIONS',
        cpc: null,
        spending_limit: null,
        spending_limit_model: 'NONE',
        daily_cap: 40,
        marketing_objective: 'DRIVE_WEBSITE_TRAFFIC',
        spent: 0,
      },
      {
        account_id: 'acmeshoes',
        id: 4100007,
        name: 'Epsilon terminated',
        branding_text: 'Acme Shoes',
        status: 'TERMINATED',
        created_at: isoAt(T0 - 1 * DAY),
        bid_strategy: 'FIXED',
        cpc: 0.3,
        spending_limit: 700,
        spending_limit_model: 'MONTHLY',
        marketing_objective: 'LEADS_GENERATION',
        spent: 5,
      },
      {
        account_id: 'acmeshoes',
        id: 4100008,
        name: 'Zeta approved',
        branding_text: 'Acme Shoes',
        status: 'APPROVED',
        created_at: isoAt(T0 - 100 * DAY),
        bid_strategy: 'FIXED',
        cpc: 0.2,
        spending_limit: 2000,
        spending_limit_model: 'MONTHLY',
        marketing_objective: 'LEADS_GENERATION',
        spent: 99.5,
        start_date: '2026-08-01T00:00:00Z',
      },
      {
        account_id: 'northbikes',
        id: 4100002,
        name: 'Gravel bikes leads',
        status: 'PAUSED',
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
      {
        account_id: 'northnet',
        id: 4100011,
        name: 'Network umbrella',
        status: 'APPROVED',
        branding_text: 'North',
        created_at: '2026-10-11T08:00:00Z',
        bid_strategy: 'FIXED',
        cpc: 0.5,
        spending_limit: 1000,
        spending_limit_model: 'MONTHLY',
        marketing_objective: 'LEADS_GENERATION',
        spent: 1,
      },
      {
        account_id: 'strangers',
        id: 4100012,
        name: 'Not yours',
        status: 'APPROVED',
        branding_text: 'Strangers',
        created_at: '2026-11-02T08:00:00Z',
        bid_strategy: 'FIXED',
        cpc: 0.5,
        spending_limit: 1000,
        spending_limit_model: 'MONTHLY',
        marketing_objective: 'LEADS_GENERATION',
        spent: 1,
      },
    ],
    tasks: [
      {
        taskId: 900001,
        tagId: 1001,
        taskType: 'scheduled',
        taskStatus: 'pending',
        executionTime: 1795338000000,
        userTimeZone: 0,
        title: 'Morning briefing: five stories',
        url: 'https://news.example.com/briefing',
        performer: 'editor@example.com',
      },
      {
        taskId: 900002,
        tagId: 1001,
        taskType: 'immediate',
        taskStatus: 'completed',
        executionTime: T0 - DAY,
        title: 'Yesterday',
        url: 'https://news.example.com/y',
        performer: 'editor@example.com',
      },
      {
        taskId: 900003,
        tagId: 1003,
        taskType: 'scheduled',
        taskStatus: 'pending',
        executionTime: T0 + DAY,
        title: 'Someone else',
        url: 'https://else.example.net/x',
        performer: 'other@example.net',
      },
    ],
  };
  if (opts.limitedAccounts) addLimitedAccounts(fixtures);
  return fixtures;
}

function addLimitedAccounts(fixtures: Fixtures): void {
  for (const [id, name] of [
    ['limitedone', 'Limited One'],
    ['limitedtwo', 'Limited Two'],
  ]) {
    fixtures.accounts.push({ account_id: id, name, type: 'ADVERTISER', created_at: '2026-11-01T00:00:00Z', features: [] });
    fixtures.clients[0].accounts.push(id);
  }
  fixtures.clients.push({
    client_id: 'other-program',
    client_secret: OTHER_SECRET,
    accounts: ['acmeshoes', 'oldtimerltd', 'limitedone', 'limitedtwo'],
    apps: ['1001'],
    redirect_uris: [],
    users: [],
  });
}

/**
 * Approved campaigns of `account`, one per id, named by `name` (FIXED at 1, a monthly limit of
 * 3000, created 2026-09-01): rows a listing test adds to the one world in bulk.
 */
export function approvedCampaigns(
  account: string,
  ids: readonly number[],
  name: (id: number, index: number) => string,
  brandingText = 'Old Timer',
): NonNullable<Fixtures['campaigns']> {
  return ids.map((id, index) => ({
    account_id: account,
    id,
    name: name(id, index),
    branding_text: brandingText,
    status: 'APPROVED',
    created_at: '2026-09-01T08:00:00Z',
    bid_strategy: 'FIXED',
    cpc: 1,
    spending_limit: 3000,
    spending_limit_model: 'MONTHLY',
    marketing_objective: 'LEADS_GENERATION',
  }));
}

/** `count` consecutive ids from `first`. */
export const idsFrom = (first: number, count: number): number[] => Array.from({ length: count }, (_, i) => first + i);
