// When browser mode cannot open its data file, the person is looking at a browser, not a terminal:
// this one-page server tells them what happened and, for a damaged or foreign file, offers the
// fresh start (the file is moved aside, never deleted). Same guards as the app's server: 127.0.0.1
// only, the Host checked, and the POST accepted only from this page: its Origin, which a browser
// always sends with a form's POST (a request without one is another program, which could have read
// the page's token with a GET) and a per-run token. The answer to the start is the app's address
// with the app's own token, so it is given once: the page stops answering when the app has started.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createGuards, newToken, tokenMatches, type Guards } from './guards';
import { readBody } from './body';
import { FAILED_TO_ANSWER } from './respond';
import { listenOnLoopback } from './listen';
import { answerHeaders, sendWhole } from './respond';

export interface ProblemPageOptions {
  message: string;
  canStartFresh: boolean;
  port?: number;
  /** Starts the app fresh; resolves with the address to open next. */
  startFresh(): Promise<string>;
}

export interface ProblemPage {
  origin: string;
  openUrl: string;
  close(): Promise<void>;
}

const HEADERS = answerHeaders(
  'text/html; charset=utf-8',
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http://127.0.0.1:*; frame-ancestors 'none'",
);

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(message: string, form: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Campaign Desk could not start</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:44rem;margin:4rem auto;padding:0 1rem;color:#1d2433}
h1{font-size:1.3rem}p{white-space:pre-wrap;overflow-wrap:anywhere}button{font:inherit;padding:.4rem 1rem}</style></head>
<body><main><h1>Campaign Desk could not open its data</h1><p role="alert">${escapeHtml(message)}</p>${form}</main></body></html>`;
}

export async function startProblemPage(opts: ProblemPageOptions): Promise<ProblemPage> {
  const token = newToken();
  let guards: Guards | null = null;
  let started: Promise<string> | null = null;

  const send = (res: ServerResponse, status: number, html: string, extra: Record<string, string> = {}) =>
    sendWhole(res, status, HEADERS, html, extra);

  async function handle(req: IncomingMessage, res: ServerResponse, g: Guards): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (req.method === 'GET' && path === '/') {
      const form = opts.canStartFresh
        ? `<form method="post" action="/start-fresh"><input type="hidden" name="token" value="${token}"><button type="submit">Start fresh</button></form>`
        : '<p>Close this page once that is done and start Campaign Desk again.</p>';
      return send(res, 200, page(opts.message, form));
    }
    if (req.method === 'POST' && path === '/start-fresh' && opts.canStartFresh) {
      const origin = req.headers.origin;
      if (origin === undefined || !g.originAllowed(origin))
        return send(res, 403, page('Refused: this request did not come from this page.', ''));
      const given = new URLSearchParams((await readBody(req, 4096)).toString('utf8')).get('token') ?? undefined;
      if (!tokenMatches(token, given)) return send(res, 403, page('Refused: the page is out of date. Reload it.', ''));
      // A second click (or reload) while starting waits for the same start. The app answers on a port of
      // its own, which is why form-action allows any port of 127.0.0.1 (it also governs the redirect).
      started ??= opts.startFresh();
      try {
        const location = await started;
        // Whoever asks after this answer (the same click, a reload, another program) gets nothing.
        res.once('finish', () => void stop());
        return send(res, 303, '', { location });
      } catch (e) {
        started = null;
        return send(res, 500, page(e instanceof Error ? e.message : 'Starting fresh failed.', ''));
      }
    }
    send(res, 404, page('Not found.', ''));
  }

  const server = createServer((req, res) => {
    const g = guards;
    if (!g || !g.hostAllowed(req.headers.host)) {
      res.writeHead(403).end();
      req.resume();
      return;
    }
    handle(req, res, g).catch(() => {
      if (!res.headersSent) send(res, 500, page(FAILED_TO_ANSWER, ''));
      else res.destroy();
    });
  });
  let stopped: Promise<void> | null = null;
  const stop = (): Promise<void> =>
    (stopped ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
      // The answer of the click that started the app is still being written: let it finish.
      setImmediate(() => server.closeAllConnections());
    }));
  const port = await listenOnLoopback(server, opts.port);
  guards = createGuards(port);
  const origin = `http://127.0.0.1:${port}`;
  return { origin, openUrl: `${origin}/`, close: stop };
}
