// The fixtures file: the world a sandbox starts from (format in /work/shared/sandbox/FIXTURES.md
// and docs/sandbox.md). Strict on purpose: a typo in a fixture must fail loudly at start, naming
// the file and the JSON path, instead of silently producing a different world.
import { ACCOUNT_TYPES } from '../shared/domain/account';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ACCOUNT_FEATURES, accountIdSchema } from '../shared/domain/campaign';
import { RATE_LIMIT_GROUPS, SPEC_TIERS } from '../shared/domain/rate-tiers';
import { variantsSchema } from './variants';

const isoDateTime = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time with Z or an offset' });
const positiveInt = z.number().int().positive();
const nonEmpty = z.string().min(1, 'must not be empty');
const appId = z.string().regex(/^\d+$/, 'app id must contain digits only');
/**
 * A campaign id or taskId: a positive safe integer, or its digits as a string for an id beyond
 * 2^53 (a JSON file cannot hold one as a number without JSON.parse rounding it).
 */
const recordId = z.union([positiveInt, z.string().regex(/^[1-9]\d*$/, 'an id must be a positive integer or its digits')]);

function isAbsoluteUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.host !== '' && u.hash === '';
  } catch {
    return false;
  }
}
const absoluteUrl = z.string().refine(isAbsoluteUrl, 'must be an absolute URL without a #fragment');

const tierRow = z.tuple([positiveInt, positiveInt, positiveInt]);

const rateLimitsSchema = z.strictObject({
  windows: z
    .strictObject({ second: positiveInt.optional(), minute: positiveInt.optional(), hour: positiveInt.optional() })
    .optional(),
  tiers: z
    .record(
      z.string().regex(/^[1-9]\d*$/, 'tier names are positive integers'),
      z.strictObject({ read: tierRow, write: tierRow }),
    )
    .optional(),
  endpoint_tiers: z
    .strictObject({ campaigns: positiveInt.optional(), 'campaigns.list': positiveInt.optional() })
    .optional(),
});

const accountSchema = z.strictObject({
  account_id: accountIdSchema,
  name: nonEmpty,
  type: z.enum(ACCOUNT_TYPES),
  network_id: accountIdSchema.optional(),
  created_at: isoDateTime,
  features: z.array(z.enum(ACCOUNT_FEATURES)).optional(),
});

const clientSchema = z.strictObject({
  client_id: nonEmpty,
  client_secret: nonEmpty,
  accounts: z.array(z.string()),
  apps: z.array(appId).optional(),
  redirect_uris: z.array(absoluteUrl).optional(),
  users: z.array(z.strictObject({ username: nonEmpty, password: nonEmpty })).optional(),
});

const appSchema = z.strictObject({
  app_id: appId,
  publisher: nonEmpty,
  domain: absoluteUrl.optional(),
  sw_path: z.string().startsWith('/', 'must start with /').optional(),
});

const optionalText = z.string().nullable().optional();
const optionalMoney = z.number().finite().nullable().optional();

// Enum-like fields accept any string so that fixtures can show a client values it has never seen
// (DECISIONS client 7); the sandbox itself only produces the known ones.
const campaignFixtureSchema = z.strictObject({
  account_id: accountIdSchema,
  id: recordId,
  created_at: isoDateTime,
  advertiser_id: z.string().optional(),
  name: z.string(),
  branding_text: optionalText,
  tracking_code: optionalText,
  pricing_model: optionalText,
  cpc: optionalMoney,
  safety_rating: optionalText,
  daily_cap: optionalMoney,
  daily_ad_delivery_model: optionalText,
  spending_limit: optionalMoney,
  spending_limit_model: optionalText,
  bid_strategy: optionalText,
  marketing_objective: optionalText,
  campaign_group_id: optionalText,
  start_date: isoDateTime.nullable().optional(),
  campaign_item_type: optionalText,
  status: nonEmpty.optional(),
  spent: z.number().finite().optional(),
});

