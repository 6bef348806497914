// Writes campaign rows into the cache table and its indexes: a row is inserted when new, updated
// in the columns that differ, left alone when equal.
//
// Why only the columns that differ: SQLite rewrites only the indexes that contain a column named
// in SET, so a campaign whose spent moved touches the spent index alone instead of all ten.
//
// Values are spread into run(): better-sqlite3 binds separate arguments several times faster than
// one array argument.
import type { Database, Statement } from 'better-sqlite3';

export interface RowTable {
  table: string;
  /** The key columns, which are also the first columns of `columns`. */
  key: readonly string[];
  /** Every written column, the key first. */
  columns: readonly string[];
  /**
   * A column given a number when a row is inserted, and never compared or updated (the campaigns'
   * text_rowid: its row in the text index, cache-file.ts). `next` hands out the number of a row.
   */
  serial?: { column: string; next: (values: readonly unknown[]) => number };
}

export interface RowStatements {
  /** How many of a row's leading values are its key. */
  keyLength: number;
  /** The stored values of the columns after the key, positionally. */
  current: Statement;
  insert: Statement;
  /** Inserts a row unless its key is stored (then changes is 0). */
  insertIfNew: Statement;
  /** The serial column's number for a row about to be inserted, or none (inserts take the row's values alone). */
  serial: ((values: readonly unknown[]) => number) | null;
  /** An UPDATE of exactly the columns in `mask` (bit k = the k-th column after the key). */
  update(mask: number): Statement;
}

export function rowStatements(db: Database, t: RowTable): RowStatements {
  const n = t.key.length;
  const rest = t.columns.slice(n);
  const byKey = t.key.map((c) => `${c} = ?`).join(' AND ');
  const inserted = t.serial ? [...t.columns, t.serial.column] : t.columns;
  const values = `(${inserted.join(', ')}) VALUES (${inserted.map(() => '?').join(', ')})`;
  const updates = new Map<number, Statement>();
  return {
    keyLength: n,
    current: db.prepare(`SELECT ${rest.join(', ')} FROM ${t.table} WHERE ${byKey}`).raw(),
    insert: db.prepare(`INSERT INTO ${t.table} ${values}`),
    insertIfNew: db.prepare(`INSERT INTO ${t.table} ${values} ON CONFLICT DO NOTHING`),
    serial: t.serial?.next ?? null,
    update(mask) {
      let stmt = updates.get(mask);
      if (!stmt) {
        const set = rest.filter((_, k) => (mask & (1 << k)) !== 0).map((c) => `${c} = ?`);
        stmt = db.prepare(`UPDATE ${t.table} SET ${set.join(', ')} WHERE ${byKey}`);
        updates.set(mask, stmt);
      }
      return stmt;
    },
  };
}

/** rowMask of a row that is not stored yet. */
const NEW_ROW = -2;

/**
 * What writing this row changes: NEW_ROW when it is not stored, 0 when every column is equal,
 * otherwise one bit per column that differs (bit k = the k-th column after the key).
 */
export function rowMask(s: RowStatements, values: readonly unknown[]): number {
  const n = s.keyLength;
  const stored = s.current.get(...values.slice(0, n)) as unknown[] | undefined;
  if (stored === undefined) return NEW_ROW;
  let mask = 0;
  for (let k = 0; k < stored.length; k++) if (stored[k] !== values[k + n]) mask |= 1 << k;
  return mask;
}

/**
 * Writes each row (positional values of RowTable.columns); returns how many were written.
 * `mostlyNew`: the table held none of these rows a moment ago (a first load), so each is inserted
 * straight away and compared only when its key turns out to be stored already. `inserted` is told
 * of each row that was not stored before (not on the mostlyNew path).
 */
export function writeRows(
  s: RowStatements,
  rows: readonly (readonly unknown[])[],
  opts: { mostlyNew?: boolean; inserted?: (values: readonly unknown[]) => void } = {},
): number {
  const n = s.keyLength;
  let written = 0;
  for (const values of rows) {
    // (A number taken by a row that turns out to be stored is simply not used: gaps do no harm.)
    if (opts.mostlyNew && (s.serial ? s.insertIfNew.run(...values, s.serial(values)) : s.insertIfNew.run(...values)).changes > 0) {
      written++;
      continue;
    }
    const mask = rowMask(s, values);
    if (mask === 0) continue;
    written++;
    if (mask === NEW_ROW) {
      if (s.serial) s.insert.run(...values, s.serial(values));
      else s.insert.run(...values);
      opts.inserted?.(values);
      continue;
    }
    const changed: unknown[] = [];
    for (let k = 0; k + n < values.length; k++) if ((mask & (1 << k)) !== 0) changed.push(values[k + n]);
    s.update(mask).run(...changed, ...values.slice(0, n));
  }
  return written;
}
