// The built-in demo world (used when no fixtures are given): the example file's accounts and
// client plus a few more advertisers, about 200 campaigns and some push tasks. A seeded PRNG makes
// it the same for a given `now`; dates are relative to `now` so the demo always looks current.
import { DEMO_ACCOUNTS, DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, type DemoAccount } from '../shared/demo-world';
import type { CampaignFixture, Fixtures, TaskFixture } from './fixtures';
import { mulberry32 } from './random';

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

/** What the sandbox adds to each account of the demo world (src/shared/demo-world.ts). */
interface DemoAccountData {
  account_id: string;
  created_at: string;
  features: ('DISPLAY' | 'PERFORMANCE_VIDEO' | 'SPENDING_LIMIT_NONE')[];
  products: string[];
  campaigns: number;
}

const ACCOUNTS: DemoAccountData[] = [
  {
    account_id: 'acmeshoes',
    created_at: '2026-11-02T10:00:00Z',
    features: ['DISPLAY', 'SPENDING_LIMIT_NONE'],
    campaigns: 34,
    products: ['Winter boots', 'Trail runners', 'Kids sneakers', 'Leather loafers', 'Rain boots', 'Running shoes', 'Work boots'],
  },
  {
    account_id: 'oldtimerltd',
    created_at: '2025-03-01T00:00:00Z',
    features: [],
    campaigns: 28,
    products: ['Vintage clocks', 'Pocket watches', 'Restoration service', 'Antique barometers', 'Grandfather clocks'],
  },
  { account_id: 'northnet', created_at: '2026-10-10T00:00:00Z', features: [], campaigns: 2, products: ['North brands'] },
  {
    account_id: 'northbikes',
    created_at: '2026-10-12T00:00:00Z',
    features: ['PERFORMANCE_VIDEO'],
    campaigns: 24,
    products: ['Gravel bikes', 'E-bikes', 'Kids bikes', 'Bike helmets', 'Winter tyres', 'Service plans'],
  },
  {
    account_id: 'northboats',
    created_at: '2026-10-20T00:00:00Z',
    features: [],
    campaigns: 18,
    products: ['Sailing dinghies', 'Kayaks', 'Boat rentals', 'Marine electronics', 'Life jackets'],
  },
  {
    account_id: 'suntrailtravel',
    created_at: '2024-06-18T09:30:00Z',
    features: ['DISPLAY'],
    campaigns: 30,
    products: [
      'Lisbon city breaks',
      'Greek islands',
      'Alpine ski weeks',
      'Canary winter sun',
      'Rome weekends',
      'Iceland tours',
      'Family resorts',
    ],
  },
  {
    account_id: 'bluepeaksoftware',
    created_at: '2025-09-03T14:00:00Z',
    features: ['SPENDING_LIMIT_NONE', 'PERFORMANCE_VIDEO'],
    campaigns: 26,
    products: ['Project planner', 'Team chat', 'Invoice app', 'Backup suite', 'Free trial', 'Product webinar'],
  },
  {
    account_id: 'freshcrumbbakery',
    created_at: '2026-11-09T08:00:00Z',
    features: [],
    campaigns: 8,
    products: ['Sourdough subscription', 'Birthday cakes', 'Holiday cookies'],
  },
  { account_id: 'southmedia', created_at: '2026-10-15T00:00:00Z', features: [], campaigns: 0, products: [] },
  {
    account_id: 'southcafe',
    created_at: '2025-06-01T00:00:00Z',
    features: [],
    campaigns: 14,
    products: ['Breakfast menu', 'Coffee beans', 'Loyalty card'],
  },
  {
    account_id: 'southgym',
    created_at: '2026-10-20T00:00:00Z',
    features: [],
    campaigns: 14,
    products: ['New year membership', 'Personal training', 'Yoga classes'],
  },
];

function demoAccount(id: string): DemoAccount {
  const a = DEMO_ACCOUNTS.find((x) => x.accountId === id);
  if (!a) throw new Error(`demo account ${id} is not in src/shared/demo-world.ts`);
  return a;
}

const TACTICS = [
  'retargeting',
  'prospecting',
  'lookalike audiences',
  'search intent',
  'newsletter readers',
  'Black Friday',
  'spring sale',
  'summer sale',
  'leads',
  'brand awareness',
  'mobile only',
  'DE',
  'FR',
  'UK',
  'US',
];

