// A service of the UI test's own, beside the app's built-in sandbox: started on a fixtures file
// the test can rewrite, then reset to, so the service changes its grants the way a real one may
// (an account or an app withdrawn from the client). The clicks that connect the app to it are
// flows/connections.ts's.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type Fixtures } from '../../src/sandbox/index';
import { call } from '../helpers/sandbox';
import { openApp, openAxePage, type AppSession } from './app-session';

export interface OwnService {
  url: string;
  /** Makes the service hold `fx` from now on (its fixtures file rewritten, the service reset). */
  becomes(fx: Fixtures): Promise<void>;
  close(): Promise<void>;
}

export async function startOwnService(fx: Fixtures): Promise<OwnService> {
  const dir = mkdtempSync(join(tmpdir(), 'desk-e2e-service-'));
  const file = join(dir, 'fixtures.json');
  writeFileSync(file, JSON.stringify(fx));
  const service = await startSandbox({ port: 0, fixturesPath: file });
  return {
    url: service.url,
    async becomes(next) {
      writeFileSync(file, JSON.stringify(next));
      const res = await call(service, 'POST', '/_sandbox/reset');
      if (res.status !== 200) throw new Error(`sandbox reset answered ${res.status}`);
    },
    async close() {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface OwnServiceSession {
  service: OwnService;
  app: AppSession;
  /** The app's page, ready for axe checks. */
  page: Page;
}

/** For a test file: its own service on `fx` and the app, opened before its tests and closed after them. */
export function withOwnService(fx: Fixtures): OwnServiceSession {
  const session = {} as OwnServiceSession;
  beforeAll(async () => {
    session.service = await startOwnService(fx);
    session.app = await openApp();
    session.page = await openAxePage(session.app);
  });
  afterAll(async () => {
    await session.app?.close();
    await session.service?.close();
  });
  return session;
}
