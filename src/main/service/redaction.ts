// Removes every spelling of a secret from text a server sent back. A server that echoes our
// request may write the secret raw, as encodeURIComponent or a form body writes it (`+` or `%20`
// for a space, `!'()~*` escaped or not, hex digits in either case), JSON-escaped, HTML-escaped, or
// as the base64 of an HTTP Basic header. Rather than list the spellings (there are 2^n of them for
// a secret with n such characters), each character of the secret is matched in any of its
// spellings, so every mix of them is caught. This runs on the whole text before anything cuts,
// stores or sends it: a cut first could leave a prefix of the secret behind.

export const REDACTED = '[redacted]';

/** Shorter values are left alone: they would blank ordinary words of the message. */
const MIN_SECRET_LENGTH = 4;

export interface RedactOptions {
  /** With it, the base64 forms of an HTTP Basic header (client_id:secret) are removed too. */
  clientId?: string;
}

/** One character of a secret (a code point) and the bytes its percent-encoding spells. */
interface SecretChar {
  char: string;
  utf8: readonly number[];
  utf16: readonly number[];
}

const JSON_SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '/': '\\/',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

const HTML_NAMED: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function secretChars(secret: string): SecretChar[] {
  return Array.from(secret, (char) => ({
    char,
    utf8: [...Buffer.from(char, 'utf8')],
    utf16: Array.from({ length: char.length }, (_, i) => char.charCodeAt(i)),
  }));
}

function hexValue(text: string, at: number, digits: number): number | undefined {
  if (at + digits > text.length) return undefined;
  let v = 0;
  for (let i = 0; i < digits; i++) {
    const d = Number.parseInt(text[at + i], 16);
    if (Number.isNaN(d)) return undefined;
    v = v * 16 + d;
  }
  return v;
}

/** `%HH` for each byte, hex in any case. */
function percentEnd(text: string, at: number, bytes: readonly number[]): number | undefined {
  let p = at;
  for (const b of bytes) {
    if (text[p] !== '%' || hexValue(text, p + 1, 2) !== b) return undefined;
    p += 3;
  }
  return p;
}

/** `\uHHHH` for each UTF-16 unit, hex in any case. */
function jsonUnicodeEnd(text: string, at: number, units: readonly number[]): number | undefined {
  let p = at;
  for (const u of units) {
    if (text[p] !== '\\' || text[p + 1] !== 'u' || hexValue(text, p + 2, 4) !== u) return undefined;
    p += 6;
  }
  return p;
}

/** `&#DDD;` or `&#xHH;`. */
function htmlNumericEnd(text: string, at: number, codePoint: number): number | undefined {
  if (text[at] !== '&' || text[at + 1] !== '#') return undefined;
  const semi = text.indexOf(';', at + 2);
  if (semi < 0 || semi - at > 12) return undefined;
  const body = text.slice(at + 2, semi);
  const value = /^[xX][0-9a-fA-F]+$/.test(body) ? Number.parseInt(body.slice(1), 16) : /^\d+$/.test(body) ? Number(body) : NaN;
  return value === codePoint ? semi + 1 : undefined;
}

/** Every position where one spelling of `c` starting at `at` ends. */
function spellingEnds(text: string, at: number, c: SecretChar, into: Set<number>): void {
  if (text.startsWith(c.char, at)) into.add(at + c.char.length);
  if (c.char === ' ' && text[at] === '+') into.add(at + 1);
  const ends = [percentEnd(text, at, c.utf8), jsonUnicodeEnd(text, at, c.utf16), htmlNumericEnd(text, at, c.char.codePointAt(0) ?? -1)];
  for (const e of ends) if (e !== undefined) into.add(e);
  const short = JSON_SHORT_ESCAPES[c.char];
  if (short !== undefined && text.startsWith(short, at)) into.add(at + short.length);
  const named = HTML_NAMED[c.char];
  if (named !== undefined && text.startsWith(named, at)) into.add(at + named.length);
}

/** Characters a spelling of `c` can start with: a cheap test before the full match. */
function firstChars(c: SecretChar): Set<string> {
  return new Set([c.char[0], '%', '\\', '&', ...(c.char === ' ' ? ['+'] : [])]);
}

/**
 * Where a spelling of the whole secret that starts at `at` ends (the longest one), or undefined.
 * The set of positions reached so far is carried character by character, so a text that could be
 * read two ways (`%25` is a `%` or an escaped one) is read both ways without backtracking.
 */
function matchEnd(text: string, at: number, chars: readonly SecretChar[]): number | undefined {
  let reached = new Set([at]);
  for (const c of chars) {
    const next = new Set<number>();
    for (const p of reached) spellingEnds(text, p, c, next);
    if (next.size === 0) return undefined;
    reached = next;
  }
  return Math.max(...reached);
}

function redactSpellings(text: string, secret: string): string {
  const chars = secretChars(secret);
  const starts = firstChars(chars[0]);
  let out = '';
  let copiedTo = 0;
  let i = 0;
  while (i < text.length) {
    const end = starts.has(text[i]) ? matchEnd(text, i, chars) : undefined;
    if (end === undefined) {
      i++;
      continue;
    }
    out += text.slice(copiedTo, i) + REDACTED;
    copiedTo = end;
    i = end;
  }
  return copiedTo === 0 ? text : out + text.slice(copiedTo);
}

/** application/x-www-form-urlencoded as URLSearchParams writes it (what RFC 6749 2.3.1 asks for Basic). */
const formEncode = (s: string) => new URLSearchParams({ v: s }).toString().slice(2);

/** The base64 (and base64url) spellings an HTTP Basic header could carry the secret in. */
function basicForms(secret: string, clientId: string | undefined): string[] {
  const pairs = [secret];
  if (clientId !== undefined) {
    pairs.push(
      `${clientId}:${secret}`,
      `${formEncode(clientId)}:${formEncode(secret)}`,
      `${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`,
    );
  }
  return [...new Set(pairs)].flatMap((p) => {
    const b64 = Buffer.from(p, 'utf8').toString('base64');
    const url = b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    return [b64, b64.replace(/=+$/, ''), url];
  });
}

/** `text` with every spelling of every secret replaced by [redacted]. */
export function redact(text: string, secrets: readonly (string | undefined)[], opts: RedactOptions = {}): string {
  let out = text;
  for (const s of secrets) {
    if (s === undefined || s.length < MIN_SECRET_LENGTH) continue;
    out = redactSpellings(out, s);
    for (const form of basicForms(s, opts.clientId)) if (form.length >= MIN_SECRET_LENGTH) out = out.split(form).join(REDACTED);
  }
  return out;
}
