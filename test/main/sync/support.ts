// Shared by the outbox's reconciliation tests: what the sandbox saw (its request log and state),
// the service variants a test plays on top of the run's own, and a small proxy that makes the
// service answer the way another legal service would where the sandbox has no variant for it.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { OutboxItem } from '../../../src/shared/ipc/contract';
import type { Variants } from '../../../src/sandbox/index';
import { controlHeaders, type SandboxRef } from '../../helpers/control';
import { testVariants } from '../../helpers/variants';
import { campaignPayload, control, until, type Env } from '../app/env';

export const P = 'sandbox-demo';

export interface LoggedRequest {
  seq: number;
  /** The service's clock when it was handled, ms. */
  time: number;
  method: string;
  path: string;
  account: string | null;
  status: number | null;
  outcome: string;
  /** Counted against a rate limit. */
  limited: boolean;
}

export async function requestLog(sb: SandboxRef, since = 0): Promise<LoggedRequest[]> {
  return ((await control(sb, 'GET', `/_sandbox/requests?since=${since}`)) as { requests: LoggedRequest[] }).requests;
}

/** The newest request's number, to count what follows it. */
export async function lastSeq(sb: SandboxRef): Promise<number> {
  return (await requestLog(sb)).reduce((m, r) => Math.max(m, r.seq), 0);
}

const listPath = (account: string) => new RegExp(`^/core/api/1\\.0/${account}/campaigns/?$`);

/** Campaign list reads of `account` after request `since`. */
export async function listReads(sb: SandboxRef, account: string, since: number): Promise<LoggedRequest[]> {
  return (await requestLog(sb, since)).filter((r) => r.method === 'GET' && listPath(account).test(r.path));
}

/**
 * Create requests of `account` after request `since` (a write the late_apply_ms variant applied
 * later has an entry of its own, 'late_applied': not a request, so not counted).
 */
export async function creates(sb: SandboxRef, account: string, since = 0): Promise<LoggedRequest[]> {
  return (await requestLog(sb, since)).filter((r) => r.method === 'POST' && listPath(account).test(r.path) && r.outcome !== 'late_applied');
}

/** The run's variants (SANDBOX_VARIANTS) with `extra` on top, played from now on. */
export async function playVariants(sb: SandboxRef, extra: Variants): Promise<Variants> {
  const all = { ...testVariants(), ...extra };
  const res = await fetch(`${sb.url}/_sandbox/variants`, {
    method: 'PUT',
    headers: { ...controlHeaders(sb, '/_sandbox/variants'), 'content-type': 'application/json' },
    body: JSON.stringify(all),
  });
  if (!res.ok) throw new Error(`PUT /_sandbox/variants: ${res.status} ${await res.text()}`);
  return all;
}

/**
 * The grace period a test gives a lost write: longer than the service's late apply, if it plays
 * one (a look-up cannot tell "not yet" from "never" within it, and tests are not about that).
 */
export function graceFor(variants: Variants | undefined = testVariants()): number {
  return (variants?.late_apply_ms ?? 0) > 0 ? (variants?.late_apply_ms ?? 0) + 500 : 0;
}

export interface CampaignOnService {
  id: number;
  name: string;
  advertiser_id: string;
  spending_limit_model: string | null;
}

export async function onService(sb: SandboxRef, account: string, name: string): Promise<CampaignOnService[]> {
  const r = (await control(sb, 'GET', `/_sandbox/state/campaigns?account=${account}`)) as { campaigns: CampaignOnService[] };
  return r.campaigns.filter((c) => c.name.trim() === name.trim());
}

export interface TaskOnService {
  taskId: number;
  tagId: number;
  title: string;
  taskStatus: string;
  executionTime: number;
}

export async function tasksOnService(sb: SandboxRef, app?: string): Promise<TaskOnService[]> {
  return ((await control(sb, 'GET', `/_sandbox/state/tasks${app ? `?app=${app}` : ''}`)) as { tasks: TaskOnService[] }).tasks;
}

export async function outboxItem(e: Env, id: string): Promise<OutboxItem | undefined> {
  return (await e.core.handlers['outbox.list']({ profileId: P })).find((i) => i.id === id);
}

/** Waits until the item is sent, failed or blocked. */
export async function settled(e: Env, id: string, timeoutMs = 15_000): Promise<OutboxItem> {
  return until(
    async () => {
      const item = await outboxItem(e, id);
      return item && ['sent', 'failed', 'blocked'].includes(item.state) ? item : undefined;
    },
    `outbox item ${id} to settle`,
    timeoutMs,
  );
}

export async function submitCampaign(e: Env, account: string, payload: Record<string, unknown>): Promise<OutboxItem> {
  const d = await e.core.handlers['drafts.save']({ kind: 'campaign', profileId: P, accountId: account, payload });
  return e.core.handlers['drafts.submit']({ id: d.id });
}

export { campaignPayload };

/**
 * A proxy in front of the sandbox that changes requests or answers the way another legal service
 * would behave: `query` may rewrite a request's query string, `status` an answer's status code,
 * `body` an answer's body.
 */
export interface RewritingProxy {
  url: string;
  close(): Promise<void>;
}

export async function rewritingProxy(
  target: string,
  rewrite: {
    query?(path: string, query: URLSearchParams): void;
    status?(method: string, path: string, status: number): number;
    body?(method: string, path: string, body: Buffer): Buffer | undefined;
  },
): Promise<RewritingProxy> {
  const t = new URL(target);
  const sockets = new Set<Socket>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', target);
    rewrite.query?.(url.pathname, url.searchParams);
    const qs = url.searchParams.toString();
    const path = `${url.pathname}${qs ? `?${qs}` : ''}`;
    const method = req.method ?? 'GET';
    const up = httpRequest({ host: t.hostname, port: t.port, method, path, headers: req.headers }, (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => {
        const received = Buffer.concat(chunks);
        const body = rewrite.body?.(method, url.pathname, received) ?? received;
        const status = rewrite.status?.(method, url.pathname, r.statusCode ?? 502) ?? r.statusCode ?? 502;
        const headers = { ...r.headers };
        delete headers['transfer-encoding'];
        headers['content-length'] = String(body.length);
        res.writeHead(status, headers);
        res.end(body);
      });
    });
    // The sandbox dropped the connection (a close fault): drop ours too, like the service would.
    up.on('error', () => res.destroy());
    req.pipe(up);
  };
  const server: Server = createServer(handler);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