function pick<T>(rand: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)];
}

const round = (x: number, step: number): number => Math.round(x / step) * step;
const cents = (x: number): number => Math.round(x * 100) / 100;
const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
const slug = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function status(rand: () => number, ageDays: number): string {
  const r = rand();
  if (ageDays < 4 && r < 0.5) return 'PENDING_APPROVAL';
  if (r < 0.64) return 'APPROVED';
  if (r < 0.77) return 'PAUSED';
  if (r < 0.86) return 'PENDING_APPROVAL';
  if (r < 0.95) return 'REJECTED';
  return 'TERMINATED';
}

type DraftCampaign = Omit<CampaignFixture, 'id'>;

function campaignsOf(a: DemoAccountData, rand: () => number, now: number): DraftCampaign[] {
  const brand = demoAccount(a.account_id).name;
  const out: DraftCampaign[] = [];
  const names = new Set<string>();
  const span = Math.max(DAY, Math.min(120 * DAY, now - Date.parse(a.created_at)));
  for (let i = 0; i < a.campaigns; i++) {
    const product = pick(rand, a.products);
    let name = `${product} - ${pick(rand, TACTICS)}`;
    for (let n = 2; names.has(name); n++) name = `${product} - ${pick(rand, TACTICS)} ${n}`;
    names.add(name);
    const created = round(now - rand() * span, 60_000);
    const ageDays = (now - created) / DAY;
    const st = status(rand, ageDays);
    const fixed = rand() < 0.65;
    const display = a.features.includes('DISPLAY') && rand() < 0.25;
    const video = !display && a.features.includes('PERFORMANCE_VIDEO') && rand() < 0.2;
    const noLimit = a.features.includes('SPENDING_LIMIT_NONE') && rand() < 0.3;
    const limit = noLimit ? null : round(500 + rand() * 19_500, 50);
    const dailyCap = noLimit ? round(50 + rand() * 450, 10) : rand() < 0.4 ? round(((limit ?? 0) / 30) * 1.5, 5) : null;
    const budget = limit ?? (dailyCap ?? 0) * 30;
    const spends = st !== 'PENDING_APPROVAL' && st !== 'REJECTED';
    out.push({
      account_id: a.account_id,
      created_at: iso(created),
      name,
      branding_text: display ? null : brand,
      tracking_code: `utm_source=campaigndesk&utm_medium=${display ? 'display' : 'native'}&utm_campaign=${slug(name)}`,
      bid_strategy: fixed ? 'FIXED' : 'MAX_CONVERSIONS',
      cpc: fixed ? cents(0.05 + rand() * 1.45) : null,
      marketing_objective: rand() < 0.6 ? 'DRIVE_WEBSITE_TRAFFIC' : 'LEADS_GENERATION',
      spending_limit_model: noLimit ? 'NONE' : 'MONTHLY',
      spending_limit: limit,
      daily_cap: dailyCap,
      start_date: iso(round(created + rand() * 3 * DAY, HOUR)),
      // The service moves a display campaign to HAS_DISPLAY_ITEMS once it has items (spec 3.1).
      campaign_item_type: display
        ? st === 'APPROVED'
          ? 'HAS_DISPLAY_ITEMS'
          : 'HAS_NO_ITEMS_DISPLAY'
        : video
          ? 'HAS_NO_ITEMS_PERFORMANCE_DISPLAY_VIDEO'
          : 'HAS_NO_ITEMS',
      status: st,
      spent: spends ? cents(budget * Math.min(1, ageDays / 30) * (0.2 + rand() * 0.75)) : 0,
    });
  }
  return out;
}

