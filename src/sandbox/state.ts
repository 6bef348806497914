// The in-memory world built from fixtures: accounts, clients, apps, campaigns, tasks, and the
// tokens and codes issued since. A reset throws the whole world away and builds a new one.
import type { AccountType } from '../shared/domain/account';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Choices } from './choices';
import type { Variants } from './variants';
import type { Fixtures } from './fixtures';
import { LIMITED_FROM_MS } from '../shared/domain/rate-tiers';
import { campaignFromFixture, setTaskUpdateTime, taskFromFixture, type RecordId, type StoredCampaign, type StoredTask } from './records';

export interface AccountRec {
  id: string;
  name: string;
  type: AccountType;
  networkId?: string;
  createdAtMs: number;
  features: readonly string[];
  /** Spec 8.1.1, computed once: the network rule needs every member anyway. */
  limited: boolean;
}

export interface ClientRec {
  id: string;
  secretDigest: Buffer;
  /** Granted accounts, with the members of granted networks. */
  accounts: ReadonlySet<string>;
  apps: ReadonlySet<string>;
  redirectUris: ReadonlySet<string>;
  users: ReadonlyMap<string, string>;
}

export interface AppRec {
  id: string;
  publisher: string;
  domain: string | null;
  swPath: string | null;
}

export interface TokenRec {
  clientId: string;
  expiresAt: number;
}

export interface CodeRec {
  clientId: string;
  redirectUri: string;
  expiresAt: number;
  used: boolean;
  /** Tokens issued for this code: revoked if the code is presented again (RFC 6749 4.1.2). */
  tokens: string[];
}

/** A world's records as persist.ts writes and reads them. */
export interface KeptWorld {
  campaigns: StoredCampaign[];
  tasks: StoredTask[];
  swPaths: Record<string, string | null>;
  nextCampaignId: RecordId;
  nextTaskId: RecordId;
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** Equal-length digests make the comparison constant-time whatever the secret's length. */
export function secretMatches(client: ClientRec, secret: string): boolean {
  return timingSafeEqual(client.secretDigest, digest(secret));
}

export const opaqueToken = (): string => randomBytes(32).toString('base64url');

const SWEEP_EVERY = 1024;

/** Where ids start without fixtures of that kind. */
const FIRST_CAMPAIGN_ID = 1000001n;
const FIRST_TASK_ID = 900001n;
/**
 * Where ids start under the id_range "big" variant: above 2^60, where doubles are 256 apart, so
 * every id handed out there is rounded by JSON.parse, and many consecutive ones to the same double.
 */
const BIG_CAMPAIGN_ID = 2n ** 60n + 1n;
const BIG_TASK_ID = 2n ** 61n + 1n;

/** Order of two ids, for sort(). */
export const byId = (a: RecordId, b: RecordId): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Under the id_order variant, an id below every id `taken` ("descending") or a free one below
 * `next` ("random", drawn from the seeded choices); undefined when none is found. Never `next` or
 * above: those are handed out later in ascending order.
 */
function placeId(order: 'descending' | 'random', choices: Choices, next: RecordId, taken: ReadonlySet<RecordId>): RecordId | undefined {
  if (order === 'descending') {
    let lowest = next;
    for (const id of taken) if (id < lowest) lowest = id;
    return lowest > 1n ? lowest - 1n : undefined;
  }
  for (let tries = 0; tries < 20; tries++) {
    const id = 1n + BigInt(Math.floor(choices.next() * Number(next - 1n)));
    if (id < next && !taken.has(id)) return id;
  }
  return undefined;
}

export class World {
  readonly accounts = new Map<string, AccountRec>();
  readonly members = new Map<string, AccountRec[]>();
  readonly clients = new Map<string, ClientRec>();
  readonly apps = new Map<string, AppRec>();
  /** Per owning account, in order of creation (ascending id unless the id_order variant says otherwise). */
  readonly campaigns = new Map<string, StoredCampaign[]>();
  /** Campaigns other users deleted (variant churn), for the control API: a test's oracle must know them. */
  readonly deletedByOthers: StoredCampaign[] = [];
  /** By taskId; per app (tasksByApp) in order of creation. */
  readonly tasks = new Map<RecordId, StoredTask>();
  readonly tasksByApp = new Map<string, StoredTask[]>();
  readonly tokens = new Map<string, TokenRec>();
  readonly codes = new Map<string, CodeRec>();
  private nextCampaignId: RecordId;
  private nextTaskId: RecordId;
  private readonly pending = new Set<StoredTask>();
  private issued = 0;

