// After a full session (profiles, sign-in, accounts, refreshes, drafts, sends, a lost answer, a
// refused secret, a refused client id), neither the client secret nor any token the core used may
// appear, in any spelling, in the database files (with the write-ahead log), the send notes, the
// activity log, any channel's answer or any event. The sign-in server echoes the request body in
// its errors (token_error_echo), as a careless real one may.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelName } from '../../../src/shared/ipc/contract';
import { call, campaignPayload, fault, testFixtures } from '../../helpers/sandbox';
import { secretSpellings } from '../service/secret-spellings';
import { addConnection, type Env, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

/** Spaces and every character a form body, a URL, JSON and HTML spell differently. */
const SECRET = `Leak Test!'()~*+%&=;"<x> 7c1f`;
let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('secrets never leak', () => {
  it('keeps the client secret and every token out of the database, notes, log, answers and events', async () => {
    const fixtures = testFixtures();
    fixtures.clients[0].client_secret = SECRET;
    env = await startEnv({ fixtures, proxy: true, demo: false, tuning: { refreshOnStart: true } });
    const { variants } = (await call(env.sandbox, 'GET', '/_sandbox/variants')).body as { variants: Record<string, unknown> };
    expect((await call(env.sandbox, 'PUT', '/_sandbox/variants', { json: { ...variants, token_error_echo: true } })).status).toBe(200);
    const answers: unknown[] = [];
    const h = new Proxy(env.core.handlers, {
      get(target, name: string) {
        const fn = target[name as ChannelName] as (a: unknown) => Promise<unknown>;
        return async (args: unknown) => {
          try {
            const v = await fn(args);
            answers.push(v);
            return v;
          } catch (e) {
            answers.push({
              error: e instanceof Error ? { name: e.name, message: e.message, details: (e as { details?: unknown }).details } : e,
            });
            throw e;
          }
        };
      },
    });
    const p = await addConnection(env, { clientSecret: SECRET });
    await h['profiles.signIn']({ profileId: p.id });
    await h['accounts.add']({ profileId: p.id, accountId: 'oldtimerltd' });
    await h['accounts.add']({ profileId: p.id, accountId: 'northnet' });
    await h['accounts.add']({ profileId: p.id, accountId: 'strangers' }).catch(() => undefined);
    await h['sync.refresh']({ profileId: p.id, accountId: 'oldtimerltd' });
    await fault(env.sandbox, { method: 'POST', path_prefix: '/core/api', mode: 'close_after', count: 1 });
    const d = await h['drafts.save']({
      kind: 'campaign',
      profileId: p.id,
      accountId: 'oldtimerltd',
      payload: campaignPayload('Secretless'),
    });
    const item = await h['drafts.submit']({ id: d.id });
    const push = await h['drafts.save']({
      kind: 'push',
      profileId: p.id,
      accountId: 'oldtimerltd',
      payload: {
        mode: 'immediate',
        event: { title: 'Hi', url: 'https://news.example.com/x', performer: 'me', target: { include: { apps: ['1001'] } } },
      },
    });
    await h['drafts.submit']({ id: push.id });
    await until(async () => (await h['outbox.list']({})).every((i) => i.state === 'sent'), 'the outbox to drain');
    expect((await h['outbox.list']({})).find((i) => i.id === item.id)?.state).toBe('sent');
    // Refused sign-ins whose error echoes the form body: a wrong secret, and the right secret with a wrong client id.
    // Adding them is refused (nothing saved), and the person still reads what the server said, with the secret taken out.
    const refusals: string[] = [];
    await addConnection(env, { name: 'Typo', clientSecret: `${SECRET}-typo` }).catch((e: Error) => refusals.push(e.message));
    await addConnection(env, { name: 'Wrong id', clientId: 'demo-cleint', clientSecret: SECRET }).catch((e: Error) =>
      refusals.push(e.message),
    );
    expect(refusals).toHaveLength(2);
    expect((await h['profiles.list']({})).map((x) => x.name)).not.toContain('Typo');
    for (const r of refusals) expect(r).toMatch(/invalid_client: Client authentication failed.*\(request: .*\[redacted\]/);
    for (const c of ['profiles.list', 'accounts.list', 'outbox.list', 'activity.list', 'ratelimit.state', 'app.info'] as const)
      await h[c]({} as never);
    await h['apps.list']({ profileId: p.id });
    await h['tasks.list']({ profileId: p.id, appId: '1001' });
    await h['campaigns.query']({ profileId: p.id, accountId: 'oldtimerltd', offset: 0, limit: 1000 });

    const tokens = [...env.proxy!.tokens];
    expect(tokens.length).toBeGreaterThan(0);
    const needles: [string, string][] = [
      ...secretSpellings(SECRET, 'demo-client'),
      ...secretSpellings(SECRET, 'demo-cleint'),
      ...secretSpellings(`${SECRET}-typo`, 'demo-client'),
      ...tokens.map((t): [string, string] => ['token', t]),
    ];
    const activity = await h['activity.list']({ limit: 1000 });
    const texts: [string, string][] = [
      ['refusals', JSON.stringify(refusals)],
      ['answers', JSON.stringify(answers)],
      ['events', JSON.stringify(env.events)],
      ['activity', JSON.stringify(activity)],
    ];
    // The database files while the app runs (the write-ahead log holds the latest writes), then after it closed.
    const dataFiles = () => filesUnder(env!.dataDir).map((f): [string, string] => [f, readFileSync(f).toString('utf8')]);
    texts.push(...dataFiles());
    expect(texts.some(([n]) => n.endsWith('.sqlite-wal'))).toBe(true);
    await env.core.close();
    texts.push(...dataFiles());
    expect(texts.some(([n]) => n.endsWith('.sqlite'))).toBe(true);
    for (const [where, text] of texts) {
      for (const [how, n] of needles) expect(text.includes(n), `${where} holds a secret or token (${how})`).toBe(false);
    }
    // The secret is where it belongs.
    expect(await env.secrets.get(p.id, 'client_secret')).toBe(SECRET);
  });
});
