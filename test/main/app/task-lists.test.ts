// Task lists read by content (DECISIONS client 5 and 17, issue #25 failure 4): the interface does
// not show the list's wrapper (spec 4.6 note 2), so the person's tasks show whatever legal wrapper
// the service puts around them, `{}` shows as no tasks, and a list of tens of thousands of tasks
// is read whole, also by the look-up after a push whose answer was lost.
import { afterEach, describe, expect, it } from 'vitest';
import { demoFixtures, type Fixtures } from '../../../src/sandbox/index';
import type { OutboxItem } from '../../../src/shared/ipc/contract';
import { fault, tasksOnService } from '../../helpers/sandbox';
import { type Env, P, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const NOW = Date.parse('2026-11-21T09:00:00Z');

/** The demo world with app 1004's tasks taken away, so one granted app has none. */
function fixtures(extraTasks: Fixtures['tasks'] = []): Fixtures {
  const f = demoFixtures(NOW);
  return { ...f, tasks: [...(f.tasks ?? []).filter((t) => String(t.tagId) !== '1004'), ...(extraTasks ?? [])] };
}

describe('the task list read by what it holds', () => {
  it('shows the tasks under a nested wrapper with their count beside them, fields left out when empty, and {} as no tasks', async () => {
    env = await startEnv({
      fixtures: fixtures(),
      variants: { task_list_wrapper: 'payload.items', empty_as_object: true, omit_empty: true },
    });
    const h = env.core.handlers;
    // As the Tasks tab does: the apps first, then the tasks of the app the person opens.
    await h['apps.list']({ profileId: P });
    await h['tasks.refresh']({ profileId: P, appId: '1001' });
    const shown = await h['tasks.list']({ profileId: P, appId: '1001' });
    expect(shown.map((t) => t.taskId).sort()).toEqual((await tasksOnService(env.sandbox, '1001')).map((t) => String(t.taskId)).sort());
    expect(shown.length).toBeGreaterThan(1);
    // An app without tasks answers {}: no tasks, not an error.
    await expect(h['tasks.refresh']({ profileId: P, appId: '1004' })).resolves.toEqual({ ok: true });
    expect(await h['tasks.list']({ profileId: P, appId: '1004' })).toEqual([]);
  });

  it('lists the tasks of one type whatever case the service writes the type in', async () => {
    env = await startEnv({ fixtures: fixtures(), variants: { enum_case: 'upper' } });
    const h = env.core.handlers;
    await h['apps.list']({ profileId: P });
    await h['tasks.refresh']({ profileId: P, appId: '1001' });
    const all = await h['tasks.list']({ profileId: P, appId: '1001' });
    const scheduled = await h['tasks.list']({ profileId: P, appId: '1001', taskType: 'scheduled' });
    expect(scheduled.length).toBeGreaterThan(0);
    expect(scheduled.map((t) => t.taskId)).toEqual(all.filter((t) => t.taskType === 'SCHEDULED').map((t) => t.taskId));
  });

  it('refuses an answer holding several lists of tasks, in words that say so', async () => {
    env = await startEnv({
      fixtures: fixtures(),
      proxy: {
        rewrite: (path, body) => {
          if (!path.startsWith('/epsilon/task?')) return undefined;
          const tasks = JSON.parse(body.toString()) as unknown[];
          return Buffer.from(JSON.stringify({ open: tasks.slice(0, 1), done: tasks.slice(1), count: tasks.length }));
        },
      },
      variants: { task_list_wrapper: undefined, empty_as_object: false },
    });
    await env.core.handlers['apps.list']({ profileId: P });
    await expect(env.core.handlers['tasks.refresh']({ profileId: P, appId: '1001' })).rejects.toMatchObject({
      message: expect.stringMatching(/several lists of tasks \("open", "done"\)/),
    });
  });
});

describe('a long task list', () => {
  const MANY = 50_000;
  /** 50,000 tasks of app 1004: about 30 MB of JSON, more than the 16 MiB a whole answer was allowed. */
  const many = (): Fixtures['tasks'] =>
    Array.from({ length: MANY }, (_, i) => ({
      taskId: 2_000_000 + i,
      tagId: '1004',
      taskType: 'immediate' as const,
      taskStatus: 'completed',
      executionTime: NOW - 86_400_000 - i * 60_000,
      title: `Deal of the day number ${i}: sun, sea and a seat by the window`,
      url: `https://deals.suntrail.example/day/${i}`,
      performer: 'manager@example.com',
      itemDescription: 'Seven nights, flights included, limited seats. Book before Friday to keep the price.',
    }));

  it('is read whole, and a push whose answer was lost is found in it and marked sent, once', { timeout: 120_000 }, async () => {
    env = await startEnv({ fixtures: fixtures(many()) });
    const h = env.core.handlers;
    await h['apps.list']({ profileId: P });
    await h['tasks.refresh']({ profileId: P, appId: '1004' });
    expect(await h['tasks.list']({ profileId: P, appId: '1004' })).toHaveLength(MANY);

    await fault(env.sandbox, { method: 'POST', path_prefix: '/epsilon/push', mode: 'close_after' });
    const event = {
      title: 'Lost in the crowd',
      url: 'https://deals.suntrail.example/lost',
      performer: 'me@example.com',
      target: { include: { apps: ['1004'] } },
    };
    const d = await h['drafts.save']({ kind: 'push', profileId: P, accountId: 'suntrailtravel', payload: { mode: 'immediate', event } });
    const item = await h['drafts.submit']({ id: d.id });
    const settled = await until(
      async () =>
        (await h['outbox.list']({ profileId: P })).find(
          (i): i is OutboxItem => i.id === item.id && ['sent', 'failed', 'blocked'].includes(i.state),
        ),
      'the push to be decided',
      60_000,
    );
    expect(settled.state).toBe('sent');
    expect((await tasksOnService(env.sandbox, '1004')).filter((t) => t.title === 'Lost in the crowd')).toHaveLength(1);
  });
});
