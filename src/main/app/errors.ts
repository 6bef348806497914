// Every failure leaves the core as a DeskError with a code and a message that says what to do.
// Store and service errors are translated here; anything else is left for the dispatcher, which
// reports it as internal without its message (a foreign message might carry a secret).
import { DeskError, type ErrorCode } from '../../shared/errors';
import { isServiceError, toDeskError } from '../service';
import { StoreError, type StoreErrorCode } from '../store';

const STORE_CODES: Record<StoreErrorCode, ErrorCode> = {
  MIGRATION_FAILED: 'database',
  INVALID_INPUT: 'invalid_input',
  NOT_FOUND: 'not_found',
  CONFLICT: 'conflict',
  BAD_TRANSITION: 'conflict',
  REFRESH_SUPERSEDED: 'conflict',
  HAS_PENDING_CHANGES: 'conflict',
  CACHE_UNAVAILABLE: 'database',
  QUERY_SUPERSEDED: 'conflict',
};

export function asDeskError(e: unknown): unknown {
  if (e instanceof DeskError) return e;
  if (e instanceof StoreError) return new DeskError(STORE_CODES[e.code], e.message);
  if (isServiceError(e)) return toDeskError(e);
  return e;
}

/** Wraps every handler so that what it throws is translated on the way out. */
export function translated<H extends Record<string, (args: never) => Promise<unknown>>>(handlers: H): H {
  const out: Record<string, (args: never) => Promise<unknown>> = {};
  for (const [name, fn] of Object.entries(handlers)) {
    out[name] = async (args: never) => {
      try {
        return await fn(args);
      } catch (e) {
        throw asDeskError(e);
      }
    };
  }
  return out as H;
}
