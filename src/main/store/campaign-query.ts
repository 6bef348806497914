// The campaign list a screen shows: one account, sorted by any sortable column, filtered by status
// and by text, one page at a time, with the total or without it (then counted apart: WindowQuery). Every sort walks an index of (account, column,
// id, status) of the campaigns table in order, reading only the index until the page is found (see
// the query-plan test), so a page costs its size plus the entries it skips, never a sort of the
// account. The grid's sorts all have an index (cache-file.ts); a sort by another field the list
// endpoint knows (asked through IPC) runs the same SQL, which then scans and sorts: slower, but
// correct.
//
// Empty values sort first ascending and last descending (SQLite's order): that lets one index
// serve both directions. Ties are broken by id, so paging is stable.
import { z } from 'zod';
import { campaignSchema, type Campaign, type SortableCampaignField } from '../../shared/domain/campaign';
import {
  campaignQuerySchema,
  DEFAULT_CAMPAIGN_SORT,
  type CampaignQuery,
  type ParsedCampaignQuery,
} from '../../shared/domain/campaign-query';
import { readListedCampaign } from '../../shared/domain/campaign-reader';
import { isServiceValue } from '../../shared/domain/service-values';
import { campaignFromRow, idSortKey, normalizeNeedle, SEARCH_FIELD_SEPARATOR } from './campaign-columns';
import { textRowidRange } from './cache-file';
import type { Database } from 'better-sqlite3';
import { StoreError, describeIssues } from './errors';

export { MAX_QUERY_LIMIT, type CampaignQuery } from '../../shared/domain/campaign-query';

export interface CampaignPage {
  rows: Campaign[];
  total: number;
}

export interface BuiltQuery {
  /** Fills temp.campaign_text_match with the ids matching the text (run when the needle or data changed). */
  matchSql: string | null;
  matchParams: unknown[];
  /** Keys (id_num, id) of the page's rows, in order: a walk of the sort's index. */
  pageSql: string;
  pageParams: unknown[];
  /**
   * The same keys read from the scratch table's matches, each looked up and the few sorted (null
   * without a scratch table): cheaper than walking the sort index when the matches are few.
   */
  fewPageSql: string | null;
  fewPageParams: unknown[];
  countSql: string;
  countParams: unknown[];
  /**
   * For words matched by reading rows (plans 'scan' and 'walk'): the keys of the rows holding every
   * word among the list's first rows in its sort, to find a first page without the scratch table.
   * `sql` takes `params`, how many rows of the sort to look through, `words` and how many keys to
   * return at most; `sizeSql` takes `params` and that number of rows, and counts how many of them
   * the list has.
   */
  peek: { sql: string; sizeSql: string; params: unknown[]; words: string[] } | null;
}

/** How many pages' worth of rows a first page of words matched by reading rows looks through first (WindowQuery.rows). */
export const PEEK_PAGES = 50;
/**
 * How many it looks through at most, when the matches among the first PEEK_PAGES say a page is
 * found within half as many: looking on costs ~1-2 us a row at 1,000,000 campaigns, 250,000 rows
 * about what the text index's intersection of words many campaigns hold costs (~100-250 ms); a
 * text none of the first rows holds goes to the index at once.
 */
export const PEEK_MORE_PAGES = 1250;

/** Connection-private scratch table holding the ids that match the current text filter. */
export const TEXT_MATCH_TABLE_SQL =
  'CREATE TEMP TABLE IF NOT EXISTS campaign_text_match (id TEXT PRIMARY KEY, id_num INTEGER NOT NULL) WITHOUT ROWID';

/** The ORDER BY terms of a sort (the one definition of a list's order); `of`: a table alias. */
export function campaignOrderBy(field: SortableCampaignField, direction: 'asc' | 'desc', of = ''): string {
  const dir = direction === 'asc' ? 'ASC' : 'DESC';
  const c = of === '' ? '' : `${of}.`;
  // The field is one of SORTABLE_CAMPAIGN_FIELDS (checked by zod), each a column of its own name;
  // id is the table's own order (id_num, id).
  return field === 'id' ? `${c}id_num ${dir}, ${c}id ${dir}` : `${c}${field} ${dir}, ${c}id_num ${dir}, ${c}id ${dir}`;
}

export type TextFilter = { words: string[] } | { ids: string[] };

/**
 * The search box's text as a filter: "boots uk" finds campaigns holding both words; a pasted list
 * of ids ("4100001, 4100004" or one per line) finds exactly those campaigns. Null when empty.
 */
export function textFilter(text: string): TextFilter | null {
  const tokens = [
    ...new Set(
      normalizeNeedle(text)
        // The fields' separator too (no word may hold it: the text index is padded with it).
        .replaceAll(SEARCH_FIELD_SEPARATOR, ' ')
        .split(/[\s,;]+/)
        .filter((t) => t !== ''),
    ),
  ];
  if (tokens.length === 0) return null;
  if (tokens.length > 1 && tokens.every((t) => /^\d+$/.test(t))) return { ids: tokens };
  return { words: tokens };
}

