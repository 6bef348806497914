// Whether text still carries a piece of a secret, whatever a server did to it. redact() removes the
// spellings of a whole secret it can foresee; a server may also echo a secret cut short, split,
// upper-cased, or wrapped in encodings nested in any order (URL, JSON, HTML, base64, twice over).
// Rather than foresee those, this undoes every encoding it recognises, again and again, and looks
// for any run of FRAGMENT characters of a secret, case folded. Text that fails is never kept or
// shown: the caller says it in words of its own (one rule, in readServerWords and its callers).

/** The shortest run of a secret counted as a piece of it (shorter runs occur in ordinary words). */
export const FRAGMENT = 8;
/** Rounds of decoding: each may undo one more layer of encoding. */
const MAX_ROUNDS = 5;
/** Readings of one text kept at most, so a hostile body cannot make the check slow. */
const MAX_READINGS = 64;
/** Longest text checked whole; a longer one is judged by its beginning and is not trusted either. */
const MAX_TEXT = 256 * 1024;

const percentRun = /(?:%[0-9a-fA-F]{2})+/g;
const jsonEscape = /\\(u[0-9a-fA-F]{4}|["\\/bfnrt])/g;
const htmlEntity = /&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|amp|lt|gt|quot|apos);/gi;
/** Eleven characters are the shortest base64 of FRAGMENT bytes. */
const base64Run = /[A-Za-z0-9+/_-]{11,}={0,2}/g;

const JSON_SHORT: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const HTML_NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function codePoint(n: number): string {
  return n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : '';
}

function percentDecode(text: string): string {
  return text.replace(percentRun, (run) => Buffer.from(run.replaceAll('%', ''), 'hex').toString('utf8'));
}

function jsonUnescape(text: string): string {
  return text.replace(jsonEscape, (_, e: string) => (e[0] === 'u' ? String.fromCharCode(parseInt(e.slice(1), 16)) : JSON_SHORT[e]));
}

function htmlUnescape(text: string): string {
  return text.replace(htmlEntity, (_, e: string) => {
    if (e[0] !== '#') return HTML_NAMED[e.toLowerCase()];
    return codePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
  });
}

/** Each base64 (or base64url) run read as text, from each of the four alignments a cut may leave. */
function base64Readings(text: string): string[] {
  const runs = text.match(base64Run) ?? [];
  const out: string[] = [];
  for (const run of runs.slice(0, 16)) {
    const bare = run.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
    for (let shift = 0; shift < 4; shift++) out.push(Buffer.from(bare.slice(shift), 'base64').toString('latin1'));
  }
  return out;
}

/** The text and every reading of it that undoing encodings gives, bounded. */
function readings(text: string): string[] {
  const seen = new Set([text]);
  let layer = [text];
  for (let round = 0; round < MAX_ROUNDS && layer.length > 0 && seen.size < MAX_READINGS; round++) {
    const next: string[] = [];
    for (const t of layer) {
      for (const r of [percentDecode(t), percentDecode(t.replaceAll('+', ' ')), jsonUnescape(t), htmlUnescape(t), ...base64Readings(t)]) {
        if (seen.size >= MAX_READINGS) break;
        if (!seen.has(r)) {
          seen.add(r);
          next.push(r);
        }
      }
    }
    layer = next;
  }
  return [...seen];
}

/** Shorter secrets are not looked for (as in redact): they would match ordinary words. */
const MIN_SECRET = 4;

/** The runs of FRAGMENT characters of each secret, case folded (a shorter secret whole). */
function fragments(secrets: readonly (string | undefined)[]): string[] {
  const out = new Set<string>();
  for (const s of secrets) {
    if (s === undefined || s.length < MIN_SECRET) continue;
    const folded = s.toLowerCase();
    if (folded.length <= FRAGMENT) out.add(folded);
    else for (let i = 0; i + FRAGMENT <= folded.length; i++) out.add(folded.slice(i, i + FRAGMENT));
  }
  return [...out];
}

/** Whether `text`, read in every way it could be encoded, holds a piece of any of `secrets`. */
export function carriesSecret(text: string, secrets: readonly (string | undefined)[]): boolean {
  const pieces = fragments(secrets);
  if (pieces.length === 0) return false;
  if (text.length > MAX_TEXT) return true;
  return readings(text).some((r) => {
    const folded = r.toLowerCase();
    return pieces.some((p) => folded.includes(p));
  });
}
