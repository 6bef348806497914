// Authorization-code sign-in for a native app (RFC 8252): the system browser shows the service's
// login page and returns the code to a loopback listener that exists only for this sign-in. The
// listener answers exactly one callback carrying our random `state`, then closes.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { systemClock, type Clock } from '../clock/clock';
import { cleanServerMessage, ServiceError } from './errors';
import { HttpTransport } from './http-transport';
import { exchangeAuthorizationCode, joinUrl, type TokenSet } from './oauth';

export interface SignInOptions {
  authUrl: string;
  baseUrl: string;
  clientId: string;
  getSecret(): Promise<string>;
  /** Must be the registered one, e.g. http://127.0.0.1:53682/callback: its port is listened on. */
  redirectUri: string;
  /** Opens the URL in the system browser (shell.openExternal in the app). */
  openBrowser(url: string): Promise<void>;
  signal?: AbortSignal;
  /** How long the person has to sign in (default 5 minutes). */
  timeoutMs?: number;
  transport?: HttpTransport;
  clock?: Clock;
}

export interface AuthorizationCodeSession {
  flow: 'authorization_code';
  clientId: string;
  tokens: TokenSet;
}

const LOOPBACK_HOSTS: Record<string, string> = { '127.0.0.1': '127.0.0.1', '[::1]': '::1', localhost: '127.0.0.1' };

function page(title: string, text: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body></html>`;
}

function answer(res: ServerResponse, status: number, title: string, text: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    connection: 'close',
  });
  res.end(page(title, text));
}

function sameState(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Resolves with an authorization-code session whose tokens live in memory only. */
export async function signInWithBrowser(opts: SignInOptions): Promise<AuthorizationCodeSession> {
  const redirect = new URL(opts.redirectUri);
  const host = LOOPBACK_HOSTS[redirect.hostname];
  if (redirect.protocol !== 'http:' || host === undefined || redirect.port === '') {
    throw new ServiceError({
      kind: 'validation',
      requestWritten: false,
      message: 'The redirect URI must be a loopback address with a port, such as http://127.0.0.1:53682/callback.',
    });
  }
  const state = randomBytes(32).toString('base64url');
  const timeoutMs = opts.timeoutMs ?? 5 * 60_000;
  let settle: { resolve: (code: string) => void; reject: (e: ServiceError) => void } | undefined;
  const codeArrived = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  let accepted = false;

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', opts.redirectUri);
    if (req.method !== 'GET' || url.pathname !== redirect.pathname) {
      answer(res, 404, 'Not found', 'Campaign Desk is only waiting for its sign-in callback here.');
      return;
    }
    if (accepted) {
      answer(res, 409, 'Already signed in', 'This sign-in has already been completed. You can close this window.');
      return;
    }
    const got = url.searchParams.get('state');
    // A state that is not ours (an old tab or another site) is refused, and we keep waiting for
    // the real one. A callback without any state is the interface's own form (spec 4.3 redirects
    // to `<redirect_uri>?code=...`, and a server that does not know `state` ignores it, RFC 6749
    // 3.1): refusing it would leave every sign-in with such a server waiting until it times out.
    // It must at least carry a code or an error to be an answer at all.
    const stateless = got === null && (url.searchParams.has('code') || url.searchParams.has('error'));
    if (!stateless && (got === null || !sameState(got, state))) {
      answer(res, 400, 'Unknown sign-in', 'This sign-in was not started by Campaign Desk just now. Start it again from the app.');
      return;
    }
    accepted = true;
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error !== null || code === null || code === '') {
      answer(res, 400, 'Sign-in not completed', 'Return to Campaign Desk to try again. You can close this window.');
      const said = cleanServerMessage(url.searchParams.get('error_description') ?? error ?? 'no code', []);
      settle?.reject(
        new ServiceError({
          kind: error === 'access_denied' ? 'forbidden' : 'unauthorized',
          reason: 'sign_in_required',
          requestWritten: false,
          message: `The sign-in was not completed in the browser (${said}). Sign in again.`,
        }),
      );
      return;
    }
    answer(res, 200, 'Signed in', 'You can close this window and return to Campaign Desk.');
    settle?.resolve(code);
  };

  const server = createServer(onRequest);
  try {
    await listen(server, Number(redirect.port), host);
  } catch (e) {
    const inUse = (e as { code?: unknown }).code === 'EADDRINUSE';
    throw new ServiceError({
      kind: 'network',
      requestWritten: false,
      message: inUse
        ? `Port ${redirect.port} is in use by another program, so the sign-in cannot receive its answer. Close that program and try again.`
        : `The sign-in could not listen on ${redirect.host}. Try again.`,
    });
  }

  const timer = (opts.clock ?? systemClock).setTimer(() => {
    settle?.reject(
      new ServiceError({
        kind: 'timeout',
        requestWritten: false,
        message: `The sign-in was not completed within ${Math.round(timeoutMs / 60_000) || 1} minutes. Start it again.`,
      }),
    );
  }, timeoutMs);
  const onAbort = () =>
    settle?.reject(new ServiceError({ kind: 'cancelled', requestWritten: false, message: 'The sign-in was cancelled.' }));
  if (opts.signal?.aborted) onAbort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  const authorize = new URL(joinUrl(opts.authUrl, '/authentication/oauth/authorize/'));
  authorize.searchParams.set('client_id', opts.clientId);
  authorize.searchParams.set('redirect_uri', opts.redirectUri);
  authorize.searchParams.set('response_type', 'code');
  authorize.searchParams.set('state', state);

  let code: string;
  try {
    const opened = opts.openBrowser(authorize.toString()).catch(() => {
      settle?.reject(
        new ServiceError({ kind: 'network', requestWritten: false, message: 'The browser could not be opened for the sign-in.' }),
      );
    });
    code = await codeArrived;
    await opened;
  } finally {
    timer.cancel();
    opts.signal?.removeEventListener('abort', onAbort);
    server.close();
    server.closeAllConnections();
  }

  const transport = opts.transport ?? new HttpTransport();
  try {
    const tokens = await exchangeAuthorizationCode({
      transport,
      clock: opts.clock ?? systemClock,
      baseUrl: opts.baseUrl,
      clientId: opts.clientId,
      secret: await opts.getSecret(),
      code,
      redirectUri: opts.redirectUri,
      signal: opts.signal,
    });
    return { flow: 'authorization_code', clientId: opts.clientId, tokens };
  } finally {
    if (!opts.transport) await transport.close();
  }
}