/**
 * How the words of a text are matched:
 * - `scan`: each word tested with instr() on every row of the account, into the scratch table
 *   (0.2-0.6 s at 1,000,000 campaigns); for words all shorter than three characters, each held
 *   by many campaigns and many holding them all, or while the text index is being built.
 * - `index`: the text index's matches (cache-file.ts, campaign_text) into the scratch table: each
 *   word a phrase of its trigrams, all required, which matches where instr() does. A shorter word
 *   beside them is tested on those matches' rows. When every word is shorter, each that few rows
 *   hold is the trigrams it begins, any one of them (ShortWordTerms), and the rest are tested;
 *   when none is, all of them are, if few rows hold them all together (SHORT_WORD_ROWS).
 * - `walk`: no scratch table: the sort's index is walked and each row it names tested with instr()
 *   until the page is full. For a word many campaigns hold, whose first page is found after a few
 *   hundred rows, while filling the scratch table with its matches would read them all.
 */
export type TextPlan = 'scan' | 'index' | 'walk';

/** A word as an FTS5 string: in double quotes, each quote doubled, so no character is query syntax. */
const ftsString = (word: string) => `"${word.replaceAll('"', '""')}"`;

/**
 * For words too short to have a trigram (one or two characters): the text index's terms that each
 * begins. Every character of an indexed text begins a trigram (cache-file.ts, indexedText), so a row
 * holds such a word exactly when it holds one of those terms; a word that begins none is in no row.
 */
export type ShortWordTerms = ReadonlyMap<string, readonly string[]>;
const NO_TERMS: ShortWordTerms = new Map();

/**
 * The text index's query for the words, all required: each word of three characters or more a
 * phrase of its trigrams, each shorter one any of its terms (every word is one or the other).
 */
export const textIndexQuery = (words: readonly string[], terms: ShortWordTerms = NO_TERMS) =>
  words
    .map((w) => {
      const begun = terms.get(w);
      return begun === undefined ? ftsString(w) : `(${begun.map(ftsString).join(' OR ')})`;
    })
    // (AND spelled out: FTS5 joins two phrases by a space, not two bracketed groups.)
    .join(' AND ');

/** The start of the statement that reads a text's matches into the scratch table (BuiltQuery.matchSql). */
const FILL_MATCHES = 'INSERT INTO temp.campaign_text_match (id, id_num) ';

/** The account's rows the text index matches for the words, all of them in the index (textIndexQuery). */
const textIndexMatch = (words: readonly string[], terms: ShortWordTerms, accountKey: number) => ({
  sql: 'SELECT id, id_num FROM campaign_text WHERE campaign_text MATCH ? AND rowid BETWEEN ? AND ?',
  params: [textIndexQuery(words, terms), ...textRowidRange(accountKey)],
});

/**
 * Longer words each named by its first trigram (ShortWordTerms), for the index to find the rows
 * that may hold them all; each is then tested on those rows. Words many campaigns hold each are
 * far quicker so (two of them a quarter of 1,000,000 campaigns hold: ~15 ms against ~100-150 ms
 * for their phrases' intersection, which reads where in each row every trigram is).
 */
const looseTerms = (words: readonly string[]): ShortWordTerms => new Map(words.map((w) => [w, [[...w].slice(0, 3).join('')]]));

/** Whether every word has a trigram (counted in code points, as the tokenizer counts them). */
export const trigramWords = (words: readonly string[]) => words.every((w) => [...w].length >= 3);

/**
 * Builds the SQL for a parsed query. Exported so the query-plan test checks exactly what runs.
 * `plan` says how words are matched (TextPlan); a list of ids is always looked up by key. `terms`:
 * with plan 'index' and words all too short for a trigram, the terms each begins.
 */
