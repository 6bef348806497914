// Variant enum_case: enum values come back in another case than the interface shows them (spec 2.1,
// 2.6 show one case; DECISIONS client 18), over real HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { call, testFixtures, tokenFor } from '../helpers/sandbox';

let sb: RunningSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

describe('variant enum_case', () => {
  it('writes task types and statuses and campaign statuses in the case it names', async () => {
    const fixtures = testFixtures();
    sb = await startSandbox({ clock: 'manual', fixtures, variants: { enum_case: 'upper' } });
    const token = await tokenFor(sb);
    const app = fixtures.apps![0].app_id;
    const tasks = (await call(sb, 'GET', `/epsilon/task?tagId=${app}`, { token })).body as { taskType: string; taskStatus: string }[];
    expect(tasks.length).toBeGreaterThan(0);
    for (const t of tasks) {
      expect(t.taskType).toBe(t.taskType.toUpperCase());
      expect(t.taskStatus).toBe(t.taskStatus.toUpperCase());
    }
    await sb.close();
    sb = await startSandbox({ clock: 'manual', fixtures, variants: { enum_case: 'lower' } });
    const list = (
      await call(sb, 'GET', `/core/api/1.0/${fixtures.accounts[0].account_id}/campaigns?fetch_level=RAP`, { token: await tokenFor(sb) })
    ).body as { results: { status: string }[] };
    expect(list.results.length).toBeGreaterThan(0);
    for (const c of list.results) expect(c.status).toBe(c.status.toLowerCase());
  });
});
