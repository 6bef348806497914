// Writes campaign rows into an account's table that has its indexes: a row is inserted when new,
// updated in the columns that differ, left alone when equal.
//
// Why only the columns that differ: SQLite rewrites only the indexes that contain a column named
// in SET, so a campaign whose spent moved touches the spent index alone instead of all 17; on a
// refresh where half the campaigns' spent moved that is several times faster (bench/store.ts).
//
// Values are spread into run(): better-sqlite3 binds separate arguments several times faster than
// one array argument.
import type { Database, Statement } from 'better-sqlite3';

export interface RowTable {
  /** The account's table (campaignTableName). */
  table: string;
  /** Every written column; the first two are the key (id_num, id). */
  columns: readonly string[];
}

export interface RowStatements {
  /** The stored values of the columns after the key, positionally. */
  current: Statement;
  insert: Statement;
  /** An UPDATE of exactly the columns in `mask` (bit k = column k + 2). */
  update(mask: number): Statement;
}

export function rowStatements(db: Database, t: RowTable): RowStatements {
  const rest = t.columns.slice(2);
  const updates = new Map<number, Statement>();
  return {
    current: db.prepare(`SELECT ${rest.join(', ')} FROM ${t.table} WHERE id_num = ? AND id = ?`).raw(),
    insert: db.prepare(`INSERT INTO ${t.table} (${t.columns.join(', ')}) VALUES (${t.columns.map(() => '?').join(', ')})`),
    update(mask) {
      let stmt = updates.get(mask);
      if (!stmt) {
        const set = rest.filter((_, k) => (mask & (1 << k)) !== 0).map((c) => `${c} = ?`);
        stmt = db.prepare(`UPDATE ${t.table} SET ${set.join(', ')} WHERE id_num = ? AND id = ?`);
        updates.set(mask, stmt);
      }
      return stmt;
    },
  };
}

/** Marks for rowMask: the row is not stored yet; or its changes are to be found when written. */
export const NEW_ROW = -2;
export const COMPARE_ON_WRITE = -1;

/**
 * What writing this row changes: NEW_ROW when it is not stored, 0 when every column is equal,
 * otherwise one bit per column that differs (bit k = column k + 2).
 */
export function rowMask(s: RowStatements, values: readonly unknown[]): number {
  const stored = s.current.get(values[0], values[1]) as unknown[] | undefined;
  if (stored === undefined) return -2;
  let mask = 0;
  for (let k = 0; k < stored.length; k++) if (stored[k] !== values[k + 2]) mask |= 1 << k;
  return mask;
}

/**
 * Writes each row (positional values of RowTable.columns); returns how many were written.
 * `masks[i]`, when given, is rowMask of row i computed before (so it is not read again), or -1
 * to compare it now.
 */
export function writeRows(s: RowStatements, rows: readonly (readonly unknown[])[], masks?: readonly number[]): number {
  let written = 0;
  for (let i = 0; i < rows.length; i++) {
    const values = rows[i];
    let mask = masks === undefined ? -1 : masks[i];
    if (mask === -1) mask = rowMask(s, values);
    if (mask === 0) continue;
    written++;
    if (mask === -2) {
      s.insert.run(...values);
      continue;
    }
    const changed: unknown[] = [];
    for (let k = 0; k + 2 < values.length; k++) if ((mask & (1 << k)) !== 0) changed.push(values[k + 2]);
    s.update(mask).run(...changed, values[0], values[1]);
  }
  return written;
}
