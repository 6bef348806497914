// The compress variant: answers in a content coding (RFC 9110 8.4), as a server or a proxy in
// front of it may. The sandbox respects the request's Accept-Encoding (RFC 9110 12.5.3: a coding
// the request does not accept, or gives q=0, is not used), so a client that asks for none gets
// the body as it is.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { Reply } from './http';

/** One coding, or two applied in sequence (`deflate,gzip`: deflate first, then gzip). */
export const COMPRESS_CHOICES = ['gzip', 'deflate', 'br', 'deflate,gzip'] as const;
export type CompressChoice = (typeof COMPRESS_CHOICES)[number];

const ENCODERS: Record<string, (b: Buffer) => Buffer> = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };

/** The codings an Accept-Encoding field accepts (q > 0), `*` standing for any. */
function accepted(field: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const part of (field ?? '').split(',')) {
    const [name, ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (name !== '' && (q === undefined || Number(q.slice(2)) > 0)) out.add(name);
  }
  return out;
}

/** The reply with its body in `choice`'s codings, when the request accepts every one of them. */
export function compressed(reply: Reply, choice: CompressChoice, acceptEncoding: string | undefined): Reply {
  if (reply.status === 204 || reply.status === 304) return reply;
  const codings = choice.split(',');
  const ok = accepted(acceptEncoding);
  if (!codings.every((c) => ok.has(c) || ok.has('*'))) return reply;
  if (reply.stream !== undefined) {
    const headers = { ...reply.headers, 'content-encoding': codings.join(', '), vary: 'accept-encoding' };
    // A coded length is known only once all is coded: an announced one (cut_body) means the whole
    // coded body is made first, as before streaming; otherwise it is coded as it goes, chunked.
    if (reply.streamLength === undefined) return { ...reply, headers, streamCodings: codings };
    reply = { ...reply, stream: undefined, streamLength: undefined, body: [...reply.stream()].join('') };
  }
  const body = reply.body === undefined ? Buffer.alloc(0) : Buffer.from(reply.body);
  if (body.length === 0) return reply;
  const coded = codings.reduce<Buffer>((b, c) => ENCODERS[c](b), body);
  return { ...reply, body: coded, headers: { ...reply.headers, 'content-encoding': codings.join(', '), vary: 'accept-encoding' } };
}
