// The in-memory world built from fixtures: accounts, clients, apps, campaigns, tasks, and the
// tokens and codes issued since. A reset throws the whole world away and builds a new one.
import type { AccountType } from '../shared/domain/account';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Choices } from './choices';
import type { Variants } from './variants';
import type { Fixtures } from './fixtures';
import { LIMITED_FROM_MS } from '../shared/domain/rate-tiers';
import {
  campaignFromFixture,
  setTaskUpdateTime,
  taskFromFixture,
  type StoredCampaign,
  type StoredTask,
} from './records';

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

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** Equal-length digests make the comparison constant-time whatever the secret's length. */
export function secretMatches(client: ClientRec, secret: string): boolean {
  return timingSafeEqual(client.secretDigest, digest(secret));
}

export const opaqueToken = (): string => randomBytes(32).toString('base64url');

const SWEEP_EVERY = 1024;

/** A positive id below every id `taken` ("descending") or a free one up to `next` ("random"); undefined: none found. */
function placeId(order: 'descending' | 'random', choices: Choices, next: number, taken: ReadonlySet<number>): number | undefined {
  if (order === 'descending') {
    let lowest = next;
    for (const id of taken) lowest = Math.min(lowest, id);
    return lowest > 1 ? lowest - 1 : undefined;
  }
  for (let tries = 0; tries < 20; tries++) {
    const id = choices.int(1, next);
    if (!taken.has(id)) return id;
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
  /** By taskId; per app (tasksByApp) in order of creation. */
  readonly tasks = new Map<number, StoredTask>();
  readonly tasksByApp = new Map<string, StoredTask[]>();
  readonly tokens = new Map<string, TokenRec>();
  readonly codes = new Map<string, CodeRec>();
  nextCampaignId: number;
  nextTaskId: number;
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
    const campaigns = (f.campaigns ?? []).map(campaignFromFixture).sort((x, y) => x.record.id - y.record.id);
    for (const c of campaigns) this.pushCampaign(c);
    this.nextCampaignId = campaigns.length > 0 ? campaigns[campaigns.length - 1].record.id + 1 : 1000001;
    const tasks = (f.tasks ?? []).map((t) => taskFromFixture(t, now)).sort((x, y) => x.record.taskId - y.record.taskId);
    for (const t of tasks) this.pushTask(t);
    this.nextTaskId = tasks.length > 0 ? tasks[tasks.length - 1].record.taskId + 1 : 900001;
  }

  /**
   * The id of a new campaign: above every older one by default; under the id_order variant below
   * every older one, or anywhere not taken (drawn from the seeded choices). The interface promises
   * no order (spec 2.1: "identifier").
   */
  allocateCampaignId(order: Variants['id_order'], choices: Choices): number {
    if (order === undefined || order === 'ascending') return this.nextCampaignId++;
    const ids = new Set([...this.campaigns.values()].flatMap((list) => list.map((c) => c.record.id)));
    return placeId(order, choices, this.nextCampaignId, ids) ?? this.nextCampaignId++;
  }

  /** The ids of `count` new tasks, placed as allocateCampaignId places a campaign's. */
  allocateTaskIds(count: number, order: Variants['id_order'], choices: Choices): number[] {
    const ids = new Set(order === undefined || order === 'ascending' ? [] : this.tasks.keys());
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      const id = (order === undefined || order === 'ascending' ? undefined : placeId(order, choices, this.nextTaskId, ids)) ?? this.nextTaskId++;
      ids.add(id);
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

  issueToken(clientId: string, now: number, ttlMs: number): string {
    this.sweep(now);
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
