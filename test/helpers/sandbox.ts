// The one base for tests that talk to a real sandbox over real HTTP (undici on 127.0.0.1): a raw
// request, its control API (faults, variants, the request log, the service's own state), a token,
// a person signing in on its login page, the small known world of fixtures, and valid bodies to
// send it. The test world (world.ts) and every room's helpers build on it.
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { parseJsonLossless } from '../../src/main/service/lossless-json';
import { startSandbox, type Fixtures, type RunningSandbox, type Variants } from '../../src/sandbox/index';
import { controlHeaders, type SandboxRef } from './control';
import { testVariants } from './variants';

export { controlHeaders, type SandboxRef };

export interface HttpResult {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: unknown;
}

export interface CallOptions {
  token?: string;
  /** Sent as JSON with Content-Type application/json. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** One request; the body is always read so the connection goes back to the pool. */
export async function call(sb: SandboxRef, method: string, path: string, opts: CallOptions = {}): Promise<HttpResult> {
  const headers: Record<string, string> = { ...controlHeaders(sb, path), ...opts.headers };
  let body = opts.body;
  if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
  if (opts.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(opts.json);
  }
  if (opts.form !== undefined) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  }
  const res = await request(`${sb.url}${path}`, { method: method as 'GET', headers, body });
  const text = await res.body.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.statusCode, headers: flatHeaders(res.headers), text, body: parsed };
}

/**
 * A call of the control API, its answer read losslessly: under id_range ids beyond 2^53 come as
 * their digits (strings), where JSON.parse would round them.
 */
export async function control(sb: SandboxRef, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
  const r = await call(sb, method, path, body === undefined ? {} : { json: body });
  return parseJsonLossless(r.text);
}

/** Injects a fault (docs/sandbox.md "Faults"); fails the test when the sandbox refuses the spec. */
export async function fault(sb: SandboxRef, spec: Record<string, unknown>): Promise<unknown> {
  const r = await call(sb, 'POST', '/_sandbox/faults', { json: spec });
  if (r.status !== 201) throw new Error(`fault not accepted: ${r.status} ${r.text}`);
  return parseJsonLossless(r.text);
}

/** The run's variants (SANDBOX_VARIANTS) with `extra` on top, played from now on. */
export async function playVariants(sb: SandboxRef, extra: Variants): Promise<Variants> {
  const all = { ...testVariants(), ...extra };
  const r = await call(sb, 'PUT', '/_sandbox/variants', { json: all });
  if (r.status !== 200) throw new Error(`PUT /_sandbox/variants: ${r.status} ${r.text}`);
  return all;
}

/** One entry of the sandbox's request log (docs/sandbox.md "Request log"). */
export interface LoggedRequest {
  seq: number;
  /** The service's clock when it was handled, ms. */
  time: number;
  method: string;
  path: string;
  /** The query's sort parameter, if any. */
  sort: string | null;
  account: string | null;
  /** The rate-limit group and budget it was counted in, if any. */
  group: string | null;
  budget: string | null;
  /** Counted against a rate limit. */
  limited: boolean;
  status: number | null;
  outcome: string;
}

/** A request for a token, at either of the token endpoints (spec 4.4, 4.5). */
export const isTokenRequest = (r: LoggedRequest) => r.path === '/authentication/oauth/token' || r.path === '/core/oauth/token';

/** What the sandbox was asked after request number `since`, in order. */
export async function requestLog(sb: SandboxRef, since = 0): Promise<LoggedRequest[]> {
  return ((await control(sb, 'GET', `/_sandbox/requests?since=${since}`)) as { requests: LoggedRequest[] }).requests;
}

export interface CampaignOnService {
  id: number;
  name: string;
  advertiser_id: string;
  spending_limit_model: string | null;
}

/** The campaigns the service holds (of `account`, or all), read from its state, not through a listing. */
export async function sandboxCampaigns(sb: SandboxRef, account?: string): Promise<CampaignOnService[]> {
  const path = `/_sandbox/state/campaigns${account ? `?account=${account}` : ''}`;
  return ((await control(sb, 'GET', path)) as { campaigns: CampaignOnService[] }).campaigns;
}

/** The campaigns of `account` the service holds under `name` (as written, spaces trimmed). */
export async function onService(sb: SandboxRef, account: string, name: string): Promise<CampaignOnService[]> {
  return (await sandboxCampaigns(sb, account)).filter((c) => c.name.trim() === name.trim());
}

export interface TaskOnService {
  taskId: number;
  tagId: number;
  title: string;
  taskStatus: string;
  executionTime: number;
}

/** The push tasks the service holds (of `app`, or all). */
export async function tasksOnService(sb: SandboxRef, app?: string): Promise<TaskOnService[]> {
  return ((await control(sb, 'GET', `/_sandbox/state/tasks${app ? `?app=${app}` : ''}`)) as { tasks: TaskOnService[] }).tasks;
}

