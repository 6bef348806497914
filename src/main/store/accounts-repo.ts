// Accounts added to a profile by id. Each is its own lane for caches, rate limits and the outbox.
import { ACCOUNT_TYPES, type AccountType } from '../../shared/domain/account';
import { z } from 'zod';
import { accountIdSchema } from '../../shared/domain/campaign';
import type { RepoContext } from './context';
import { StoreError, describeIssues } from './errors';
import { parseJsonColumn, toJsonOrNull } from './json';
import type { AccountRef, StoredError } from './types';

/** The one wording of an account that is not (or no longer) in its profile. */
const noAccount = (ref: AccountRef) => new StoreError('NOT_FOUND', `No account ${ref.accountId} in profile ${ref.profileId}`);

export const ONLINE_STATES = ['unknown', 'online', 'offline'] as const;
export type OnlineState = (typeof ONLINE_STATES)[number];

export const storedErrorSchema = z.object({ code: z.string(), message: z.string() });

export interface Account extends AccountRef {
  name: string | null;
  type: AccountType;
  networkId: string | null;
  onlineState: OnlineState;
  lastError: StoredError | null;
  verifiedAt: number | null;
  lastSyncedAt: number | null;
  addedAt: number;
}

const addInputSchema = z.object({
  profileId: z.string().min(1),
  accountId: accountIdSchema,
  name: z.string().trim().max(300).nullable().optional(),
  type: z.enum(ACCOUNT_TYPES),
  networkId: accountIdSchema.nullable().optional(),
  verifiedAt: z.number().int().nullable().optional(),
});
export type AddAccountInput = z.input<typeof addInputSchema>;
export type AccountPatch = Partial<Pick<AddAccountInput, 'name' | 'type' | 'networkId' | 'verifiedAt'>>;

const accountRowSchema = z.object({
  account_key: z.number().int(),
  profile_id: z.string(),
  account_id: z.string(),
  name: z.string().nullable(),
  type: z.enum(ACCOUNT_TYPES),
  network_id: z.string().nullable(),
  online_state: z.enum(ONLINE_STATES),
  last_error: z.string().nullable(),
  verified_at: z.number().int().nullable(),
  last_synced_at: z.number().int().nullable(),
  added_at: z.number().int(),
});

function fromRow(r: unknown): Account {
  const row = accountRowSchema.parse(r);
  const err = parseJsonColumn(storedErrorSchema.nullable(), row.last_error);
  return {
    profileId: row.profile_id,
    accountId: row.account_id,
    name: row.name,
    type: row.type,
    networkId: row.network_id,
    onlineState: row.online_state,
    // A damaged error note is not worth quarantining an account for: show no error instead.
    lastError: err.ok ? err.value : null,
    verifiedAt: row.verified_at,
    lastSyncedAt: row.last_synced_at,
    addedAt: row.added_at,
  };
}

export interface AccountsRepo {
  add(input: AddAccountInput): Account;
  update(ref: AccountRef, patch: AccountPatch): Account;
  get(ref: AccountRef): Account | undefined;
  list(profileId: string): Account[];
  listAll(): Account[];
  setOnlineState(ref: AccountRef, state: OnlineState, error?: StoredError | null): void;
  markSynced(ref: AccountRef, at: number): void;
  /**
   * Removes the account and its caches. Refused while it has outbox items not yet sent, unless
   * `discardPending` says the person agreed to drop them.
   */
  remove(ref: AccountRef, opts?: { discardPending?: boolean }): boolean;
  /** The internal integer key used by the cache tables; throws NOT_FOUND. */
  keyOf(ref: AccountRef): number;
}

