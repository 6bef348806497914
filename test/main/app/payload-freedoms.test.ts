// What else a service's JSON may hold that the interface does not rule out, written into real
// answers on their way to the app (a rewriting proxy): members the interface does not show, in every
// record and envelope and nested in metadata; enum values the app does not know; numbers as JSON
// strings and in exponent form; strings with escapes (\u00e9, \/, a surrogate pair); a field the
// interface shows always present written null; ids as strings where the interface shows numbers.
// None may fail a listing or a task list: each record is kept and shown as the service wrote it.
import { afterEach, expect, it } from 'vitest';
import { demoFixtures } from '../../../src/sandbox/index';
import type { SyncProgress } from '../../../src/shared/ipc/contract';
import { type Env, P, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

const NOW = Date.parse('2026-11-21T09:00:00Z');
let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

type Json = Record<string, unknown>;

/** The listing's first rows rewritten, each with one freedom; the text then spelled with escapes and exponents. */
function listing(body: Buffer): Buffer | undefined {
  const j = JSON.parse(body.toString()) as { results?: Json[]; metadata?: Json };
  const r = j.results;
  if (!Array.isArray(r) || r.length < 5 || !j.metadata) return undefined;
  Object.assign(r[0], { status: 'ARCHIVED_BY_POLICY', pricing_model: 'CPM', targeting: { geo: { include: ['FR'] } }, score: 0.7 });
  Object.assign(r[1], { cpc: '0.50', spent: '12.5', spending_limit: '1000' });
  Object.assign(r[2], { name: 'Caf\u00e9 \ud83d\ude00 a/b', branding_text: null, start_date: null });
  Object.assign(r[3], { cpc: 15, spent: 100 });
  Object.assign(r[4], { created_at: null, tracking_code: null, status: null });
  Object.assign(j.metadata, { links: [{ next: null }], stats: { by_status: { APPROVED: 3 } } });
  Object.assign(j, { warnings: [{ code: 'DEPRECATED' }] });
  const text = JSON.stringify(j)
    .replace('Caf\u00e9 \ud83d\ude00 a/b', 'Caf\\u00e9 \\ud83d\\ude00 a\\/b')
    .replace(`"cpc":15,`, `"cpc":1.5E+1,`)
    .replace(`"spent":100,`, `"spent":1e2,`);
  return Buffer.from(text);
}

/** The task list's first tasks rewritten likewise. */
function tasks(body: Buffer): Buffer | undefined {
  const j = JSON.parse(body.toString()) as Json[];
  if (!Array.isArray(j) || j.length < 3) return undefined;
  Object.assign(j[0], { taskStatus: 'processing', channel: { kind: 'web', weights: [1, 2] } });
  Object.assign(j[1], { taskId: String(j[1].taskId), tagId: String(j[1].tagId), taskType: 'recurring', userTimeZone: '0' });
  Object.assign(j[2], { title: 'Caf\u00e9 \ud83d\ude00 a/b', executionTimeFormatted: null, taskUpdateTimeFormatted: null });
  return Buffer.from(JSON.stringify(j).replace('Caf\u00e9 \ud83d\ude00 a/b', 'Caf\\u00e9 \\ud83d\\ude00 a\\/b'));
}

it('keeps every campaign and task of answers holding unknown members, values and spellings, shown as the service wrote them', async () => {
  env = await startEnv({
    fixtures: demoFixtures(NOW),
    // The rewrites read plain JSON of the default shapes; the task times stay numbers, since one
    // rewrite writes their texts null.
    variants: {
      task_list_wrapper: undefined,
      empty_as_object: undefined,
      list_envelope: undefined,
      page_size_cap: undefined,
      task_times: undefined,
    },
    proxy: {
      rewrite: (path, body) =>
        path.startsWith('/core/api/1.0/acmeshoes/campaigns') ? listing(body) : path.startsWith('/epsilon/task?') ? tasks(body) : undefined,
    },
  });
  const h = env.core.handlers;
  const ref = { profileId: P, accountId: 'acmeshoes' };
  await h['sync.refresh'](ref);
  const end = await until(
    () =>
      env!.events
        .map((e) => e.payload as SyncProgress)
        .find((p) => p.accountId === 'acmeshoes' && (p.state === 'done' || p.state === 'failed')),
    'the refresh to end',
  );
  expect(end).toMatchObject({ state: 'done', message: null });
  const rows = (await h['campaigns.records']({ ...ref, offset: 0, limit: 1000, sort: { field: 'id', direction: 'asc' } })).rows;
  const byName = (name: string) => rows.find((r) => r.name === name);
  expect(rows.find((r) => r.status === 'ARCHIVED_BY_POLICY')).toMatchObject({
    pricing_model: 'CPM',
    fields: { targeting: { geo: { include: ['FR'] } }, score: 0.7 },
  });
  expect(rows.find((r) => r.cpc === 0.5 && r.spent === 12.5)).toMatchObject({ spending_limit: 1000 });
  expect(byName('Caf\u00e9 \ud83d\ude00 a/b')).toMatchObject({ branding_text: null, start_date: null });
  expect(rows.find((r) => r.cpc === 15)).toMatchObject({ spent: 100 });
  expect(rows.some((r) => r.status === null)).toBe(true);
  // Found by the name as written, and filtered by the status no one told the app about.
  expect((await h['campaigns.query']({ ...ref, text: 'café', offset: 0, limit: 10 })).total).toBe(1);
  expect((await h['campaigns.query']({ ...ref, statuses: ['ARCHIVED_BY_POLICY'], offset: 0, limit: 10 })).total).toBe(1);

  await h['apps.list']({ profileId: P });
  await h['tasks.refresh']({ profileId: P, appId: '1001' });
  const shown = await h['tasks.list']({ profileId: P, appId: '1001' });
  expect(shown.find((t) => t.taskStatus === 'processing')).toMatchObject({ channel: { kind: 'web', weights: [1, 2] } });
  expect(shown.find((t) => t.taskType === 'recurring')).toMatchObject({ tagId: '1001', userTimeZone: 0 });
  const escaped = shown.find((t) => t.title === 'Caf\u00e9 \ud83d\ude00 a/b');
  // Its time read from the number when the text is null.
  expect(escaped?.executionTime).toEqual(expect.any(Number));
});
