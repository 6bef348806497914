// How the service stores what a create or a push sent, under the variants that let it store the
// same content in another form (DECISIONS client 16): text Unicode-normalised with its whitespace
// collapsed (normalise_text), URLs and tracking codes re-serialised (reencode_urls). A client that
// looks for its own lost write must recognise it in either form.
import type { CampaignCreate } from '../shared/domain/campaign';
import type { PushEvent } from '../shared/domain/push';
import type { Choices } from './choices';
import type { Variants } from './variants';

/** NFC or NFKC, whitespace runs (any Unicode space) as one space, no outer whitespace. */
export function normaliseText(s: string, form: 'nfc' | 'nfkc'): string {
  return s
    .normalize(form === 'nfkc' ? 'NFKC' : 'NFC')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** A query component decoded (`+` is a space in a form-encoded query), or as it is when it is not valid percent-encoding. */
function decodeComponent(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** Percent-encoded with lower-case hex, spaces as %20, unreserved characters as themselves. */
function encodeComponent(s: string): string {
  return encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
}

/** `k=v&k2=v2` with the same parameters in another order (a per-request choice) and another encoding. */
export function reencodeQuery(query: string, choices: Choices): string {
  const pairs = query
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      return eq < 0
        ? encodeComponent(decodeComponent(p))
        : `${encodeComponent(decodeComponent(p.slice(0, eq)))}=${encodeComponent(decodeComponent(p.slice(eq + 1)))}`;
    });
  // Fisher-Yates from the seeded choices; when that leaves the order as it was, it is reversed.
  const out = [...pairs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = choices.int(0, i);
    [out[i], out[j]] = [out[j], out[i]];
  }
  if (out.length > 1 && out.every((p, i) => p === pairs[i])) out.reverse();
  return out.join('&');
}

/** A URL (or a bare query string) with its query re-serialised; the rest is kept as sent. */
export function reencodeUrl(url: string, choices: Choices): string {
  const hash = url.indexOf('#');
  const fragment = hash < 0 ? '' : url.slice(hash);
  const head = hash < 0 ? url : url.slice(0, hash);
  const q = head.indexOf('?');
  // A tracking code is "query-string style" (spec 2.1): a string without '?' or '/' is all query.
  if (q < 0) return /^[^/:]*=/.test(head) ? reencodeQuery(head, choices) + fragment : url;
  return `${head.slice(0, q + 1)}${reencodeQuery(head.slice(q + 1), choices)}${fragment}`;
}

/** The create as the service stores it under the variants. */
export function storedCreate(body: CampaignCreate, variants: Variants, choices: Choices): CampaignCreate {
  const form = variants.normalise_text;
  const out: CampaignCreate = { ...body };
  if (form) {
    out.name = normaliseText(body.name, form);
    if (body.branding_text !== undefined && body.branding_text !== null) out.branding_text = normaliseText(body.branding_text, form);
  }
  if (variants.reencode_urls && typeof body.tracking_code === 'string') out.tracking_code = reencodeUrl(body.tracking_code, choices);
  return out;
}

/** A push event as the service stores its task's text and url under the variants. */
export function storedEvent(ev: PushEvent, variants: Variants, choices: Choices): PushEvent {
  const form = variants.normalise_text;
  const out: PushEvent = { ...ev };
  if (form) {
    for (const key of ['title', 'performer', 'itemDescription'] as const) {
      const v = ev[key];
      if (typeof v === 'string') out[key] = normaliseText(v, form);
    }
  }
  if (variants.reencode_urls && typeof ev.url === 'string') out.url = reencodeUrl(ev.url, choices);
  return out;
}
