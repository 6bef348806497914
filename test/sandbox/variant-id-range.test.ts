// The id_range variant: every id the service hands out is beyond 2^53 and written as an exact
// JSON number where the interface shows a number (spec 2.6 types taskId and tagId as numbers with
// no range; 2.1 shows a created campaign's id as a number, a listed one's as a string). Answers
// are read here with a regular expression over the text, never through JSON.parse, which would
// round these ids.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, DAY, nativeCampaign, pushEvent, sandboxPerFile, T0, testFixtures } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
/** An app whose id is beyond 2^53 (app ids are the fixtures' own digits). */
const BIG_APP = '9007199254740993';
sandboxPerFile(
  (s, t) => ((sb = s), (token = t)),
  () => {
    const f = testFixtures();
    f.apps!.push({ app_id: BIG_APP, publisher: 'Big Numbers Weekly', domain: 'https://big.example.com', sw_path: '/sw.js' });
    f.clients[0].apps!.push(BIG_APP);
    return f;
  },
);

const play = async () => expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { id_range: 'big' } })).status).toBe(200);
/** Every `"key": <bare integer>` of a JSON text, as bigints, in order. */
const bareIds = (text: string, key: string) => [...text.matchAll(new RegExp(`"${key}":(-?\\d+)[,}]`, 'g'))].map((m) => BigInt(m[1]));
const LIMIT = 2n ** 53n;

async function schedule(apps: string[], titles: string[]) {
  const events = titles.map((title) => pushEvent({ title, executionTime: T0 + DAY, target: { include: { apps } } }));
  const r = await call(sb, 'POST', '/epsilon/push/scheduled', { token, json: { pushEvents: events } });
  expect(r.status).toBe(200);
  // The tasks of the first app, oldest first: the send's own are the last.
  return bareIds((await call(sb, 'GET', `/epsilon/task?tagId=${apps[0]}&taskType=scheduled`, { token })).text, 'taskId').slice(
    -titles.length,
  );
}

describe('id_range "big"', () => {
  it('is off by default: new ids follow the fixtures, within 2^53', async () => {
    const created = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token, json: nativeCampaign() });
    expect(bareIds(created.text, 'id')).toEqual([4100013n]);
    const ids = await schedule(['1001'], ['One', 'Two']);
    expect(ids).toEqual([900004n, 900005n]);
  });

  it('hands out campaign ids beyond 2^53, a number on create and the same digits as a string in the listing', async () => {
    await play();
    const created = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token, json: nativeCampaign({ name: 'Big one' }) });
    expect(created.status).toBe(200);
    const [id] = bareIds(created.text, 'id');
    expect(id).toBe(2n ** 60n + 1n);
    const second = bareIds(
      (await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token, json: nativeCampaign({ name: 'Big two' }) })).text,
      'id',
    );
    expect(second).toEqual([id + 1n]);
    // Rounded by JSON.parse to the same number: only the exact digits tell them apart.
    expect(Number(id)).toBe(Number(id + 1n));
    const listed = await call(sb, 'GET', `/core/api/1.0/oldtimerltd/campaigns?fetch_level=RAP&campaign_ids=${id}`, { token });
    expect(listed.body).toMatchObject({ results: [{ id: String(id), name: 'Big one' }], metadata: { total: 1 } });
    const sorted = await call(sb, 'GET', '/core/api/1.0/oldtimerltd/campaigns?fetch_level=RAP&sort=id,desc&page=1&page_size=2', { token });
    expect((sorted.body as { results: { id: string }[] }).results.map((c) => c.id)).toEqual([String(id + 1n), String(id)]);
  });

  it('hands out task ids beyond 2^53 as numbers, and the exact id updates and cancels that task only', async () => {
    await play();
    const [a, b] = await schedule(['1001'], ['First', 'Second']);
    expect(a).toBe(2n ** 61n + 1n);
    expect(b).toBe(a + 1n);
    expect(Number(a)).toBe(Number(b));
    expect((await call(sb, 'DELETE', `/epsilon/task/${b}`, { token })).status).toBe(200);
    expect((await call(sb, 'PATCH', `/epsilon/task/${a}`, { token, json: { title: 'First, renamed' } })).status).toBe(200);
    const text = (await call(sb, 'GET', '/epsilon/task?tagId=1001&taskType=scheduled', { token })).text;
    expect(text).toContain(`"taskId":${a},"tagId":1001,"taskType":"scheduled","taskStatus":"pending"`);
    expect(text).toContain(`"taskId":${b},"tagId":1001,"taskType":"scheduled","taskStatus":"cancelled"`);
    expect(text).toMatch(new RegExp(`"taskId":${a},.*"title":"First, renamed"`));
  });

  it('writes the tagId of an app beyond 2^53 as that exact number', async () => {
    await play();
    const [task] = await schedule([BIG_APP], ['To the big app']);
    const text = (await call(sb, 'GET', `/epsilon/task?tagId=${BIG_APP}`, { token })).text;
    expect(bareIds(text, 'tagId')).toEqual([BigInt(BIG_APP)]);
    expect(task > LIMIT).toBe(true);
  });
});
