// Image checks for the push composer, done here rather than in the window: the window never
// fetches a typed address from a third-party host (that would tell the host who is composing, and
// load whatever it serves into the app). The main process fetches it once, with a timeout and a
// size limit, reads its format and size from the bytes, and hands the window a data: URL to show.
import { Agent, interceptors, request, type Dispatcher } from 'undici';
import type { ImageCheck } from '../../shared/ipc/contract';
import { imageHints, type ImageRole } from '../../shared/domain/push';
import { imageFacts, MIME_OF } from './image-size';

export interface ImageCheckOptions {
  /** Bytes read at most; a larger image is reported as too large to check (and to send). */
  maxBytes: number;
  /** The whole fetch, headers and body, must finish within this. */
  timeoutMs: number;
}

export const IMAGE_CHECK_DEFAULTS: ImageCheckOptions = { maxBytes: 2 * 1024 * 1024, timeoutMs: 8000 };

let shared: Dispatcher | null = null;
/** One agent for every check, following at most 3 redirects as a browser would. */
function dispatcher(): Dispatcher {
  shared ??= new Agent({ connections: 4 }).compose(interceptors.redirect({ maxRedirections: 3 }));
  return shared;
}

function failed(url: string, role: ImageRole, error: string, status: number | null = null): ImageCheck {
  return { url, reachable: false, status, contentType: null, format: null, bytes: null, width: null, height: null, dataUrl: null, error, hints: imageHints({ url }, role) };
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
    const res = await request(parsed, { method: 'GET', dispatcher: dispatcher(), signal: abort.signal, headers: { accept: 'image/webp,image/png,image/jpeg,image/*;q=0.8' } });
    if (res.statusCode < 200 || res.statusCode > 299) {
      await res.body.dump();
      return failed(url, role, `The image host answered ${res.statusCode}`, res.statusCode);
    }
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > opts.maxBytes) {
      await res.body.dump();
      return failed(url, role, `Too large to check: ${Math.round(declared / 1024)} KB (images under 200 KB are recommended)`, res.statusCode);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      const b = chunk as Buffer;
      size += b.length;
      if (size > opts.maxBytes) {
        abort.abort();
        return failed(url, role, `Too large to check: over ${Math.round(opts.maxBytes / 1024)} KB (images under 200 KB are recommended)`, res.statusCode);
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
    if (abort.signal.aborted) return failed(url, role, `No answer within ${opts.timeoutMs < 1000 ? `${opts.timeoutMs} ms` : `${Math.round(opts.timeoutMs / 1000)} s`}`);
    const code = (e as { code?: string }).code;
    return failed(url, role, `Not reachable${code ? ` (${code})` : ''}`);
  } finally {
    clearTimeout(timer);
  }
}
