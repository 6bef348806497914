// Sort orders of a freshly loaded account, held in memory while its SQLite indexes are built.
//
// Why: a first load of a large account writes its rows without secondary indexes and builds them
// afterwards (campaigns-repo.ts); on the development VM that is about 2 s of CREATE INDEX for
// 100,000 rows, during which a sorted page would otherwise need a scan and sort of the account
// (100-250 ms each). Instead, the load keeps each row's sort keys as it writes them (compactly:
// text as codes into one dictionary per column, numbers in flat arrays, so 100,000 rows add little
// for the garbage collector), and at its end ranks every field: the distinct values of a column
// are sorted (usually far fewer than rows; numbers by a radix sort of their bits), then one
// counting sort per field orders the rows; name, whose values are nearly all distinct, is ranked on
// a worker thread during the load (name-ranks.ts). Pages are then read from these orders, and the
// text filter from the rows' search text (search-text-chunks.ts), until the indexes exist.
//
// The orders must match what SQL returns with the indexes, row for row (a test compares them):
// ORDER BY field, status, id_num, id (campaignOrderBy), all ascending or all descending. So: NULL
// first; the text columns declared NOCASE compare with ASCII letters folded; all text compares as
// UTF-8 bytes (code points; JS compares UTF-16 units, which differ above U+D7FF); REAL compares
// numerically.
import { SORTABLE_CAMPAIGN_FIELDS, type SortableCampaignField } from '../../shared/domain/campaign';
import { CAMPAIGN_WRITE_COLUMNS } from './campaign-columns';
import { createNameRanker, type NameRanks } from './name-ranks';
import { SearchTextChunks } from './search-text-chunks';
import { sqliteTextOrder } from './text-order';

/** Text columns of the campaign table declared COLLATE NOCASE (migration 3's template). */
const NOCASE_FIELDS = new Set<string>(['advertiser_id', 'advertiser_name', 'name', 'branding_text']);
const REAL_FIELDS = ['spent', 'cpc', 'daily_cap', 'spending_limit'] as const;
/** The other sortable text fields: every sortable field but the key, status, name and the numbers. */
const TEXT_FIELDS = SORTABLE_CAMPAIGN_FIELDS.filter(
  (f) => f !== 'id' && f !== 'status' && f !== 'name' && !(REAL_FIELDS as readonly string[]).includes(f),
);

const column = (name: string): number => {
  const i = (CAMPAIGN_WRITE_COLUMNS as readonly string[]).indexOf(name);
  if (i < 0) throw new Error(`no campaign column ${name}`);
  return i;
};
const COL_ID_NUM = column('id_num');
const COL_ID = column('id');
const COL_STATUS = column('status');
const COL_NAME = column('name');
const COL_SEARCH = column('search');
const REAL_COLS = REAL_FIELDS.map(column);
const TEXT_COLS = TEXT_FIELDS.map(column);

/** Steps reported while building: the base orders, then each field. */
export const SORT_ORDER_STEPS = 1 + REAL_FIELDS.length + TEXT_FIELDS.length + 1;

export interface RowKey {
  id_num: number;
  id: string;
}

export interface MemoryPageQuery {
  field: SortableCampaignField;
  direction: 'asc' | 'desc';
  /** Exact statuses; empty: all. */
  statuses: readonly string[];
  /** Normalized needle (normalizeNeedle); '' for none. */
  needle: string;
  limit: number;
  offset: number;
}

export interface SortOrders {
  readonly size: number;
  /**
   * The text filter is answered from the rows' search text kept in memory; `matchText` lists the
   * keys of the rows whose search text contains the needle when that cannot be (a needle with NUL).
   */
  page(q: MemoryPageQuery, matchText: (needle: string) => readonly RowKey[]): { keys: RowKey[]; total: number };
}

const text = sqliteTextOrder();