function tasksOf(now: number): TaskFixture[] {
  const t = (
    taskId: number,
    tagId: string,
    kind: 'immediate' | 'scheduled',
    taskStatus: string,
    at: number,
    title: string,
    url: string,
    performer: string,
    itemDescription?: string,
  ): TaskFixture => ({
    taskId,
    tagId,
    taskType: kind,
    taskStatus,
    executionTime: round(at, 60_000),
    title,
    url,
    performer,
    ...(itemDescription === undefined ? {} : { itemDescription }),
  });
  return [
    t(
      900001,
      '1001',
      'immediate',
      'completed',
      now - 6 * DAY,
      'Morning briefing: five stories you missed',
      'https://news.example.com/briefing',
      'editor@example.com',
      'The five stories everyone talked about this week, in two minutes.',
    ),
    t(
      900002,
      '1001',
      'immediate',
      'completed',
      now - 3 * DAY,
      'Breaking: city council approves new bike lanes',
      'https://news.example.com/bike-lanes',
      'editor@example.com',
    ),
    t(
      900003,
      '1002',
      'immediate',
      'completed',
      now - 2 * DAY,
      'Weekend ride: three gravel routes near you',
      'https://blog.example.org/gravel-routes',
      'manager@example.com',
      'Maps, elevation and where to stop for coffee.',
    ),
    t(
      900004,
      '1004',
      'immediate',
      'failed',
      now - 1 * DAY,
      'Last seats: Lisbon in December',
      'https://deals.suntrail.example/lisbon',
      'manager@example.com',
    ),
    t(
      900005,
      '1001',
      'scheduled',
      'cancelled',
      now + 2 * DAY,
      'Evening digest (old draft)',
      'https://news.example.com/digest',
      'editor@example.com',
    ),
    t(
      900006,
      '1003',
      'immediate',
      'completed',
      now - 4 * DAY,
      'Someone Else Media weekly',
      'https://else.example.net/weekly',
      'other@example.net',
    ),
    t(
      900007,
      '1001',
      'scheduled',
      'pending',
      now + 5 * HOUR,
      'Evening digest: the day in ten headlines',
      'https://news.example.com/digest',
      'editor@example.com',
      'Everything that mattered today, before dinner.',
    ),
    t(
      900008,
      '1002',
      'scheduled',
      'pending',
      now + 2 * DAY,
      'New post: winter tyre test 2026',
      'https://blog.example.org/winter-tyres',
      'manager@example.com',
    ),
    t(
      900009,
      '1004',
      'scheduled',
      'pending',
      now + 4 * DAY,
      'Canary winter sun from 399 EUR',
      'https://deals.suntrail.example/canary',
      'manager@example.com',
      'Seven nights, flights included, limited seats.',
    ),
  ];
}

export function demoFixtures(now: number = Date.now()): Fixtures {
  const rand = mulberry32(20261121);
  const drafts = ACCOUNTS.flatMap((a) => campaignsOf(a, rand, now));
  // Ids grow with creation time, as a real service's sequence would.
  drafts.sort((x, y) => Date.parse(x.created_at) - Date.parse(y.created_at) || x.name.localeCompare(y.name));
  const campaigns: CampaignFixture[] = drafts.map((d, i) => ({ id: 4100001 + i, ...d }));
  return {
    token_ttl_s: 3600,
    accounts: ACCOUNTS.map(({ account_id, created_at, features }) => {
      const { name, type, networkId } = demoAccount(account_id);
      return { account_id, name, type, created_at, features, ...(networkId === null ? {} : { network_id: networkId }) };
    }),
    clients: [
      {
        client_id: DEMO_CLIENT_ID,
        client_secret: DEMO_CLIENT_SECRET,
        // Granted a network, a client reaches its members through it.
        accounts: DEMO_ACCOUNTS.filter((a) => a.networkId === null).map((a) => a.accountId),
        apps: ['1001', '1002', '1004'],
        redirect_uris: ['http://127.0.0.1:53682/callback'],
        users: [{ username: 'manager@example.com', password: 'demo' }],
      },
      {
        client_id: 'partner-client',
        client_secret: 'partner-secret',
        accounts: ['suntrailtravel'],
        apps: ['1003'],
        redirect_uris: ['http://127.0.0.1:53682/callback'],
        users: [{ username: 'partner@example.com', password: 'partner' }],
      },
    ],
    apps: [
      { app_id: '1001', publisher: 'Acme Daily News', domain: 'https://news.example.com', sw_path: '/sw.js' },
      { app_id: '1002', publisher: 'North Outdoors Blog', domain: 'https://blog.example.org', sw_path: '/sw.js' },
      { app_id: '1003', publisher: 'Someone Else Media', domain: 'https://else.example.net', sw_path: '/sw.js' },
      { app_id: '1004', publisher: 'Sun Trail Travel Deals', domain: 'https://deals.suntrail.example', sw_path: '/push/sw.js' },
    ],
    campaigns,
    tasks: tasksOf(now),
  };
}
