// A ring buffer of handled requests (the last 200,000), so tests and benchmarks can see what the
// sandbox saw: statuses, rate-limit decisions, injected faults. O(1) per request.
import type { LimitedGroup } from './rate-limiter';

export type Outcome =
  | 'ok'
  | 'client_error'
  | 'rate_limited'
  | 'server_error'
  | 'fault_close_before'
  | 'fault_close_after'
  | 'fault_500'
  | 'fault_503'
  /** A write that late_apply_ms held back after its connection dropped, now applied (its own entry). */
  | 'late_applied';

export interface LogEntry {
  seq: number;
  /** The service's clock when the request was handled (the sandbox clock plus clock_offset_ms), ms. */
  time: number;
  method: string;
  /** Path without the query string (queries are not recorded, but for `sort`). */
  path: string;
  /** The query's `sort` parameter, if it had one (which order a client asked a listing in). */
  sort: string | null;
  account: string | null;
  group: LimitedGroup | null;
  budget: 'read' | 'write' | null;
  limited: boolean;
  /** null when no response was produced (close_before). */
  status: number | null;
  outcome: Outcome;
}

export function outcomeOf(status: number): Outcome {
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  if (status >= 400) return 'client_error';
  return 'ok';
}

export const REQUEST_LOG_CAPACITY = 200_000;

export class RequestLog {
  private readonly ring: (LogEntry | undefined)[];
  /** Sequence numbers keep counting across resets so a saved `since` never matches new entries. */
  private nextSeq = 1;
  private firstSeq = 1;

  constructor(private readonly capacity = REQUEST_LOG_CAPACITY) {
    this.ring = new Array<LogEntry | undefined>(capacity);
  }

  /** The newest entry's sequence number (0 before the first). */
  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  add(e: Omit<LogEntry, 'seq'>): void {
    const seq = this.nextSeq++;
    this.ring[seq % this.capacity] = { seq, ...e };
    if (seq - this.firstSeq >= this.capacity) this.firstSeq = seq - this.capacity + 1;
  }

  /** Entries with a sequence number greater than `seq`, oldest first. */
  since(seq = 0): LogEntry[] {
    const out: LogEntry[] = [];
    for (let s = Math.max(seq + 1, this.firstSeq); s < this.nextSeq; s++) out.push(this.ring[s % this.capacity]!);
    return out;
  }

  clear(): void {
    this.firstSeq = this.nextSeq;
    this.ring.fill(undefined);
  }
}