/** Codes of one text column: 0 is NULL, k > 0 is values[k - 1]. */
class Dictionary {
  readonly values: string[] = [];
  private readonly codes = new Map<string, number>();
  // Neighbouring rows often share a value (one pricing model, one advertiser): that skips hashing it.
  private last: string | null = null;
  private lastCode = 0;
  code(v: unknown): number {
    if (typeof v !== 'string') return 0;
    if (v === this.last) return this.lastCode;
    let c = this.codes.get(v);
    if (c === undefined) {
      this.values.push(v);
      c = this.values.length;
      this.codes.set(v, c);
    }
    this.last = v;
    this.lastCode = c;
    return c;
  }
  /** Rank of each code in the column's order (NULL 0; values equal under the collation share one). */
  ranks(nocase: boolean): { rankOf: Uint32Array; count: number } {
    const keys = nocase ? this.values.map(text.foldAscii) : this.values;
    const order = Array.from({ length: keys.length }, (_, d) => d);
    text.sortByKey(order, keys, keys.some(text.hasHighUnits));
    const rankOf = new Uint32Array(keys.length + 1);
    let r = 0;
    for (let k = 0; k < order.length; k++) {
      if (k === 0 || keys[order[k]] !== keys[order[k - 1]]) r++;
      rankOf[order[k] + 1] = r;
    }
    return { rankOf, count: r + 1 };
  }
}

/**
 * Ranks a REAL column (NaN = NULL): its values are sorted natively (a Float64Array sorts without
 * calling back into JS), then each row's rank is found by binary search of the distinct values.
 * Several times faster than a comparison sort of row numbers, and fast even before it is optimized.
 */
function rankReal(values: Float64Array): { ranks: Uint32Array; count: number } {
  const n = values.length;
  const sorted = values.slice().sort(); // NaN last; -0 next to 0, and equal to it below
  const distinct = new Float64Array(n);
  let m = 0;
  for (let i = 0; i < n && !Number.isNaN(sorted[i]); i++) if (m === 0 || sorted[i] !== distinct[m - 1]) distinct[m++] = sorted[i];
  const ranks = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (Number.isNaN(v)) continue;
    let lo = 0;
    let hi = m - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (distinct[mid] < v) lo = mid + 1;
      else hi = mid;
    }
    ranks[i] = lo + 1;
  }
  return { ranks, count: m + 1 };
}

/** Stable counting sort of `order` (row numbers) by `ranks`. */
function countingSort(order: Uint32Array, ranks: ArrayLike<number>, count: number): Uint32Array {
  const starts = new Uint32Array(count + 1);
  for (let i = 0; i < order.length; i++) starts[ranks[order[i]] + 1]++;
  for (let r = 0; r < count; r++) starts[r + 1] += starts[r];
  const out = new Uint32Array(order.length);
  for (let i = 0; i < order.length; i++) out[starts[ranks[order[i]]]++] = order[i];
  return out;
}

export interface BuildOptions {
  /** Runs between fields so the caller can yield to the event loop and report progress; may throw to stop. */
  step?: (done: number, total: number) => Promise<void> | void;
  /** Rows the table holds: build() resolves null when the collected rows are not as many. */
  expected: number;
}

export interface CollectorOptions {
  /** Rank the names on a worker thread while the load goes on (name-ranks.ts); default true. */
  nameWorker?: boolean;
}

/** Collects the sort keys of the rows a first load writes, then builds their orders. */
export class SortKeyCollector {
  private readonly ids: string[] = [];
  private readonly idNums: number[] = [];
  private readonly names;
  private readonly search = new SearchTextChunks();
  private readonly statusDict = new Dictionary();
  private readonly statusCodes: number[] = [];
  private readonly textDicts = TEXT_FIELDS.map(() => new Dictionary());
  private readonly textCodes: number[][] = TEXT_FIELDS.map(() => []);
  private readonly reals: number[][] = REAL_FIELDS.map(() => []);

