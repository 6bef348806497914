// Variant empty_as_object: an application without tasks lists `{}` (spec 4.6 note 2 does not show
// the wrapper, so an empty object is one legal way to say "no tasks").
import { expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

it('answers {} for an application without tasks, and the tasks of one that has them', async () => {
  expect((await call(sb, 'GET', '/epsilon/task?tagId=1002', { token })).body).toEqual([]);
  await call(sb, 'PUT', '/_sandbox/variants', { json: { empty_as_object: true } });
  expect((await call(sb, 'GET', '/epsilon/task?tagId=1002', { token })).body).toEqual({});
  expect((await call(sb, 'GET', '/epsilon/task?tagId=1002&taskType=scheduled', { token })).body).toEqual({});
  const some = await call(sb, 'GET', '/epsilon/task?tagId=1001', { token });
  expect(some.body).toEqual(expect.arrayContaining([expect.objectContaining({ taskId: 900001 })]));
});
