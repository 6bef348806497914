// A data file damaged the way a failing disk damages one: the first page of a table overwritten
// with junk, so SQLite opens the file but finds it malformed when it reads that table.
import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';

export function damageTablePage(file: string, table: string): void {
  const db = new Database(file, { readonly: true });
  const root = db.prepare('SELECT rootpage FROM sqlite_schema WHERE name = ?').pluck().get(table) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const bytes = readFileSync(file);
  bytes.fill(0xab, (root - 1) * pageSize, root * pageSize);
  writeFileSync(file, bytes);
}
