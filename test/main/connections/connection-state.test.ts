// The connection state machine on an injected clock: a connection is "Not checked yet" until its
// service answers after start-up, never a guessed "Online"; a dead host goes offline and is probed
// with backoff as the clock moves; working offline contacts nothing; a refused secret is reachable
// but failing. The transport is a stand-in that answers (or fails) as each test says.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/main/clock/clock';
import { Connections, type ConnectionState } from '../../../src/main/connections/connections';
import { EventHub } from '../../../src/main/events/event-hub';
import { RateLimitScheduler } from '../../../src/main/ratelimit/scheduler';
import type { SecretPort } from '../../../src/main/secrets/secret-port';
import { HttpTransport, ServiceError, type HttpRequest, type HttpResponse } from '../../../src/main/service';
import type { Profile, Store } from '../../../src/main/store';

type Answer = 'ok' | 'dead' | 'refused';

/** Answers token requests and the probe's auth-apps as `answer` says; counts what it was asked. */
class StandInTransport extends HttpTransport {
  answer: Answer = 'ok';
  readonly asked: string[] = [];

  override send(req: HttpRequest): Promise<HttpResponse> {
    const path = new URL(String(req.url)).pathname;
    this.asked.push(path);
    if (this.answer === 'dead') {
      return Promise.reject(
        new ServiceError({ kind: 'network', requestWritten: false, message: 'The service at http://127.0.0.1:9 refused the connection.' }),
      );
    }
    const json = (status: number, body: unknown): HttpResponse => ({
      status,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify(body)),
    });
    if (this.answer === 'refused')
      return Promise.resolve(json(401, { error: 'invalid_client', error_description: 'Client authentication failed' }));
    if (path.endsWith('/oauth/token')) return Promise.resolve(json(200, { access_token: 'tok', token_type: 'bearer', expires_in: 3600 }));
    return Promise.resolve(json(200, {}));
  }
}

const PROFILE: Profile = {
  id: 'p1',
  name: 'Test service',
  baseUrl: 'http://127.0.0.1:9',
  authUrl: 'http://127.0.0.1:9',
  pushUrl: 'http://127.0.0.1:9',
  clientId: 'client',
  flow: 'client_credentials',
  redirectUri: null,
  workOffline: false,
  createdAt: 0,
  updatedAt: 0,
};

function setUp(opts: { workOffline?: boolean } = {}) {
  const clock = new ManualClock(Date.parse('2026-11-26T09:00:00Z'));
  const transport = new StandInTransport();
  const hub = new EventHub();
  const profile = { ...PROFILE, workOffline: opts.workOffline ?? false };
  // Only what Connections reads of the store: the profile, its work-offline choice, the accounts' access.
  const store = {
    profiles: {
      get: (id: string) => (id === profile.id ? profile : undefined),
      list: () => [profile],
      setWorkOffline: (_id: string, on: boolean) => void (profile.workOffline = on),
    },
    settings: { get: () => ({}), set: () => undefined },
  } as unknown as Store;
  const secrets = {
    kind: 'memory',
    get: () => Promise.resolve('secret'),
    set: () => Promise.resolve(),
    delete: () => Promise.resolve(),
  } as unknown as SecretPort;
  const states: ConnectionState[] = [];
  hub.on('connection.changed', (e) => states.push(e.connection));
  const onlineAgain: string[] = [];
  const connections = new Connections({
    store,
    secrets,
    hub,
    clock,
    transport,
    scheduler: new RateLimitScheduler({ clock }),
    probeBackoff: { baseMs: 1_000, maxMs: 8_000 },
    note: () => undefined,
    onOnline: (id) => onlineAgain.push(id),
  });
  return { clock, transport, connections, states, onlineAgain };
}

const state = (c: Connections) => c.view('p1').connection;

/** Lets the stand-in's promises settle (no time passes on the clock). */
const settle = () => new Promise<void>((r) => setImmediate(r));

describe('connection state', () => {
  it('is "unknown" (Not checked yet) at start, not online, and online once the service has answered', async () => {
    const { connections, transport, states } = setUp();
    expect(state(connections)).toBe('unknown');
    // Trying is how it is learned, so work may go out meanwhile.
    expect(connections.canUse('p1')).toBe(true);
    await connections.checkOnStart();
    expect(transport.asked).toEqual(['/authentication/oauth/token']);
    expect(state(connections)).toBe('online');
    expect(states).toEqual(['online']);
  });

  it('a dead host is offline after the start-up check, probed with backoff on the clock, and online when it answers again', async () => {
    const { connections, transport, clock, onlineAgain } = setUp();
    transport.answer = 'dead';
    await connections.checkOnStart();
    expect(state(connections)).toBe('offline');
    expect(connections.canUse('p1')).toBe(false);
    const asked = transport.asked.length;
    // The first probe is due within the first backoff step (1 s): nothing before time moves.
    await settle();
    expect(transport.asked.length).toBe(asked);
    clock.advance(1_000);
    await settle();
    expect(transport.asked.length).toBeGreaterThan(asked);
    expect(state(connections)).toBe('offline');
    transport.answer = 'ok';
    // The next probe comes within the second step (2 s).
    clock.advance(2_000);
    for (let i = 0; i < 10 && state(connections) !== 'online'; i++) await settle();
    expect(state(connections)).toBe('online');
    expect(onlineAgain).toEqual(['p1']);
  });

  it('a check that only confirms a connection is usable does not count as coming back online', async () => {
    const { connections, onlineAgain } = setUp();
    await connections.check('p1');
    expect(state(connections)).toBe('online');
    expect(onlineAgain).toEqual([]);
  });

  it('working offline contacts nothing at start; going online is "unknown" until the check answers', async () => {
    const { connections, transport, states } = setUp({ workOffline: true });
    await connections.checkOnStart();
    expect(transport.asked).toEqual([]);
    expect(state(connections)).toBe('working_offline');
    connections.setWorkOffline('p1', false);
    expect(states).toContain('unknown');
    for (let i = 0; i < 10 && state(connections) !== 'online'; i++) await settle();
    expect(state(connections)).toBe('online');
    expect(transport.asked).toEqual(['/authentication/oauth/token']);
  });

  it('a refused secret is reachable but failing (sign-in), never offline', async () => {
    const { connections, transport } = setUp();
    transport.answer = 'refused';
    await connections.checkOnStart();
    expect(state(connections)).toBe('failing');
    expect(connections.view('p1').signIn.state).toBe('failed');
  });
});
