// Drafts: what a person is composing (a campaign or a push), with the validation problems shown
// next to it. A draft becomes work for the service only through submit(), which writes the outbox
// row in the same transaction (STYLE rule 4): either both exist or neither does.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { RepoContext } from './context';
import { StoreError, describeIssues } from './errors';
import { parseJsonColumn, toJson } from './json';
import type { OutboxItem, OutboxRepo } from './outbox-repo';
import type { OutboxWork } from './outbox-payloads';
import type { QuarantineRepo } from './quarantine-repo';

export const DRAFT_KINDS = ['campaign', 'push'] as const;
export type DraftKind = (typeof DRAFT_KINDS)[number];
export type DraftState = 'editing' | 'submitted';

/** A form's state: any JSON object. Rules are checked by the shared domain code, not here. */
export const draftPayloadSchema = z.record(z.string(), z.unknown());
export const fieldProblemsSchema = z.array(z.object({ field: z.string(), message: z.string() }));

export interface Draft {
  id: string;
  profileId: string;
  accountId: string | null;
  kind: DraftKind;
  payload: Record<string, unknown>;
  problems: { field: string; message: string }[];
  state: DraftState;
  version: number;
  createdAt: number;
  updatedAt: number;
}

const saveInputSchema = z.object({
  id: z.string().min(1).max(100).optional(),
  profileId: z.string().min(1),
  accountId: z.string().min(1).nullable().optional(),
  kind: z.enum(DRAFT_KINDS),
  payload: draftPayloadSchema,
  problems: fieldProblemsSchema.default([]),
  /** When given, the save is refused if someone else saved in between (another window). */
  expectedVersion: z.number().int().optional(),
});
export type SaveDraftInput = z.input<typeof saveInputSchema>;

const draftRowSchema = z.object({
  id: z.string(),
  profile_id: z.string(),
  account_id: z.string().nullable(),
  kind: z.enum(DRAFT_KINDS),
  payload: z.string(),
  problems: z.string(),
  state: z.enum(['editing', 'submitted']),
  version: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});

export interface DraftsRepo {
  save(input: SaveDraftInput): Draft;
  get(id: string): Draft | undefined;
  list(profileId: string, filter?: { accountId?: string | null; kind?: DraftKind }): Draft[];
  remove(id: string): boolean;
  /** Saves every draft or none (an import, a duplicate, a bulk edit, an undo): one transaction. */
  saveMany(inputs: SaveDraftInput[]): Draft[];
  /** Removes every listed draft or none. */
  removeMany(ids: string[]): number;
  /**
   * Turns the draft into an outbox item, atomically. Refused while an earlier item of this draft
   * is still on its way (queued, sending or uncertain), so one edit is never posted twice. A
   * blocked earlier item is replaced by the new one.
   */
  submit(id: string, work: OutboxWork, opts?: { expectedVersion?: number }): { draft: Draft; item: OutboxItem };
}

