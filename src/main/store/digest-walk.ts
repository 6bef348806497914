// A refresh's comparison of a listing read in id order with the cached rows, a chunk at a time
// (issue #29): the cached digests are read in the cache's own key order (id_num, id) beside the
// listing, so the cached row a listed record may match is the next one along (or a few further on,
// past rows deleted or changed at the service), and nothing holds the whole account. The
// whole-account map it replaces (CampaignRefresh.known) held every digest and id of the account:
// with the set of every listed id (below) it took a second refresh of 1,000,000 campaigns to a
// peak of ~965 MB (the first refresh's was ~560 MB), and at 300,000 building it held the main
// thread for a second.
//
// It answers what known() answers, never more: a record whose digest is that of a cached row the
// refresh may still call unchanged (`accept`). Order only decides how many it finds. A listing out
// of the cache's order (a service that sorts ids as text, "10" before "9", or puts non-numeric ids
// elsewhere) is seen as soon as a parsed record's key falls behind what the listing has shown, and
// from then on the walk asks the whole-account map (`unordered`), as every refresh did before.
// Within one chunk of the stream the parsed records' places among the unchanged ones are not
// known (they are parsed after every record of the chunk was looked up), so a disorder inside a
// chunk can only cost matches, which are then parsed and compared by the writer like any record.
//
// The rows it names are not kept one by one either (the refresh's set of every listed id): it
// keeps runs of consecutive cached rows it named (covers()), a handful when little changed, and
// the refresh counts a row as listed when it is in its seen set (written, kept) or in a run. Consecutive as read: a row cached inside a run since was written by this
// refresh or by a create, both of which the seen set holds. A chunk's runs count once the chunk has
// been handed on (listed()): a stream that breaks inside a chunk names none of its rows.
import type { Campaign } from '../../shared/domain/campaign';
import { idSortKey } from './campaign-columns';

/** A cached row as the walk reads it: its key (id_num, id) and the digest it was made from (null: none). */
export type CachedDigest = [idNum: number, id: string, digest: string | null];

export interface DigestWalk {
  /** The id of the cached row made from a record with exactly these bytes, if the refresh may call it unchanged. */
  known(digest: string): string | undefined;
  /**
   * One chunk of the listing has been handed on: its parsed (new or changed) campaigns, in listing
   * order. Checks the order and moves the walk past them (rows deleted at the service are skipped).
   */
  listed(campaigns: readonly Campaign[]): void;
  /** Whether the listing has been in the cache's order so far (false: the walk asks `unordered`). */
  readonly inOrder: boolean;
  /** Whether the walk named this cached row unchanged in a chunk that was handed on (listed()). */
  covers(id: string): boolean;
  /** covers() of a row read with its key. */
  coversKey(idNum: number, id: string): boolean;
  /**
   * The last key of the run that covers this key, if one does: every cached row up to it is listed
   * (the refresh's look for unlisted rows goes on from there instead of reading them).
   */
  runEnd(idNum: number, id: string): [number, string] | null;
}

/** A walk that names nothing (a first load, a refresh that took over rows still on their way). */
export const NO_WALK: DigestWalk = {
  known: () => undefined,
  listed: () => undefined,
  inOrder: true,
  covers: () => false,
  coversKey: () => false,
  runEnd: () => null,
};

export interface DigestWalkSource {
  /** The account's cached rows after key (idNum, id), in key order, at most `limit`. */
  read(idNum: number, id: string, limit: number): CachedDigest[];
  /** Whether the refresh may call this cached row unchanged (not listed, written or removed otherwise since it began). */
  accept(id: string): boolean;
  /** The whole-account look-up, for a listing found out of order. */
  unordered(digest: string): string | undefined;
  /** Rows read at a time (default 2000). */
  chunk?: number;
}

/** Before every key: id_num is -1 or more (idSortKey). */
const START: readonly [number, string] = [-2, ''];

/** Characters whose UTF-16 order is not their UTF-8 order (surrogates sort below U+E000-U+FFFF). */
const WIDE = /[\ud800-\uffff]/;

/**
 * Whether key a comes before key b, in SQLite's order: ids compare as UTF-8 bytes there (BINARY),
 * which is the order of JS strings but for characters from U+D800 up; the runs (covers()) must
 * agree with the order the rows were read in.
 */
const before = (aNum: number, aId: string, bNum: number, bId: string) =>
  aNum < bNum || (aNum === bNum && (WIDE.test(aId) || WIDE.test(bId) ? Buffer.compare(Buffer.from(aId), Buffer.from(bId)) < 0 : aId < bId));

