// Answers that prove a change was not applied: it is sent again, never failed as refused and never
// looked for as if it might have been made. A 408 (RFC 9110 15.5.9: the service did not receive
// the whole request in time; the client may repeat it) was read as a refusal and failed the
// create; a token request the authorization server answered 503 made the create "uncertain", as
// if the create itself might have been applied, and the account was read to look for it.
import { afterEach, describe, expect, it } from 'vitest';
import type { Variants } from '../../../src/sandbox/index';
import { call } from '../../helpers/sandbox';
import { campaignPayload, control, fault, sandboxCampaigns } from '../../helpers/sandbox';
import { type Env, outboxItem, P, startEnv, submitCampaign } from '../../helpers/world';
import { until } from '../../helpers/wait';

const ACCOUNT = 'oldtimerltd';
const SECOND = 1_000;

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const submit = (e: Env, name: string) => submitCampaign(e, ACCOUNT, campaignPayload(name));
/** The service's request log: what the core asked of it. */
const requests = async (e: Env) =>
  ((await control(e.sandbox, 'GET', '/_sandbox/requests')) as { requests: { method: string; path: string; status: number | null }[] })
    .requests;
const played = async (e: Env): Promise<Variants> =>
  ((await call(e.sandbox, 'GET', '/_sandbox/variants')).body as { variants: Variants }).variants;
const play = async (e: Env, variants: Variants) =>
  expect((await call(e.sandbox, 'PUT', '/_sandbox/variants', { json: variants })).status).toBe(200);
const named = async (e: Env, name: string) => (await sandboxCampaigns(e.sandbox, ACCOUNT)).filter((c) => c.name === name);

/** Waits for the first attempt to be over (answered, and the item settled by it). */
const afterFirstAttempt = (e: Env, id: string) =>
  until(async () => {
    const i = await outboxItem(e, id);
    return i && i.attempts === 1 && i.state !== 'sending' ? i : undefined;
  }, 'the first attempt to be answered');

describe('a change the service did not apply is sent again', () => {
  it('a create answered 408 is queued again and sent once, not failed as refused', async () => {
    env = await startEnv({ clock: 'manual' });
    const before = await played(env);
    // A token first, so that the create itself is what the service does not receive in time.
    await env.core.handlers['apps.list']({ profileId: P });
    await play(env, { ...before, request_timeout: 1 });
    const queued = await submit(env, 'Sent after a 408');
    const waiting = await afterFirstAttempt(env, queued.id);
    expect(waiting.state).toBe('queued');
    expect(waiting.lastError?.message).toMatch(/did not receive the whole request .* in time \(408\)/);
    expect((await requests(env)).filter((r) => r.status === 408).length).toBeGreaterThanOrEqual(1);
    expect(await named(env, 'Sent after a 408')).toHaveLength(0);
    await play(env, before);
    env.sandbox.advance(waiting.nextAttemptAt! - env.sandbox.now());
    await until(async () => (await outboxItem(env!, queued.id))?.state === 'sent', 'the create to be sent');
    expect(await named(env, 'Sent after a 408')).toHaveLength(1);
  });

  it('a create whose token request is answered 503 waits for its Retry-After and is sent without looking for it', async () => {
    // A create answered without a body (write_answer) is read back from the listing to learn its
    // id: a read this test, which counts look-ups, must not see.
    env = await startEnv({ clock: 'manual', variants: { write_answer: undefined } });
    await env.core.handlers['apps.list']({ profileId: P });
    // The token has run out (the sandbox's live an hour): the create needs a new one.
    env.sandbox.advance(3_600 * SECOND);
    await fault(env.sandbox, { path_prefix: '/authentication/oauth/token', mode: 'status_503', retry_after: 30 });
    const queued = await submit(env, 'Sent after the token came');
    const waiting = await afterFirstAttempt(env, queued.id);
    expect(waiting.state).toBe('queued');
    expect(waiting.lastError?.code).toBe('SERVER');
    expect(waiting.nextAttemptAt! - env.sandbox.now()).toBeGreaterThanOrEqual(29 * SECOND);
    env.sandbox.advance(30 * SECOND);
    await until(async () => (await outboxItem(env!, queued.id))?.state === 'sent', 'the create to be sent');
    expect(await named(env, 'Sent after the token came')).toHaveLength(1);
    // Nothing of the create had left: the account was never read to look for it, and it went once.
    const log = await requests(env);
    expect(log.filter((r) => r.method === 'GET' && r.path.startsWith(`/core/api/1.0/${ACCOUNT}/campaigns`))).toEqual([]);
    expect(log.filter((r) => r.method === 'POST' && r.path.startsWith(`/core/api/1.0/${ACCOUNT}/campaigns`))).toHaveLength(1);
  });

  it('a token request answered 408 is not a refusal of the credentials: the create is sent once the service answers', async () => {
    env = await startEnv({ clock: 'manual' });
    const before = await played(env);
    await play(env, { ...before, request_timeout: 1 });
    const queued = await submit(env, 'Sent after the token came in time');
    const waiting = await afterFirstAttempt(env, queued.id);
    expect(waiting.state).toBe('queued');
    expect(waiting.lastError?.code).toBe('SERVER');
    await play(env, before);
    env.sandbox.advance(waiting.nextAttemptAt! - env.sandbox.now());
    await until(async () => (await outboxItem(env!, queued.id))?.state === 'sent', 'the create to be sent');
    expect(await named(env, 'Sent after the token came in time')).toHaveLength(1);
  });
});