export function buildCampaignQuery(
  accountKey: number,
  q: ParsedCampaignQuery,
  plan: TextPlan = 'scan',
  terms: ShortWordTerms = NO_TERMS,
): BuiltQuery {
  const order = campaignOrderBy(q.sort.field, q.sort.direction);
  // Every statement starts with the account: each index leads with account_key.
  const t = 'campaigns';
  const where: string[] = ['account_key = ?'];
  const params: unknown[] = [accountKey];
  const statuses = q.statuses ?? [];
  const marks = statuses.map(() => '?').join(', ');
  if (statuses.length > 0) {
    // The unary + keeps the planner on the sort index (status is read from it): with the status
    // index instead it would fetch every matching row and sort them all for each page.
    where.push(`+status IN (${marks})`);
    params.push(...statuses);
  }
  const filter = textFilter(q.text ?? '');
  const statusCount = statuses.length > 0 ? ` AND status IN (${marks})` : '';
  const page = (w: string[], p: unknown[]) => ({
    pageSql: `SELECT id_num, id FROM ${t} WHERE ${w.join(' AND ')} ORDER BY ${order} LIMIT ? OFFSET ?`,
    pageParams: [...p, q.limit, q.offset],
  });
  if (filter === null) {
    return {
      matchSql: null,
      matchParams: [],
      ...page(where, params),
      fewPageSql: null,
      fewPageParams: [],
      countSql: `SELECT count(*) FROM ${t} WHERE account_key = ?${statusCount}`,
      countParams: [accountKey, ...statuses],
      peek: null,
    };
  }
  if ('words' in filter && plan === 'walk') {
    const tests = filter.words.map(() => 'instr(search, ?) > 0');
    const [lo, hi] = textRowidRange(accountKey);
    return {
      matchSql: null,
      matchParams: [],
      ...page([...where, ...tests], [...params, ...filter.words]),
      fewPageSql: null,
      fewPageParams: [],
      peek: null,
      // Without a status filter or a short word the text index counts its matches in the account's
      // range; with one, each match's row must be read, and the account's rows are read instead.
      ...(statuses.length === 0 && trigramWords(filter.words)
        ? {
            countSql: 'SELECT count(*) FROM campaign_text WHERE campaign_text MATCH ? AND rowid BETWEEN ? AND ?',
            countParams: [textIndexQuery(filter.words), lo, hi],
          }
        : {
            countSql: `SELECT count(*) FROM ${t} WHERE account_key = ? AND ${tests.join(' AND ')}${statusCount}`,
            countParams: [accountKey, ...filter.words, ...statuses],
          }),
    };
  }
  // The sort index is walked as usual, each entry tested against the matching ids (id is part
  // of every index entry, and the scratch table's key answers the test without a copy).
  const count =
    statuses.length === 0
      ? { sql: 'SELECT count(*) FROM temp.campaign_text_match', params: [] }
      : {
          sql:
            `SELECT count(*) FROM temp.campaign_text_match m JOIN ${t} c ` +
            `ON c.account_key = ? AND c.id_num = m.id_num AND c.id = m.id WHERE c.status IN (${marks})`,
          params: [accountKey, ...statuses],
        };
  let match: { sql: string; params: unknown[] };
  let peek: BuiltQuery['peek'] = null;
  if ('ids' in filter) {
    // Looked up by key, one id at a time.
    match = {
      sql: `SELECT c.id, c.id_num FROM (VALUES ${filter.ids.map(() => '(?, ?)').join(', ')}) v CROSS JOIN ${t} c ON c.account_key = ? AND c.id_num = v.column1 AND c.id = v.column2`,
      params: [...filter.ids.flatMap((id) => [idSortKey(id), id]), accountKey],
    };
  } else if (plan === 'index') {
    // The index finds the words it can (three characters or more, or shorter ones by the terms
    // they begin); a shorter word beside them is tested on the rows of those matches alone, as is
    // a longer one the index names by one of its trigrams (`terms`, looseTerms).
    const long = filter.words.filter((w) => trigramWords([w]) || terms.has(w));
    const short = filter.words.filter((w) => !long.includes(w) || (trigramWords([w]) && terms.has(w)));
    match = filter.words.some((w) => terms.get(w)?.length === 0)
      ? // A word that begins no term of the index is in no row.
        { sql: `SELECT id, id_num FROM ${t} WHERE 0`, params: [] }
      : short.length === 0
        ? textIndexMatch(long, terms, accountKey)
        : {
            sql:
              `SELECT c.id, c.id_num FROM campaign_text f CROSS JOIN ${t} c ON c.account_key = ? AND c.id_num = f.id_num AND c.id = f.id ` +
              `WHERE f.campaign_text MATCH ? AND f.rowid BETWEEN ? AND ? AND ${short.map(() => 'instr(c.search, ?) > 0').join(' AND ')}`,
            params: [accountKey, textIndexQuery(long, terms), ...textRowidRange(accountKey), ...short],
          };
  } else {
    const tests = filter.words.map(() => 'instr(search, ?) > 0').join(' AND ');
    match = {
      sql: `SELECT id, id_num FROM ${t} WHERE account_key = ? AND ${tests}`,
      params: [accountKey, ...filter.words],
    };
    // The words are tested in SQL, only the matches returned: handing each row to JavaScript to
    // be tested there took twice as long (~70-120 ms against ~30-50 ms for 27,000 rows at 1,000,000).
    peek = {
      sql: `SELECT id_num, id FROM (SELECT id_num, id, search FROM ${t} WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ?) WHERE ${tests} LIMIT ?`,
      sizeSql: `SELECT count(*) FROM (SELECT 1 FROM ${t} WHERE ${where.join(' AND ')} LIMIT ?)`,
      params: [...params],
      words: filter.words,
    };
  }
  return {
    matchSql: `${FILL_MATCHES}${match.sql}`,
    matchParams: match.params,
    ...page([...where, '+id IN (SELECT id FROM temp.campaign_text_match)'], params),
    // CROSS JOIN keeps the matches the outer loop: each is looked up by key, and the few sorted.
    fewPageSql:
      `SELECT c.id_num, c.id FROM temp.campaign_text_match m CROSS JOIN ${t} c ` +
      `ON c.account_key = ? AND c.id_num = m.id_num AND c.id = m.id${statuses.length > 0 ? ` WHERE c.status IN (${marks})` : ''} ` +
      `ORDER BY ${campaignOrderBy(q.sort.field, q.sort.direction, 'c')} LIMIT ? OFFSET ?`,
    fewPageParams: [accountKey, ...statuses, q.limit, q.offset],
    countSql: count.sql,
    countParams: count.params,
    peek,
  };
}

