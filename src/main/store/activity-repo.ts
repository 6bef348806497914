// The activity log: what the core did, for the person (and for support). Details are JSON; keys
// that look like credentials, and credentials visible in text (a bearer header, client_secret=...
// of an echoed form body), are replaced before anything is written, as a last line of defence
// (callers should never pass secrets in the first place).
import { z } from 'zod';
import type { RepoContext } from './context';
import { parseJsonColumn } from './json';
import { when, whereClause } from './where';

export interface ActivityEntry {
  id: number;
  at: number;
  profileId: string | null;
  accountId: string | null;
  kind: string;
  message: string;
  details: unknown;
}

export interface LogInput {
  profileId?: string | null;
  accountId?: string | null;
  kind: string;
  message: string;
  details?: unknown;
}

const SECRET_KEY = /secret|token|password|passwd|authorization|api[-_]?key|credential|cookie/i;
export const REDACTED = '[redacted]';

/** A deep copy of `value` with every credential-looking key's value replaced. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > 20) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) ? REDACTED : redactSecrets(v, depth + 1);
    return out;
  }
  if (typeof value === 'string') return redactCredentialText(value);
  return value;
}

// Request parameters that carry a credential, as a server echoing our request would write them:
// `client_secret=...` up to the next parameter (a form body or a query string, so `+` and `%XX`
// stay inside), and `"client_secret": "..."` in JSON text, escapes included.
const FORM_CREDENTIAL = /(?<![A-Za-z0-9_])(client_secret|refresh_token|access_token|id_token|password|code)=[^&\s"'<>)]*/gi;
const JSON_CREDENTIAL = /"(client_secret|refresh_token|access_token|id_token|password|code)"\s*:\s*"(?:[^"\\]|\\.)*"/gi;
const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]+/gi;
// Base64 with a digit or +/= in it, so that "Basic information" stays as it is.
const BASIC = /\b(Basic)\s+(?=[A-Za-z0-9+/]*[0-9+/=])[A-Za-z0-9+/]{8,}={0,2}/g;

/**
 * Text with credentials it visibly carries replaced: bearer and basic credentials, and credential
 * parameters of a form body, query string or JSON text. Callers redact the secrets they know (in
 * every spelling, src/main/service/redaction.ts) before anything is logged; this is the net under
 * that, for a message that reached the log without it.
 */
export function redactCredentialText(text: string): string {
  return text
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(BASIC, `$1 ${REDACTED}`)
    .replace(FORM_CREDENTIAL, `$1=${REDACTED}`)
    .replace(JSON_CREDENTIAL, `"$1":"${REDACTED}"`);
}

/** The longest message kept. */
export const MAX_MESSAGE = 2000;

function shortened(text: string): string {
  return text.length <= MAX_MESSAGE ? text : `${text.slice(0, MAX_MESSAGE - 1)}…`;
}

const inputSchema = z.object({
  profileId: z.string().nullable().optional(),
  accountId: z.string().nullable().optional(),
  kind: z.string().min(1).max(100),
  message: z.string(),
  details: z.unknown().optional(),
});

const rowSchema = z.object({
  id: z.number().int(),
  at: z.number().int(),
  profile_id: z.string().nullable(),
  account_id: z.string().nullable(),
  kind: z.string(),
  message: z.string(),
  details: z.string().nullable(),
});

export interface ActivityRepo {
  log(input: LogInput): ActivityEntry;
  /** Newest first. */
  list(filter?: { profileId?: string; accountId?: string; limit?: number; before?: number; withAppWide?: boolean }): ActivityEntry[];
  prune(before: number): number;
  /** How many entries prune(before) would remove. */
  countBefore(before: number): number;
}

export function createActivityRepo(ctx: RepoContext): ActivityRepo {
  const { db } = ctx;
  const insert = db.prepare('INSERT INTO activity (at, profile_id, account_id, kind, message, details) VALUES (?, ?, ?, ?, ?, ?)');
  const getStmt = db.prepare('SELECT * FROM activity WHERE id = ?');
  const pruneStmt = db.prepare('DELETE FROM activity WHERE at < ?');
  const countBeforeStmt = db.prepare('SELECT count(*) FROM activity WHERE at < ?').pluck();

  function fromRow(r: unknown): ActivityEntry {
    const row = rowSchema.parse(r);
    const details = parseJsonColumn(z.unknown(), row.details);
    return {
      id: row.id,
      at: row.at,
      profileId: row.profile_id,
      accountId: row.account_id,
      kind: row.kind,
      message: row.message,
      // A damaged details column is shown as missing rather than hiding the whole entry.
      details: details.ok ? details.value : null,
    };
  }

  return {
    log(input) {
      const e = inputSchema.parse(input);
      const details = e.details === undefined ? null : JSON.stringify(redactSecrets(e.details));
      // Redacted whole, then cut: a cut first could leave a prefix of a credential behind, and a
      // long message is still worth logging.
      const message = shortened(redactCredentialText(e.message));
      const id = insert.run(ctx.clock.now(), e.profileId ?? null, e.accountId ?? null, e.kind, message, details).lastInsertRowid;
      return fromRow(getStmt.get(id));
    },
    list(filter = {}) {
      const where = whereClause([
        // App-wide entries (no connection: the data file moved aside at start-up) belong to every
        // connection's log, or the person never learns where their old file was kept.
        when(filter.profileId !== undefined && filter.withAppWide === true, '(profile_id = ? OR profile_id IS NULL)', filter.profileId),
        when(filter.profileId !== undefined && filter.withAppWide !== true, 'profile_id = ?', filter.profileId),
        when(filter.accountId !== undefined, 'account_id = ?', filter.accountId),
        when(filter.before !== undefined, 'at < ?', filter.before),
      ]);
      const limit = Math.min(Math.max(filter.limit ?? 200, 1), 5000);
      const sql = `SELECT * FROM activity ${where.sql} ORDER BY at DESC, id DESC LIMIT ?`;
      return db
        .prepare(sql)
        .all(...where.params, limit)
        .map(fromRow);
    },
    prune(before) {
      return pruneStmt.run(before).changes;
    },
    countBefore(before) {
      return countBeforeStmt.get(before) as number;
    },
  };
}