  constructor(f: Fixtures, now: number) {
    for (const a of f.accounts) {
      this.accounts.set(a.account_id, {
        id: a.account_id,
        name: a.name,
        type: a.type,
        networkId: a.network_id,
        createdAtMs: Date.parse(a.created_at),
        features: a.features ?? [],
        limited: false,
      });
    }
    for (const a of this.accounts.values()) {
      if (a.networkId === undefined) continue;
      const list = this.members.get(a.networkId) ?? [];
      list.push(a);
      this.members.set(a.networkId, list);
    }
    for (const a of this.accounts.values()) {
      const networkId = a.type === 'NETWORK' ? a.id : a.networkId;
      const group = networkId === undefined ? [a] : [this.accounts.get(networkId)!, ...(this.members.get(networkId) ?? [])];
      a.limited = group.every((x) => x.createdAtMs >= LIMITED_FROM_MS);
    }
    for (const c of f.clients) {
      const accounts = new Set<string>();
      for (const id of c.accounts) {
        accounts.add(id);
        for (const m of this.members.get(id) ?? []) accounts.add(m.id);
      }
      this.clients.set(c.client_id, {
        id: c.client_id,
        secretDigest: digest(c.client_secret),
        accounts,
        apps: new Set(c.apps ?? []),
        redirectUris: new Set(c.redirect_uris ?? []),
        users: new Map((c.users ?? []).map((u) => [u.username, u.password])),
      });
    }
    for (const a of f.apps ?? []) {
      this.apps.set(a.app_id, { id: a.app_id, publisher: a.publisher, domain: a.domain ?? null, swPath: a.sw_path ?? null });
    }
    const campaigns = (f.campaigns ?? []).map(campaignFromFixture).sort((x, y) => byId(x.record.id, y.record.id));
    for (const c of campaigns) this.pushCampaign(c);
    this.nextCampaignId = campaigns.length > 0 ? campaigns[campaigns.length - 1].record.id + 1n : FIRST_CAMPAIGN_ID;
    const tasks = (f.tasks ?? []).map((t) => taskFromFixture(t, now)).sort((x, y) => byId(x.record.taskId, y.record.taskId));
    for (const t of tasks) this.pushTask(t);
    this.nextTaskId = tasks.length > 0 ? tasks[tasks.length - 1].record.taskId + 1n : FIRST_TASK_ID;
  }

  /**
   * The id of a campaign about to be stored, never handed out twice: above every older one by
   * default (beyond 2^60 under id_range "big"); under id_order below every older one, or anywhere
   * not taken. The interface promises neither a range nor an order (spec 2.1: "identifier").
   */
  allocateCampaignId(variants: Variants, choices: Choices): RecordId {
    if (variants.id_range === 'big' && this.nextCampaignId < BIG_CAMPAIGN_ID) this.nextCampaignId = BIG_CAMPAIGN_ID;
    const order = variants.id_order;
    if (order === undefined || order === 'ascending') return this.nextCampaignId++;
    const taken = new Set([...this.campaigns.values()].flatMap((list) => list.map((c) => c.record.id)));
    return placeId(order, choices, this.nextCampaignId, taken) ?? this.nextCampaignId++;
  }

  /** The ids of `count` new tasks (the tasks of one send), placed as allocateCampaignId places a campaign's. */
  allocateTaskIds(variants: Variants, count: number, choices: Choices): RecordId[] {
    if (variants.id_range === 'big' && this.nextTaskId < BIG_TASK_ID) this.nextTaskId = BIG_TASK_ID;
    const order = variants.id_order;
    const ordered = order === undefined || order === 'ascending';
    const taken = new Set<RecordId>(ordered ? [] : this.tasks.keys());
    const out: RecordId[] = [];
    for (let i = 0; i < count; i++) {
      const id = (ordered ? undefined : placeId(order, choices, this.nextTaskId, taken)) ?? this.nextTaskId++;
      taken.add(id);
      out.push(id);
    }
    return out;
  }