export function parseCampaignQuery(input: CampaignQuery): ParsedCampaignQuery {
  const parsed = campaignQuerySchema.safeParse(input);
  if (!parsed.success) throw new StoreError('INVALID_INPUT', describeIssues(parsed.error.issues));
  return { ...parsed.data, sort: parsed.data.sort ?? DEFAULT_CAMPAIGN_SORT };
}

/**
 * A text that many campaigns hold (this many or more in the account): its first page is read by
 * walking the sort index and testing rows (TextPlan 'walk'), since a match turns up every few rows.
 */
const COMMON_MATCHES = 10_000;

/** Matches up to this many are looked up by key and sorted for a page, instead of walking the sort's index. */
const FEW_MATCHES = 20_000;

/**
 * A capped count in the text index (heldUpTo) reads up to this many matches into the scratch table
 * as it counts: more would cost a word most campaigns hold ~2 us each for nothing (it walks the sort).
 */
const FILLED_MATCHES = 1_000;

/**
 * A word too short for a trigram is matched through the terms it begins (ShortWordTerms) when they
 * are in at most this many rows (of every account: the index is one) and at most SHORT_WORD_TERMS
 * terms; otherwise it is tested on the rows the other words match. Reading one matching row's
 * entry from the index cost ~2 us against ~0.2-0.4 us per row read, so the index wins for a word
 * few rows hold: a letter held by none of 1,000,000 campaigns was 190-200 ms of reading every row.
 * When no word is that rare, two or more words may still be rare together: the index intersects
 * their terms' entries without producing a row (~25 ms at 1,000,000 where each word is in 250,000
 * rows and none holds both), and is used when fewer than COMMON_MATCHES of the account's rows match
 * them all; otherwise the rows are read.
 */
const SHORT_WORD_ROWS = 20_000;
const SHORT_WORD_TERMS = 500;
const LAST_CODE_POINT = '\u{10FFFF}';

/** The terms a short word begins (a prefix of them when not `whole`), and the rows holding each added up. */
interface WordTerms {
  terms: string[];
  rows: number;
  /** Every term the word begins is in `terms`. */
  whole: boolean;
}

/**
 * The first string after a term in the index's order (code points, as UTF-8 bytes sort), of the
 * same length: its last code point the next one (surrogates are not characters); null after U+10FFFF.
 */
export function nextTerm(term: string): string | null {
  const points = [...term];
  const lastPoint = points.pop()!.codePointAt(0)!;
  if (lastPoint >= 0x10ffff) return null;
  const next = lastPoint + 1 === 0xd800 ? 0xe000 : lastPoint + 1;
  return points.join('') + String.fromCodePoint(next);
}

/** The text index's terms, one row each with the number of rows holding it (FTS5's vocabulary table), in the connection's own schema. */
export const TEXT_TERMS_TABLE_SQL =
  "CREATE VIRTUAL TABLE IF NOT EXISTS temp.campaign_text_terms USING fts5vocab(main, 'campaign_text', 'row')";

/** How a query's words are matched, with the terms of its short words when the index names them. */
interface Plan {
  text: TextPlan;
  terms: ShortWordTerms;
}

/** A cached row that no longer rebuilds into a campaign (its caller quarantines it). */
export interface DamagedRow {
  key: { id_num: number; id: string };
  row: Record<string, unknown>;
  reason: string;
}

/** A page's rows as read from the cache: the campaigns, and the rows that did not rebuild. */
export interface WindowRows {
  rows: Campaign[];
  damaged: DamagedRow[];
}

/** A page as read from the cache with the total of its list. */
export interface WindowRead extends WindowRows {
  total: number;
}

/** The window's reads of one connection (createWindowQuery). */
export interface WindowQuery {
  /** A page and its list's total, read in one snapshot. */
  page(accountKey: number, q: ParsedCampaignQuery): WindowRead;
  /**
   * A page without the total: what a new search asks first, since counting a common word's
   * matches (~300 ms at 1,000,000) costs far more than finding its first page (~1 ms).
   */
  rows(accountKey: number, q: ParsedCampaignQuery): WindowRows;
  /** How many campaigns the list holds (offset and limit are not read). */
  count(accountKey: number, q: ParsedCampaignQuery): number;
}

