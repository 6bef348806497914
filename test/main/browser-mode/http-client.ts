// A raw HTTP client for the browser-mode tests: node:http lets a test send any Host, Origin or
// Content-Type (fetch would refuse to forge some of them, as a browser would).
import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): unknown;
}

export function rawRequest(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: { host: `127.0.0.1:${port}`, ...opts.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

/** A well-formed API call: right host, own origin, token, JSON. Each part can be overridden. */
export function apiCall(port: number, token: string, channel: string, body: unknown, headers: Record<string, string> = {}) {
  return rawRequest(port, {
    method: 'POST',
    path: `/api/${encodeURIComponent(channel)}`,
    headers: { origin: `http://127.0.0.1:${port}`, 'x-desk-token': token, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
