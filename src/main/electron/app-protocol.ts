// The app:// protocol that serves the built renderer in production. Registered as standard and
// secure so the page gets a real origin (fetch, module scripts, CSP 'self' all work) without
// becoming a remote origin; every response carries the CSP, whatever file it is.
import type { Protocol } from 'electron';
import { APP_HOST, APP_SCHEME } from '../web/app-origin';
import { APP_CSP, staticSecurityHeaders } from '../web/csp';
import { readStaticFile } from '../web/static-files';

/** Must run before the app is ready. No bypassCSP, no service workers; CORS-enabled so Vite's
 * `<script type="module" crossorigin>` loads from our own origin (we send no CORS headers to others). */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, bypassCSP: false, allowServiceWorkers: false },
    },
  ]);
}

/** Answers one app:// request from the files under `root`. */
export async function appProtocolResponse(root: string, request: Pick<Request, 'url' | 'method'>): Promise<Response> {
  const headers = staticSecurityHeaders(APP_CSP);
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return new Response('Bad request', { status: 400, headers });
  }
  if (url.host !== APP_HOST) return new Response('Not found', { status: 404, headers });
  if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('Method not allowed', { status: 405, headers });
  const file = await readStaticFile(root, url.pathname);
  if (!file) return new Response('Not found', { status: 404, headers });
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(file.body), {
    status: 200,
    headers: { ...headers, 'content-type': file.contentType },
  });
}

/** After ready: serve `root` on app://desk/. */
export function serveAppProtocol(protocol: Pick<Protocol, 'handle'>, root: string): void {
  protocol.handle(APP_SCHEME, (request) => appProtocolResponse(root, request));
}
