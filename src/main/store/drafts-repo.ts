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
import { ITEM_GONE_WORDS } from '../../shared/domain/outbox';

export const DRAFT_KINDS = ['campaign', 'push'] as const;
export type DraftKind = (typeof DRAFT_KINDS)[number];
export type DraftState = 'editing' | 'submitted';

/** A form's state: any JSON object. Rules are checked by the shared domain code, not here. */
export const draftPayloadSchema = z.record(z.string(), z.unknown());
export const fieldProblemsSchema = z.array(z.object({ field: z.string(), message: z.string() }));

/**
 * The service's last words on a change taken back to draft are kept among the draft's problems
 * under this field (no column of their own: the schema stays as it is). The rules' problems are
 * replaced on every save; these stay until the draft is submitted again, so the editor can show
 * what the service refused while the person fixes it.
 */
export const SERVICE_WORDS_FIELD = 'service';
/**
 * The same for a change taken back while blocked: the app held it (its time passed, the rules
 * refused it), the service never saw it, so these words must not be shown as the service's.
 */
export const BLOCKED_WORDS_FIELD = 'blocked';
const isServiceWords = (p: { field: string }) => p.field === SERVICE_WORDS_FIELD || p.field === BLOCKED_WORDS_FIELD;

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
   * failed or blocked earlier item is replaced by the new one: one change is one item.
   */
  submit(id: string, work: OutboxWork, opts?: { expectedVersion?: number }): { draft: Draft; item: OutboxItem; replaced: OutboxItem[] };
  /**
   * The draft's one unsent item (queued, sending, uncertain, failed or blocked), if any. Sent items
   * are history: their draft is gone.
   */
  liveItem(draftId: string): OutboxItem | undefined;
  /**
   * Takes a queued, failed or blocked item back to its draft, atomically: the item is removed and
   * the draft is editable again, keeping what the service last said of the item. Refused for an
   * item on its way (sending, or being looked for on the service), a sent one, and one that came
   * from no draft (task edits, service-worker paths).
   */
  takeBack(seq: number): { draft: Draft; item: OutboxItem };
}

export function createDraftsRepo(ctx: RepoContext, outbox: OutboxRepo, quarantine: QuarantineRepo): DraftsRepo {
  const { db } = ctx;
  const insert =
    db.prepare(`INSERT INTO drafts (id, profile_id, account_id, kind, payload, problems, state, version, created_at, updated_at)
    VALUES (@id, @profileId, @accountId, @kind, @payload, @problems, 'editing', 1, @now, @now)`);
  const update = db.prepare(`UPDATE drafts SET account_id = @accountId, kind = @kind, payload = @payload,
    problems = @problems, state = 'editing', version = version + 1, updated_at = @now WHERE id = @id`);
  const setSubmitted = db.prepare(
    "UPDATE drafts SET state = 'submitted', problems = ?, version = version + 1, updated_at = ? WHERE id = ?",
  );
  const getStmt = db.prepare('SELECT * FROM drafts WHERE id = ?');
  const listStmt = db.prepare('SELECT * FROM drafts WHERE profile_id = ? ORDER BY updated_at DESC, id');
  const del = db.prepare('DELETE FROM drafts WHERE id = ?');
  const activeItems = db.prepare("SELECT count(*) FROM outbox WHERE draft_id = ? AND state IN ('queued', 'sending', 'uncertain')").pluck();
  const parkedItems = db.prepare<[string], number>("SELECT seq FROM outbox WHERE draft_id = ? AND state IN ('failed', 'blocked')").pluck();
  const liveItemsStmt = db
    .prepare<[string], number>("SELECT seq FROM outbox WHERE draft_id = ? AND state <> 'sent' ORDER BY seq DESC")
    .pluck();
  const takenBack = db.prepare("UPDATE drafts SET state = 'editing', problems = ?, version = version + 1, updated_at = ? WHERE id = ?");

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

  /**
   * Deleting a draft deletes its change: a failed or blocked item of it goes too (it would be left
   * with no draft to fix). A change on its way is refused: it must be taken back first.
   */
  function removeChange(id: string): boolean {
    if ((activeItems.get(id) as number) > 0) {
      throw new StoreError('CONFLICT', 'This change is queued to post: take it back to draft first, or discard it in the Outbox');
    }
    for (const seq of parkedItems.all(id)) outbox.remove(seq);
    return del.run(id).changes > 0;
  }

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
        const current = s.id === undefined ? undefined : get(s.id);
        const kept = (current?.problems ?? []).filter(isServiceWords);
        const values = {
          id: s.id ?? randomUUID(),
          profileId: s.profileId,
          accountId: s.accountId ?? null,
          kind: s.kind,
          payload: toJson(s.payload),
          problems: toJson([...kept, ...s.problems.filter((p) => !isServiceWords(p))]),
          now: ctx.clock.now(),
        };
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
      return ctx.tx(() => removeChange(id));
    },
    saveMany(inputs) {
      return ctx.tx(() => inputs.map((input) => this.save(input)));
    },
    removeMany(ids) {
      return ctx.tx(() => ids.reduce((n, id) => n + (removeChange(id) ? 1 : 0), 0));
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
        // The stale version goes: never two items for one draft.
        const replaced = parkedItems.all(id).flatMap((seq) => {
          const old = outbox.get(seq);
          outbox.remove(seq);
          return old ? [old] : [];
        });
        const item = outbox.enqueue({ profileId: d.profileId, accountId: d.accountId, draftId: d.id, ...work });
        setSubmitted.run(toJson(d.problems.filter((p) => !isServiceWords(p))), ctx.clock.now(), id);
        return { draft: get(id) as Draft, item, replaced };
      });
    },
    liveItem(draftId) {
      for (const seq of liveItemsStmt.all(draftId)) {
        const item = outbox.get(seq);
        if (item) return item;
      }
      return undefined;
    },
    takeBack(seq) {
      return ctx.tx(() => {
        const item = outbox.get(seq);
        if (!item) throw new StoreError('NOT_FOUND', ITEM_GONE_WORDS);
        if (item.state === 'sent') throw new StoreError('CONFLICT', 'This change has already been posted; there is nothing to take back');
        if (item.state === 'sending' || item.state === 'uncertain') {
          throw new StoreError(
            'CONFLICT',
            item.state === 'sending'
              ? 'This change is being sent right now; wait until it is posted or refused'
              : 'The service may already have this change; wait until the app has looked for it there',
          );
        }
        const d = item.draftId === null ? undefined : get(item.draftId);
        if (!d) {
          throw new StoreError(
            'INVALID_INPUT',
            'This change was not made from a draft (a task edit or a service-worker path): discard it, or retry it, and make the change again where you made it',
          );
        }
        outbox.remove(seq);
        const field = item.state === 'blocked' ? BLOCKED_WORDS_FIELD : SERVICE_WORDS_FIELD;
        const words = item.state === 'queued' ? [] : [{ field, message: item.lastError?.message ?? '' }].filter((p) => p.message !== '');
        takenBack.run(toJson([...words, ...d.problems.filter((p) => !isServiceWords(p))]), ctx.clock.now(), d.id);
        return { draft: get(d.id) as Draft, item };
      });
    },
  };
}
