// The page browser mode shows when its data file cannot be opened: its "Start fresh" answer carries
// the app's address and token, so it must go only to the person's own click, and only once.
import { afterEach, describe, expect, it } from 'vitest';
import { startProblemPage, type ProblemPage } from '../../../src/main/browser-mode/problem-page';
import { rawRequest } from './http-client';

const APP_URL = 'http://127.0.0.1:1/#token=app-token-that-must-not-leak';
let page: ProblemPage | null = null;
let starts = 0;

async function open(): Promise<{ port: number; pageToken: string }> {
  starts = 0;
  page = await startProblemPage({
    message: 'The data file is damaged.',
    canStartFresh: true,
    startFresh: () => {
      starts++;
      return Promise.resolve(APP_URL);
    },
  });
  const port = Number(new URL(page.origin).port);
  const html = (await rawRequest(port, { path: '/' })).text;
  const pageToken = /name="token" value="([^"]+)"/.exec(html)?.[1] ?? '';
  expect(pageToken).not.toBe('');
  return { port, pageToken };
}

const startFresh = (port: number, token: string, headers: Record<string, string>) =>
  rawRequest(port, {
    method: 'POST',
    path: '/start-fresh',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: `token=${encodeURIComponent(token)}`,
  });

afterEach(async () => {
  await page?.close();
  page = null;
});

describe('browser-mode problem page', () => {
  it('refuses a start-fresh without an Origin (another program that read the page), starting nothing and giving no token', async () => {
    const { port, pageToken } = await open();
    const r = await startFresh(port, pageToken, {});
    expect(r.status).toBe(403);
    expect(r.headers.location).toBeUndefined();
    expect(r.text).not.toContain('app-token-that-must-not-leak');
    expect(starts).toBe(0);
  });

  it('refuses a start-fresh from another origin', async () => {
    const { port, pageToken } = await open();
    const r = await startFresh(port, pageToken, { origin: 'http://evil.example' });
    expect(r.status).toBe(403);
    expect(starts).toBe(0);
  });

  it("answers the page's own click once with the app's address, then stops answering", async () => {
    const { port, pageToken } = await open();
    const first = await startFresh(port, pageToken, { origin: `http://127.0.0.1:${port}` });
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe(APP_URL);
    expect(starts).toBe(1);
    // The page is gone: neither a reload nor a second post reaches it.
    await expect(rawRequest(port, { path: '/' })).rejects.toThrow(/ECONNREFUSED|ECONNRESET|socket hang up/);
    await expect(startFresh(port, pageToken, { origin: `http://127.0.0.1:${port}` })).rejects.toThrow(
      /ECONNREFUSED|ECONNRESET|socket hang up/,
    );
    expect(starts).toBe(1);
  });
});
