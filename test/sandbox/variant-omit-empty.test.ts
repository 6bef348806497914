// Variant omit_empty: fields whose value is null or empty text are left out of task and campaign
// answers (spec 2.1 and 2.6 list the fields, not that an empty one is written).
import { expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const emptyKeys = (r: Record<string, unknown>) => Object.keys(r).filter((k) => r[k] === null || r[k] === '');

it('leaves out the empty fields of tasks and campaigns, and keeps the others', async () => {
  const task = ((await call(sb, 'GET', '/epsilon/task?tagId=1001', { token })).body as Record<string, unknown>[])[0];
  const campaigns = (
    (await call(sb, 'GET', '/core/api/1.0/acmeshoes/campaigns?fetch_level=RAP', { token })).body as { results: Record<string, unknown>[] }
  ).results;
  const emptyOfTask = emptyKeys(task);
  expect(emptyOfTask.length).toBeGreaterThan(0);
  expect(campaigns.some((c) => emptyKeys(c).length > 0)).toBe(true);

  await call(sb, 'PUT', '/_sandbox/variants', { json: { omit_empty: true } });
  const bare = ((await call(sb, 'GET', '/epsilon/task?tagId=1001', { token })).body as Record<string, unknown>[])[0];
  for (const k of emptyOfTask) expect(bare).not.toHaveProperty(k);
  const kept = Object.fromEntries(Object.entries(task).filter(([k]) => !emptyOfTask.includes(k)));
  expect(bare).toEqual(kept);
  const listed = (
    (await call(sb, 'GET', '/core/api/1.0/acmeshoes/campaigns?fetch_level=RAP', { token })).body as { results: Record<string, unknown>[] }
  ).results;
  expect(listed.map((c) => String(c.id))).toEqual(campaigns.map((c) => String(c.id)));
  for (const c of listed) expect(emptyKeys(c)).toEqual([]);
});
