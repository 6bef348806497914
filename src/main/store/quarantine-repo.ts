// Rows that no longer parse (written by a buggy or newer build, or damaged) are moved here with
// the reason, instead of crashing every read of their table (the Signal Desktop approach). The
// UI can show them and a person can decide; nothing is silently lost.
import { z } from 'zod';
import type { RepoContext } from './context';

export interface QuarantinedRow {
  id: number;
  source: string;
  sourceKey: string;
  profileId: string | null;
  row: unknown;
  reason: string;
  at: number;
}

const rowSchema = z.object({
  id: z.number().int(),
  source: z.string(),
  source_key: z.string(),
  profile_id: z.string().nullable(),
  row_json: z.string(),
  reason: z.string(),
  at: z.number().int(),
});

export interface QuarantineRepo {
  /** Copies `row` here and runs `remove` (which deletes it from its table) in one transaction. */
  add(entry: { source: string; sourceKey: string; profileId: string | null; row: unknown; reason: string }, remove: () => void): void;
  list(profileId?: string): QuarantinedRow[];
  remove(id: number): boolean;
}

export function createQuarantineRepo(ctx: RepoContext): QuarantineRepo {
  const insert = ctx.db.prepare('INSERT INTO quarantine (source, source_key, profile_id, row_json, reason, at) VALUES (?, ?, ?, ?, ?, ?)');
  const listAll = ctx.db.prepare('SELECT * FROM quarantine ORDER BY id');
  const listByProfile = ctx.db.prepare('SELECT * FROM quarantine WHERE profile_id = ? ORDER BY id');
  const del = ctx.db.prepare('DELETE FROM quarantine WHERE id = ?');

  return {
    add(entry, remove) {
      ctx.tx(() => {
        let json: string;
        try {
          json = JSON.stringify(entry.row) ?? 'null';
        } catch {
          json = JSON.stringify(String(entry.row));
        }
        insert.run(entry.source, entry.sourceKey, entry.profileId, json, entry.reason, ctx.clock.now());
        remove();
      });
    },
    list(profileId) {
      const rows = profileId === undefined ? listAll.all() : listByProfile.all(profileId);
      return rows.map((r) => {
        const row = rowSchema.parse(r);
        let parsed: unknown;
        try {
          parsed = JSON.parse(row.row_json);
        } catch {
          parsed = row.row_json;
        }
        return {
          id: row.id,
          source: row.source,
          sourceKey: row.source_key,
          profileId: row.profile_id,
          row: parsed,
          reason: row.reason,
          at: row.at,
        };
      });
    },
    remove(id) {
      return del.run(id).changes > 0;
    },
  };
}