const taskFixtureSchema = z.strictObject({
  taskId: recordId,
  tagId: z.union([positiveInt, appId]),
  taskType: z.enum(['immediate', 'scheduled']),
  taskStatus: nonEmpty,
  executionTime: z.number().int(),
  taskUpdateTime: z.number().int().optional(),
  taskUpdateTimeFormatted: z.string().optional(),
  executionTimeFormatted: z.string().optional(),
  method: z.string().optional(),
  videoId: z.string().nullable().optional(),
  forcedItemPolicy: z.string().nullable().optional(),
  userTimeZone: z.number().int().optional(),
  title: z.string(),
  url: z.string(),
  performer: z.string(),
  thumbnailUrl: z.string().nullable().optional(),
  iconUrl: z.string().nullable().optional(),
  itemDescription: z.string().optional(),
});

const baseSchema = z.strictObject({
  now: isoDateTime.optional(),
  token_ttl_s: positiveInt.optional(),
  image_cdn_url: absoluteUrl.nullable().optional(),
  rate_limits: rateLimitsSchema.optional(),
  variants: variantsSchema.optional(),
  accounts: z.array(accountSchema).min(1, 'at least one account is needed'),
  clients: z.array(clientSchema),
  apps: z.array(appSchema).optional(),
  campaigns: z.array(campaignFixtureSchema).optional(),
  tasks: z.array(taskFixtureSchema).optional(),
});

type Issue = { path: (string | number)[]; message: string };

function crossReferenceIssues(f: z.infer<typeof baseSchema>): Issue[] {
  const out: Issue[] = [];
  const accounts = new Map(f.accounts.map((a) => [a.account_id, a]));
  const seen = new Set<string>();
  f.accounts.forEach((a, i) => {
    if (seen.has(a.account_id)) out.push({ path: ['accounts', i, 'account_id'], message: `duplicate account_id ${a.account_id}` });
    seen.add(a.account_id);
    if (a.network_id === undefined) return;
    if (a.type === 'NETWORK') {
      out.push({ path: ['accounts', i, 'network_id'], message: 'a NETWORK account cannot belong to a network' });
    } else if (accounts.get(a.network_id)?.type !== 'NETWORK') {
      out.push({ path: ['accounts', i, 'network_id'], message: `${a.network_id} is not a NETWORK account of this file` });
    }
  });
  const clientIds = new Set<string>();
  f.clients.forEach((c, i) => {
    if (clientIds.has(c.client_id)) out.push({ path: ['clients', i, 'client_id'], message: `duplicate client_id ${c.client_id}` });
    clientIds.add(c.client_id);
    c.accounts.forEach((id, j) => {
      if (!accounts.has(id)) out.push({ path: ['clients', i, 'accounts', j], message: `unknown account ${id}` });
    });
  });
  const appIds = new Set<string>();
  (f.apps ?? []).forEach((a, i) => {
    if (appIds.has(a.app_id)) out.push({ path: ['apps', i, 'app_id'], message: `duplicate app_id ${a.app_id}` });
    appIds.add(a.app_id);
  });
  const campaignIds = new Set<bigint>();
  (f.campaigns ?? []).forEach((c, i) => {
    if (!accounts.has(c.account_id)) out.push({ path: ['campaigns', i, 'account_id'], message: `unknown account ${c.account_id}` });
    if (c.advertiser_id !== undefined && c.advertiser_id !== c.account_id) {
      out.push({ path: ['campaigns', i, 'advertiser_id'], message: 'advertiser_id must equal account_id' });
    }
    if (campaignIds.has(BigInt(c.id))) out.push({ path: ['campaigns', i, 'id'], message: `duplicate campaign id ${c.id}` });
    campaignIds.add(BigInt(c.id));
  });
  const taskIds = new Set<bigint>();
  (f.tasks ?? []).forEach((t, i) => {
    if (taskIds.has(BigInt(t.taskId))) out.push({ path: ['tasks', i, 'taskId'], message: `duplicate taskId ${t.taskId}` });
    taskIds.add(BigInt(t.taskId));
    if (!appIds.has(String(t.tagId))) out.push({ path: ['tasks', i, 'tagId'], message: `unknown app ${t.tagId}` });
  });
  const tiers = new Set([...Object.keys(SPEC_TIERS), ...Object.keys(f.rate_limits?.tiers ?? {})]);
  for (const group of RATE_LIMIT_GROUPS) {
    const tier = f.rate_limits?.endpoint_tiers?.[group];
    if (tier !== undefined && !tiers.has(String(tier))) {
      out.push({ path: ['rate_limits', 'endpoint_tiers', group], message: `tier ${tier} is not defined` });
    }
  }
  return out;
}