  pushCampaign(c: StoredCampaign): void {
    const list = this.campaigns.get(c.accountId);
    if (list) list.push(c);
    else this.campaigns.set(c.accountId, [c]);
  }

  pushTask(t: StoredTask): void {
    this.tasks.set(t.record.taskId, t);
    const list = this.tasksByApp.get(t.appId);
    if (list) list.push(t);
    else this.tasksByApp.set(t.appId, [t]);
    if (t.record.taskType === 'scheduled' && t.record.taskStatus === 'pending') this.pending.add(t);
  }

  /** What one run of the sandbox can hand to the next (persist.ts): the records written since the fixtures, and where ids go on. */
  keepable(): KeptWorld {
    return {
      campaigns: [...this.campaigns.values()].flat(),
      tasks: [...this.tasksByApp.values()].flat(),
      swPaths: Object.fromEntries([...this.apps.values()].map((a) => [a.id, a.swPath])),
      nextCampaignId: this.nextCampaignId,
      nextTaskId: this.nextTaskId,
    };
  }

  /**
   * Puts back what an earlier run kept: its campaigns and tasks replace the fixtures' (which it
   * began with), and ids go on above both, so an id is never handed out twice across runs.
   */
  restore(kept: KeptWorld): void {
    this.campaigns.clear();
    this.tasks.clear();
    this.tasksByApp.clear();
    this.pending.clear();
    for (const c of kept.campaigns) this.pushCampaign(c);
    for (const t of kept.tasks) this.pushTask(t);
    for (const [id, swPath] of Object.entries(kept.swPaths)) {
      const app = this.apps.get(id);
      if (app) app.swPath = swPath;
    }
    if (kept.nextCampaignId > this.nextCampaignId) this.nextCampaignId = kept.nextCampaignId;
    if (kept.nextTaskId > this.nextTaskId) this.nextTaskId = kept.nextTaskId;
  }

  /** DECISIONS sandbox 8: a pending scheduled task whose time has come is completed, lazily. */
  settleDueTasks(now: number): void {
    for (const t of this.pending) {
      if (t.record.taskStatus !== 'pending') {
        this.pending.delete(t);
      } else if (t.record.executionTime <= now) {
        t.record.taskStatus = 'completed';
        setTaskUpdateTime(t.record, t.record.executionTime);
        this.pending.delete(t);
      }
    }
  }

  /** The account itself and, for a network, every member. */
  listedAccounts(account: AccountRec): AccountRec[] {
    return account.type === 'NETWORK' ? [account, ...(this.members.get(account.id) ?? [])] : [account];
  }

  /**
   * A new access token of `clientId`. `latestOnly` (variant token_per_client): the client's earlier
   * tokens are revoked first, so only the newest one works.
   */
  issueToken(clientId: string, now: number, ttlMs: number, latestOnly = false): string {
    this.sweep(now);
    if (latestOnly) for (const [k, v] of this.tokens) if (v.clientId === clientId) this.tokens.delete(k);
    const token = opaqueToken();
    this.tokens.set(token, { clientId, expiresAt: now + ttlMs });
    return token;
  }

  /** The client of a live token, or undefined (unknown, expired or revoked). */
  tokenClient(token: string, now: number): ClientRec | undefined {
    const rec = this.tokens.get(token);
    if (rec === undefined) return undefined;
    if (now >= rec.expiresAt) {
      this.tokens.delete(token);
      return undefined;
    }
    return this.clients.get(rec.clientId);
  }

  issueCode(clientId: string, redirectUri: string, now: number, ttlMs: number): string {
    this.sweep(now);
    const code = opaqueToken();
    this.codes.set(code, { clientId, redirectUri, expiresAt: now + ttlMs, used: false, tokens: [] });
    return code;
  }

  /** Expired tokens and codes are dropped now and then so a long run does not grow without bound. */
  private sweep(now: number): void {
    if (++this.issued % SWEEP_EVERY !== 0) return;
    for (const [k, v] of this.tokens) if (now >= v.expiresAt) this.tokens.delete(k);
    for (const [k, v] of this.codes) if (now >= v.expiresAt) this.codes.delete(k);
  }
}
