// Deterministic synthetic campaigns shaped like the service's list results (spec 2.1), for the
// store benchmark and the store tests. Same seed, same data.
import type { Campaign } from '../src/shared/domain/campaign';

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'Spring', 'Summer', 'Autumn', 'Winter', 'Sale', 'Launch', 'Retargeting', 'Brand', 'Awareness', 'Leads',
  'Mobile', 'Desktop', 'Video', 'Native', 'Black Friday', 'Cyber Monday', 'Holiday', 'Back to School',
  'Überraschung', 'Café', 'Promo', 'Clearance', 'Newsletter', 'Webinar', 'Trial', 'Premium', 'Outlet',
];
const BRANDS = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark', 'Wayne', 'Wonka', 'Tyrell', 'Cyberdyne'];
export const BENCH_STATUSES = ['APPROVED', 'PENDING_APPROVAL', 'PAUSED', 'REJECTED'] as const;

export interface SyntheticOptions {
  seed?: number;
  firstId?: number;
  advertiserId?: string;
  /** Network listings carry advertiser_name. */
  advertiserNames?: boolean;
}

export function syntheticCampaign(i: number, rnd: () => number, opts: SyntheticOptions = {}): Campaign {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const fixed = rnd() < 0.6;
  const monthly = rnd() < 0.8;
  const brand = pick(BRANDS);
  const c: Campaign = {
    id: String((opts.firstId ?? 4_000_000) + i),
    advertiser_id: opts.advertiserId ?? 'acmeads',
    name: `${pick(WORDS)} ${pick(WORDS)} ${Math.floor(rnd() * 100000)}`,
    branding_text: rnd() < 0.05 ? null : `${brand} ${pick(WORDS)}`,
    tracking_code: `utm_source=desk&utm_campaign=c${i}`,
    pricing_model: 'CPC',
    cpc: fixed ? Math.round(rnd() * 300) / 100 : null,
    safety_rating: null,
    daily_cap: monthly ? null : Math.round(rnd() * 1000),
    daily_ad_delivery_model: 'STRICT',
    spending_limit: monthly ? Math.round(rnd() * 100000) / 10 : null,
    spending_limit_model: monthly ? 'MONTHLY' : 'NONE',
    bid_strategy: fixed ? 'FIXED' : 'MAX_CONVERSIONS',
    marketing_objective: rnd() < 0.5 ? 'LEADS_GENERATION' : 'DRIVE_WEBSITE_TRAFFIC',
    start_date: new Date(Date.UTC(2025, 0, 1) + Math.floor(rnd() * 600) * 86_400_000).toISOString(),
    campaign_item_type: rnd() < 0.9 ? 'HAS_NO_ITEMS' : 'HAS_NO_ITEMS_DISPLAY',
    status: pick(BENCH_STATUSES),
    spent: Math.round(rnd() * 5_000_000) / 100,
    // Fields the spec does not list: the cache must keep them.
    targeting: { countries: [pick(['US', 'DE', 'FR', 'GB'])] },
    policy_review: { reviewed: rnd() < 0.5 },
  };
  if (opts.advertiserNames) c.advertiser_name = `${brand} Media`;
  return c;
}

export function syntheticCampaigns(n: number, opts: SyntheticOptions = {}): Campaign[] {
  const rnd = mulberry32(opts.seed ?? 42);
  return Array.from({ length: n }, (_, i) => syntheticCampaign(i, rnd, opts));
}
