// The demo sandbox's control API as a web page on another origin sees it, in real Chromium: a page
// the person opens while the app runs tries to inject a fault (a plain POST it may send without
// asking, and one with a guessed secret) and to read the request log. The sandbox refuses all of
// it and holds no fault afterwards; the app's own side, which knows the secret, still drives it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoSandbox, type DemoSandbox } from '../../src/main/app/demo-sandbox';
import { call } from '../helpers/sandbox';
import { launchChromium } from './support';

let sandbox: DemoSandbox;
let site: Server;
let siteUrl: string;
let browser: Browser;

beforeAll(async () => {
  // The app's own demo sandbox, started as the app starts it (a fresh secret only the app holds).
  sandbox = await startDemoSandbox();
  // Another origin on the same machine: any page the person might open.
  site = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Some page</title><p>Hello</p>'),
  );
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
  await sandbox?.close();
});

describe('the sandbox control API from a page on another origin', () => {
  it('refuses the page whatever it sends, and keeps working for whoever started it', async () => {
    const page = await browser.newPage();
    await page.goto(siteUrl);
    const outcomes = await page.evaluate(async (target) => {
      const tryIt = (init: RequestInit, path = '/_sandbox/faults') =>
        fetch(`${target}${path}`, init).then(
          async (r) => (r.type === 'opaque' ? 'opaque' : `${r.status} ${await r.text()}`),
          (e: unknown) => `blocked: ${String(e)}`,
        );
      return {
        // What a page may send without a preflight: no custom header, and the answer unreadable.
        plain: await tryIt({
          method: 'POST',
          mode: 'no-cors',
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify({ mode: 'status_500', count: 1000 }),
        }),
        // A guessed secret needs a custom header, so a preflight, which the sandbox never allows.
        guessed: await tryIt({
          method: 'POST',
          headers: { 'x-sandbox-control': 'guess-guess-guess-guess', 'content-type': 'application/json' },
          body: JSON.stringify({ mode: 'status_500' }),
        }),
        // Reading the request log (where a secret would be, if anywhere): not readable cross-origin.
        read: await tryIt({ method: 'GET' }, '/_sandbox/requests'),
      };
    }, sandbox.url);
    expect(outcomes.plain).toBe('opaque');
    expect(outcomes.guessed).toMatch(/^blocked: TypeError/);
    expect(outcomes.read).toMatch(/^blocked: TypeError/);
    // Nothing reached the service's state: no fault is waiting for the app's requests.
    expect((await call(sandbox, 'GET', '/_sandbox/faults')).body).toEqual({ faults: [] });
    expect((await call({ url: sandbox.url }, 'GET', '/_sandbox/faults')).status).toBe(403);
    await page.close();
  });
});