export function createDigestWalk(source: DigestWalkSource): DigestWalk {
  const chunk = source.chunk ?? 2000;
  let rows: CachedDigest[] = [];
  /** The first row of `rows` a record may still match: the ones before it are behind the listing. */
  let at = 0;
  /** Digest to index in `rows`, built when a record is not the next row's (rows skipped). */
  let byDigest: Map<string, number> | null = null;
  /** No cached rows after `rows` (rows cached since are this refresh's own, or a create's: never named). */
  let end = false;
  /** The greatest key the listing has shown, as far as the walk knows (matched, or parsed in a finished chunk). */
  let floorNum = START[0];
  let floorId = START[1];
  /**
   * The floor when the current chunk began (the end of the last listed()): a parsed record must
   * come after it. Not the floor itself, which the chunk's matches may have moved past records
   * parsed between them.
   */
  let chunkNum = START[0];
  let chunkId = START[1];
  let ordered = true;
  /** Runs of consecutive cached rows named unchanged, in key order: [first key, last key]. */
  const runs: [number, string, number, string][] = [];
  /** The runs of the chunk being looked up, added to `runs` by listed(). */
  let pending: [number, string, number, string][] = [];
  /** The row named last: a run goes on while the next row named is the one after it. */
  let lastNum = NaN;
  let lastId = '';
  /** The first pending run goes on from this key, the end of the last run (null: a run of its own). */
  let pendingFrom: [number, string] | null = null;
  /** The ids named in the last chunk handed on (what listedUnchanged() is asked about, without a search). */
  let named: string[] = [];
  let lastNamed = new Set<string>();

  const commit = () => {
    for (const [k, run] of pending.entries()) {
      const prev = runs.length > 0 ? runs[runs.length - 1] : null;
      if (k === 0 && pendingFrom !== null && prev !== null && prev[2] === pendingFrom[0] && prev[3] === pendingFrom[1]) {
        prev[2] = run[2];
        prev[3] = run[3];
      } else runs.push(run);
    }
    pending = [];
    pendingFrom = null;
    lastNamed = new Set(named);
    named = [];
  };

  /** The run that covers the key, if any. */
  const runOf = (num: number, id: string): [number, string, number, string] | null => {
    // The last run whose first key is not after this one.
    let lo = 0;
    let hi = runs.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (before(num, id, runs[mid][0], runs[mid][1])) hi = mid - 1;
      else {
        found = mid;
        lo = mid + 1;
      }
    }
    return found >= 0 && !before(runs[found][2], runs[found][3], num, id) ? runs[found] : null;
  };
  const coversKey = (num: number, id: string) => runOf(num, id) !== null;

  const load = (num: number, id: string) => {
    rows = source.read(num, id, chunk);
    at = 0;
    byDigest = null;
    end = rows.length < chunk;
  };

  const walk: DigestWalk = {
    get inOrder() {
      return ordered;
    },
    known(digest) {
      if (!ordered) return source.unordered(digest);
      // At least half a chunk ahead: a record may match a row past a run of rows changed or
      // deleted at the service, and a run at the end of the rows held would otherwise hide the
      // next chunk until the stream's chunk is parsed (listed()).
      if (!end && rows.length - at < chunk / 2) {
        const last = rows.length > 0 ? rows[rows.length - 1] : null;
        const more = source.read(last ? last[0] : floorNum, last ? last[1] : floorId, chunk);
        // The row before `at` stays (not matched again): a run goes on across the refill.
        rows = rows.slice(Math.max(0, at - 1)).concat(more);
        at = at > 0 ? 1 : 0;
        byDigest = null;
        end = more.length < chunk;
      }
      if (at === rows.length) return undefined;
      let i = at;
      // Most records are the next row's, unchanged: no map needed.
      if (rows[i][2] !== digest) {
        if (byDigest === null) {
          byDigest = new Map();
          for (let k = at; k < rows.length; k++) {
            const d = rows[k][2];
            if (d !== null) byDigest.set(d, k);
          }
        }
        const found = byDigest.get(digest);
        if (found === undefined || found < at) return undefined;
        i = found;
      }
      // The listing is at this row now: the rows before it were not listed unchanged here.
      at = i + 1;
      const [num, id] = rows[i];
      floorNum = num;
      floorId = id;
      if (!source.accept(id)) return undefined;
      const goesOn = i > 0 && rows[i - 1][0] === lastNum && rows[i - 1][1] === lastId;
      if (goesOn && pending.length > 0) {
        const run = pending[pending.length - 1];
        run[2] = num;
        run[3] = id;
      } else {
        if (goesOn) pendingFrom = [lastNum, lastId];
        pending.push([num, id, num, id]);
      }
      lastNum = num;
      lastId = id;
      named.push(id);
      return id;
    },
    covers(id) {
      return lastNamed.has(id) || (runs.length > 0 && coversKey(idSortKey(id), id));
    },
    coversKey,
    runEnd(num, id) {
      const run = runOf(num, id);
      return run === null ? null : [run[2], run[3]];
    },
    listed(campaigns) {
      // The chunk has been handed on: what the walk named in it is listed.
      commit();
      if (!ordered) return;
      // Each parsed record must come after everything shown before its chunk and after the one
      // parsed before it. (Matched rows come after the floor by construction.)
      let num = chunkNum;
      let id = chunkId;
      for (const c of campaigns) {
        const n = idSortKey(c.id);
        if (!before(num, id, n, c.id)) {
          ordered = false;
          rows = [];
          byDigest = null;
          return;
        }
        num = n;
        id = c.id;
      }
      if (before(floorNum, floorId, num, id)) {
        floorNum = num;
        floorId = id;
      }
      chunkNum = floorNum;
      chunkId = floorId;
      if (campaigns.length === 0) return;
      // Past the last parsed record: cached rows before it were deleted at the service (or are
      // the parsed ones themselves), and no later record can match them.
      while (at < rows.length && !before(floorNum, floorId, rows[at][0], rows[at][1])) at++;
      if (at === rows.length && !end) load(floorNum, floorId);
    },
  };
  return walk;
}
