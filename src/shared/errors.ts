// Error codes shared by main and renderer. Errors cross the IPC bridge as data, never as thrown
// objects, and always carry a message a person can act on.
import { z } from 'zod';

export const ERROR_CODES = [
  'invalid_input', // the request did not match the contract (a bug or a tampered renderer)
  'not_found', // the profile, account, draft or item no longer exists
  'unauthorized', // sign-in needed or credentials rejected
  'forbidden', // the credentials do not reach that account or app
  'validation', // the service or the shared rules refused the content
  'rate_limited', // the service asked to wait
  'offline', // the service cannot be reached now; the change is kept and queued
  'server', // the service failed (5xx)
  'keychain_unavailable', // the system keychain refused; secrets kept in memory only
  'conflict', // the item changed state meanwhile (e.g. already sent)
  'database', // the local database refused (newer version, disk full, ...)
  'cancelled', // the person (or the app, closing) stopped it before it completed; nothing to fix
  'internal', // anything else; the message says what to do
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const deskErrorSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type DeskErrorData = z.infer<typeof deskErrorSchema>;

/** Thrown inside main-side code; turned into `DeskErrorData` at the IPC boundary. */
export class DeskError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DeskError';
  }

  toData(): DeskErrorData {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: DeskErrorData };

/**
 * A call named a connection that was removed meanwhile (in another window, or just now): the one
 * wording for it, whichever operation met it.
 */
export const connectionGone = (): DeskError => connectionGone();

/** A call named an account that is not (or no longer) added to its connection. */
export const accountNotAdded = (accountId: string): DeskError =>
  new DeskError('not_found', `Account ${accountId} is not added to this connection. Add it first.`);
