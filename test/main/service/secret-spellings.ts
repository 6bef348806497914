// Every way a server could write a secret back to us: the needles the leak tests scan for. Made
// independently of src/main/service/redaction.ts (which matches spellings character by character)
// so that a spelling it misses shows up here as a leak.

const lowerHex = (s: string) => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
const form = (s: string) => new URLSearchParams({ v: s }).toString().slice(2);
/** RFC 3986 strict: encodeURIComponent plus the five characters it leaves alone. */
const strict = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const jsonInner = (s: string) => JSON.stringify(s).slice(1, -1);
const jsonAscii = (s: string) => jsonInner(s).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const html = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
const base64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const base64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

/** [how it is spelled, the spelling], each distinct. */
export function secretSpellings(secret: string, clientId?: string): [string, string][] {
  const out: [string, string][] = [
    ['raw', secret],
    ['encodeURIComponent', encodeURIComponent(secret)],
    ['encodeURIComponent, lower-case hex', lowerHex(encodeURIComponent(secret))],
    ['form body (URLSearchParams)', form(secret)],
    ['form body, lower-case hex', lowerHex(form(secret))],
    ['form body with %20 for space', form(secret).replace(/\+/g, '%20')],
    ['RFC 3986 strict', strict(secret)],
    ['RFC 3986 strict, lower-case hex', lowerHex(strict(secret))],
    ['JSON-escaped', jsonInner(secret)],
    ['JSON-escaped, ASCII only', jsonAscii(secret)],
    ['HTML-escaped', html(secret)],
    ['base64', base64(secret)],
  ];
  if (clientId !== undefined) {
    out.push(
      ['HTTP Basic (id:secret as they are)', base64(`${clientId}:${secret}`)],
      ['HTTP Basic (form-encoded, RFC 6749 2.3.1)', base64(`${form(clientId)}:${form(secret)}`)],
      ['HTTP Basic, base64url', base64url(`${form(clientId)}:${form(secret)}`)],
    );
  }
  const seen = new Set<string>();
  return out.filter(([, s]) => !seen.has(s) && seen.add(s));
}
