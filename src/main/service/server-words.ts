// The service's own words from an error body, whatever common shape it has (DECISIONS client 12):
// `message` (a text or a list of them); RFC 9457 problem details (`title`, `detail`); RFC 6749 (`error`, `error_description`);
// a list of errors (`errors[]` of strings or of objects with message/detail/title and a field, as
// JSON:API or RFC 9457 extensions write them, or FastAPI's `detail[]` with `loc`/`msg`); a map of
// field -> messages (`errors: {name: [...]}`); and any of these nested under `error: {...}`.
// Nothing is required: what is there is shown as the service wrote it, joined and bounded, with the
// field names it gave. Every piece is redacted whole before it is joined or cut.
import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import type { FieldProblem } from '../../shared/domain/campaign';
import { bounded, MAX_SERVER_TEXT, oneLine } from './errors';
import { redact, type RedactOptions } from './redaction';
import { carriesSecret } from './secret-fragments';

export interface ServerWords {
  /** One printable line, at most MAX_SERVER_TEXT characters (plus an ellipsis). */
  text: string;
  /** The problems the service tied to a field, for showing next to it. */
  problems: FieldProblem[];
}

export interface ReadOptions extends RedactOptions {
  /** The response status: a title that only repeats its reason phrase says nothing. */
  status?: number;
}

/** Enough items for any form; a body listing thousands is cut here, before any work on them. */
const MAX_ITEMS = 50;
const MAX_FIELD = 100;
const MAX_DEPTH = 4;

const bodySchema = z.looseObject({
  title: z.unknown().optional(),
  detail: z.unknown().optional(),
  message: z.unknown().optional(),
  msg: z.unknown().optional(),
  description: z.unknown().optional(),
  error_description: z.unknown().optional(),
  error: z.unknown().optional(),
  errors: z.unknown().optional(),
});
type Body = z.infer<typeof bodySchema>;

const itemFieldSchema = z.looseObject({
  field: z.unknown().optional(),
  pointer: z.unknown().optional(),
  path: z.unknown().optional(),
  loc: z.unknown().optional(),
  parameter: z.unknown().optional(),
  param: z.unknown().optional(),
  property: z.unknown().optional(),
  source: z.looseObject({ pointer: z.unknown().optional(), parameter: z.unknown().optional() }).optional(),
});

class Collector {
  readonly heads: string[] = [];
  readonly items: string[] = [];
  readonly problems: FieldProblem[] = [];
  readonly #seen = new Set<string>();

  constructor(readonly clean: (raw: string) => string) {}

  head(raw: unknown): void {
    const t = typeof raw === 'string' ? this.clean(raw) : '';
    if (t !== '' && !this.#seen.has(t)) {
      this.#seen.add(t);
      this.heads.push(t);
    }
  }

