// Typed failures of the service client. Every message is written for a person (what happened and
// what to do next) and never contains a secret or token: text that comes from the server is
// passed through `redact` (redaction.ts) with the secrets of the request before it is cut or kept.
import { DeskError, type ErrorCode } from '../../shared/errors';
import type { FieldProblem } from '../../shared/domain/campaign';
import { redact, type RedactOptions } from './redaction';
import { carriesSecret } from './secret-fragments';

export { redact, REDACTED, type RedactOptions } from './redaction';

export const SERVICE_ERROR_KINDS = [
  'unauthorized',
  'forbidden',
  'validation',
  'not_found',
  'rate_limited',
  'server',
  'network',
  'outcome_unknown',
  'timeout',
  'cancelled',
  'protocol',
] as const;
export type ServiceErrorKind = (typeof SERVICE_ERROR_KINDS)[number];

export interface ServiceErrorInit {
  kind: ServiceErrorKind;
  message: string;
  /**
   * Whether any byte of the request may have reached the server. False means it certainly did
   * nothing and may be sent again; true after a failure means the outcome is unknown.
   */
  requestWritten: boolean;
  status?: number;
  retryAfterMs?: number;
  violatedPolicies?: string[];
  /** 'sign_in_required': an authorization-code session ended; only a new sign-in helps. */
  reason?: 'sign_in_required' | 'credentials_rejected';
  /** Field problems found before sending (shared rules) or named by the server. */
  problems?: FieldProblem[];
  /** The service's own words (redacted, one line), without ours around them; for learning from refusals. */
  serverText?: string;
}

export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  readonly requestWritten: boolean;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly violatedPolicies?: string[];
  readonly reason?: ServiceErrorInit['reason'];
  readonly problems?: FieldProblem[];
  readonly serverText?: string;

  constructor(init: ServiceErrorInit) {
    super(init.message);
    this.name = 'ServiceError';
    this.kind = init.kind;
    this.requestWritten = init.requestWritten;
    if (init.status !== undefined) this.status = init.status;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.violatedPolicies !== undefined) this.violatedPolicies = init.violatedPolicies;
    if (init.reason !== undefined) this.reason = init.reason;
    if (init.problems !== undefined) this.problems = init.problems;
    if (init.serverText !== undefined) this.serverText = init.serverText;
  }

  /** Safe to send over IPC or log: the same fields, nothing else. */
  toJSON(): ServiceErrorInit {
    const out: ServiceErrorInit = { kind: this.kind, message: this.message, requestWritten: this.requestWritten };
    if (this.status !== undefined) out.status = this.status;
    if (this.retryAfterMs !== undefined) out.retryAfterMs = this.retryAfterMs;
    if (this.violatedPolicies !== undefined) out.violatedPolicies = this.violatedPolicies;
    if (this.reason !== undefined) out.reason = this.reason;
    if (this.problems !== undefined) out.problems = this.problems;
    if (this.serverText !== undefined) out.serverText = this.serverText;
    return out;
  }
}

export function isServiceError(e: unknown): e is ServiceError {
  return e instanceof ServiceError;
}

const DESK_CODES: Record<ServiceErrorKind, ErrorCode> = {
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  validation: 'validation',
  not_found: 'not_found',
  rate_limited: 'rate_limited',
  server: 'server',
  network: 'offline',
  outcome_unknown: 'offline',
  timeout: 'offline',
  cancelled: 'cancelled',
  protocol: 'server',
};

/** The app-wide error for the IPC boundary (src/shared/errors.ts). */
export function toDeskError(e: ServiceError): DeskError {
  const details: Record<string, unknown> = { kind: e.kind, requestWritten: e.requestWritten };
  if (e.status !== undefined) details.status = e.status;
  if (e.retryAfterMs !== undefined) details.retryAfterMs = e.retryAfterMs;
  if (e.violatedPolicies !== undefined) details.violatedPolicies = e.violatedPolicies;
  if (e.reason !== undefined) details.reason = e.reason;
  if (e.problems !== undefined) details.problems = e.problems;
  return new DeskError(DESK_CODES[e.kind], e.message, details);
}

/** The longest server text we keep in a message. */
export const MAX_SERVER_TEXT = 500;

/** `text` cut to at most `max` characters (never inside a surrogate pair), marked with an ellipsis. */
export function bounded(text: string, max = MAX_SERVER_TEXT): string {
  if (text.length <= max) return text;
  const end = /[\ud800-\udbff]/.test(text[max - 1]) ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}

/** Control characters become one space: a message is one printable line. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what we strip
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

/**
 * Server text shown to people: every spelling of every secret is removed from the WHOLE text
 * first, and only then is it made one line and cut short, so no prefix of a secret survives a cut.
 * Text that still carries a piece of a secret is not shown at all (secret-fragments.ts).
 */
export function cleanServerMessage(raw: unknown, secrets: readonly (string | undefined)[], opts: RedactOptions = {}): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const line = oneLine(redact(raw, secrets, opts));
  return line === '' || carriesSecret(line, secrets) ? undefined : bounded(line);
}

/** A request refused before sending by the shared rules: it certainly did nothing. */
export function invalidDraft(problems: FieldProblem[]): ServiceError {
  return new ServiceError({
    kind: 'validation',
    requestWritten: false,
    problems,
    message: `Nothing was sent. Fix first: ${problems.map((p) => p.message).join('; ')}.`,
  });
}
