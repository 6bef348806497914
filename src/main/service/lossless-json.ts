// The one JSON reader for the service's answers (DECISIONS client 14). The interface types taskId
// and tagId as numbers with no range, and a create answers the campaign id as a number: JSON.parse
// rounds an integer above 2^53 to the nearest double, so two tasks whose ids differ only beyond
// that become one, and cancelling one cancels the other. Node 20's JSON.parse cannot show a
// number's source text, so this reader rewrites, before JSON.parse, every integer token that is
// not a safe integer into a JSON string of its exact digits ("taskId": 9007199254740993 is read as
// "9007199254740993"). Ids are strings in the client anyway (shared/domain/service-id.ts), and
// the few other numbers the interface shows (money, times, counts) take such a digit string by
// value (`lenientNumberSchema` in shared/domain/service-id.ts).
//
// Cost: a service answer without a run of 16 digits after a character that can precede a number
// (the common case, and every listing that spells ids as strings, as the interface shows) goes
// straight to JSON.parse after one regular-expression test. Otherwise one scan that skips strings
// (indexOf to each closing quote) finds the number tokens. Only what JSON.parse accepts is
// accepted: the rewrite turns a valid JSON integer into a valid JSON string and touches nothing else.

/**
 * A run of 16 digits right after something a JSON number can follow (start, `:`, `,`, `[`,
 * whitespace, or the number's own `-`). Every integer token outside the safe range has one; a
 * match inside a string only costs the scan, never a change.
 */
const MAYBE_BIG_INTEGER = /(?:^|[:,[\s-])\d{16}/;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

const isDigit = (c: number) => c >= ZERO && c <= NINE;
/** The characters a JSON number's fraction and exponent may hold after its integer part. */
const isNumberTail = (c: number) => isDigit(c) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === MINUS;

/** Position after the closing quote of the string whose opening quote is at `open` (text.length when unterminated). */
function afterString(text: string, open: number): number {
  let i = open + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote === -1) return text.length;
    let k = quote - 1;
    while (k > open && text.charCodeAt(k) === BACKSLASH) k--;
    // An even run of backslashes before the quote escapes only themselves.
    if ((quote - 1 - k) % 2 === 0) return quote + 1;
    i = quote + 1;
  }
}

/** The text with every integer token beyond Number.MAX_SAFE_INTEGER (either sign) written as a JSON string of its digits. */
export function quoteBigIntegers(text: string): string {
  let out = '';
  let copied = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = afterString(text, i);
      continue;
    }
    if (c !== MINUS && !isDigit(c)) {
      i++;
      continue;
    }
    const digitsFrom = c === MINUS ? i + 1 : i;
    let end = digitsFrom;
    while (end < n && isDigit(text.charCodeAt(end))) end++;
    const integer = end === n || !isNumberTail(text.charCodeAt(end));
    // JSON's integer grammar: no leading zero (a malformed token is left for JSON.parse to refuse).
    const wellFormed = end > digitsFrom && (end - digitsFrom === 1 || text.charCodeAt(digitsFrom) !== ZERO);
    if (integer && wellFormed && end - digitsFrom >= 16 && !Number.isSafeInteger(Number(text.slice(i, end)))) {
      out += `${text.slice(copied, i)}"${text.slice(i, end)}"`;
      copied = end;
    }
    while (end < n && isNumberTail(text.charCodeAt(end))) end++;
    i = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Digits in a row that an integer token beyond Number.MAX_SAFE_INTEGER has at least (2^53 has 16). */
export const BIG_INTEGER_DIGITS = 16;

/**
 * JSON.parse for the service's answers: the same values, except that an integer JSON.parse would
 * round (beyond 2^53) comes back as the string of its exact digits. Throws SyntaxError as JSON.parse does.
 * `longDigitRun` false: the caller's own scan of the text found no BIG_INTEGER_DIGITS digits in a
 * row outside its strings, so no integer in it can be beyond 2^53 and the text is not searched
 * again (a listing's byte scan sees those bytes anyway: ~55 ms of a 100,000-campaign refresh).
 */
export function parseJsonLossless(text: string, longDigitRun = true): unknown {
  return JSON.parse(longDigitRun && MAYBE_BIG_INTEGER.test(text) ? quoteBigIntegers(text) : text) as unknown;
}
