import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, pushEvent, T0, tokenFor, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const send = (events: unknown[], path = '/epsilon/push') => call(sb, 'POST', path, { token, json: { pushEvents: events } });
const tasksOf = async (app: string) => {
  const r = await call(sb, 'GET', `/epsilon/task?tagId=${app}`, { token });
  expect(r.status).toBe(200);
  return r.body as Record<string, unknown>[];
};
const cdn = (src: string, w: number) => `${sb.url}/_cdn/?src=${encodeURIComponent(src)}&w=${w}`;

describe('authorized applications', () => {
  it('maps the granted apps that exist to their publishers', async () => {
    const r = await call(sb, 'GET', '/epsilon/push/auth-apps', { token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ '1001': 'Acme Daily News', '1002': 'North Outdoors Blog' });
    const other = await call(sb, 'GET', '/epsilon/push/auth-apps', { token: await tokenFor(sb, 'other-client', 'other-secret') });
    expect(other.body).toEqual({ '1003': 'Someone Else Media' });
  });
});

describe('sending', () => {
  it('answers an immediate push with a JSON string and creates a completed task with rewritten images', async () => {
    const ev = pushEvent({
      thumbnailUrl: 'https://news.example.com/img/a b.png?x=1',
      icon: 'https://news.example.com/icon.png',
      itemDescription: 'Ten headlines',
      userTimeZone: 1,
    });
    const r = await send([ev]);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.text).toBe('"1 notification accepted"');
    const tasks = await tasksOf('1001');
    expect(tasks[tasks.length - 1]).toEqual({
      taskId: 900004,
      tagId: 1001,
      taskType: 'immediate',
      taskStatus: 'completed',
      taskUpdateTime: T0,
      taskUpdateTimeFormatted: new Date(T0).toISOString(),
      executionTime: T0,
      executionTimeFormatted: new Date(T0).toISOString(),
      method: 'PUSH',
      videoId: null,
      forcedItemPolicy: null,
      userTimeZone: 1,
      title: 'Evening digest',
      url: 'https://news.example.com/digest',
      thumbnailUrl: cdn('https://news.example.com/img/a b.png?x=1', 480),
      iconUrl: cdn('https://news.example.com/icon.png', 192),
      performer: 'editor@example.com',
      itemDescription: 'Ten headlines',
    });
  });

  it('accepts iconUrl instead of icon, and an immediate push with a past executionTime', async () => {
    const r = await send([pushEvent({ iconUrl: 'http://news.example.com/i.png', executionTime: T0 - 5000 })]);
    expect(r.status).toBe(200);
    const last = (await tasksOf('1001')).at(-1)!;
    expect(last).toMatchObject({ iconUrl: cdn('http://news.example.com/i.png', 192), thumbnailUrl: null, executionTime: T0 });
    expect(last).not.toHaveProperty('itemDescription');
  });

  it('creates one task per event and app, with sequential ids', async () => {
    const r = await send([pushEvent({ target: { include: { apps: ['1001', '1002', '1001'] } } }), pushEvent({ title: 'Second' })]);
    expect(r.text).toBe('"3 notifications accepted"');
    expect((await tasksOf('1001')).slice(-2).map((t) => [t.taskId, t.title])).toEqual([
      [900004, 'Evening digest'],
      [900006, 'Second'],
    ]);
    expect((await tasksOf('1002')).map((t) => t.taskId)).toEqual([900005]);
  });

  it('schedules a push as pending, which completes once the sandbox clock reaches it', async () => {
    const at = T0 + 60_000;
    const r = await send([pushEvent({ executionTime: at })], '/epsilon/push/scheduled');
    expect(r.status).toBe(200);
    expect(r.text).toBe('"1 notification scheduled"');
    const task = (await tasksOf('1001')).at(-1)!;
    expect(task).toMatchObject({ taskType: 'scheduled', taskStatus: 'pending', executionTime: at, taskUpdateTime: T0 });
    sb.advance(60_000);
    expect((await tasksOf('1001')).at(-1)).toMatchObject({
      taskStatus: 'completed',
      taskUpdateTime: at,
      taskUpdateTimeFormatted: new Date(at).toISOString(),
    });
  });

  it('accepts numbers in user_data and different user_data attributes in include and exclude', async () => {
    const r = await send([
      pushEvent({
        target: { include: { apps: ['1001'], user_data: { tier: [1, 'gold'] } }, exclude: { user_data: { churned: ['yes'] } } },
      }),
    ]);
    expect(r.status).toBe(200);
  });
});

