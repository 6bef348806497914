// Variant early_hints: a 103 Early Hints before every answer of the campaign and push APIs (an
// interim answer, RFC 9110 15.2 and RFC 8297; a client passes over it to the final answer).
import { request as httpRequest } from 'node:http';
import { expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

function get(path: string): Promise<{ interim: number[]; status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const interim: number[] = [];
    const req = httpRequest(`${sb.url}${path}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ interim, status: res.statusCode ?? 0, body }));
    });
    req.on('information', (info) => interim.push(info.statusCode));
    req.on('error', reject);
    req.end();
  });
}

it('sends a 103 before the answer, which follows as it would', async () => {
  const before = await get('/epsilon/task?tagId=1001');
  expect(before.interim).toEqual([]);
  await call(sb, 'PUT', '/_sandbox/variants', { json: { early_hints: true } });
  const after = await get('/epsilon/task?tagId=1001');
  expect(after.interim).toEqual([103]);
  expect(after.status).toBe(200);
  expect(after.body).toBe(before.body);
});