export function createDraftsRepo(ctx: RepoContext, outbox: OutboxRepo, quarantine: QuarantineRepo): DraftsRepo {
  const { db } = ctx;
  const insert = db.prepare(`INSERT INTO drafts (id, profile_id, account_id, kind, payload, problems, state, version, created_at, updated_at)
    VALUES (@id, @profileId, @accountId, @kind, @payload, @problems, 'editing', 1, @now, @now)`);
  const update = db.prepare(`UPDATE drafts SET account_id = @accountId, kind = @kind, payload = @payload,
    problems = @problems, state = 'editing', version = version + 1, updated_at = @now WHERE id = @id`);
  const setSubmitted = db.prepare(
    "UPDATE drafts SET state = 'submitted', version = version + 1, updated_at = ? WHERE id = ?",
  );
  const getStmt = db.prepare('SELECT * FROM drafts WHERE id = ?');
  const listStmt = db.prepare('SELECT * FROM drafts WHERE profile_id = ? ORDER BY updated_at DESC, id');
  const del = db.prepare('DELETE FROM drafts WHERE id = ?');
  const activeItems = db
    .prepare("SELECT count(*) FROM outbox WHERE draft_id = ? AND state IN ('queued', 'sending', 'uncertain')")
    .pluck();
  const blockedItems = db.prepare<[string], number>("SELECT seq FROM outbox WHERE draft_id = ? AND state = 'blocked'").pluck();

  /** Row -> draft; a row that no longer parses goes to quarantine and yields undefined. */
  function fromRow(r: unknown): Draft | undefined {
    const raw = r as { id?: unknown; profile_id?: unknown };
    const quarantineIt = (reason: string) => {
      const id = String(raw.id);
      quarantine.add(
        { source: 'drafts', sourceKey: id, profileId: typeof raw.profile_id === 'string' ? raw.profile_id : null, row: r, reason },
        () => del.run(id),
      );
      return undefined;
    };
    const row = draftRowSchema.safeParse(r);
    if (!row.success) return quarantineIt(describeIssues(row.error.issues));
    const payload = parseJsonColumn(draftPayloadSchema, row.data.payload);
    if (!payload.ok) return quarantineIt(`payload: ${payload.reason}`);
    const problems = parseJsonColumn(fieldProblemsSchema, row.data.problems);
    if (!problems.ok) return quarantineIt(`problems: ${problems.reason}`);
    const d = row.data;
    return {
      id: d.id,
      profileId: d.profile_id,
      accountId: d.account_id,
      kind: d.kind,
      payload: payload.value,
      problems: problems.value,
      state: d.state,
      version: d.version,
      createdAt: d.created_at,
      updatedAt: d.updated_at,
    };
  }

  const get = (id: string): Draft | undefined => {
    const r = getStmt.get(id);
    return r === undefined ? undefined : fromRow(r);
  };

  function checkVersion(d: Draft, expected: number | undefined): void {
    if (expected !== undefined && d.version !== expected) {
      throw new StoreError('CONFLICT', 'This draft was changed elsewhere since you opened it; reload it to see the latest version');
    }
  }

  return {
    save(input) {
      const parsed = saveInputSchema.safeParse(input);
      if (!parsed.success) throw new StoreError('INVALID_INPUT', describeIssues(parsed.error.issues));
      const s = parsed.data;
      return ctx.tx(() => {
        const values = {
          id: s.id ?? randomUUID(),
          profileId: s.profileId,
          accountId: s.accountId ?? null,
          kind: s.kind,
          payload: toJson(s.payload),
          problems: toJson(s.problems),
          now: ctx.clock.now(),
        };
        const current = s.id === undefined ? undefined : get(s.id);
        if (!current) {
          try {
            insert.run(values);
          } catch (e) {
            if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
              throw new StoreError('NOT_FOUND', 'The draft names a profile or account that does not exist');
            }
            throw e;
          }
        } else {
          if (current.profileId !== s.profileId) throw new StoreError('CONFLICT', 'A draft cannot move to another profile');
          checkVersion(current, s.expectedVersion);
          if ((activeItems.get(current.id) as number) > 0) {
            throw new StoreError('CONFLICT', 'This draft is being sent; wait for it to finish before changing it');
          }
          update.run(values);
        }
        return get(values.id) as Draft;
      });
    },
    get,
    list(profileId, filter = {}) {
      const out: Draft[] = [];
      for (const r of listStmt.all(profileId)) {
        const d = fromRow(r);
        if (!d) continue;
        if (filter.accountId !== undefined && d.accountId !== filter.accountId) continue;
        if (filter.kind !== undefined && d.kind !== filter.kind) continue;
        out.push(d);
      }
      return out;
    },
    remove(id) {
      return del.run(id).changes > 0;
    },
    saveMany(inputs) {
      return ctx.tx(() => inputs.map((input) => this.save(input)));
    },
    removeMany(ids) {
      return ctx.tx(() => ids.reduce((n, id) => n + del.run(id).changes, 0));
    },
    submit(id, work, opts = {}) {
      return ctx.tx(() => {
        const d = get(id);
        if (!d) throw new StoreError('NOT_FOUND', `No draft ${id}`);
        checkVersion(d, opts.expectedVersion);
        if ((d.kind === 'campaign') !== (work.kind === 'create_campaign')) {
          throw new StoreError('INVALID_INPUT', `A ${d.kind} draft cannot be submitted as ${work.kind}`);
        }
        if ((activeItems.get(id) as number) > 0) {
          throw new StoreError('CONFLICT', 'This draft has already been submitted and is on its way');
        }
        for (const seq of blockedItems.all(id)) outbox.remove(seq);
        const item = outbox.enqueue({ profileId: d.profileId, accountId: d.accountId, draftId: d.id, ...work });
        setSubmitted.run(ctx.clock.now(), id);
        return { draft: get(id) as Draft, item };
      });
    },
  };
}
