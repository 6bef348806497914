// Connection profiles: where a service lives and how to sign in to it. Never a secret: the client
// secret and refresh tokens live in the keychain (src/main/secrets), keyed by the profile id.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { RepoContext } from './context';
import { StoreError, describeIssues } from './errors';
import { flowProblem, profileFieldsSchema, profileIdSchema, SIGN_IN_FLOWS, type SignInFlow } from '../../shared/domain/profile';

/** The shared profile rules (the forms and the contract use them too), plus the id for the demo. */
export const profileInputSchema = profileFieldsSchema.extend({
  id: profileIdSchema.optional(),
  redirectUri: profileFieldsSchema.shape.redirectUri.optional(),
});
export type ProfileInput = z.input<typeof profileInputSchema>;
export type ProfilePatch = Partial<z.input<typeof profileFieldsSchema>>;

export interface Profile {
  id: string;
  name: string;
  baseUrl: string;
  authUrl: string;
  pushUrl: string;
  clientId: string;
  flow: SignInFlow;
  redirectUri: string | null;
  /** The person chose "work offline": nothing of this profile is sent or refreshed. */
  workOffline: boolean;
  createdAt: number;
  updatedAt: number;
}

const profileRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  base_url: z.string(),
  auth_url: z.string(),
  push_url: z.string(),
  client_id: z.string(),
  flow: z.enum(SIGN_IN_FLOWS),
  redirect_uri: z.string().nullable(),
  work_offline: z.union([z.literal(0), z.literal(1)]),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});

function fromRow(r: unknown): Profile {
  const row = profileRowSchema.parse(r);
  return {
    id: row.id,
    name: row.name,
    baseUrl: row.base_url,
    authUrl: row.auth_url,
    pushUrl: row.push_url,
    clientId: row.client_id,
    flow: row.flow,
    redirectUri: row.redirect_uri,
    workOffline: row.work_offline === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function checkFlow(flow: SignInFlow, redirectUri: string | null | undefined): void {
  const problem = flowProblem(flow, redirectUri);
  if (problem) throw new StoreError('INVALID_INPUT', `${problem.field}: ${problem.message}`);
}

export interface ProfilesRepo {
  create(input: ProfileInput): Profile;
  update(id: string, patch: ProfilePatch): Profile;
  get(id: string): Profile | undefined;
  list(): Profile[];
  setWorkOffline(id: string, on: boolean): void;
  /** Removes the profile with its accounts, caches, drafts, outbox and log. Secrets are the caller's. */
  remove(id: string): boolean;
}

export function createProfilesRepo(ctx: RepoContext): ProfilesRepo {
  const insert = ctx.db.prepare(`INSERT INTO profiles
    (id, name, base_url, auth_url, push_url, client_id, flow, redirect_uri, created_at, updated_at)
    VALUES (@id, @name, @baseUrl, @authUrl, @pushUrl, @clientId, @flow, @redirectUri, @now, @now)`);
  const updateStmt = ctx.db.prepare(`UPDATE profiles SET name = @name, base_url = @baseUrl, auth_url = @authUrl,
    push_url = @pushUrl, client_id = @clientId, flow = @flow, redirect_uri = @redirectUri, updated_at = @now WHERE id = @id`);
  const getStmt = ctx.db.prepare('SELECT * FROM profiles WHERE id = ?');
  const listStmt = ctx.db.prepare('SELECT * FROM profiles ORDER BY name COLLATE NOCASE, id');
  const del = ctx.db.prepare('DELETE FROM profiles WHERE id = ?');
  const setOffline = ctx.db.prepare('UPDATE profiles SET work_offline = ? WHERE id = ?');
  const delQuarantine = ctx.db.prepare('DELETE FROM quarantine WHERE profile_id = ?');

  const get = (id: string): Profile | undefined => {
    const r = getStmt.get(id);
    return r === undefined ? undefined : fromRow(r);
  };

  return {
    create(input) {
      const parsed = profileInputSchema.safeParse(input);
      if (!parsed.success) throw new StoreError('INVALID_INPUT', describeIssues(parsed.error.issues));
      const p = parsed.data;
      checkFlow(p.flow, p.redirectUri);
      const id = p.id ?? randomUUID();
      try {
        insert.run({ ...p, id, redirectUri: p.redirectUri ?? null, now: ctx.clock.now() });
      } catch (e) {
        if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
          throw new StoreError('CONFLICT', `A profile with id ${id} already exists`);
        }
        throw e;
      }
      return get(id) as Profile;
    },
    update(id, patch) {
      return ctx.tx(() => {
        const current = get(id);
        if (!current) throw new StoreError('NOT_FOUND', `No profile ${id}`);
        const parsed = profileFieldsSchema.safeParse({ ...current, ...patch });
        if (!parsed.success) throw new StoreError('INVALID_INPUT', describeIssues(parsed.error.issues));
        const p = parsed.data;
        checkFlow(p.flow, p.redirectUri);
        updateStmt.run({ ...p, id, redirectUri: p.redirectUri ?? null, now: ctx.clock.now() });
        return get(id) as Profile;
      });
    },
    get,
    list() {
      return listStmt.all().map(fromRow);
    },
    setWorkOffline(id, on) {
      if (ctx.tx(() => setOffline.run(on ? 1 : 0, id)).changes === 0) throw new StoreError('NOT_FOUND', `No profile ${id}`);
    },
    remove(id) {
      return ctx.tx(() => {
        delQuarantine.run(id);
        // The accounts go by cascade; their cached campaigns are forgotten by the caller first
        // (CampaignsRepo.forget), or when the store next opens.
        return del.run(id).changes > 0;
      });
    },
  };
}
