// Content codings of an answer (RFC 9110 8.4): a server may compress a body with any coding the
// request's Accept-Encoding names, several in sequence (listed in the order they were applied).
// The transport asks only for what it decodes here, decodes before anyone reads a byte, and counts
// the body size limit on the decoded bytes (a small compressed body may expand a thousandfold).
import { Readable, pipeline, type Duplex, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** What the transport sends as Accept-Encoding: exactly the codings `decoderFor` knows. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: createGunzip,
  // "x-gzip" is gzip (RFC 9110 8.4.1.3).
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** A coding no decoder is known for: the answer cannot be read. */
export class UnknownCodingError extends Error {
  constructor(readonly coding: string) {
    super(`it is in a content coding this app cannot read (${coding})`);
    this.name = 'UnknownCodingError';
  }
}

/**
 * The codings of a Content-Encoding header in the order they must be undone (the last applied
 * first), `identity` left out. Throws UnknownCodingError for a coding without a decoder.
 */
export function codingsToUndo(header: string | string[] | undefined): string[] {
  const listed = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  for (const c of listed) if (!Object.hasOwn(DECODERS, c)) throw new UnknownCodingError(c);
  return listed.reverse();
}

/**
 * `raw` decoded by `codings` (from codingsToUndo) as a stream. A decoding failure destroys the
 * result with the error `undecodable` makes of its reason; a failure of `raw` itself (the network)
 * is passed on as it is. Destroying the result stops `raw`.
 */
export function decodedStream(
  raw: Readable,
  codings: readonly string[],
  highWaterMark: number,
  undecodable: (reason: string) => Error,
): Readable {
  if (codings.length === 0) return raw;
  const decoders = codings.map((c) => DECODERS[c]());
  let rawFailed = false;
  raw.once('error', () => (rawFailed = true));
  const last = decoders[decoders.length - 1];
  const out = new Readable({
    highWaterMark,
    read: () => last.resume(),
    destroy: (err, cb) => {
      raw.destroy();
      cb(err);
    },
  });
  last.on('data', (chunk: Buffer) => {
    if (!out.push(chunk)) last.pause();
  });
  pipeline([raw, ...decoders] as [Readable, ...Duplex[]], (err) => {
    if (!err) out.push(null);
    else if (rawFailed) out.destroy(err);
    else out.destroy(undecodable(`its ${[...codings].reverse().join(', ')} coding could not be decoded (${err.message})`));
  });
  return out;
}

/**
 * A whole body decoded, at most `max` decoded bytes: resolves null when it decodes to more (the
 * caller's size limit), rejects with `undecodable`'s error when it does not decode.
 */
export async function decodeWhole(
  body: Buffer,
  codings: readonly string[],
  max: number,
  undecodable: (reason: string) => Error,
): Promise<Buffer | null> {
  if (codings.length === 0 || body.length === 0) return body;
  const decoded = decodedStream(Readable.from([body]), codings, 64 * 1024, undecodable);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of decoded as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      decoded.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