  constructor(opts: CollectorOptions = {}) {
    this.names = createNameRanker({ nocase: NOCASE_FIELDS.has('name'), worker: opts.nameWorker });
  }

  /** True when the names are ranked on a worker thread. */
  get namesOffThread(): boolean {
    return this.names.offThread;
  }

  /**
   * One written row (positional CAMPAIGN_WRITE_COLUMNS values). A key written again (a listing
   * paged by offset can repeat a row) replaces the row: build() keeps the last one.
   */
  add(values: readonly unknown[]): void {
    const row = this.ids.length;
    this.ids.push(values[COL_ID] as string);
    this.idNums[row] = values[COL_ID_NUM] as number;
    this.names.add(values[COL_NAME]);
    this.search.add(values[COL_SEARCH]);
    this.statusCodes[row] = this.statusDict.code(values[COL_STATUS]);
    for (let f = 0; f < TEXT_COLS.length; f++) this.textCodes[f][row] = this.textDicts[f].code(values[TEXT_COLS[f]]);
    for (let f = 0; f < REAL_COLS.length; f++) {
      const v = values[REAL_COLS[f]];
      this.reals[f][row] = typeof v === 'number' ? v : NaN;
    }
  }

  /** The load ended without its orders: stops the name worker. */
  discard(): void {
    this.names.discard();
  }

  /**
   * Every field's order, or null when the rows are not as many as the table's (something else
   * wrote to it) or the names could not be ranked.
   */
  async build(options: BuildOptions): Promise<SortOrders | null> {
    const step = options.step ?? (() => {});
    // Asked first: the worker merges its runs while this thread builds the other orders.
    const nameRanks = this.names.ranks();
    nameRanks.catch(() => {}); // awaited below, unless this build stops before
    const { ids } = this;
    const idNum = Float64Array.from(this.idNums);
    // The table's own order (id_num, id): that of sort by id. Rows usually arrive in it already.
    // Of rows with one key, the last written is the one the table holds.
    const compareKeys = (a: number, b: number) => idNum[a] - idNum[b] || text.compareCodePoints(ids[a], ids[b]);
    let arrivedInOrder = true;
    for (let i = 1; i < ids.length && arrivedInOrder; i++) arrivedInOrder = compareKeys(i - 1, i) < 0;
    let keyOrder: Uint32Array;
    if (arrivedInOrder) keyOrder = Uint32Array.from({ length: ids.length }, (_, i) => i);
    else {
      const byKey = Array.from({ length: ids.length }, (_, i) => i);
      byKey.sort((a, b) => compareKeys(a, b) || a - b);
      keyOrder = Uint32Array.from(byKey.filter((row, k) => k + 1 === byKey.length || compareKeys(row, byKey[k + 1]) !== 0));
    }
    const n = keyOrder.length;
    if (n !== options.expected) return null;
    const statusCodes = Uint32Array.from(this.statusCodes);
    const status = this.statusDict.ranks(false);
    const statusRanks = statusCodes.map((c) => status.rankOf[c]);
    // (status, id_num, id): the order of sort by status, and the tie order of every other field.
    const base = countingSort(keyOrder, statusRanks, status.count);
    const orders = new Map<SortableCampaignField, Uint32Array>([
      ['id', keyOrder],
      ['status', base],
    ]);
    let done = 0;
    await step(++done, SORT_ORDER_STEPS);
    for (let f = 0; f < REAL_FIELDS.length; f++) {
      const { ranks, count } = rankReal(Float64Array.from(this.reals[f]));
      orders.set(REAL_FIELDS[f], countingSort(base, ranks, count));
      await step(++done, SORT_ORDER_STEPS);
    }
    for (let f = 0; f < TEXT_FIELDS.length; f++) {
      const { rankOf, count } = this.textDicts[f].ranks(NOCASE_FIELDS.has(TEXT_FIELDS[f]));
      const codes = this.textCodes[f];
      // Indexed by row number: replaced rows included, so as many as were collected.
      const ranks = new Uint32Array(codes.length);
      for (let i = 0; i < codes.length; i++) ranks[i] = rankOf[codes[i]];
      orders.set(TEXT_FIELDS[f], countingSort(base, ranks, count));
      await step(++done, SORT_ORDER_STEPS);
    }
    let name: NameRanks;
    try {
      name = await nameRanks;
    } catch {
      return null;
    }
    orders.set('name', countingSort(base, name.ranks, name.count));
    await step(++done, SORT_ORDER_STEPS);
    return createSortOrders(orders, idNum, ids, statusCodes, this.statusDict, this.search);
  }
}

