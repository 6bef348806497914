// Image checks for the push composer, done here rather than in the window: the window never
// fetches a typed address from a third-party host (that would tell the host who is composing, and
// load whatever it serves into the app). The main process fetches it once, with a timeout and a
// size limit, reads its format and size from the bytes, and hands the window a data: URL to show.
// It reaches public addresses only (public-address.ts), judged on the address each hop's host
// resolves to and again after every redirect, so a check cannot be pointed at this computer or the
// local network; the person's own service addresses (a local sandbox's image host) are the exception.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import type { ImageCheck } from '../../shared/ipc/contract';
import { imageHints, type ImageRole } from '../../shared/domain/push';
import { imageFacts, MIME_OF } from './image-size';
import { isPublicAddress } from './public-address';

export interface ImageCheckOptions {
  /** Bytes read at most; a larger image is reported as too large to check (and to send). */
  maxBytes: number;
  /** The whole fetch, headers and body, must finish within this. */
  timeoutMs: number;
  /**
   * Origins that may be reached whatever their address: the connections' own service addresses,
   * which the person typed (the demo sandbox serves its images from 127.0.0.1).
   */
  trustedOrigins?: ReadonlySet<string>;
}

export const IMAGE_CHECK_DEFAULTS: ImageCheckOptions = { maxBytes: 2 * 1024 * 1024, timeoutMs: 8000 };

/** Redirects followed at most, as a browser would follow a few. */
const MAX_REDIRECTS = 3;

const NOT_PUBLIC = 'Not checked: the address is on this computer or a private network';

class NotPublicError extends Error {
  readonly code = 'ENOTPUBLIC';
}

/** A DNS look-up that fails unless every address the name resolves to is public. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const bad = addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address));
    if (bad) return callback(new NotPublicError(NOT_PUBLIC), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};

let publicAgent: Dispatcher | null = null;
let trustedAgent: Dispatcher | null = null;
const agentFor = (trusted: boolean): Dispatcher =>
  trusted
    ? (trustedAgent ??= new Agent({ connections: 4 }))
    : (publicAgent ??= new Agent({ connections: 4, connect: { lookup: publicOnlyLookup } }));

function failed(url: string, role: ImageRole, error: string, status: number | null = null): ImageCheck {
  return {
    url,
    reachable: false,
    status,
    contentType: null,
    format: null,
    bytes: null,
    width: null,
    height: null,
    dataUrl: null,
    error,
    hints: imageHints({ url }, role),
  };
}

export async function checkImage(url: string, role: ImageRole, opts: ImageCheckOptions = IMAGE_CHECK_DEFAULTS): Promise<ImageCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return failed(url, role, 'Not a valid address');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return failed(url, role, 'Only http and https addresses can be checked');
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), opts.timeoutMs);
  try {
    let res: Dispatcher.ResponseData | null = null;
    for (let hop = 0; ; hop++) {
      const trusted = opts.trustedOrigins?.has(parsed.origin) === true;
      // An address written as an IP is never looked up, so it is judged here.
      const literal = parsed.hostname.replace(/^\[|\]$/g, '');
      if (!trusted && isIP(literal) !== 0 && !isPublicAddress(literal)) return failed(url, role, NOT_PUBLIC);
      res = await request(parsed, {
        method: 'GET',
        dispatcher: agentFor(trusted),
        signal: abort.signal,
        headers: { accept: 'image/webp,image/png,image/jpeg,image/*;q=0.8' },
      });
      const location = res.headers.location;
      if (![301, 302, 303, 307, 308].includes(res.statusCode) || typeof location !== 'string') break;
      await res.body.dump();
      if (hop >= MAX_REDIRECTS) return failed(url, role, `The image host redirected more than ${MAX_REDIRECTS} times`, res.statusCode);
      const next = new URL(location, parsed);
      if (next.protocol !== 'https:' && next.protocol !== 'http:')
        return failed(url, role, 'The image host redirected to an address that is not http or https', res.statusCode);
      parsed = next;
    }
    if (res.statusCode < 200 || res.statusCode > 299) {
      await res.body.dump();
      return failed(url, role, `The image host answered ${res.statusCode}`, res.statusCode);
    }
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > opts.maxBytes) {
      await res.body.dump();
      return failed(
        url,
        role,
        `Too large to check: ${Math.round(declared / 1024)} KB (images under 200 KB are recommended)`,
        res.statusCode,
      );
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      const b = chunk as Buffer;
      size += b.length;
      if (size > opts.maxBytes) {
        abort.abort();
        return failed(
          url,
          role,
          `Too large to check: over ${Math.round(opts.maxBytes / 1024)} KB (images under 200 KB are recommended)`,
          res.statusCode,
        );
      }
      chunks.push(b);
    }
    const bytes = Buffer.concat(chunks);
    const facts = imageFacts(bytes);
    const type = res.headers['content-type'];
    const contentType = typeof type === 'string' ? type : null;
    // Shown only when the bytes are an image we recognise: the declared type is not trusted.
    const dataUrl = facts.format === 'other' ? null : `data:${MIME_OF[facts.format]};base64,${bytes.toString('base64')}`;
    return {
      url,
      reachable: true,
      status: res.statusCode,
      contentType,
      format: facts.format,
      bytes: bytes.length,
      width: facts.width,
      height: facts.height,
      dataUrl,
      error: facts.format === 'other' ? 'Not an image a browser can show (not JPEG, PNG, WebP or GIF)' : null,
      hints: imageHints({ url, format: facts.format, bytes: bytes.length, width: facts.width, height: facts.height }, role),
    };
  } catch (e) {
    if (abort.signal.aborted)
      return failed(
        url,
        role,
        `No answer within ${opts.timeoutMs < 1000 ? `${opts.timeoutMs} ms` : `${Math.round(opts.timeoutMs / 1000)} s`}`,
      );
    if (e instanceof NotPublicError || (e as { cause?: unknown }).cause instanceof NotPublicError) return failed(url, role, NOT_PUBLIC);
    const code = (e as { code?: string }).code;
    return failed(url, role, `Not reachable${code ? ` (${code})` : ''}`);
  } finally {
    clearTimeout(timer);
  }
}