describe('refusals', () => {
  const apps = { apps: ['1001'] };
  const cases: [string, Record<string, unknown>, string, string?][] = [
    ['a missing title', { title: undefined }, 'title cannot be empty'],
    ['a blank title', { title: '   ' }, 'title cannot be empty'],
    ['a 141-character title', { title: 'x'.repeat(141) }, 'title is too long (max 140)'],
    ['an empty url', { url: '' }, 'url cannot be empty'],
    ['a missing performer', { performer: undefined }, 'performer cannot be empty'],
    ['a thumbnail that is not a URL', { thumbnailUrl: 'not a url' }, 'thumbnailUrl must be a valid URL'],
    ['an ftp icon', { icon: 'ftp://x.example/i.png' }, 'iconUrl must be an HTTP/HTTPS URL'],
    ['a javascript: iconUrl', { iconUrl: 'javascript:alert(1)' }, 'iconUrl must be an HTTP/HTTPS URL'],
    ['a userTimeZone of 2', { userTimeZone: 2 }, 'userTimeZone must be 0 (UTC) or 1 (local time zone)'],
    ['no target', { target: undefined }, 'target.include.apps cannot be empty'],
    ['no apps', { target: { include: { countries: ['DE'] } } }, 'target.include.apps cannot be empty'],
    [
      '201 apps',
      { target: { include: { apps: Array.from({ length: 201 }, (_, i) => String(2000 + i)) } } },
      'target.include.apps cannot contain more than 200 apps',
    ],
    ['an unknown attribute', { target: { include: { ...apps, country: ['DE'] } } }, 'Unsupported targeting attribute: country'],
    [
      'apps under exclude',
      { target: { include: apps, exclude: { apps: ['1002'] } } },
      'Unsupported targeting attribute: apps (apps can only be included)',
    ],
    [
      'the reserved attribute',
      { target: { include: { ...apps, is_push_delivery_active: ['true'] } } },
      'is_push_delivery_active is reserved for the service and cannot be used for targeting',
    ],
    [
      'the reserved attribute in user_data',
      { target: { include: { ...apps, user_data: { is_push_delivery_active: ['1'] } } } },
      'is_push_delivery_active is reserved for the service and cannot be used for targeting',
    ],
    [
      'an empty user_data array',
      { target: { include: { ...apps, user_data: { tier: [] } } } },
      'user_data attribute tier must be a non-empty array of strings',
    ],
    [
      'a null user_data value',
      { target: { include: { ...apps, user_data: { tier: null } } } },
      'user_data attribute tier must be a non-empty array of strings',
    ],
    [
      'a scalar user_data value',
      { target: { include: { ...apps, user_data: { tier: 'gold' } } } },
      'user_data attribute tier must be a non-empty array of strings',
    ],
    [
      'booleans in user_data',
      { target: { include: { ...apps, user_data: { tier: [true] } } } },
      'user_data attribute tier must be a non-empty array of strings',
    ],
    [
      'objects in user_data',
      { target: { include: { ...apps, user_data: { tier: [{}] } } } },
      'user_data attribute tier must be a non-empty array of strings',
    ],
    [
      'user_data that is not an object',
      { target: { include: { ...apps, user_data: ['a'] } } },
      'user_data must be an object mapping attribute names to arrays of strings',
    ],
    [
      'an attribute both included and excluded',
      { target: { include: { ...apps, countries: ['DE'] }, exclude: { countries: ['FR'] } } },
      'Targeting attribute countries cannot have values in both include and exclude',
    ],
    [
      'a user_data attribute both included and excluded',
      { target: { include: { ...apps, user_data: { tier: ['a'] } }, exclude: { user_data: { tier: ['b'] } } } },
      'user_data attribute tier cannot be used in both include and exclude',
    ],
    [
      'a future executionTime on an immediate push',
      { executionTime: T0 + 1 },
      'executionTime must not be in the future for immediate push; send it as a scheduled push',
    ],
    ['a scheduled push without executionTime', {}, 'executionTime is required for scheduled push', '/epsilon/push/scheduled'],
    ['a scheduled push at now', { executionTime: T0 }, 'executionTime must be in the future for scheduled push', '/epsilon/push/scheduled'],
  ];
  it.each(cases)('refuses %s with 400 and the spec message', async (_name, overrides, message, path) => {
    const r = await send([pushEvent(overrides)], path ?? '/epsilon/push');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ httpStatus: 400, message });
    expect((await tasksOf('1001')).map((t) => t.taskId)).toEqual([900001, 900002]);
  });

  it.each(['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'])(
    'refuses %s at the top of include or exclude as an unsupported attribute (rule 4), creating nothing',
    async (name) => {
      // Written by hand: JSON.parse makes "__proto__" an own key, as any server's parser sees it.
      const event = (where: 'include' | 'exclude') =>
        `{"title":"T","url":"https://news.example.com/","performer":"p","target":{"include":{"apps":["1001"]${
          where === 'include' ? `,"${name}":["x"]` : ''
        }}${where === 'exclude' ? `,"exclude":{"${name}":["x"]}` : ''}}}`;
      for (const where of ['include', 'exclude'] as const) {
        const r = await call(sb, 'POST', '/epsilon/push', {
          token,
          body: `{"pushEvents":[${event(where)}]}`,
          headers: { 'content-type': 'application/json' },
        });
        expect(r.status, where).toBe(400);
        expect(r.body).toEqual({ httpStatus: 400, message: `Unsupported targeting attribute: ${name}` });
      }
      expect((await tasksOf('1001')).map((t) => t.taskId)).toEqual([900001, 900002]);
    },
  );

  it('takes user_data attribute names that Object.prototype also has as the free-form names they are', async () => {
    const target = {
      include: { apps: ['1001'], user_data: { constructor: ['a'], toString: ['b'] } },
      exclude: { user_data: { plan: ['c'] } },
    };
    const r = await send([pushEvent({ target })]);
    expect(r.status, r.text).toBe(200);
  });

  it('refuses an empty pushEvents', async () => {
    const r = await send([]);
    expect(r.body).toEqual({ httpStatus: 400, message: 'pushEvents cannot be empty' });
  });

  it.each([
    ['not JSON', '{"pushEvents": ['],
    ['pushEvents missing', '{}'],
    ['pushEvents not an array', '{"pushEvents": {}}'],
    ['an event that is not an object', '{"pushEvents": [42]}'],
    ['a number for title', JSON.stringify({ pushEvents: [pushEvent({ title: 7 })] })],
    ['a string executionTime', JSON.stringify({ pushEvents: [pushEvent({ executionTime: '1795338000000' })] })],
    ['strings for os ids', JSON.stringify({ pushEvents: [pushEvent({ target: { include: { apps: ['1001'], os: ['ios'] } } })] })],
  ])('answers 400 "Malformed JSON or type mismatch" to %s', async (_name, raw) => {
    const r = await call(sb, 'POST', '/epsilon/push', { token, body: raw, headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ httpStatus: 400, message: 'Malformed JSON or type mismatch' });
  });

  it('answers 415 when the body is not declared as JSON', async () => {
    const r = await call(sb, 'POST', '/epsilon/push', {
      token,
      body: JSON.stringify({ pushEvents: [pushEvent()] }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(r.status).toBe(415);
    expect(r.body).toEqual({ httpStatus: 415, message: 'Content-Type must be application/json' });
  });

  it('answers 403 for an app not granted, or granted but unknown', async () => {
    for (const app of ['1003', '1999']) {
      const r = await send([pushEvent({ target: { include: { apps: [app] } } })]);
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ httpStatus: 403, message: 'Not authorized to send notifications for specified application' });
    }
  });

  it('is all-or-nothing: one forbidden app in any event means no task at all', async () => {
    const r = await send([pushEvent(), pushEvent({ target: { include: { apps: ['1002', '1003'] } } })]);
    expect(r.status).toBe(403);
    expect((await tasksOf('1001')).map((t) => t.taskId)).toEqual([900001, 900002]);
    expect(await tasksOf('1002')).toEqual([]);
    const ok = await send([pushEvent()]);
    expect((await tasksOf('1001')).at(-1)!.taskId).toBe(900004);
    expect(ok.status).toBe(200);
  });

  it('answers 401 with the push body shape', async () => {
    const r = await call(sb, 'POST', '/epsilon/push', { json: { pushEvents: [pushEvent()] } });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ httpStatus: 401, message: 'Invalid or expired access token' });
  });
});