function createSortOrders(
  orders: ReadonlyMap<SortableCampaignField, Uint32Array>,
  idNum: Float64Array,
  ids: readonly string[],
  statusCodes: Uint32Array,
  statusDict: Dictionary,
  search: SearchTextChunks,
): SortOrders {
  const keyOrder = orders.get('id')!;
  const n = keyOrder.length;
  // Row numbers index what was collected, replaced rows included; masks are that long.
  const rows = ids.length;
  // The rows the table holds (not those a later copy of the same key replaced).
  const live = new Uint8Array(rows);
  for (let k = 0; k < n; k++) live[keyOrder[k]] = 1;
  // The last filter's matching rows, so scrolling a filtered list does not test every row again.
  let filter: { key: string; match: Uint8Array | null; total: number } | null = null;
  /** Row of a key, by binary search of the key order (no map of 100,000 ids to keep). */
  const rowOfKey = (k: RowKey): number | undefined => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const row = keyOrder[mid];
      const c = idNum[row] - k.id_num || text.compareCodePoints(ids[row], k.id);
      if (c === 0) return row;
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return undefined;
  };
  const matches = (q: MemoryPageQuery, matchText: (needle: string) => readonly RowKey[]) => {
    const key = `${q.needle}\u0000${q.statuses.join('\u0000')}`;
    if (filter?.key === key) return filter;
    if (q.needle === '' && q.statuses.length === 0) return (filter = { key, match: null, total: n });
    const match = new Uint8Array(rows);
    if (q.needle === '') match.set(live);
    else if (!search.match(q.needle, (row) => (match[row] = live[row]))) {
      for (const k of matchText(q.needle)) {
        const row = rowOfKey(k);
        if (row !== undefined) match[row] = 1;
      }
    }
    if (q.statuses.length > 0) {
      const wanted = new Uint8Array(statusDict.values.length + 1);
      statusDict.values.forEach((s, k) => {
        if (q.statuses.includes(s)) wanted[k + 1] = 1;
      });
      for (let i = 0; i < rows; i++) if (wanted[statusCodes[i]] === 0) match[i] = 0;
    }
    let total = 0;
    for (let i = 0; i < rows; i++) total += match[i];
    return (filter = { key, match, total });
  };

  return {
    size: n,
    page(q, matchText) {
      const order = orders.get(q.field);
      if (!order) throw new Error(`no order for ${q.field}`);
      const { match, total } = matches(q, matchText);
      const keys: RowKey[] = [];
      if (q.offset >= total) return { keys, total };
      const asc = q.direction === 'asc';
      const take = (row: number) => keys.push({ id_num: idNum[row], id: ids[row] });
      if (match === null) {
        const end = Math.min(n, q.offset + q.limit);
        for (let p = q.offset; p < end; p++) take(order[asc ? p : n - 1 - p]);
        return { keys, total };
      }
      let skipped = 0;
      for (let p = 0; p < n && keys.length < q.limit; p++) {
        const row = order[asc ? p : n - 1 - p];
        if (match[row] === 0) continue;
        if (skipped < q.offset) skipped++;
        else take(row);
      }
      return { keys, total };
    },
  };
}
