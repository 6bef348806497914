// The app as a person opens it for a session of work: the setup every UI test file repeated.
import { afterAll, beforeAll } from 'vitest';
import { openAccount, openApp, type AppSession } from '../app-session';

/**
 * For a test file: the app opened before its tests (on `account`'s tab in its page, when given)
 * and closed after them. The session is filled in by the file's first beforeAll, so it is read in
 * hooks and tests, not at the file's top level. A file's own afterAll (putting the demo service
 * back) runs before this one closes the app: Vitest runs after-hooks in reverse order.
 */
export function withApp(opts: { account?: string; manualClock?: boolean } = {}): AppSession {
  const session = {} as AppSession;
  beforeAll(async () => {
    Object.assign(session, await openApp({ manualClock: opts.manualClock }));
    if (opts.account) await openAccount(session.page, opts.account);
  });
  afterAll(async () => session.close?.());
  return session;
}
