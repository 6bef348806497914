// The quick-filter text of a first load's rows, kept in memory while its indexes are built.
//
// Why: the filter is a substring test of each row's search column (campaign-columns.ts). In SQL
// that scans the account's table: 25-60 ms for 100,000 rows on the development VM, up to 90 ms
// while the worker is building indexes beside it, which breaks the 50 ms a query may take. In
// memory the same test is a few indexOf calls over long strings.
//
// The rows' texts are joined per batch into one string (NUL between rows), so the garbage
// collector sees about a hundred strings instead of 100,000 it would have to keep and move.

const BATCH = 1024;
const SEPARATOR = '\u0000';

interface Chunk {
  text: string;
  /** Where each row's text begins in `text`. */
  starts: Uint32Array;
  firstRow: number;
}

export class SearchTextChunks {
  private readonly chunks: Chunk[] = [];
  private pending: string[] = [];
  private rows = 0;

  /** The next row's search text (anything not a string matches nothing). */
  add(search: unknown): void {
    this.pending.push(typeof search === 'string' ? search : '');
    if (this.pending.length === BATCH) this.seal();
  }

  /**
   * Calls `mark` with the number of each row whose text contains `needle`, once per row. False,
   * without calling it, when the needle cannot be matched this way (it holds the separator).
   */
  match(needle: string, mark: (row: number) => void): boolean {
    if (needle.includes(SEPARATOR)) return false;
    this.seal();
    for (const { text, starts, firstRow } of this.chunks) {
      let from = 0;
      for (;;) {
        const at = text.indexOf(needle, from);
        if (at < 0) break;
        // The row the match is in: the last one starting at or before it.
        let lo = 0;
        let hi = starts.length - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >>> 1;
          if (starts[mid] <= at) lo = mid;
          else hi = mid - 1;
        }
        mark(firstRow + lo);
        if (lo + 1 >= starts.length) break;
        from = starts[lo + 1];
      }
    }
    return true;
  }

  private seal(): void {
    if (this.pending.length === 0) return;
    const starts = new Uint32Array(this.pending.length);
    let at = 0;
    for (let k = 0; k < this.pending.length; k++) {
      starts[k] = at;
      at += this.pending[k].length + SEPARATOR.length;
    }
    this.chunks.push({ text: this.pending.join(SEPARATOR), starts, firstRow: this.rows });
    this.rows += this.pending.length;
    this.pending = [];
  }
}