export function createAccountsRepo(ctx: RepoContext): AccountsRepo {
  const insert = ctx.db.prepare(`INSERT INTO accounts (profile_id, account_id, name, type, network_id, verified_at, added_at)
    VALUES (@profileId, @accountId, @name, @type, @networkId, @verifiedAt, @now)`);
  const getStmt = ctx.db.prepare('SELECT * FROM accounts WHERE profile_id = ? AND account_id = ?');
  const listStmt = ctx.db.prepare('SELECT * FROM accounts WHERE profile_id = ? ORDER BY account_id');
  const listAllStmt = ctx.db.prepare('SELECT * FROM accounts ORDER BY profile_id, account_id');
  const updateStmt = ctx.db.prepare(`UPDATE accounts SET name = @name, type = @type, network_id = @networkId,
    verified_at = @verifiedAt WHERE profile_id = @profileId AND account_id = @accountId`);
  const setOnline = ctx.db.prepare('UPDATE accounts SET online_state = ?, last_error = ? WHERE profile_id = ? AND account_id = ?');
  const setSynced = ctx.db.prepare('UPDATE accounts SET last_synced_at = ? WHERE profile_id = ? AND account_id = ?');
  const keyStmt = ctx.db.prepare('SELECT account_key FROM accounts WHERE profile_id = ? AND account_id = ?').pluck();
  const pending = ctx.db
    .prepare(
      `SELECT count(*) FROM outbox WHERE profile_id = ? AND account_id = ?
       AND state IN ('queued', 'sending', 'uncertain', 'blocked')`,
    )
    .pluck();
  const del = ctx.db.prepare('DELETE FROM accounts WHERE profile_id = ? AND account_id = ?');

  const get = (ref: AccountRef): Account | undefined => {
    const r = getStmt.get(ref.profileId, ref.accountId);
    return r === undefined ? undefined : fromRow(r);
  };
  const mustChange = (changes: number, ref: AccountRef) => {
    if (changes === 0) throw noAccount(ref);
  };

  return {
    add(input) {
      const parsed = addInputSchema.safeParse(input);
      if (!parsed.success) throw new StoreError('INVALID_INPUT', describeIssues(parsed.error.issues));
      const a = parsed.data;
      try {
        ctx.tx(() => {
          insert.run({
            profileId: a.profileId,
            accountId: a.accountId,
            name: a.name ?? null,
            type: a.type,
            networkId: a.networkId ?? null,
            verifiedAt: a.verifiedAt ?? null,
            now: ctx.clock.now(),
          });
        });
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code === 'SQLITE_CONSTRAINT_UNIQUE') {
          throw new StoreError('CONFLICT', `Account ${a.accountId} is already added to this profile`);
        }
        if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw new StoreError('NOT_FOUND', `No profile ${a.profileId}`);
        throw e;
      }
      return get(a) as Account;
    },
    update(ref, patch) {
      return ctx.tx(() => {
        const current = get(ref);
        if (!current) throw noAccount(ref);
        const parsed = addInputSchema.safeParse({ ...current, ...patch, ...ref });
        if (!parsed.success) throw new StoreError('INVALID_INPUT', describeIssues(parsed.error.issues));
        const a = parsed.data;
        updateStmt.run({
          ...ref,
          name: a.name ?? null,
          type: a.type,
          networkId: a.networkId ?? null,
          verifiedAt: a.verifiedAt ?? null,
        });
        return get(ref) as Account;
      });
    },
    get,
    list(profileId) {
      return listStmt.all(profileId).map(fromRow);
    },
    listAll() {
      return listAllStmt.all().map(fromRow);
    },
    setOnlineState(ref, state, error = null) {
      mustChange(setOnline.run(state, toJsonOrNull(error), ref.profileId, ref.accountId).changes, ref);
    },
    markSynced(ref, at) {
      mustChange(setSynced.run(at, ref.profileId, ref.accountId).changes, ref);
    },
    remove(ref, opts = {}) {
      return ctx.tx(() => {
        const n = pending.get(ref.profileId, ref.accountId) as number;
        if (n > 0 && !opts.discardPending) {
          throw new StoreError(
            'HAS_PENDING_CHANGES',
            `Account ${ref.accountId} has ${n} change(s) not yet sent. Send or discard them before removing the account.`,
          );
        }
        // Its cached campaigns live in the cache file: the caller has the cache writer forget them
        // first (CampaignsRepo.forget); any left behind by a crash go when the store next opens.
        return del.run(ref.profileId, ref.accountId).changes > 0;
      });
    },
    keyOf(ref) {
      const k = keyStmt.get(ref.profileId, ref.accountId);
      if (typeof k !== 'number') throw noAccount(ref);
      return k;
    },
  };
}