  item(message: string, field: string | undefined): void {
    const said = bounded(this.clean(message));
    if (said === '' || this.items.length >= MAX_ITEMS) return;
    const f = field === undefined ? '' : bounded(this.clean(field), MAX_FIELD);
    const shown = f === '' || namesField(said, f) ? said : `${f}: ${said}`;
    if (this.#seen.has(shown) || this.#seen.has(said)) return;
    this.#seen.add(shown);
    this.items.push(shown);
    if (f !== '') this.problems.push({ field: f, message: said });
  }
}

/** "name cannot be empty" already names its field; "cannot be empty" needs it said. */
function namesField(said: string, field: string): boolean {
  return said.startsWith(field) && (said.length === field.length || /[^A-Za-z0-9_]/.test(said[field.length]));
}

/** A field name from a JSON pointer (`#/cpc`, `/data/attributes/cpc`), a path or a list of segments. */
function fieldName(raw: unknown): string | undefined {
  if (Array.isArray(raw)) {
    const segs = raw.filter((s) => typeof s === 'string' || typeof s === 'number').map(String);
    // FastAPI's loc starts with where the value was read from.
    const rest = ['body', 'query', 'path'].includes(segs[0] ?? '') ? segs.slice(1) : segs;
    return rest.length > 0 ? rest.join('.') : undefined;
  }
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  const t = raw.trim();
  if (!t.startsWith('#/') && !t.startsWith('/')) return t;
  const segs = t
    .replace(/^#?\//, '')
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  // JSON:API points into data/attributes; the field is the last segment that names something.
  return segs.filter((s) => s !== '').pop();
}

function itemField(o: unknown): string | undefined {
  const parsed = itemFieldSchema.safeParse(o);
  if (!parsed.success) return undefined;
  const d = parsed.data;
  for (const c of [d.field, d.pointer, d.path, d.loc, d.parameter, d.param, d.property, d.source?.pointer, d.source?.parameter]) {
    const f = fieldName(c);
    if (f !== undefined) return f;
  }
  return undefined;
}

function firstText(b: Body): string | undefined {
  for (const v of [b.message, b.detail, b.msg, b.description, b.error_description, b.title])
    if (typeof v === 'string' && v.trim() !== '') return v;
  return typeof b.error === 'string' ? b.error : undefined;
}

function readItem(c: Collector, raw: unknown, field: string | undefined): void {
  if (typeof raw === 'string') return c.item(raw, field);
  const b = bodySchema.safeParse(raw);
  if (!b.success) return;
  const said = firstText(b.data);
  if (said !== undefined) c.item(said, itemField(raw) ?? field);
}

function readList(c: Collector, list: unknown): void {
  if (Array.isArray(list)) {
    for (const x of list.slice(0, MAX_ITEMS)) readItem(c, x, undefined);
    return;
  }
  // {"name": ["is too long"], "cpc": "must be positive"}: a map of field -> messages.
  if (list !== null && typeof list === 'object') {
    for (const [field, v] of Object.entries(list).slice(0, MAX_ITEMS)) {
      for (const x of Array.isArray(v) ? v.slice(0, MAX_ITEMS) : [v]) readItem(c, x, field);
    }
  }
}

function isMerePhrase(title: string, status: number | undefined): boolean {
  const phrase = status === undefined ? undefined : STATUS_CODES[status];
  return phrase !== undefined && title.trim().toLowerCase() === phrase.toLowerCase();
}

function readBody(c: Collector, raw: unknown, opts: ReadOptions, depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (typeof raw === 'string') return c.head(raw);
  if (Array.isArray(raw)) return readList(c, raw);
  const parsed = bodySchema.safeParse(raw);
  if (!parsed.success) return;
  const b = parsed.data;
  // The title names the problem type; one that only repeats the status phrase is kept for last.
  const plainTitle = typeof b.title === 'string' && isMerePhrase(b.title, opts.status);
  if (!plainTitle) c.head(b.title);
  // `message` may be a list of messages ({"statusCode", "message": [...], "error": "Bad Request"},
  // as a common server framework writes validation errors).
  if (Array.isArray(b.message)) readList(c, b.message);
  else c.head(b.message);
  if (Array.isArray(b.detail)) readList(c, b.detail);
  else c.head(b.detail);
  c.head(b.description);
  // RFC 6749: the code, then its description ("invalid_client: Client authentication failed").
  // An `error` that only repeats the status phrase ("Bad Request") is kept for last, as a title is.
  const code = typeof b.error === 'string' ? b.error : undefined;
  const plainError = code !== undefined && isMerePhrase(code, opts.status);
  if (typeof b.error_description === 'string' && b.error_description.trim() !== '') {
    c.head(code !== undefined ? `${code}: ${b.error_description}` : b.error_description);
  } else if (code !== undefined && !plainError) c.head(code);
  if (b.error !== null && typeof b.error === 'object') readBody(c, b.error, opts, depth + 1);
  readList(c, b.errors);
  if (c.heads.length === 0 && c.items.length === 0) {
    if (plainTitle) c.head(b.title);
    else if (plainError) c.head(code);
  }
}

/** "Invalid campaign: cpc ..." but "The data was invalid. cpc ...": no colon after a full stop. */
const after = (text: string) => (/[.:!?]$/.test(text) ? ' ' : ': ');

/**
 * What the service said in `body` (parsed JSON, or the text of a plain-text answer), redacted,
 * joined and bounded; undefined when it said nothing we can show, or when what it said still
 * carries a piece of a secret of the request (secret-fragments.ts). Every server text the app
 * keeps, logs, emits, exports or answers with comes from here or from cleanServerMessage.
 */
export function readServerWords(body: unknown, secrets: readonly (string | undefined)[], opts: ReadOptions = {}): ServerWords | undefined {
  const c = new Collector((raw) => oneLine(redact(raw, secrets, opts)));
  readBody(c, body, opts, 0);
  const head = c.heads.reduce((acc, h) => (acc === '' ? h : `${acc}${after(acc)}${h}`), '');
  const list = c.items.join('; ');
  const text = head !== '' && list !== '' ? `${head}${after(head)}${list}` : head || list;
  if (text === '') return undefined;
  // Words that still carry a piece of a secret (echoed cut, split, re-encoded) are not the
  // service's to show: the caller says it in its own words.
  const kept = [text, ...c.problems.flatMap((p) => [p.field, p.message])].join('\n');
  if (carriesSecret(kept, secrets)) return undefined;
  return { text: bounded(text, MAX_SERVER_TEXT), problems: c.problems };
}