/**
 * A stored row as the campaign it was made from, or why it no longer makes one. Read by
 * campaignSchema's rules as plain functions (campaign-reader.ts), as a refresh reads a listed
 * record: zod's object parse made a page of 200 rows cost ~10 ms of the reader's thread, which an
 * account switch waits for. zod reads only a row that fails them, to say why.
 */
export function rebuildCampaign(row: Record<string, unknown>): { campaign: Campaign } | { reason: string } {
  try {
    const fields = campaignFromRow(row);
    const campaign = readListedCampaign(fields);
    if (campaign !== null) return { campaign };
    const parsed = campaignSchema.safeParse(fields);
    if (parsed.success) return { campaign: parsed.data };
    return { reason: describeIssues(parsed.error.issues) };
  } catch {
    return { reason: 'stored JSON is damaged' };
  }
}

/**
 * Runs checked queries of one account (its key found by the caller in the data file) over a
 * connection to the cache file: the reader thread's (cache-reader.ts), so a screen's query never
 * holds the main thread, or the main thread's own for the sync engine's rare reads. The same code
 * on either, so both read the same rows in the same order.
 */
export function createWindowQuery(
  /** A connection to the cache file (read-only: only the scratch table in its temp schema is written). */
  db: Database,
  /**
   * false: every text is matched as before the text index (TextPlan 'scan', pages walked through
   * the sort index), so bench/search.ts can time both ways on one file in one run.
   * `shortWordRows` and `commonMatches`: SHORT_WORD_ROWS and COMMON_MATCHES, smaller in a test
   * whose cache holds fewer rows.
   */
  opts: { textIndex?: boolean; shortWordRows?: number; commonMatches?: number } = {},
): WindowQuery {
  const useIndex = opts.textIndex !== false;
  const fewRows = opts.shortWordRows ?? SHORT_WORD_ROWS;
  const commonMatches = opts.commonMatches ?? COMMON_MATCHES;
  const keyRow = z.object({ id_num: z.number().int(), id: z.string() });
  db.exec(TEXT_MATCH_TABLE_SQL);
  db.exec(TEXT_TERMS_TABLE_SQL);
  const rowStmt = db.prepare('SELECT * FROM campaigns WHERE account_key = ? AND id_num = ? AND id = ?');
  const clearMatches = db.prepare('DELETE FROM temp.campaign_text_match');
  // Moves with every write to the cache: data_version with each commit of the cache writer (the
  // connection that writes it), total_changes() with the scratch table's own fills.
  const totalChanges = db.prepare("SELECT total_changes() || '/' || (SELECT data_version FROM pragma_data_version())").pluck();
  // What the scratch table holds: any change to the data invalidates it; scrolling a filtered
  // list reuses it.
  let matched: { accountKey: number; needle: string; changes: string; size: number } | null = null;
  // One read transaction from choosing the plan to reading the page: the cache writer empties the
  // text index for a bulk load and builds it again after, and the plan must hold throughout.
  const inSnapshot = db.transaction((fn: () => unknown): unknown => fn());
  const snapshot = <T>(fn: () => T): T => inSnapshot(fn) as T;
  const textIndexWhole = db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND name = 'campaign_text_insert'").pluck();
  // The terms from the word (or from the one after the last read: nextTerm) to the last trigram it
  // may begin (the word and U+10FFFF, the highest code point, up to three), in the index's order
  // (bytes of UTF-8): those the word begins, and no other. The upper bound matters: the vocabulary
  // reads each term's entries to count its rows, and the term after them may be one that every
  // campaign holds (~30 ms at 1,000,000).
  const termsFrom = db.prepare<[string, string], { term: string; doc: number }>(
    'SELECT term, doc FROM temp.campaign_text_terms WHERE term >= ? AND term <= ?',
  );
  // Moves when another connection (the cache writer) commits: what the vocabulary said still holds until then.
  const dataVersion = db.prepare('SELECT data_version FROM pragma_data_version()').pluck();
  const remembered = new Map<string, unknown>();
  let rememberedAt: unknown = null;
  /**
   * `read()`, remembered under `key` while the cache is unchanged: the vocabulary and the index's
   * capped counts cost 10-50 ms at 1,000,000 campaigns, and each page of a scrolled list asks again.
   */
  const recall = <T>(key: unknown[], read: () => T): T => {
    const version = dataVersion.get();
    if (version !== rememberedAt || remembered.size > 100) {
      remembered.clear();
      rememberedAt = version;
    }
    const k = JSON.stringify(key);
    if (!remembered.has(k)) remembered.set(k, read());
    return remembered.get(k) as T;
  };
  /**
   * The terms of a text's words too short for a trigram that the index is quicker for
   * (ShortWordTerms), its longer words (if any) being held by many of the account's rows (COMMON_MATCHES);
   * null when it is for none, and reading the account's rows is quicker. Only while the index is
   * whole: it is read in the caller's snapshot.
   */
  const shortWordTerms = (accountKey: number, words: readonly string[]): ShortWordTerms | null =>
    recall(['terms', accountKey, words], () => readShortWordTerms(accountKey, words));
  const readShortWordTerms = (accountKey: number, words: readonly string[]): ShortWordTerms | null => {
    const long = words.filter((w) => trigramWords([w]));
    const few = new Map<string, readonly string[]>();
    const many = new Map<string, WordTerms>();
    for (const word of words) {
      if (trigramWords([word])) continue;
      const begun = termsBegunBy(word, null, fewRows);
      if (begun === null) continue;
      if (begun.whole && begun.rows <= fewRows) few.set(word, begun.terms);
      else many.set(word, begun);
    }
    // A word left out (many rows hold it) is tested on the rows the others match (buildCampaignQuery).
    if (few.size > 0) return few;
    // Every word is held by many rows, yet together they may be in few (two seasons no campaign
    // names at once, a season and the first letters of another): the index finds those rows from
    // its entries alone (~25 ms at 1,000,000 for two words a quarter of the campaigns hold each,
    // against ~0.2-0.4 s reading every row, or a walk of the whole sort that finds no page).
    if (many.size === 0 || long.length + many.size < 2) return null;
    // The longer words, which many rows hold too, by a trigram each (looseTerms).
    const loose = looseTerms(long);
    const rare = (terms: ShortWordTerms) =>
      heldUpTo(
        words.filter((w) => terms.has(w)),
        terms,
        accountKey,
      ) < commonMatches;
    // The terms read so far find some of the rows holding every word: when those are many already,
    // the words are common together (a letter and a digit), and their other terms are not read.
    const begun = new Map([...loose, ...[...many].map(([word, t]) => [word, t.terms] as const)]);
    if (!rare(begun)) return null;
    const all = new Map(loose);
    for (const [word, t] of many) {
      const whole = termsBegunBy(word, t, Infinity);
      if (whole !== null) all.set(word, whole.terms);
    }
    if (all.size < 2) return null;
    const same = [...all].every(([word, terms]) => terms.length === begun.get(word)?.length);
    return same || rare(all) ? all : null;
  };
  /**
   * The terms a word too short for a trigram begins, read until they are in more than `rows` rows
   * (of every account: the index is one), on from where `from` stopped; null beyond
   * SHORT_WORD_TERMS terms.
   */
  const termsBegunBy = (word: string, from: WordTerms | null, rows: number): WordTerms | null => {
    const terms = from === null ? [] : [...from.terms];
    let held = from?.rows ?? 0;
    const last = word + LAST_CODE_POINT.repeat(3 - [...word].length);
    // On from the term after the last one read: asked for `term > last`, the vocabulary read that
    // term's entries again (~20 ms for one in 250,000 rows at 1,000,000).
    const after = from === null ? word : nextTerm(from.terms.at(-1) ?? word);
    if (after === null) return { terms, rows: held, whole: true };
    const read = termsFrom.iterate(after, last);
    for (const { term, doc } of read) {
      if (!term.startsWith(word)) break;
      terms.push(term);
      held += doc;
      // (Leaving the loop early resets the statement.)
      if (terms.length > SHORT_WORD_TERMS) return null;
      if (held > rows) return { terms, rows: held, whole: false };
    }
    return { terms, rows: held, whole: true };
  };
  /**
   * How many of the account's rows the text index matches for the words (the text's words in its
   * order, each long one or named in `terms`), counted up to COMMON_MATCHES. Fewer than
   * FILLED_MATCHES are read into the scratch table as they are counted, as the plan they choose
   * reads them: for words many rows hold each and few together, the index's work is most of the
   * search (~50-150 ms at 1,000,000), and was done twice.
   */
  const heldUpTo = (words: readonly string[], terms: ShortWordTerms, accountKey: number): number => {
    const match = textIndexMatch(words, terms, accountKey);
    const needle = JSON.stringify([`${FILL_MATCHES}${match.sql}`, match.params]);
    const changes = totalChanges.get() as string;
    if (matched?.accountKey === accountKey && matched.needle === needle && matched.changes === changes)
      return Math.min(matched.size, commonMatches);
    matched = null;
    clearMatches.run();
    const filled = db.prepare(`${FILL_MATCHES}${match.sql} LIMIT ?`).run(...match.params, FILLED_MATCHES).changes;
    if (filled < FILLED_MATCHES) {
      matched = { accountKey, needle, changes: totalChanges.get() as string, size: filled };
      return filled;
    }
    return db
      .prepare(`SELECT count(*) FROM (${match.sql} LIMIT ?)`)
      .pluck()
      .get(...match.params, commonMatches) as number;
  };
  /**
   * How the words of the query's text are matched (TextPlan). `shortTerms` false: words many rows
   * hold (all too short for a trigram, or longer ones held by COMMON_MATCHES rows or more) are read
   * from the rows without asking the index which terms the short ones begin: a first page is
   * looked for in the sort's first rows first (peekFirstPage), and the index asked only when those
   * rows do not fill it.
   */
  const planOf = (accountKey: number, q: ParsedCampaignQuery, shortTerms = true): Plan => {
    const scan = { text: 'scan', terms: NO_TERMS } as const;
    const filter = textFilter(q.text ?? '');
    if (!useIndex || filter === null || !('words' in filter) || textIndexWhole.get() !== 1) return scan;
    const long = filter.words.filter((w) => trigramWords([w]));
    const heldOf = (words: readonly string[], terms = NO_TERMS) =>
      recall(['held', accountKey, words, [...terms]], () => heldUpTo(words, terms, accountKey));
    if (long.length >= 2) {
      // Longer words many campaigns hold each (two seasons) may be in few together: a trigram of
      // each finds the rows that may hold them all, and those are tested.
      const loose = looseTerms(long.filter((w) => heldOf([w]) >= commonMatches));
      if (loose.size >= 2 && heldOf(long, loose) < commonMatches) return { text: 'index', terms: loose };
    }
    const common = long.length === 0 || heldOf(long) >= commonMatches;
    const terms = common && shortTerms ? shortWordTerms(accountKey, filter.words) : null;
    if (terms !== null) return { text: 'index', terms };
    if (long.length === 0) return scan;
    // Scrolling on: the matches are read into the scratch table once and each page found among them.
    return { text: common && q.offset === 0 ? 'walk' : 'index', terms: NO_TERMS };
  };
  let lastCount: { key: string; changes: string; total: number } | null = null;
  const cachedStatuses = db.prepare('SELECT status FROM campaigns WHERE account_key = ? AND status IS NOT NULL GROUP BY status').pluck();
  let lastSpellings: { accountKey: number; changes: string; statuses: string[] } | null = null;
  /**
   * The statuses asked for, in every spelling the account's campaigns hold them: a service may write
   * "approved" for the interface's APPROVED (DECISIONS client 18), and a filter (or a saved view)
   * naming one must show the other. Read from the status index, again only after the cache changed.
   */
  const spelledAsCached = (accountKey: number, asked: readonly string[]): string[] => {
    const changes = totalChanges.get() as string;
    if (!lastSpellings || lastSpellings.accountKey !== accountKey || lastSpellings.changes !== changes) {
      lastSpellings = { accountKey, changes, statuses: cachedStatuses.all(accountKey) as string[] };
    }
    const held = lastSpellings.statuses.filter((s) => asked.some((a) => isServiceValue(s, a)));
    return [...new Set([...asked, ...held])];
  };

  /** The statuses of the query in every spelling the cache holds them (spelledAsCached). */
  const spelled = (accountKey: number, parsed: ParsedCampaignQuery): ParsedCampaignQuery =>
    parsed.statuses?.length ? { ...parsed, statuses: spelledAsCached(accountKey, parsed.statuses) } : parsed;
  /** The query's SQL for its plan, with the scratch table holding the text's matches when the plan uses one. */
  const prepared = (accountKey: number, q: ParsedCampaignQuery, plan = planOf(accountKey, q)): { plan: Plan; built: BuiltQuery } => {
    const built = buildCampaignQuery(accountKey, q, plan.text, plan.terms);
    if (built.matchSql !== null) {
      const needle = JSON.stringify([built.matchSql, built.matchParams]);
      const changes = totalChanges.get() as string;
      if (!matched || matched.accountKey !== accountKey || matched.needle !== needle || matched.changes !== changes) {
        // Only the connection's temp schema is written: no lock on the database file, no fsync.
        matched = null;
        clearMatches.run();
        const size = db.prepare(built.matchSql).run(...built.matchParams).changes;
        // Filling the scratch table counted as changes: remember the count after it.
        matched = { accountKey, needle, changes: totalChanges.get() as string, size };
      }
    }
    return { plan, built };
  };
  /**
   * The list's total. Statements are prepared per call: there are a few dozen shapes and preparing
   * is microseconds, cheaper than a cache that grows with every status combination. The count is
   * remembered while nothing changes, since scrolling on may need it with every page.
   */
  const totalOf = (built: BuiltQuery): number => {
    const countKey = `${built.countSql}|${JSON.stringify(built.countParams)}`;
    const changesNow = totalChanges.get() as string;
    if (!lastCount || lastCount.key !== countKey || lastCount.changes !== changesNow) {
      const value = db
        .prepare(built.countSql)
        .pluck()
        .get(...built.countParams) as number;
      lastCount = { key: countKey, changes: changesNow, total: value };
    }
    return lastCount.total;
  };
  /** The keys of the page's rows; `total` (when known) lets a page past the middle be read from the other end. */
  const pageKeys = (accountKey: number, q: ParsedCampaignQuery, plan: Plan, built: BuiltQuery, total: number | null): unknown[] => {
    if (useIndex && built.fewPageSql !== null && matched !== null && matched.size <= FEW_MATCHES) {
      return db.prepare(built.fewPageSql).all(...built.fewPageParams);
    }
    if (total !== null && q.offset > total / 2 && q.offset < total) {
      // A page past the middle is read from the other end (same order, reversed), so no page
      // skips more than half of the list.
      const limit = Math.min(q.limit, total - q.offset);
      const flipped = { ...q, sort: { ...q.sort, direction: q.sort.direction === 'asc' ? 'desc' : 'asc' } as const };
      const back = buildCampaignQuery(accountKey, { ...flipped, limit, offset: total - q.offset - limit }, plan.text, plan.terms);
      return db
        .prepare(back.pageSql)
        .all(...back.pageParams)
        .reverse();
    }
    return db.prepare(built.pageSql).all(...built.pageParams);
  };
  /**
   * The first page of words matched by reading rows (plans 'scan' and 'walk': words too short for
   * the text index, or held by many campaigns), found in the first PEEK_PAGES pages' worth of rows
   * of the sort (10,000 for the grid's pages, ~25-40 ms at most): a letter or two that most
   * campaigns hold fills the page within a few hundred rows, where filling the scratch table reads
   * every row of the account first (~250 ms at 1,000,000 campaigns, at the first keystroke of
   * every search). Then, when the matches found say a page is within reach (PEEK_MORE_PAGES), on
   * through twice as many rows as they say it needs: a text one campaign in a hundred holds fills
   * its page after ~20,000 rows. Null when those rows held too few matches: then the words are rare
   * together, or their matches lie further on in the sort (planOf with shortTerms).
   */
  const peekFirstPage = (built: BuiltQuery, limit: number): unknown[] | null => {
    const peek = built.peek;
    if (peek === null) return null;
    const matchesIn = (rows: number) => db.prepare(peek.sql).all(...peek.params, rows, ...peek.words, limit);
    // Fewer rows than it looked through: that was the whole list, and the page is complete.
    const wholeList = (rows: number) =>
      (db
        .prepare(peek.sizeSql)
        .pluck()
        .get(...peek.params, rows) as number) < rows;
    const first = PEEK_PAGES * limit;
    const keys = matchesIn(first);
    if (keys.length === limit || wholeList(first)) return keys;
    if (keys.length === 0) return null;
    // Twice as many rows as the matches so far say a page needs, if that is few enough.
    const twice = Math.ceil((2 * first * limit) / keys.length);
    if (twice > PEEK_MORE_PAGES * limit) return null;
    const more = matchesIn(twice);
    return more.length === limit || wholeList(twice) ? more : null;
  };
  const readRows = (accountKey: number, keys: readonly unknown[]): WindowRows => {
    const rows: Campaign[] = [];
    const damaged: DamagedRow[] = [];
    for (const key of keys.map((k) => keyRow.parse(k))) {
      const row = rowStmt.get(accountKey, key.id_num, key.id) as Record<string, unknown> | undefined;
      if (row === undefined) continue;
      const rebuilt = rebuildCampaign(row);
      if ('campaign' in rebuilt) rows.push(rebuilt.campaign);
      else damaged.push({ key, row, reason: rebuilt.reason });
    }
    return { rows, damaged };
  };

  return {
    page: (accountKey, parsed) =>
      snapshot(() => {
        const q = spelled(accountKey, parsed);
        const { plan, built } = prepared(accountKey, q);
        const total = totalOf(built);
        return { ...readRows(accountKey, pageKeys(accountKey, q, plan, built, total)), total };
      }),
    rows: (accountKey, parsed) =>
      snapshot(() => {
        const q = spelled(accountKey, parsed);
        let plan = planOf(accountKey, q, q.offset > 0);
        if ((plan.text === 'scan' || plan.text === 'walk') && q.offset === 0) {
          const first = peekFirstPage(buildCampaignQuery(accountKey, q, 'scan'), q.limit);
          if (first !== null) return readRows(accountKey, first);
          // Few rows hold the words together: the index may name them.
          plan = planOf(accountKey, q);
        }
        const { built } = prepared(accountKey, q, plan);
        // The first page never needs the total. A later one does, to choose the end it is read
        // from: by then the text's matches are in the scratch table (plans 'index' and 'scan'), so
        // counting them is cheap, and remembered while nothing changes.
        const total = q.offset > 0 ? totalOf(built) : null;
        return readRows(accountKey, pageKeys(accountKey, q, plan, built, total));
      }),
    count: (accountKey, parsed) =>
      snapshot(() => {
        // Planned as the list's first page is: a common word is counted by the text index alone.
        const q = { ...spelled(accountKey, parsed), offset: 0 };
        return totalOf(prepared(accountKey, q).built);
      }),
  };
}