describe('service worker path', () => {
  const swPath = (body: unknown, t = token) => call(sb, 'PATCH', '/epsilon/container/sw-path', { token: t, json: body });
  const good = { containerId: '1001', serviceWorkerPath: '/app/sw.js', performer: 'ops@example.com' };

  it('stores the path and answers 204 without a body', async () => {
    const r = await swPath(good);
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    const apps = (await call(sb, 'GET', '/_sandbox/apps')).body as { apps: { app_id: string; sw_path: string }[] };
    expect(apps.apps.find((a) => a.app_id === '1001')!.sw_path).toBe('/app/sw.js');
    expect((await swPath({ ...good, containerId: 1002 })).status).toBe(204);
  });

  it.each([
    [{ ...good, containerId: '' }, 'containerId cannot be empty'],
    [{ ...good, serviceWorkerPath: undefined }, 'serviceWorkerPath cannot be empty'],
    [{ ...good, serviceWorkerPath: 'sw.js' }, 'serviceWorkerPath must be a path relative to the domain root, starting with /'],
    [
      { ...good, serviceWorkerPath: '//evil.example/sw.js' },
      'serviceWorkerPath must be a path relative to the domain root, starting with /',
    ],
    [{ ...good, performer: ' ' }, 'performer cannot be empty'],
    [{ ...good, containerId: '1003' }, 'Not authorized to update this container'],
    [{ ...good, serviceWorkerPath: 5 }, 'Malformed JSON or type mismatch'],
  ])('answers 400 to %j', async (body, message) => {
    const r = await swPath(body);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ httpStatus: 400, message });
  });

  it('answers 404 for a container that does not exist', async () => {
    const r = await swPath({ ...good, containerId: '4242' });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ httpStatus: 404, message: 'Container not found' });
  });
});
