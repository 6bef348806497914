// What writing a first load of 100,000 campaigns into the campaigns table costs the disk, by page
// size, automatic checkpoint interval, transaction size and number of sort indexes: the store
// alone (no service, no parsing), with the app's own table and indexes (cache-file.ts). Bytes written
// are the figure to compare on a shared machine (times there depend on the neighbours); they show
// why short transactions are dear: every commit appends each page it dirtied to the log whole,
// and rows land at random places in most indexes.
// Run: npx tsx bench/refresh-writes.ts <page size> <wal_autocheckpoint> <batch ms> <max batch rows> <indexes>
//   e.g. npx tsx bench/refresh-writes.ts 16384 10000 12 2000 9   (the app's page size, checkpoint and
//   indexes; the app's writer commits as large as its backlog rather than by time)
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { campaignRowValues, CAMPAIGN_WRITE_COLUMNS } from '../src/main/store/campaign-columns';
import { CAMPAIGN_INDEXES, CAMPAIGNS_TABLE_SQL } from '../src/main/store/cache-file';
import { syntheticCampaigns } from '../test/fixtures/campaigns';

const writtenBytes = () => Number(/^write_bytes:\s+(\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? NaN);

function run(pageSize: number, autocheckpoint: number, batchMs: number, maxBatchRows: number, indexes: number) {
  const rows = syntheticCampaigns(100_000).map((c) => campaignRowValues(1, c));
  const dir = mkdtempSync(join(tmpdir(), 'desk-bench-writes-'));
  const file = join(dir, 'cache.sqlite');
  const db = new Database(file);
  try {
    db.pragma(`page_size = ${pageSize}`);
    db.pragma('journal_mode = WAL');
    // As the cache writer commits (no fsync), with the app's cache size.
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -32000');
    db.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
    db.pragma('journal_size_limit = 33554432');
    // Fixed names from the frozen templates, no input: safe to put in SQL.
    db.exec(CAMPAIGNS_TABLE_SQL);
    for (const [suffix, cols] of CAMPAIGN_INDEXES.slice(0, indexes))
      db.exec(`CREATE INDEX campaigns_by_${suffix} ON campaigns(account_key, ${cols})`);
    const insert = db.prepare(
      `INSERT INTO campaigns (${CAMPAIGN_WRITE_COLUMNS.join(', ')}) VALUES (${CAMPAIGN_WRITE_COLUMNS.map(() => '?').join(', ')})`,
    );
    const written0 = writtenBytes();
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    // Sized like refresh.ts's batches: rows per transaction follow the time the last one took.
    let size = 100;
    let longest = 0;
    let commits = 0;
    for (let i = 0; i < rows.length; ) {
      const batch = rows.slice(i, i + size);
      const t0 = performance.now();
      db.transaction(() => {
        for (const r of batch) insert.run(...r);
      })();
      const ms = performance.now() - t0;
      longest = Math.max(longest, ms);
      commits++;
      i += batch.length;
      if (batch.length >= size / 2) size = Math.max(10, Math.min(maxBatchRows, Math.round(batchMs / (Math.max(ms, 0.1) / batch.length))));
    }
    const loadMs = performance.now() - started;
    const cpu = process.cpuUsage(cpu0);
    db.pragma('wal_checkpoint(TRUNCATE)');
    return {
      pageSize,
      autocheckpoint,
      batchMs,
      maxBatchRows,
      indexes,
      commits,
      loadMs: Math.round(loadMs),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      writtenMb: Math.round((writtenBytes() - written0) / 2 ** 20),
      longestCommitMs: Math.round(longest),
      fileMb: Math.round(statSync(file).size / 2 ** 20),
    };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const [pageSize = 4096, autocheckpoint = 4000, batchMs = 12, maxBatchRows = 2000, indexes = CAMPAIGN_INDEXES.length] = process.argv
    .slice(2)
    .map(Number);
  console.log(JSON.stringify(run(pageSize, autocheckpoint, batchMs, maxBatchRows, indexes)));
}
