// Reading a request body with a hard size limit: the limit is checked against Content-Length up
// front and against the bytes actually received, so a lying or chunked request cannot exceed it.
import type { IncomingMessage } from 'node:http';

export class BodyTooLarge extends Error {
  constructor() {
    super('request body too large');
    this.name = 'BodyTooLarge';
  }
}

export function declaredTooLarge(req: IncomingMessage, limit: number): boolean {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > limit;
}

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** application/json, with an optional charset parameter; nothing else (no text/plain "simple" requests). */
export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const [type, ...params] = value.split(';').map((s) => s.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return params.every((p) => p === '' || p === 'charset=utf-8');
}