/**
 * A client-credentials token. The credentials go as HTTP Basic (id and secret form-encoded, RFC
 * 6749 2.3.1), which every sandbox accepts, also one playing token_client_auth.
 */
export async function tokenFor(sb: { url: string }, clientId = 'demo-client', secret = 'demo-secret'): Promise<string> {
  const formEncoded = (s: string) => new URLSearchParams([['', s]]).toString().slice(1);
  const basic = Buffer.from(`${formEncoded(clientId)}:${formEncoded(secret)}`).toString('base64');
  const r = await call(sb, 'POST', '/authentication/oauth/token', {
    form: { grant_type: 'client_credentials' },
    headers: { authorization: `Basic ${basic}` },
  });
  if (r.status !== 200) throw new Error(`token request failed: ${r.status} ${r.text}`);
  return (r.body as { access_token: string }).access_token;
}

function hiddenFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  const decode = (s: string) => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) out[m[1]] = decode(m[2]);
  return out;
}

/**
 * A person in a browser: opens the authorize URL, submits the sandbox's login form with these
 * credentials, and follows the redirect to wherever it points (our loopback listener).
 */
export function loginAs(
  username: string,
  password: string,
  seen: { callbackStatus?: number; callbackBody?: string; callbackUrl?: string } = {},
  decision: 'allow' | 'deny' = 'allow',
) {
  return async (authorizeUrl: string): Promise<void> => {
    const page = await request(authorizeUrl);
    const html = await page.body.text();
    if (page.statusCode !== 200) throw new Error(`authorize page answered ${page.statusCode}: ${html}`);
    const form = { ...hiddenFields(html), username, password, decision };
    const posted = await request(authorizeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    await posted.body.text();
    const location = posted.headers.location;
    if (posted.statusCode !== 302 || typeof location !== 'string') throw new Error(`login answered ${posted.statusCode}`);
    seen.callbackUrl = location;
    const callback = await request(location);
    seen.callbackStatus = callback.statusCode;
    seen.callbackBody = await callback.body.text();
  };
}

export const T0 = Date.parse('2026-11-21T09:00:00Z');
export const DAY = 24 * 60 * 60 * 1000;
const isoAt = (ms: number) => new Date(ms).toISOString();

/**
 * A small, fully known world (the example fixtures plus a few accounts for the network rules).
 * A fresh object per call so that tests may tweak it.
 */
export function testFixtures(): Fixtures {
  return {
    now: '2026-11-21T09:00:00Z',
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
        client_secret: 'demo-secret',
        accounts: ['acmeshoes', 'oldtimerltd', 'northnet', 'southnet', 'edgecase'],
        apps: ['1001', '1002', '1999'],
        redirect_uris: ['http://127.0.0.1:53682/callback'],
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
}

/** A manual-clock sandbox on a free port with `testFixtures()` (or the given fixtures). */
export function startTestSandbox(fixtures: Fixtures = testFixtures()): Promise<RunningSandbox> {
  return startSandbox({ clock: 'manual', fixtures });
}

/** A valid create body (and campaign draft payload) for a native FIXED campaign with a monthly limit. */
export function campaignPayload(name: string, overrides: Record<string, unknown> = {}) {
  return {
    name,
    branding_text: 'Acme Shoes',
    cpc: 0.35,
    spending_limit: 1500,
    spending_limit_model: 'MONTHLY',
    bid_strategy: 'FIXED',
    marketing_objective: 'DRIVE_WEBSITE_TRAFFIC',
    ...overrides,
  };
}

/** campaignPayload named 'Spring sale', as a plain record. */
export function nativeCampaign(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return campaignPayload('Spring sale', overrides);
}

/** A valid push event for app 1001 (an executionTime can be added for scheduled pushes). */
export function pushEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Evening digest',
    url: 'https://news.example.com/digest',
    performer: 'editor@example.com',
    target: { include: { apps: ['1001'] } },
    ...overrides,
  };
}

/**
 * The usual life of a sandbox in a test file: started once, closed at the end, and before every
 * test reset to its fixtures and handed to `ready` with a fresh demo-client token, so tests never
 * see each other's data, tokens or rate-limit windows.
 */
export function sandboxPerFile(ready: (sb: RunningSandbox, token: string) => void, fixtures: () => Fixtures = testFixtures): void {
  let sb: RunningSandbox | undefined;
  beforeAll(async () => {
    sb = await startTestSandbox(fixtures());
  });
  afterAll(() => sb?.close());
  beforeEach(async () => {
    if (!sb) throw new Error('the sandbox did not start');
    await call(sb, 'POST', '/_sandbox/reset');
    ready(sb, await tokenFor(sb));
  });
}
