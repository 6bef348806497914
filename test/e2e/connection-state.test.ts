// Connection state in the browser: a connection is "Not checked yet" (a grey ring) until its
// service answers, then Online; adding one whose host cannot be reached asks before saving it
// working offline. A gate in front of the demo sandbox holds the service's answers until the test
// lets them through, so the state before the answer can be seen without waiting on a timer.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApp, type AppSession } from './app-session';
import { screenshotPath } from './support';
import { connectionGroup, submitConnection } from './flows/connections';

interface Gate {
  url: string;
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

/** Passes requests to `target`; while held, they wait (unanswered) until release(). */
async function startGate(target: string): Promise<Gate> {
  const t = new URL(target);
  let held = false;
  const waiting: (() => void)[] = [];
  const pass = (req: IncomingMessage, res: ServerResponse) => {
    const up = request({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  };
  const server: Server = createServer((req, res) => (held ? waiting.push(() => pass(req, res)) : pass(req, res)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hold: () => void (held = true),
    release: () => {
      held = false;
      for (const go of waiting.splice(0)) go();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let app: AppSession;
let gate: Gate;

beforeAll(async () => {
  app = await openApp();
  gate = await startGate(app.sandboxUrl);
});
afterAll(async () => {
  await app?.close();
  await gate?.close();
});

const addConnection = (name: string, url: string) => submitConnection(app.page, name, url);

describe('Connection state', () => {
  it('shows a grey "Not checked yet" dot until the service answers, then Online', async () => {
    const { page } = app;
    await addConnection('Gated service', gate.url);
    await expect.poll(() => page.getByTestId('add-connection-dialog').count(), { timeout: 15_000 }).toBe(0);
    const group = connectionGroup(page, 'Gated service');
    const dot = group.locator('.tree-profile [role="img"]');
    await expect.poll(() => dot.getAttribute('aria-label'), { timeout: 15_000 }).toBe('Online');

    // Working offline, then back online while the service's answers are held: nothing is claimed.
    const offline = group.locator('[data-testid^="work-offline-"]');
    await offline.check();
    await expect.poll(() => dot.getAttribute('aria-label')).toBe('Working offline');
    gate.hold();
    await offline.uncheck();
    await expect.poll(() => dot.getAttribute('aria-label')).toBe('Not checked yet');
    expect(await dot.getAttribute('class')).toContain('dot-unknown');
    await page.screenshot({ path: screenshotPath('connection-not-checked.png') });
    gate.release();
    await expect.poll(() => dot.getAttribute('aria-label'), { timeout: 15_000 }).toBe('Online');
  });

  it('asks before saving a connection whose host cannot be reached, and saves it working offline when told to', async () => {
    const { page } = app;
    const deadGate = await startGate(app.sandboxUrl);
    const dead = deadGate.url;
    await deadGate.close();
    await addConnection('Dead host', dead);
    const question = page.getByTestId('conn-unreachable');
    await question.waitFor({ timeout: 15_000 });
    expect(await question.textContent()).toBe(`Could not reach ${dead}: save it anyway and work offline?`);
    expect(await connectionGroup(page, 'Dead host').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('connection-unreachable.png') });

    // Going back keeps what was typed; saving offline adds it, working offline.
    await page.getByTestId('conn-unreachable-back').click();
    expect(await page.getByTestId('conn-name').inputValue()).toBe('Dead host');
    await page.getByTestId('conn-create').click();
    await page.getByTestId('conn-save-offline').click();
    await expect.poll(() => page.getByTestId('add-connection-dialog').count(), { timeout: 15_000 }).toBe(0);
    const group = connectionGroup(page, 'Dead host');
    await expect.poll(() => group.locator('.tree-profile [role="img"]').getAttribute('aria-label')).toBe('Working offline');
    expect(app.pageErrors).toEqual([]);
  });
});