/**
 * The fixtures file. It has no defaults or transforms, so a parsed file is exactly the object that
 * was written; the sandbox applies the defaults (docs/sandbox.md) when it builds its world.
 */
export const fixturesSchema = baseSchema.superRefine((f, ctx) => {
  for (const issue of crossReferenceIssues(f)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
});
export type Fixtures = z.infer<typeof fixturesSchema>;
export type CampaignFixture = z.infer<typeof campaignFixtureSchema>;
export type TaskFixture = z.infer<typeof taskFixtureSchema>;

export interface FixtureProblem {
  jsonPath: string;
  problem: string;
}

/** A fixtures file (or object) that cannot be used; the message names file, JSON path and problem. */
export class SandboxFixturesError extends Error {
  readonly file: string;
  readonly problems: FixtureProblem[];
  constructor(file: string, problems: FixtureProblem[]) {
    const shown = problems.slice(0, 10).map((p) => `${file}: ${p.jsonPath}: ${p.problem}`);
    if (problems.length > shown.length) shown.push(`${file}: ... and ${problems.length - shown.length} more problems`);
    super(shown.join('\n'));
    this.name = 'SandboxFixturesError';
    this.file = file;
    this.problems = problems;
  }
  get jsonPath(): string {
    return this.problems[0]?.jsonPath ?? '(root)';
  }
  get problem(): string {
    return this.problems[0]?.problem ?? '';
  }
}

/** `accounts[2].account_id`, `rate_limits.endpoint_tiers["campaigns.list"]`, `(root)`. */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (typeof seg === 'string' && /^[A-Za-z_$][\w$]*$/.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out === '' ? '(root)' : out;
}

function problemsOf(error: z.ZodError): FixtureProblem[] {
  const out: FixtureProblem[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ jsonPath: formatJsonPath([...issue.path, key]), problem: 'unknown key' });
    } else {
      out.push({ jsonPath: formatJsonPath(issue.path), problem: issue.message });
    }
  }
  return out;
}

/** Validates fixtures given as a value; `source` names them in the error (a file or an option). */
export function parseFixtures(value: unknown, source: string): Fixtures {
  const r = fixturesSchema.safeParse(value);
  if (!r.success) throw new SandboxFixturesError(source, problemsOf(r.error));
  return r.data;
}

function lineAndColumn(text: string, message: string): string {
  const m = /position (\d+)/.exec(message);
  if (!m) return '';
  const before = text.slice(0, Number(m[1]));
  const line = before.split('\n').length;
  const column = Number(m[1]) - before.lastIndexOf('\n');
  return ` (line ${line}, column ${column})`;
}

export function loadFixturesFile(path: string): Fixtures {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'read error';
    throw new SandboxFixturesError(path, [{ jsonPath: '(file)', problem: `cannot read the file (${code})` }]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    throw new SandboxFixturesError(path, [{ jsonPath: '(root)', problem: `not valid JSON: ${message}${lineAndColumn(text, message)}` }]);
  }
  return parseFixtures(value, path);
}
