// The fixtures file: the world a sandbox starts from (format in /work/shared/sandbox/FIXTURES.md
// and docs/sandbox.md). Strict on purpose: a typo in a fixture must fail loudly at start, naming
// the file and the JSON path, instead of silently producing a different world.
import { ACCOUNT_TYPES } from '../shared/domain/account';
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
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
  windows: z.strictObject({ second: positiveInt.optional(), minute: positiveInt.optional(), hour: positiveInt.optional() }).optional(),
  tiers: z
    .record(z.string().regex(/^[1-9]\d*$/, 'tier names are positive integers'), z.strictObject({ read: tierRow, write: tierRow }))
    .optional(),
  endpoint_tiers: z.strictObject({ campaigns: positiveInt.optional(), 'campaigns.list': positiveInt.optional() }).optional(),
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

/** The top-level keys in the order the schema checks them (problems are reported in that order). */
const KEY_ORDER = Object.keys(baseSchema.shape);

/**
 * Fixtures whose campaigns were validated one by one as they were read (`campaigns`, with their
 * problems): the rest of the object is validated here, and the cross-references over everything.
 * The problems are those parseFixtures would report for the whole object, in the same order.
 */
function parseFixturesParts(
  rest: unknown,
  campaigns: { valid: CampaignFixture[]; problems: FixtureProblem[] } | null,
  source: string,
): Fixtures {
  const r = baseSchema.safeParse(rest);
  const problems = r.success ? [] : problemsOf(r.error);
  if (campaigns !== null && campaigns.problems.length > 0) {
    // Before the problems of the keys the schema checks after `campaigns`.
    const after = KEY_ORDER.slice(KEY_ORDER.indexOf('campaigns') + 1);
    const at = problems.findIndex((p) =>
      after.some((k) => p.jsonPath === k || p.jsonPath.startsWith(`${k}.`) || p.jsonPath.startsWith(`${k}[`)),
    );
    problems.splice(at < 0 ? problems.length : at, 0, ...campaigns.problems);
  }
  if (problems.length > 0 || !r.success) throw new SandboxFixturesError(source, problems);
  const fixtures: Fixtures = campaigns === null ? r.data : { ...r.data, campaigns: campaigns.valid };
  const crossed = crossReferenceIssues(fixtures);
  if (crossed.length > 0)
    throw new SandboxFixturesError(
      source,
      crossed.map((i) => ({ jsonPath: formatJsonPath(i.path), problem: i.message })),
    );
  return fixtures;
}

function lineAndColumn(text: string, message: string): string {
  const m = /position (\d+)/.exec(message);
  if (!m) return '';
  const before = text.slice(0, Number(m[1]));
  const line = before.split('\n').length;
  const column = Number(m[1]) - before.lastIndexOf('\n');
  return ` (line ${line}, column ${column})`;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** The file is not JSON; the whole-file reader (JSON.parse) then says where. */
class NotJson extends Error {}

/**
 * Reads a fixtures file in chunks, never as one string: a file of a million campaigns is ~300 MB,
 * near the most one V8 string may hold, and parsing it whole held the text, the parsed objects and
 * zod's copies at once. A byte scan that follows strings (with their escapes) and bracket depth
 * cuts the top-level `campaigns` array into its elements; each is parsed by JSON.parse and
 * validated with the campaign schema as it is read, and only the validated campaign is kept. The
 * rest of the object (small) is parsed once, with `"campaigns":[]` in place of the array. The scan
 * only cuts: what is valid is exactly what JSON.parse accepts.
 */
class FixturesScan {
  readonly campaigns: { valid: CampaignFixture[]; problems: FixtureProblem[] } = { valid: [], problems: [] };
  sawCampaigns = false;
  /** The object without the campaigns' elements. */
  private readonly skeleton: Buffer[] = [];
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1: the next string is a key. */
  private expectKey = false;
  private keyBytes: number[] = [];
  private lastKey = '';
  /** After `"campaigns":` at depth 1, until its value starts. */
  private beforeCampaigns = false;
  /** Inside the campaigns array (depth 2 and deeper). */
  private inCampaigns = false;
  /** Bytes of the element being read, from earlier chunks. */
  private element: Buffer[] = [];
  private elementStarted = false;

  write(chunk: Buffer): void {
    let keptFrom = 0; // start of the bytes of this chunk that go to the skeleton
    // Start of the current element's bytes in this chunk (0: it began in an earlier one).
    let elementFrom = this.elementStarted ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (this.inString) {
        if (this.depth === 1 && this.expectKey && !this.escaped && b !== QUOTE) this.keyBytes.push(b);
        if (this.escaped) this.escaped = false;
        else if (b === BACKSLASH) this.escaped = true;
        else if (b === QUOTE) {
          this.inString = false;
          if (this.depth === 1 && this.expectKey) {
            this.lastKey = Buffer.from(this.keyBytes).toString('utf8');
            this.keyBytes = [];
            this.expectKey = false;
          }
        }
        continue;
      }
      if (this.inCampaigns && this.depth === 2) {
        // Between or at the edges of the elements.
        if (b === COMMA || b === CLOSE_ARRAY) {
          if (elementFrom >= 0) this.element.push(chunk.subarray(elementFrom, i));
          elementFrom = -1;
          if (this.elementStarted) this.takeElement();
          else if (b === COMMA || this.campaigns.valid.length + this.campaigns.problems.length > 0) throw new NotJson();
          if (b === CLOSE_ARRAY) {
            this.depth = 1;
            this.inCampaigns = false;
            keptFrom = i; // the `]` goes to the skeleton
          }
          continue;
        }
        if (isSpace(b) && !this.elementStarted) continue;
        if (!this.elementStarted) {
          this.elementStarted = true;
          elementFrom = i;
        }
      }
      if (b === QUOTE) {
        this.inString = true;
        this.beforeCampaigns = false;
        if (this.depth === 1 && this.expectKey) this.keyBytes = [];
      } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
        if (this.depth === 1 && this.beforeCampaigns && b === OPEN_ARRAY) {
          this.beforeCampaigns = false;
          this.inCampaigns = true;
          this.sawCampaigns = true;
          this.depth = 2;
          this.skeleton.push(chunk.subarray(keptFrom, i + 1));
          keptFrom = -1;
          continue;
        }
        this.beforeCampaigns = false;
        this.depth++;
        if (this.depth === 1) this.expectKey = true;
      } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
        this.depth--;
        if (this.depth < 0) throw new NotJson();
      } else if (this.depth === 1 && b === COMMA) {
        this.expectKey = true;
      } else if (this.depth === 1 && b === COLON) {
        this.beforeCampaigns = this.lastKey === 'campaigns';
      } else if (!isSpace(b)) {
        this.beforeCampaigns = false;
      }
    }
    if (this.inCampaigns) {
      if (this.elementStarted) this.element.push(chunk.subarray(elementFrom));
    } else if (keptFrom >= 0) this.skeleton.push(chunk.subarray(keptFrom));
  }

  private takeElement(): void {
    const index = this.campaigns.valid.length + this.campaigns.problems.length;
    let value: unknown;
    try {
      value = JSON.parse(Buffer.concat(this.element).toString('utf8'));
    } catch {
      throw new NotJson();
    }
    this.element = [];
    this.elementStarted = false;
    const r = campaignFixtureSchema.safeParse(value);
    if (r.success) this.campaigns.valid.push(r.data);
    else
      for (const p of problemsOf(r.error))
        this.campaigns.problems.push({
          ...p,
          jsonPath:
            formatJsonPath(['campaigns', index]) +
            (p.jsonPath === '(root)' ? '' : p.jsonPath.startsWith('[') ? p.jsonPath : `.${p.jsonPath}`),
        });
  }

  /** The rest of the object, parsed. */
  end(): unknown {
    if (this.inCampaigns || this.inString || this.depth !== 0) throw new NotJson();
    try {
      return JSON.parse(Buffer.concat(this.skeleton).toString('utf8'));
    } catch {
      throw new NotJson();
    }
  }
}

const READ_CHUNK = 1024 * 1024;

/** `chunkBytes`: how much is read at a time (tests read in tiny chunks to cut elements anywhere). */
export function loadFixturesFile(path: string, opts: { chunkBytes?: number } = {}): Fixtures {
  const chunkBytes = opts.chunkBytes ?? READ_CHUNK;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'read error';
    throw new SandboxFixturesError(path, [{ jsonPath: '(file)', problem: `cannot read the file (${code})` }]);
  }
  const scan = new FixturesScan();
  let rest: unknown;
  try {
    const buf = Buffer.alloc(chunkBytes);
    let first = true;
    for (;;) {
      const n = readSync(fd, buf, 0, chunkBytes, null);
      if (n === 0) break;
      let chunk = buf.subarray(0, n);
      // A byte order mark is not JSON: JSON.parse refuses it, and so does this reader (below).
      if (first && chunk[0] === 0xef) throw new NotJson();
      first = false;
      // Copied: the skeleton and a split element keep slices of it past the next read.
      chunk = Buffer.from(chunk);
      scan.write(chunk);
    }
    rest = scan.end();
  } catch (e) {
    if (!(e instanceof NotJson)) {
      const code = (e as NodeJS.ErrnoException).code ?? 'read error';
      throw new SandboxFixturesError(path, [{ jsonPath: '(file)', problem: `cannot read the file (${code})` }]);
    }
    throw notJsonError(path, fstatSync(fd).size);
  } finally {
    closeSync(fd);
  }
  return parseFixturesParts(rest, scan.sawCampaigns ? scan.campaigns : null, path);
}

/** Files up to this size are read whole to say where they stop being JSON (line and column). */
const EXPLAINED_BYTES = 64 * 1024 * 1024;

function notJsonError(path: string, size: number): SandboxFixturesError {
  let problem = 'not valid JSON';
  if (size <= EXPLAINED_BYTES) {
    const text = readFileSync(path, 'utf8');
    try {
      JSON.parse(text);
    } catch (e) {
      const message = (e as Error).message;
      problem = `not valid JSON: ${message}${lineAndColumn(text, message)}`;
    }
  }
  return new SandboxFixturesError(path, [{ jsonPath: '(root)', problem }]);
}
